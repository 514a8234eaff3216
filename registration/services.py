"""Register, withdraw and promote entries: capacity, waiting list, eligibility and ages.

Every function owns its transaction. Capacity is guarded by a row lock on the
category (``SELECT … FOR UPDATE``), taken just before the count, so that a rush
of sign-ups for the last places never confirms more entries than there are
places, and the places go in arrival order.

What a registration must satisfy is checked by ``registration.validation``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from championship.models import Category
from core import jsonbounds
from registration import notifications, questions, signals
from registration.models import Entry, EntryMember, Person, email_key
from registration.payment import give_reference
from registration.represents import chosen as represents_of
from registration.validation import (
    MemberData,
    duplicate_entry_errors,
    member_errors,
    officiality_errors,
    officiality_inputs,
    validate_registration,
)


def _lock_category(category: Category) -> Category:
    """Lock the category's row: the guard of its capacity and of the arrival order."""
    return Category.objects.select_for_update().get(pk=category.pk)


def _after_capacity_check() -> None:
    """Do nothing; the concurrency test widens the race window here."""


def checked_answers(
    category: Category, answers: dict | None, *, required: bool = True, asked=None
) -> dict:
    """Return the answers to the category's questions, checked (errors as ``answers.<id>``).

    ``asked``: the category's questions, read before (``questions.questions_for``).
    """
    if asked is None:
        asked = questions.questions_for(category)
    try:
        return questions.clean_answers(asked, answers, required=required)
    except ValidationError as error:
        raise ValidationError(
            {f"answers.{ref}": messages for ref, messages in error.message_dict.items()}
        ) from None


def entry_register(
    *,
    category: Category,
    members: list[MemberData],
    name: str = "",
    publish_consent: bool = False,
    adult_name: str = "",
    language: str = "en",
    now: datetime | None = None,
    enforce_deadline: bool = True,
    send_mail: bool = True,
    answers: dict | None = None,
    represents: str = "",
) -> Entry:
    """Register an entry: confirmed while there are places, then on the waiting list.

    Raise ``ValidationError`` with field errors, saving nothing, when the rules
    or the deadline do not allow it. The confirmation e-mail is sent once the
    transaction has committed (unless ``send_mail`` is off, as for an import).

    Each member consents to publication or not (``MemberData.publish_consent``,
    else ``publish_consent`` for all); the entry as a whole (its name) only when
    every member does. ``represents``: the country it represents (see
    ``registration.represents``; empty: the rule's default where the
    championship's entries represent one).
    """
    consents = [member.consents(publish_consent) for member in members]
    # An organiser's import (no deadline) may leave a required question unanswered.
    answers = checked_answers(category, answers, required=enforce_deadline)
    validate_registration(
        category=category,
        members=members,
        adult_name=adult_name,
        now=now,
        enforce_deadline=enforce_deadline,
    )
    country = represents_of(category, members, represents)
    championship = category.championship
    with transaction.atomic():
        locked = _lock_category(category)
        # Checked again under the lock: a concurrent registration may have taken the person.
        duplicates = duplicate_entry_errors(locked, members)
        if duplicates:
            raise ValidationError(duplicates)
        confirmed = locked.entries.filter(status__in=Entry.HOLDING_PLACE).count()
        has_place = locked.capacity is None or confirmed < locked.capacity
        _after_capacity_check()
        arrived = timezone.now()
        entry = Entry.objects.create(
            category=locked,
            name=(name.strip() or " & ".join(m.name.strip() for m in members))[:200],
            status=Entry.Status.CONFIRMED if has_place else Entry.Status.WAITLISTED,
            registered_at=arrived,
            confirmed_at=arrived if has_place else None,
            fee=locked.fee,
            publish_consent=all(consents),
            adult_name=adult_name.strip(),
            contact_email=members[0].email.strip(),
            language=language,
            answers=answers,
            represents=country,
        )
        changed = ["payment_reference"] if give_reference(entry, championship) else []
        if has_place:
            entry.payment_due_at = payment_due(entry, arrived)
            changed.append("payment_due_at")
        if changed:
            entry.save(update_fields=changed)
        for position, (member, consent) in enumerate(zip(members, consents, strict=True), 1):
            person = person_of(member, championship=championship, consent=consent)
            person.save()
            EntryMember.objects.create(entry=entry, person=person, position=position)
        if send_mail:
            notifications.queue_registered(entry.pk)
    return entry


