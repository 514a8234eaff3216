"""The championship's page, public registration, the officiality check as the form is filled,
and what the entrant does with their private link (withdraw, accept an offer, a note to the
judge, an address link). The private page itself shows results too: it is
``results/entry_page.py``, above both apps."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from championship import selectors as championship_selectors
from championship.models import Category
from championship.permissions import get_championship
from core import actions
from registration import deadlines, notifications, paycodes, payment, places, services, validation
from registration.forms import EntryForm, RepresentsForm, apply_service_errors, member_formset
from registration.models import Entry, entry_for_manage_token
from registration.public import public_entry_lists
from registration.represents import entry_set_represents


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
                    represents=entry_form.cleaned_data.get("represents", ""),
                )
            except ValidationError as error:
                apply_service_errors(error, entry_form, formset)
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
                    "results:entry_page",
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


def entry_by_token(request, championship_slug, token) -> Entry:
    entry = entry_for_manage_token(token, championship_slug=championship_slug)
    if entry is None:
        raise Http404(_("This link does not lead to an entry. Check the link in your e-mail."))
    return entry


@never_cache
@require_GET
def payment_code(request, championship_slug, token):
    """The QR code that pays the entry's fee (Swish, EPC), while it is due."""
    entry = entry_by_token(request, championship_slug, token)
    code = payment.pay_code(entry)
    if code is None:
        raise Http404(_("This entry has nothing to pay with a code."))
    return HttpResponse(paycodes.png(code), content_type="image/png")


@never_cache
@require_POST
def judge_note(request, championship_slug, token):
    """Set the entrant's own note for the judges at their table."""
    entry = entry_by_token(request, championship_slug, token)
    if entry.status == Entry.Status.WITHDRAWN:
        messages.error(request, _("This entry was already withdrawn."))
    else:

        def action():
            services.entry_set_judge_note(entry=entry, note=request.POST.get("judge_note", ""))
            return _("Your note for the judges is saved.")

        actions.run(request, action)
    return redirect("results:entry_page", championship_slug=championship_slug, token=token)


@never_cache
@require_POST
def send_address_link(request, championship_slug, token, person):
    """Send a member of the entry the link that confirms their address (the private page)."""
    entry = entry_by_token(request, championship_slug, token)
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
    return redirect("results:entry_page", championship_slug=championship_slug, token=token)


@never_cache
@require_POST
def accept(request, championship_slug, token):
    """Accept the place offered to the entry, before the offer lapses."""
    entry = entry_by_token(request, championship_slug, token)

    def action():
        deadlines.offer_accept(entry=entry)
        return _("The place is yours: your entry is confirmed.")

    actions.run(request, action)
    return redirect("results:entry_page", championship_slug=championship_slug, token=token)


@never_cache
@require_POST
def withdraw(request, championship_slug, token):
    """Withdraw an entry, after the entrant confirmed it, until the first round starts."""
    entry = entry_by_token(request, championship_slug, token)
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm that you want to withdraw."))
    elif entry.status == Entry.Status.WITHDRAWN:
        messages.info(request, _("This entry was already withdrawn."))
    else:

        def action():
            services.entry_withdraw(entry=entry, by_entrant=True)
            return _("Your entry is withdrawn. An e-mail confirming it is on its way.")

        actions.run(request, action)
    return redirect("results:entry_page", championship_slug=championship_slug, token=token)


@never_cache
@require_POST
def represents(request, championship_slug, token):
    """Change the country the entry represents, until the championship starts."""
    entry = entry_by_token(request, championship_slug, token)
    category = entry.category
    form = RepresentsForm(request.POST, category=category)
    if not category.championship.rules.entries_represent_country:
        messages.error(request, _("The entries of this championship represent no country."))
    elif entry.status == Entry.Status.WITHDRAWN:
        messages.error(request, _("This entry was already withdrawn."))
    elif not form.is_valid():
        messages.error(request, actions.refusal_text(actions.form_refusal(form)))
    else:

        def action():
            entry_set_represents(entry=entry, value=form.cleaned_data["represents"])
            return _("The country your entry represents is saved.")

        actions.run(request, action)
    return redirect("results:entry_page", championship_slug=championship_slug, token=token)
