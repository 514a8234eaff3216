"""E-mails that tell entrants what concerns them: their seat, their next round, their result.

Each mail goes through the outbox (``championship.outbox``) in the transaction
of the change that causes it, to every member of the entry with an address,
each in their language (``registration.notifications.recipients``); an entry
without an address gets none. The championship turns each kind off on its own
(``mail_seating``, ``mail_advanced``, ``mail_results``). The organiser may also
write to every entrant of the championship, of a category or of a round
(``message_send``), once however often the form is submitted.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from championship import submissions
from championship.models import Championship, OutgoingMail, Round, Seat
from registration import notifications as entry_mail
from registration.models import Entry
from results.models import Result

Kind = OutgoingMail.Kind
SUBJECT_MAX = 150
BODY_MAX = 5000


def _when(moment, championship: Championship) -> str:
    """Return a moment as the entrant reads it: the championship's time, their language."""
    if moment is None:
        return ""
    local = timezone.localtime(moment, championship.tzinfo)
    return formats.date_format(local, "DATETIME_FORMAT")


def _queue(entry: Entry, kind: str, context: entry_mail.Context, base_url: str) -> bool:
    return entry_mail.queue_to_entry(
        entry, kind, templates="control/email", context=context, base_url=base_url
    )


def _seats(round_: Round):
    return (
        Seat.objects.filter(round=round_)
        .select_related("heat", "table", "entry__category__championship")
        .prefetch_related(entry_mail.members_prefetch("entry__"))
        .order_by("heat__order", "table__number", "position")
    )


def _seat_context(seat: Seat, championship: Championship, **more) -> entry_mail.Context:
    """Return a seat's part of a mail, made in each recipient's language (label, start)."""
    shared = seat.table.seats > 1

    def made(_recipient) -> dict:
        return {
            "round": seat.round,
            "heat": seat.heat.label,
            "table": seat.table.number,
            "letter": seat.position_letter if shared else "",
            "start": _when(seat.heat.scheduled_start, championship),
            **more,
        }

    return made


def seating_published(round_: Round) -> int:
    """Tell each entrant seated in ``round_`` their heat, table and time; return how many."""
    championship = round_.championship
    if not championship.mail_seating:
        return 0
    base_url = entry_mail.queued_base_url()
    sent = 0
    for seat in _seats(round_):
        seat.round = round_
        sent += _queue(seat.entry, Kind.SEATING, _seat_context(seat, championship), base_url)
    return sent


def advanced(from_round: Round, to_round: Round, entries=None) -> int:
    """Tell each entrant seated in ``to_round`` from ``from_round`` that they advanced.

    ``entries``: only these (a withdrawn qualifier's replacements), else everyone seated.
    """
    championship = to_round.championship
    if not championship.mail_advanced:
        return 0
    base_url = entry_mail.queued_base_url()
    sent = 0
    seats = _seats(to_round)
    if entries is not None:
        seats = seats.filter(entry__in=entries)
    for seat in seats:
        seat.round = to_round
        context = _seat_context(seat, championship, from_round=from_round)
        sent += _queue(seat.entry, Kind.ADVANCED, context, base_url)
    return sent


def results_official(round_: Round) -> int:
    """Tell each entrant of a signed-off round their place, official place and result."""
    championship = round_.championship
    if not championship.mail_results:
        return 0
    base_url = entry_mail.queued_base_url()
    link = base_url + reverse("results:round", args=[championship.slug, round_.key])
    sent = 0
    results = (
        Result.objects.filter(round=round_)
        .select_related("entry__category__championship")
        .prefetch_related(entry_mail.members_prefetch("entry__"))
    )
    for result in results:
        context = {
            "round": round_,
            "result": result,
            "penalty_seconds": result.penalty_ms // 1000,
            "results_url": link,
        }
        sent += _queue(result.entry, Kind.RESULTS, context, base_url)
    return sent


@dataclass(frozen=True)
class Audience:
    """Whom an organiser's message goes to: the championship, a category or a round."""

    championship: Championship
    category: str = ""
    round: str = ""

    def entries(self):
        entries = Entry.objects.filter(
            category__championship=self.championship, status=Entry.Status.CONFIRMED
        )
        if self.round:
            return entries.filter(seats__round__key=self.round).distinct()
        if self.category:
            return entries.filter(category__key=self.category)
        return entries


@transaction.atomic
def message_send(
    *, audience: Audience, subject: str, body: str, submission: str | None = None
) -> int:
    """Send the organiser's message to every confirmed entry of the audience; return how many.

    ``submission`` is the form's token: the same form submitted again queues
    nothing and raises ``submissions.SubmittedBefore``, which holds how many the
    first queued.
    """
    subject, body = subject.strip(), body.strip()
    errors = {}
    if not subject:
        errors["subject"] = [_("Write a subject.")]
    elif len(subject) > SUBJECT_MAX:
        errors["subject"] = [_("At most %(max)s characters.") % {"max": SUBJECT_MAX}]
    if not body:
        errors["body"] = [_("Write the message.")]
    elif len(body) > BODY_MAX:
        errors["body"] = [_("At most %(max)s characters.") % {"max": BODY_MAX}]
    championship = audience.championship
    if audience.category and not championship.categories.filter(key=audience.category).exists():
        errors["audience"] = [_("Choose one of this championship's categories.")]
    if audience.round and not championship.rounds.filter(key=audience.round).exists():
        errors["audience"] = [_("Choose one of this championship's rounds.")]
    if errors:
        raise ValidationError(errors)
    claim = None
    if submission is not None:
        claim = submissions.submission_claim(
            championship=championship, token=submission, action=submissions.Action.MESSAGE
        )
    base_url = entry_mail.queued_base_url()
    sent = 0
    entries = (
        audience.entries()
        .select_related("category__championship")
        .prefetch_related(entry_mail.members_prefetch())
    )
    for entry in entries:
        sent += _queue(entry, Kind.MESSAGE, {"subject": subject, "body": body}, base_url)
    if claim is not None:
        claim.count = sent
        claim.save(update_fields=["count"])
    return sent