def person_of(member: MemberData, *, championship, consent: bool, **extra) -> Person:
    """Return the person a registration's member becomes (unsaved), their details tidied."""
    return Person(
        championship=championship,
        name=member.name.strip(),
        email=member.email.strip(),
        birth_date=member.birth_date,
        city=member.city.strip(),
        country=member.country.strip().upper(),
        citizenship=[code.upper() for code in member.citizenship],
        region=member.region.strip(),
        years_in_region=member.years_in_region,
        publish_consent=consent,
        **extra,
    )


def payment_due(entry: Entry, placed_at: datetime) -> datetime | None:
    """Return until when an entry that got its place at ``placed_at`` must pay, or ``None``.

    Only where the championship sets a limit (``payment_hours``) and the entry
    owes a fee; never beyond the championship's start.
    """
    championship = entry.category.championship
    if championship.payment_hours is None or not entry.fee:
        return None
    if entry.payment_status != Entry.Payment.UNPAID:
        return None
    return min(placed_at + timedelta(hours=championship.payment_hours), championship.starts_at)


def confirm(entry: Entry, now: datetime) -> None:
    """Give ``entry`` its place: confirmed now, with its payment deadline (saved)."""
    entry.status = Entry.Status.CONFIRMED
    entry.confirmed_at = now
    entry.offer_expires_at = None
    entry.payment_due_at = payment_due(entry, now)
    entry.save(
        update_fields=[
            "status",
            "confirmed_at",
            "offer_expires_at",
            "payment_due_at",
            "updated_at",
        ]
    )


def offer_deadline(category: Category, now: datetime) -> datetime | None:
    """Return until when a place offered now may be accepted, or ``None`` to give it at once.

    ``offer_hours`` after now, never beyond the start: close to the event, an offer is
    shorter. Without offers (0 hours), or once the championship has started, the
    place is given at once.
    """
    championship = category.championship
    if not championship.offer_hours or now >= championship.starts_at:
        return None
    return min(now + timedelta(hours=championship.offer_hours), championship.starts_at)


def _promote_waiting(category: Category) -> list[Entry]:
    """Give the free places to the waiting list, first come first served.

    With offers (``Championship.offer_hours``) each place is offered and the entry
    told by e-mail; it holds the place until it accepts or the offer lapses
    (``registration.deadlines``). Without, the entry is confirmed and told.
    """
    held = category.entries.filter(status__in=Entry.HOLDING_PLACE).count()
    free = None if category.capacity is None else category.capacity - held
    waiting = category.entries.filter(status=Entry.Status.WAITLISTED).order_by(
        "registered_at", "id"
    )
    if free is not None:
        waiting = waiting[: max(free, 0)]
    promoted = list(waiting)
    now = timezone.now()
    expires = offer_deadline(category, now)
    for entry in promoted:
        if expires is None:
            confirm(entry, now)
            notifications.queue_promoted(entry.pk)
        else:
            entry.status = Entry.Status.OFFERED
            entry.offer_expires_at = expires
            entry.save(update_fields=["status", "offer_expires_at", "updated_at"])
            notifications.queue_offered(entry.pk)
    return promoted


def first_round_started(category: Category) -> bool:
    """Return whether a heat of the category's first round has started.

    From then on an entrant cannot withdraw through the private link: only the
    organiser can withdraw an entry.
    """
    first = category.rounds.order_by("order", "pk").first()
    return first is not None and first.heats.filter(started_at__isnull=False).exists()


