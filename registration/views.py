"""The championship's page, public registration, the officiality check as the form is filled,
and the entrant's private page."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from championship import cards
from championship import selectors as championship_selectors
from championship.models import Category, Seat
from championship.permissions import get_championship
from registration import checkin, deadlines, notifications, places, services, validation
from registration.forms import EntryForm, member_formset
from registration.models import AddressState, Entry, entry_for_manage_token
from registration.public import public_entry_lists
from registration.signals import entry_page_results


@require_GET
def championship_page(request, championship_slug):
    """Show a championship: categories with their registration dates, schedule and entry lists."""
    championship = get_championship(request, championship_slug)
    return render(
        request,
        "championship/detail.html",
        {
            "categories": public_entry_lists(championship),
            "rounds": championship_selectors.rounds_with_heats(championship),
            "rules": championship.rules,
            "deadline": championship.effective_registration_deadline(),
        },
    )


def _category(request, championship_slug, category_key):
    championship = get_championship(request, championship_slug)
    return get_object_or_404(
        Category.objects.select_related("championship"), championship=championship, key=category_key
    )


def _apply_errors(error: ValidationError, entry_form, formset) -> None:
    """Put a service's field errors (``members.N.field``) on the forms they belong to."""
    for key, messages_ in error.message_dict.items():
        for message in messages_:
            if key.startswith("members."):
                _members, index, field = key.split(".")
                form = formset.forms[int(index)]
                form.add_error(field if field in form.fields else None, message)
            elif key == "members":
                formset._non_form_errors.append(message)
            elif key.startswith("answers.") and f"q_{key[8:]}" in entry_form.fields:
                entry_form.add_error(f"q_{key[8:]}", message)
            elif key in entry_form.fields:
                entry_form.add_error(key, message)
            else:
                entry_form.add_error(None, message)


def _context(category, entry_form, formset, explained=None):
    confirmed = places.held_places(category)
    return {
        "category": category,
        "championship": category.championship,
        "rules": category.championship.rules,
        "entry_form": entry_form,
        "formset": formset,
        "explained": explained,
        "state": places.registration_state(category, confirmed=confirmed),
        "deadline": category.championship.effective_registration_deadline(),
        "places_left": None if category.capacity is None else max(category.capacity - confirmed, 0),
    }


@require_http_methods(["GET", "POST"])
def register(request, championship_slug, category_key):
    """Register an entry in a category."""
    category = _category(request, championship_slug, category_key)
    if request.method == "POST":
        entry_form = EntryForm(request.POST, category=category)
        formset = member_formset(category, request.POST)
        if entry_form.is_valid() and formset.is_valid():
            try:
                entry = services.entry_register(
                    category=category,
                    members=formset.members(),
                    name=entry_form.cleaned_data.get("name", ""),
                    adult_name=entry_form.cleaned_data.get("adult_name", ""),
                    language=get_language(),
                    answers=entry_form.answers(),
                )
            except ValidationError as error:
                _apply_errors(error, entry_form, formset)
            else:
                if entry.status == Entry.Status.CONFIRMED:
                    messages.success(
                        request,
                        _(
                            "Your entry is confirmed. "
                            "An e-mail with your private link is on its way."
                        ),
                    )
                else:
                    messages.info(
                        request,
                        _(
                            "The category is full: your entry is on the waiting list. "
                            "We will e-mail you as soon as a place is free."
                        ),
                    )
                return redirect(
                    "registration:manage",
                    championship_slug=category.championship.slug,
                    token=entry.manage_token,
                )
    else:
        entry_form = EntryForm(category=category)
        formset = member_formset(category)
    return render(request, "registration/register.html", _context(category, entry_form, formset))


@require_POST
def check(request, championship_slug, category_key):
    """Tell, as the form is filled, what submitting it would answer (HTMX).

    The submit's own validation runs first: an entry it would refuse (a member
    under the minimum age, no accompanying adult, a member already registered)
    is told so, never "will be official". Otherwise the box says whether the
    entry will be official, and why.
    """
    category = _category(request, championship_slug, category_key)
    formset = member_formset(category, request.POST)
    members = []
    for form in formset.forms:
        # A half-filled form is still worth a verdict: use whatever fields are valid so far.
        form.is_valid()
        if form.cleaned_data.get("name"):
            members.append(form.member_data())
    verdict = None
    if members:
        verdict = validation.registration_verdict(
            category=category,
            members=members,
            adult_name=request.POST.get("adult_name", "")[:200],
        )
    return render(
        request,
        "registration/register.html#officiality",
        {
            "explained": verdict.officiality if verdict else None,
            "refusals": verdict.refusals if verdict else (),
            "category": category,
        },
    )


