"""The entrant's private page: their entry, its status and fee, their seat and their results.

The link in every mail to the entrant opens it (``/<championship_slug>/entries/<token>/``).
It sits in results, above registration, because it shows both: the entry and its
details form are registration's, the results are read by ``selectors.entry_results``.
What the entrant does from it (withdraw, accept an offer, a note to the judge) is
``registration/views.py``.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from championship import cards
from championship.models import Seat
from registration import checkin, places, services, validation
from registration.forms import EntryForm, apply_service_errors, member_formset
from registration.models import AddressState, Entry
from registration.views import entry_by_token
from results import selectors


@never_cache
@require_http_methods(["GET", "POST"])
def entry_page(request, championship_slug, token):
    """Show an entrant their entry: status, fee, seat, results; correct details; withdraw."""
    entry = entry_by_token(request, championship_slug, token)
    category = entry.category
    members = list(entry.members.select_related("puzzler").order_by("memberships__position"))
    initial = [
        {
            "name": m.name,
            "email": m.email,
            "birth_date": m.birth_date,
            "city": m.city,
            "country": m.country,
            "citizenship": (m.citizenship or [""])[0],
            "region": m.region,
            "years_in_region": m.years_in_region,
            "publish_consent": m.publish_consent,
        }
        for m in members
    ]
    entry_initial = {"name": entry.name, "adult_name": entry.adult_name}
    editable = places.details_editable(entry)
    if request.method == "POST" and editable:
        entry_form = EntryForm(
            request.POST, category=category, initial=entry_initial, answers=entry.answers
        )
        formset = member_formset(category, request.POST, initial=initial)
        if entry_form.is_valid() and formset.is_valid():
            try:
                services.entry_update_details(
                    entry=entry,
                    members=formset.members(),
                    name=entry_form.cleaned_data.get("name", ""),
                    adult_name=entry_form.cleaned_data.get("adult_name", ""),
                    by=request.user if request.user.is_authenticated else None,
                    answers=entry_form.answers(),
                )
            except ValidationError as error:
                apply_service_errors(error, entry_form, formset)
            else:
                messages.success(request, _("Your details are saved."))
                return redirect(
                    "results:entry_page", championship_slug=championship_slug, token=token
                )
    else:
        entry_form = EntryForm(category=category, initial=entry_initial, answers=entry.answers)
        formset = member_formset(category, initial=initial)
    # Entrants see their table once the seating is published, and a result once it is
    # confirmed by the entrant (or decided: did not start, disqualified).
    seats = list(
        Seat.objects.filter(entry=entry, round__seating_published_at__isnull=False)
        .select_related("heat__round__category", "table")
        .order_by("round__order")
    )
    for seat in seats:
        seat.limit_seconds = seat.heat.round.effective_time_limit_minutes * 60
    results = selectors.entry_results(entry)
    live = any(seat.heat.state == "running" for seat in seats)
    if request.htmx:
        return render(
            request,
            "results/entry_page.html#live",
            {"seats": seats, "results": results, "live": live},
        )
    return render(
        request,
        "results/entry_page.html",
        {
            "entry": entry,
            "category": category,
            "championship": category.championship,
            "members": members,
            # A withdrawn entry has no results to join with others: nothing to confirm for.
            "awaiting_address": []
            if entry.status == Entry.Status.WITHDRAWN
            else [m for m in members if m.address_state == AddressState.AWAITING],
            "entry_form": entry_form,
            "formset": formset,
            "editable": editable,
            "editable_until": places.details_until(entry) if editable else None,
            "withdraw_closed": services.first_round_started(category),
            "seats": seats,
            "results": results,
            "live": live,
            "waiting_position": entry.waiting_position(),
            "checkin_qr": (
                cards.qr_svg(
                    checkin.checkin_url(entry, request=request),
                    label=_("Check-in code of %(name)s") % {"name": entry.name},
                )
                if entry.status == Entry.Status.CONFIRMED and entry.checked_in_at is None
                else ""
            ),
            "seating_pending": entry.status == Entry.Status.CONFIRMED
            and Seat.objects.filter(entry=entry, round__seating_published_at__isnull=True).exists(),
            "explained": validation.explain_officiality(
                category, [validation.member_data_of(m) for m in members]
            ),
        },
    )