@transaction.atomic
def entry_withdraw(
    *, entry: Entry, by_entrant: bool = False, lapsed: str = Entry.Lapse.NONE
) -> list[Entry]:
    """Withdraw an entry; a freed place goes to the first entry on the waiting list.

    With ``by_entrant`` (the private link) the withdrawal is refused with a
    ``ValidationError`` once the category's first round has started. A withdrawn
    entry is never ranked: the rounds it has a result in are ranked again
    (``signals.entry_withdrawn``). Return the entries promoted from the waiting
    list (told by e-mail). ``lapsed`` says why an entry is withdrawn by a deadline
    (an offer not accepted, a fee not paid); the entrant is told why.
    """
    category = _lock_category(entry.category)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        return []
    if by_entrant and first_round_started(category):
        raise ValidationError(
            _(
                "The first round has started: the entry can no longer be withdrawn here. "
                "Ask the organiser."
            ),
            code="round_started",
        )
    held_place = entry.status in Entry.HOLDING_PLACE
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_at = timezone.now()
    entry.offer_expires_at = None
    entry.lapsed = lapsed
    entry.save(update_fields=["status", "withdrawn_at", "offer_expires_at", "lapsed", "updated_at"])
    signals.entry_withdrawn.send(sender=Entry, entries=[entry])
    if lapsed == Entry.Lapse.OFFER:
        notifications.queue_offer_lapsed(entry.pk)
    elif lapsed == Entry.Lapse.UNPAID:
        notifications.queue_payment_lapsed(entry.pk)
    else:
        notifications.queue_withdrawn(entry.pk)
    return _promote_waiting(category) if held_place else []


def entry_status_changed(*, entry: Entry, before: str | None) -> None:
    """Re-rank the entry's rounds if its status was set by hand into or out of withdrawn.

    A withdrawn entry is never ranked. ``entry_withdraw`` withdraws an entry with
    everything that goes with it; an organiser who sets the status by hand, or
    takes a withdrawal back, changes the ranking all the same: every round the
    entry has a result in is ranked again (``signals.entry_withdrawn``), inside the
    change's transaction.
    """
    withdrawn = Entry.Status.WITHDRAWN
    if (before == withdrawn) != (entry.status == withdrawn):
        signals.entry_withdrawn.send(sender=Entry, entries=[entry])


@transaction.atomic
def category_set_capacity(*, category: Category, capacity: int | None) -> list[Entry]:
    """Change a category's capacity; confirmed entries keep their place.

    A larger capacity gives the new places to waitlisted entries in arrival order
    (offered, or confirmed where the championship makes no offers); return them.
    """
    if capacity is not None and capacity < 0:
        raise ValidationError({"capacity": [_("The capacity cannot be negative.")]})
    locked = _lock_category(category)
    locked.capacity = capacity
    locked.save(update_fields=["capacity"])
    category.capacity = capacity
    return _promote_waiting(locked)


@transaction.atomic
def entry_promote(*, entry: Entry) -> Entry:
    """Confirm a waitlisted entry by the organiser's decision, even beyond the capacity."""
    _lock_category(entry.category)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status not in (Entry.Status.WAITLISTED, Entry.Status.OFFERED):
        raise ValidationError(_("Only an entry on the waiting list can be promoted."))
    confirm(entry, timezone.now())
    notifications.queue_promoted(entry.pk)
    return entry


@transaction.atomic
def entry_update_details(
    *,
    entry: Entry,
    members: list[MemberData],
    name: str = "",
    adult_name: str = "",
    publish_consent: bool = False,
    by=None,
    answers: dict | None = None,
) -> Entry:
    """Correct an entry's details and its members'; the same rules as at registration.

    The entry keeps its status and its place in the queue. When a member's
    residence or citizenship changes, or a member comes or goes, or a name or a
    consent to publication that result lists show, the entries concerned are
    re-ranked wherever they have a result (``members_changed``).
    Consent to publication is per member, as at registration.
    """
    consents = [member.consents(publish_consent) for member in members]
    category = entry.category
    if answers is not None:
        answers = checked_answers(category, answers)
    errors = member_errors(category, members, adult_name)
    for extra in (
        duplicate_entry_errors(category, members, exclude=entry),
        officiality_errors(category, members),
    ):
        for key, messages in extra.items():
            errors.setdefault(key, []).extend(messages)
    if errors:
        raise ValidationError(errors)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    memberships = list(entry.memberships.select_related("person").order_by("position"))
    changed = {entry.pk} if len(members) != len(memberships) else set()
    # A name made of the members' names (the default) follows a change of members.
    if name.strip() == " & ".join(m.person.name for m in memberships):
        name = ""
    for position, (member, consent) in enumerate(zip(members, consents, strict=True), 1):
        values = {
            "name": member.name.strip(),
            "email": member.email.strip(),
            "birth_date": member.birth_date,
            "city": member.city.strip(),
            "country": member.country.strip().upper(),
            "citizenship": [code.upper() for code in member.citizenship],
            "region": member.region.strip(),
            "years_in_region": member.years_in_region,
            "publish_consent": consent,
        }
        if position <= len(memberships):
            person = memberships[position - 1].person
            before = _ranked_or_shown(person)
            address = email_key(person.email)
            for attribute, value in values.items():
                setattr(person, attribute, value)
            person.save()
            if _ranked_or_shown(person) != before:
                changed.update(person.memberships.values_list("entry_id", flat=True))
            if email_key(person.email) != address:
                # A new address is the person's only once confirmed (``registration.addresses``).
                notifications.queue_address_link(person)
        else:
            person = Person.objects.create(championship=category.championship, **values)
            EntryMember.objects.create(entry=entry, person=person, position=position)
            notifications.queue_address_link(person)
    for membership in memberships[len(members) :]:
        person = membership.person
        membership.delete()
        if not person.memberships.exists():
            person.delete()
    shown = (entry.name, entry.publish_consent)
    entry.name = (name.strip() or " & ".join(m.name.strip() for m in members))[:200]
    entry.adult_name = adult_name.strip()
    entry.publish_consent = all(consents)
    if (entry.name, entry.publish_consent) != shown:
        changed.add(entry.pk)
    entry.contact_email = members[0].email.strip()
    if answers is not None:
        entry.answers = answers
    entry.save()
    _members_changed(Entry.objects.filter(pk__in=changed), by=by)
    return entry


