"""A result's public page, which a diploma's QR code opens, and the entrant's own diploma.

The public page says whether the round's results are official (signed off,
perhaps corrected since) or still provisional, and names the entrant only with
their consent, as the results lists do. The diploma is the entrant's: their
private link (the entry's ``manage_token``) fetches it once the round is official.
"""

from __future__ import annotations

from functools import partial

from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from championship.middleware import activate, finds_own_championship
from championship.models import Round
from registration.models import Person, entry_for_manage_token
from results import selectors
from results.diplomas import (
    SIZES,
    diplomas_pdf,
    has_diploma,
    pdf_response,
    verification_url,
)
from results.models import Result
from results.services import standings_ensure


def _result(round_: Round, **lookup) -> Result | None:
    """Return the result of ``round_`` that ``lookup`` names, its places up to date."""
    standings_ensure(round_)
    return (
        Result.objects.filter(round=round_, **lookup)
        .select_related("entry", "heat")
        .prefetch_related(
            Prefetch("entry__members", queryset=Person.objects.order_by("memberships__position"))
        )
        .first()
    )


@finds_own_championship
@require_GET
def result_detail(request, championship_slug, round_key, entry_ref):
    """Show one entry's result in a round, and whether it is official: what a diploma's QR opens."""
    round_ = selectors.round_for_request(championship_slug, round_key)
    if round_ is None:
        raise Http404(_("There is no such round."))
    category = round_.category
    championship = category.championship
    activate(request, championship)
    # An id is at most 40 characters and never holds a NUL: anything else names no entry.
    valid = len(entry_ref) <= 40 and "\x00" not in entry_ref
    result = _result(round_, entry__ref=entry_ref) if valid else None
    if result is None:
        raise Http404(_("This entry has no result in this round."))
    result.round = round_
    entry = result.entry
    published = entry.name_published()
    return render(
        request,
        "results/result_detail.html",
        {
            "championship": championship,
            "category": category,
            "round": round_,
            "result": result,
            # Names only with consent, as on the results lists.
            "name": entry.name if published else "",
            "members": [member.name for member in entry.consenting_members()],
            "pace": selectors.pieces_per_minute(category.pieces, result),
            "penalty_seconds": result.penalty_ms // 1000,
            "show_official": not result.official or result.official_place != result.place,
            "official": round_.is_official,
            "provisional": round_.state == Round.State.CLOSED,
            "puzzle_revealed": category.puzzle_is_revealed(),
            "day": selectors.round_date(round_),
        },
    )


@never_cache
@require_GET
def entry_diploma(request, championship_slug, token, round_key):
    """Download an entrant's diploma of a round, through their private link: once official."""
    entry = entry_for_manage_token(token, championship_slug=championship_slug)
    if entry is None:
        raise Http404(_("This link does not lead to an entry. Check the link in your e-mail."))
    round_ = (
        Round.objects.select_related("category__championship")
        .filter(category=entry.category, key=round_key)
        .first()
    )
    result = _result(round_, entry=entry) if round_ is not None else None
    if result is not None:
        result.round = round_
    if result is None or not has_diploma(result):
        # Only once the round's results are official, and only for a result with a place.
        raise Http404(_("This entry has no diploma for this round."))
    size = request.GET.get("size", "a4")
    pdf = diplomas_pdf(
        [result],
        size=size if size in SIZES else "a4",
        url_for=partial(verification_url, request=request),
    )
    return pdf_response(pdf, f"{championship_slug}-{round_key}-diploma.pdf")