def _entry_by_token(request, championship_slug, token) -> Entry:
    entry = entry_for_manage_token(token, championship_slug=championship_slug)
    if entry is None:
        raise Http404(_("This link does not lead to an entry. Check the link in your e-mail."))
    return entry


@never_cache
@require_http_methods(["GET", "POST"])
def manage(request, championship_slug, token):
    """Show an entrant their entry: status, fee, seat, results; correct details; withdraw."""
    entry = _entry_by_token(request, championship_slug, token)
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
                _apply_errors(error, entry_form, formset)
            else:
                messages.success(request, _("Your details are saved."))
                return redirect(
                    "registration:manage", championship_slug=championship_slug, token=token
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
    results = [
        result
        for _receiver, answer in entry_page_results.send(sender=Entry, entry=entry)
        for result in answer
    ]
    live = any(seat.heat.state == "running" for seat in seats)
    if request.htmx:
        return render(
            request,
            "registration/manage.html#live",
            {"seats": seats, "results": results, "live": live},
        )
    return render(
        request,
        "registration/manage.html",
        {
            "entry": entry,
            "category": category,
            "championship": category.championship,
            "members": members,
            "awaiting_address": [m for m in members if m.address_state == AddressState.AWAITING],
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


@never_cache
@require_POST
def judge_note(request, championship_slug, token):
    """Set the entrant's own note for the judges at their table."""
    entry = _entry_by_token(request, championship_slug, token)
    if entry.status == Entry.Status.WITHDRAWN:
        messages.error(request, _("This entry was already withdrawn."))
    else:
        try:
            services.entry_set_judge_note(entry=entry, note=request.POST.get("judge_note", ""))
        except ValidationError as refused:
            messages.error(request, " ".join(refused.messages))
        else:
            messages.success(request, _("Your note for the judges is saved."))
    return redirect("registration:manage", championship_slug=championship_slug, token=token)


@never_cache
@require_POST
def send_address_link(request, championship_slug, token, person):
    """Send a member of the entry the link that confirms their address (the private page)."""
    entry = _entry_by_token(request, championship_slug, token)
    member = get_object_or_404(entry.members.select_related("puzzler", "championship"), pk=person)
    if member.address_confirmed or not member.email.strip():
        messages.info(request, _("There is no e-mail address to confirm."))
    elif notifications.address_link_sent_recently(member):
        messages.info(
            request,
            _("A link went to %(email)s a few minutes ago: look for it there, also among spam.")
            % {"email": member.email},
        )
    else:
        notifications.queue_address_link(member)
        messages.success(
            request, _("The link is on its way to %(email)s.") % {"email": member.email}
        )
    return redirect("registration:manage", championship_slug=championship_slug, token=token)


@never_cache
@require_POST
def accept(request, championship_slug, token):
    """Accept the place offered to the entry, before the offer lapses."""
    entry = _entry_by_token(request, championship_slug, token)
    try:
        deadlines.offer_accept(entry=entry)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, _("The place is yours: your entry is confirmed."))
    return redirect("registration:manage", championship_slug=championship_slug, token=token)


@never_cache
@require_POST
def withdraw(request, championship_slug, token):
    """Withdraw an entry, after the entrant confirmed it, until the first round starts."""
    entry = _entry_by_token(request, championship_slug, token)
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm that you want to withdraw."))
    elif entry.status == Entry.Status.WITHDRAWN:
        messages.info(request, _("This entry was already withdrawn."))
    else:
        try:
            services.entry_withdraw(entry=entry, by_entrant=True)
        except ValidationError as refused:
            messages.error(request, " ".join(refused.messages))
        else:
            messages.success(
                request, _("Your entry is withdrawn. An e-mail confirming it is on its way.")
            )
    return redirect("registration:manage", championship_slug=championship_slug, token=token)
