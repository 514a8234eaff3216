"""Diplomas of a round: a printable PDF, a page per placed entry, once the results are official."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from championship.permissions import organiser_required
from control.views.common import round_or_404
from results.diplomas import SIZES, diploma_results, diplomas_pdf, pdf_response, verification_url


@never_cache
@require_GET
@organiser_required
def round_diplomas(request, championship, round_key):
    """Download the round's diplomas: every placed entry in standing order, in one PDF.

    ``?podium=1``: places 1 to 3 only (ties included); ``?size=a5``: A5 (else A4).
    The diplomas are in the championship's language, whatever the organiser's.
    """
    round_ = round_or_404(championship, round_key)
    back = redirect(
        "manage:round_control", championship_slug=championship.slug, round_key=round_.key
    )
    if not round_.is_official:
        messages.error(request, _("Diplomas are printed once the round's results are official."))
        return back
    podium = request.GET.get("podium") == "1"
    size = request.GET.get("size", "a4")
    if size not in SIZES:
        size = "a4"
    results = diploma_results(round_, podium=podium)
    if not results:
        messages.error(request, _("No entry has a place in this round: there are no diplomas."))
        return back
    pdf = diplomas_pdf(results, size=size, url_for=partial(verification_url, request=request))
    name = f"{championship.slug}-{round_.key}-diplomas"
    if podium:
        name += "-podium"
    if size != "a4":
        name += f"-{size}"
    return pdf_response(pdf, f"{name}.pdf")
