"""The organiser's control room of a championship: its categories, rounds, tables, staff and
the venue screen."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from championship import drafts, submissions
from championship import selectors as championship_selectors
from championship.permissions import organiser_required
from control import notifications, screen
from control.forms import MessageForm, ScreenForm
from core import actions
from registration import places


def _context(championship, screen_form=None, message_form=None) -> dict:
    return {
        "message_form": message_form or MessageForm(championship=championship),
        "categories": places.categories_with_counts(championship),
        "rounds": championship_selectors.rounds_with_heats(championship).select_related("into"),
        "table_count": championship.tables.count(),
        "roles": championship.roles.select_related("user").order_by("role", "user__username"),
        "screen_form": screen_form or ScreenForm(championship=championship),
        "checklist": drafts.checklist(championship) if championship.draft else None,
    }


@require_GET
@organiser_required
def control_room(request, championship):
    """Show the organiser's control room of a championship."""
    return render(request, "control/control_room.html", _context(championship))


@require_POST
@organiser_required
def open_registration(request, championship):
    """Publish a draft and open its registration, or say what its checklist still lacks."""

    def action():
        drafts.championship_open(championship=championship)
        if championship.is_public:
            return _("Registration is open, and the championship is listed on the home page.")
        return _("Registration is open. The championship is not listed: share its address.")

    actions.run(request, action)
    return redirect("manage:control_room", championship_slug=championship.slug)


@require_POST
@organiser_required
def switch_screen(request, championship):
    """Switch what the venue screen shows; it follows within seconds."""
    form = ScreenForm(request.POST, championship=championship)
    if form.is_valid():
        data = form.cleaned_data

        def action():
            screen.screen_set(
                championship=championship,
                show=data["show"],
                round_key=form.chosen_round(),
                category_key=data["category"],
                text=data["text"],
            )
            return _("The venue screen follows within a few seconds.")

        if actions.run(request, action, form=form):
            return redirect("manage:control_room", championship_slug=championship.slug)
    messages.error(request, _("The venue screen is not switched: see the form."))
    return render(request, "control/control_room.html", _context(championship, form))


@require_POST
@organiser_required
def message(request, championship):
    """Send the organiser's message to the entrants of the championship, a category or a round.

    Once: the same form submitted again answers as the first did, and queues nothing.
    """
    form = MessageForm(request.POST, championship=championship)
    if form.is_valid():
        data = form.cleaned_data
        kind, _sep, key = data["audience"].partition(":")
        audience = notifications.Audience(
            championship=championship,
            category=key if kind == "category" else "",
            round=key if kind == "round" else "",
        )

        def action():
            try:
                count = notifications.message_send(
                    audience=audience,
                    subject=data["subject"],
                    body=data["body"],
                    submission=data["submission"],
                )
            except submissions.SubmittedBefore as before:
                # The same form again: answered as the first was, nothing queued anew.
                count = before.submission.count
                return ngettext(
                    "The message is already sent: it is on its way to %(count)s entrant.",
                    "The message is already sent: it is on its way to %(count)s entrants.",
                    count,
                ) % {"count": count}
            return ngettext(
                "The message is on its way to %(count)s entrant.",
                "The message is on its way to %(count)s entrants.",
                count,
            ) % {"count": count}

        if actions.run(request, action, form=form):
            return redirect("manage:control_room", championship_slug=championship.slug)
    messages.error(request, _("The message is not sent: see the form."))
    return render(request, "control/control_room.html", _context(championship, message_form=form))