def _ranked_or_shown(person: Person) -> tuple:
    """Return what of a person the results rank by or show.

    Officiality; the name, the consent to publication and the puzzler's page
    (which follows a confirmed e-mail address) that result lists show.
    """
    return (officiality_inputs(person), person.name, person.publish_consent, person.puzzler_id)


def _members_changed(entries, *, by=None) -> None:
    """Tell the apps built on registration that ``entries``' members changed (they re-rank)."""
    entries = list(entries)
    if entries:
        signals.members_changed.send(sender=Entry, entries=entries, by=by)


PERSON_FIELDS = frozenset(
    field.name for field in Person._meta.concrete_fields if field.editable and not field.primary_key
)


@transaction.atomic
def person_update(*, person: Person, by=None, **changes) -> Person:
    """Correct a person's details, e.g. an organiser's correction of a residence or citizenship.

    ``changes`` are the person's fields and their new values; values already set
    on ``person`` are saved as well. When what decides the person's officiality
    changed, or what result lists show of the person (name, consent to
    publication), every entry of the person is re-ranked wherever it has a result.
    """
    unknown = set(changes) - PERSON_FIELDS
    if unknown:
        raise TypeError(f"not fields of a person: {', '.join(sorted(unknown))}")
    stored = Person.objects.select_for_update().get(pk=person.pk)
    for name, value in changes.items():
        setattr(person, name, value)
    person.save()
    if email_key(person.email) != email_key(stored.email):
        notifications.queue_address_link(person)
    if _ranked_or_shown(person) != _ranked_or_shown(stored):
        _members_changed(Entry.objects.filter(memberships__person=person).distinct(), by=by)
    return person


@transaction.atomic
def persons_delete(*, persons, by=None) -> None:
    """Delete persons (and their memberships); the entries they were in are re-ranked."""
    pks = [person.pk for person in persons]
    entries = list(Entry.objects.filter(memberships__person__in=pks).distinct())
    Person.objects.filter(pk__in=pks).delete()
    _members_changed(entries, by=by)


@transaction.atomic
def entry_members_changed(*, entry: Entry, by=None) -> None:
    """Record that an entry's members were changed elsewhere (the admin): re-rank the entry.

    Call inside the transaction that changed them.
    """
    _members_changed([entry], by=by)


@transaction.atomic
def entry_check_in(*, entry: Entry, undo: bool = False) -> Entry:
    """Check a confirmed entry in on the day (or take the check-in back)."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != Entry.Status.CONFIRMED:
        raise ValidationError(_("Only a confirmed entry can be checked in."))
    entry.checked_in_at = None if undo else (entry.checked_in_at or timezone.now())
    entry.save(update_fields=["checked_in_at", "updated_at"])
    return entry


@transaction.atomic
def entry_mark_walkover(*, entry: Entry, reason: str, undo: bool = False, by=None) -> Entry:
    """Mark a confirmed entry as a walk-over (no-show, no check-in in time), with a reason.

    A walk-over is a disqualification (sm: "anses automatiskt ha lämnat walk-over och
    diskvalificeras därmed"): the entry is listed without a place in every round of
    its category. Where it already has a result, only a head judge (``by``) marks it,
    and every round it has a result in is ranked anew (``signals.entry_walkover``);
    so is taking the walk-over back.
    """
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    before = (entry.walkover_at, entry.walkover_reason)
    if undo:
        entry.walkover_at, entry.walkover_reason = None, ""
    else:
        if not reason.strip():
            raise ValidationError({"reason": [_("Give a reason for the walk-over.")]})
        if entry.status != Entry.Status.CONFIRMED:
            raise ValidationError(_("Only a confirmed entry can be marked as a walk-over."))
        entry.walkover_at = entry.walkover_at or timezone.now()
        entry.walkover_reason = reason.strip()
    if (entry.walkover_at, entry.walkover_reason) == before:
        return entry
    entry.save(update_fields=["walkover_at", "walkover_reason", "updated_at"])
    signals.entry_walkover.send(
        sender=Entry, entries=[entry], reason=entry.walkover_reason, by=by, undo=undo
    )
    return entry


@transaction.atomic
def entry_set_payment(*, entry: Entry, status: str, reference: str | None = None) -> Entry:
    """Record an entry's payment status and, optionally, its payment reference."""
    if status not in Entry.Payment.values:
        raise ValidationError({"payment_status": [_("Unknown payment status.")]})
    limit = Entry._meta.get_field("payment_reference").max_length
    if reference is not None and len(reference.strip()) > limit:
        raise ValidationError(
            {"payment_reference": [_("At most %(limit)s characters.") % {"limit": limit}]}
        )
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.payment_status = status
    fields = ["payment_status", "updated_at"]
    if reference is not None:
        entry.payment_reference = reference.strip()
        fields.append("payment_reference")
    entry.save(update_fields=fields)
    return entry


def entries_mark_paid(*, entries) -> int:
    """Record the payment of ``entries`` (a query set); return how many were not already paid."""
    return entries.exclude(payment_status=Entry.Payment.PAID).update(
        payment_status=Entry.Payment.PAID, updated_at=timezone.now()
    )


@transaction.atomic
def ranking_apply(*, category: Category, ranks: dict[int, int], clear_others: bool) -> int:
    """Set the prior ranking of a category's entries; return how many were ranked.

    ``ranks`` maps entry ids to ranks (from an earlier recognised championship).
    With ``clear_others`` the other confirmed entries lose their rank, so the
    ranking is exactly the file's.
    """
    _lock_category(category)
    entries = Entry.objects.filter(category=category)
    if clear_others:
        entries.filter(status=Entry.Status.CONFIRMED).exclude(pk__in=ranks).update(
            prior_ranking=None
        )
    for pk, rank in ranks.items():
        if rank < 1:
            raise ValidationError({"rank": [_("A rank is a whole number from 1.")]})
        entries.filter(pk=pk).update(prior_ranking=rank)
    return len(ranks)


def entry_set_judge_note(*, entry: Entry, note: str) -> Entry:
    """Set the entry's note for the judges (the organiser's, or the entrant's own)."""
    note = " ".join(note.split())
    try:
        jsonbounds.validate_text(note)
    except ValidationError as error:
        raise ValidationError({"judge_note": error.messages}) from None
    if len(note) > 300:
        raise ValidationError({"judge_note": [_("At most %(count)s characters.") % {"count": 300}]})
    entry.judge_note = note
    entry.save(update_fields=["judge_note", "updated_at"])
    return entry


@transaction.atomic
def entry_rotate_manage_link(*, entry: Entry) -> Entry:
    """Give an entry a new private manage link and send it; the old link stops working at once.

    A link sent before links were derived (``legacy_token_hash``) stops too.
    """
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.new_manage_link()
    entry.save(
        update_fields=["manage_nonce", "manage_token_hash", "legacy_token_hash", "updated_at"]
    )
    notifications.queue_new_link(entry.pk)
    return entry
