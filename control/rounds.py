"""Services of a round: seat it, start and close its heats, advance the qualified.

Every function owns its transaction and locks the round's row first, so two
organisers pressing the same button at once cannot seat a round twice or start
a heat twice. A request the round's state does not allow raises
``RoundStateError`` (answered 409 by the API).
"""

from __future__ import annotations

import random
import string
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Prefetch
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship import submissions
from championship.errors import RoundStateError
from championship.models import Heat, Round, Seat, Table
from championship.rules import seating
from championship.rules.eligibility import officiality
from control import groups, notifications
from control.advancement import round_set_advance  # noqa: F401 (the round services, in one place)
from control.tables import allocate_tables
from registration.models import Entry, Person
from results import official
from results.models import Result
from results.services import results_missing, round_lock, round_recompute, standings_ensure

ORDERS = seating.ORDERS


@dataclass(frozen=True)
class SeatingPlan:
    """How the organiser wants a round seated.

    ``heat_sizes``: how many entries each heat takes, one size per heat (only
    where the rules leave the split to the organiser); empty for the serpentine
    split into heats whose sizes differ by at most one.
    """

    heats: int = 1
    order: str = "seeding"
    seed: int | None = None
    checked_in_only: bool = False
    scheduled_starts: Sequence[datetime | None] = ()
    heat_sizes: Sequence[int] = ()


def _members_prefetch():
    return Prefetch("members", queryset=Person.objects.order_by("memberships__position"))


def check_in_required(round_: Round) -> bool:
    """Return whether only checked-in entries may be seated in ``round_``.

    That is the category's first round, when the rules require check-in (sm).
    """
    return round_.category.championship.rules.check_in_required and round_.previous_round() is None


def _first_round_entries(round_: Round):
    return Entry.objects.filter(
        category=round_.category_id, status=Entry.Status.CONFIRMED, walkover_at__isnull=True
    )


def first_round_query(round_: Round, *, checked_in_only: bool = False):
    """Return the entries a category's first round may take, every group of its stage together.

    The category's confirmed entries, without walk-overs; only the checked-in
    ones when asked, and always where the rules require check-in.
    """
    entries = _first_round_entries(round_)
    if checked_in_only or check_in_required(round_):
        entries = entries.filter(checked_in_at__isnull=False)
    return entries


def round_entries(round_: Round, *, checked_in_only: bool = False) -> list[Entry]:
    """Return the entries that take part in a round.

    A first round: ``first_round_query``; one of several parallel groups of a
    first stage takes those not seated in another group (``control.groups``).
    A later round: the qualifiers of every round feeding it (``previous_rounds``).
    """
    feeding = round_.previous_rounds()
    if not feeding:
        entries = first_round_query(round_, checked_in_only=checked_in_only)
        others = groups.other_groups(round_)
        if others:
            entries = entries.exclude(seats__round__in=others)
    else:
        for before in feeding:
            standings_ensure(before)
        entries = Entry.objects.filter(results__round__in=feeding, results__qualified=True)
    return list(entries.distinct().prefetch_related(_members_prefetch()))


def entries_not_checked_in(round_: Round) -> list[Entry]:
    """Return the confirmed entries of a first round that are not checked in (by name).

    Seating only the checked-in leaves them out; where the rules require check-in
    they become walk-overs when the round starts. Of a group of a first stage,
    those seated in another group are not listed. Empty for a later round.
    """
    if round_.previous_round() is not None:
        return []
    others = groups.other_groups(round_)
    entries = _first_round_entries(round_).filter(checked_in_at__isnull=True)
    return list(entries.exclude(seats__round__in=others).order_by("name"))


def _record_walkovers(round_: Round, at: datetime) -> int:
    """Mark the entries that check-in left out of a starting round as walk-overs.

    Where the rules require check-in (sm: no check-in in time is a walk-over,
    disqualified without a refund), seating a category's first round leaves out
    the confirmed entries that are not checked in. Their walk-over is recorded
    here, when the round's first heat starts, not when the round is seated: until
    the start an organiser may still check a late entrant in and seat the round
    again, and the entry is then seated like any other, with no walk-over to
    undo. An entry seated in the round, or checked in by the start, is not marked.
    Return how many entries were marked.
    """
    if not check_in_required(round_):
        return 0
    championship = round_.category.championship
    # The reason is stored: it is written in the championship's language.
    with translation.override(championship.language):
        reason = _("No check-in before the round started (the rules require check-in).")
    # An entry seated in another group of the stage puzzles there, maybe another day.
    stage = [round_, *groups.other_groups(round_)]
    return (
        _first_round_entries(round_)
        .filter(checked_in_at__isnull=True)
        .exclude(pk__in=Seat.objects.filter(round__in=stage).values("entry"))
        .update(walkover_at=at, walkover_reason=reason, updated_at=timezone.now())
    )


def seating_order(round_: Round, entries: list[Entry], plan: SeatingPlan) -> list[Entry]:
    """Return ``entries`` in seating order: by seeding, registration time, or at random.

    Seeding a later round goes by place in the round before; fed by several
    groups, by place in each entry's own group with equal places interleaved in
    the groups' order (``seating.groups_interleaved``).
    """
    by_pk = {entry.pk: entry for entry in entries}
    feeding = round_.previous_rounds() if plan.order == "seeding" else []
    if feeding:
        group_of = {before.pk: index for index, before in enumerate(feeding)}
        for before in feeding:
            standings_ensure(before)
        places = {
            entry: (group_of[round_id], place)
            for entry, round_id, place in Result.objects.filter(
                round__in=feeding, entry__in=entries, qualified=True
            ).values_list("entry", "round", "place")
        }
        seedings = []
        for e in entries:
            group, place = places.get(e.pk, (0, None))
            seedings.append(seating.Seeding(e.pk, e.registered_at, None, place, group))
        order = seating.later_round_order(seedings)
    elif plan.order == "random":
        order = sorted(by_pk, key=lambda pk: (by_pk[pk].registered_at, pk))
        random.Random(plan.seed).shuffle(order)
    else:
        use_ranking = plan.order == "seeding"
        order = seating.first_round_order(
            [
                seating.Seeding(
                    e.pk, e.registered_at, prior_ranking=e.prior_ranking if use_ranking else None
                )
                for e in entries
            ]
        )
    return [by_pk[pk] for pk in order]


def heat_key(index: int) -> str:
    """Return the key of the ``index``-th heat: a, b, …, z, aa, ab, …"""
    letters = string.ascii_lowercase
    key = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        key = letters[rest] + key
    return key


@transaction.atomic
def round_seat(
    *, round_: Round, plan: SeatingPlan | None = None, entries: Sequence[Entry] | None = None
) -> list[Heat]:
    """Form a round's heats and seat its entries at the venue's tables.

    ``entries``: the entries to seat, where a service chose them (a group's share,
    ``control.groups.groups_deal``); by default the round's (``round_entries``).

    The rules decide what the organiser may choose: the order (``seating_first_round``,
    ``seating_later_rounds``), heat sizes (``heat_split``), and whether only
    checked-in entries are seated (``check_in_required``: then whatever the plan
    says). Refused once a heat has started. Seating again replaces the earlier
    seating.
    """
    plan = plan or SeatingPlan()
    round_ = round_lock(round_)
    if plan.order not in ORDERS:
        raise ValidationError({"order": [_("Unknown seating order.")]})
    if plan.heats < 1:
        raise ValidationError({"heats": [_("A round needs at least one heat.")]})
    if round_.heats.filter(started_at__isnull=False).exists():
        raise RoundStateError(_("The round has started: its seating can no longer change."))
    championship = round_.category.championship
    rules = championship.rules
    first_round = round_.previous_round() is None
    allowed = seating.allowed_orders(
        first_round=first_round,
        seating_first_round=rules.seating_first_round,
        seating_later_rounds=rules.seating_later_rounds,
    )
    if plan.order not in allowed:
        raise ValidationError({"order": [fixed_order_reason(first_round=first_round)]})
    if entries is None:
        entries = round_entries(round_, checked_in_only=plan.checked_in_only)
    entries = list(entries)
    if not entries:
        if check_in_required(round_):
            raise RoundStateError(
                _("No entry is checked in: the rules seat only checked-in entries.")
            )
        raise RoundStateError(_("There are no entries to seat in this round."))
    if plan.heats > len(entries):
        raise ValidationError(
            {
                "heats": [
                    ngettext(
                        "There are more heats than entries: %(count)s entry to seat.",
                        "There are more heats than entries: %(count)s entries to seat.",
                        len(entries),
                    )
                    % {"count": len(entries)}
                ]
            }
        )
    if plan.heat_sizes:
        try:
            seating.check_heat_sizes(
                list(plan.heat_sizes),
                heats=plan.heats,
                entries=len(entries),
                heat_split=rules.heat_split,
            )
        except seating.SeatingError as error:
            message = _heat_sizes_refusal(error, plan=plan, entries=len(entries))
            raise ValidationError({"heat_sizes": [message]}) from None
    try:
        ordered = seating_order(round_, entries, plan)
    except seating.SeatingError as error:
        raise ValidationError(
            _("An entry of this round has no place in the round before: finish its results first.")
        ) from error
    kind = round_.category.kind
    official = {
        entry.pk: officiality(kind, [p.rules_member() for p in entry.members.all()], rules).official
        for entry in ordered
    }
    if plan.heat_sizes:
        split = seating.split_by_sizes(ordered, list(plan.heat_sizes))
    else:
        split = seating.split_into_heats(ordered, plan.heats)
    tables = list(championship.tables.order_by("number"))
    may_share = (
        kind == "individual"
        and rules.table_sharing_above is not None
        and len(ordered) > rules.table_sharing_above
    )
    Seat.objects.filter(round=round_).delete()
    round_.heats.all().delete()
    heats = []
    for index, heat_entries in enumerate(split):
        # Within a heat, seeds keep their order (the split deals them out in turn).
        heat_entries = sorted(heat_entries, key=ordered.index)
        starts = plan.scheduled_starts
        heat = Heat.objects.create(
            round=round_,
            key=heat_key(index),
            order=index + 1,
            scheduled_start=starts[index] if index < len(starts) else None,
        )
        allocation = allocate_tables(
            heat_entries,
            tables,
            official=official,
            may_share=may_share,
            guest_tables_max=rules.reserved_guest_tables_max,
        )
        Seat.objects.bulk_create(
            Seat(round=round_, heat=heat, table=table, entry=entry, position=position)
            for entry, table, position in allocation
        )
        heats.append(heat)
    round_.state = Round.State.SEATED
    round_.seating_published_at = None
    round_.save(update_fields=["state", "seating_published_at", "updated_at"])
    # The projector says the entrants are seated, the API gives the round's state, and a
    # seating published before is no longer listed: a new version tells every poller.
    _version_moved(round_)
    return heats


def fixed_order_reason(*, first_round: bool) -> str:
    """Return why the rules allow no other order than seeding in a round."""
    if first_round:
        return _(
            "The championship's rules seat the first round by prior ranking, then by "
            "registration time: no other order is allowed."
        )
    return _(
        "The championship's rules seat this round by placement in the previous round: "
        "no other order is allowed."
    )


def _heat_sizes_refusal(error: seating.SeatingError, *, plan: SeatingPlan, entries: int) -> str:
    """Return why heat sizes are refused, in the organiser's words."""
    if error.code == "sizes_not_allowed":
        return _(
            "The championship's rules make the heats equal in size (the entries divided by "
            "the number of heats): heat sizes cannot be given."
        )
    if error.code == "sizes_count":
        return ngettext(
            "Give one heat size for the %(count)s heat.",
            "Give one heat size for each of the %(count)s heats.",
            plan.heats,
        ) % {"count": plan.heats}
    if error.code == "size_at_least_one":
        return _("Every heat needs at least one entry.")
    return ngettext(
        "The heat sizes add up to %(total)s, but there is %(count)s entry to seat.",
        "The heat sizes add up to %(total)s, but there are %(count)s entries to seat.",
        entries,
    ) % {"total": sum(plan.heat_sizes), "count": entries}


@transaction.atomic
def seating_publish(*, round_: Round) -> Round:
    """Make a round's seating public (entrants see their table)."""
    round_ = round_lock(round_)
    if not round_.seats.exists():
        raise RoundStateError(_("Seat the round before publishing its seating."))
    first = round_.seating_published_at is None
    round_.seating_published_at = round_.seating_published_at or timezone.now()
    round_.save(update_fields=["seating_published_at", "updated_at"])
    if first:
        notifications.seating_published(round_)
    # The live pages list the seated entrants from now on: a new version tells them.
    _version_moved(round_)
    return round_


def _version_moved(round_: Round) -> None:
    """Move the round's version on (its row is locked): the live pages and the API ask anew.

    For a change that the results pages, the projector or the API show but that
    ranks nothing (seating); a change of results goes through ``round_recompute``.
    """
    Round.objects.filter(pk=round_.pk).update(version=F("version") + 1)


@dataclass(frozen=True)
class Moved:
    """Where a moved entry sits now, and the entry it swapped places with, if any."""

    seat: Seat
    swapped: Seat | None = None


@transaction.atomic
def seat_move(
    *, seat: Seat, heat: Heat, table: Table, position: int = 1, swap: bool = False
) -> Moved:
    """Move an entry to another heat or table of the same round, before seating is published.

    A seat that is taken is refused, unless ``swap``: then the entry sitting there
    takes the moved entry's place, and the two change places in one step.
    """
    round_ = round_lock(seat.round)
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    if round_.seating_published_at or round_.heats.filter(started_at__isnull=False).exists():
        raise RoundStateError(_("The seating is published: it can no longer change."))
    if heat.round_id != round_.pk or table.championship_id != round_.championship_id:
        raise ValidationError(_("Choose a heat of this round and a table of this championship."))
    if position > table.seats:
        raise ValidationError({"position": [_("This table has only one seat.")]})
    occupant = (
        Seat.objects.select_for_update()
        .filter(heat=heat, table=table, position=position)
        .exclude(pk=seat.pk)
        .first()
    )
    if occupant is not None and not swap:
        raise ValidationError(
            {"table": [_("This seat is taken in that heat: choose to swap the two entries.")]}
        )
    # A version stands for one seating: nothing built on the seating before the move (the
    # API's answer, a fragment kept for its version) is served for the new one.
    _version_moved(round_)
    if occupant is None:
        seat.heat, seat.table, seat.position = heat, table, position
        seat.save()
        return Moved(seat=seat)
    # Each place holds one entry at every moment: the occupant's seat is made again
    # at the moved entry's old place (nothing refers to a seat before the start).
    old_heat, old_table, old_position = seat.heat, seat.table, seat.position
    other_entry = occupant.entry_id
    occupant.delete()
    seat.heat, seat.table, seat.position = heat, table, position
    seat.save()
    swapped = Seat.objects.create(
        heat=old_heat, table=old_table, position=old_position, entry_id=other_entry
    )
    return Moved(seat=seat, swapped=swapped)


def _ensure_results(heat: Heat) -> None:
    """Give every entry seated in a heat a result row, pending until the judges record it."""
    seated = Seat.objects.filter(heat=heat).values_list("entry_id", flat=True)
    Result.objects.bulk_create(
        [Result(round_id=heat.round_id, heat=heat, entry_id=entry_id) for entry_id in seated],
        ignore_conflicts=True,
    )


@transaction.atomic
def heat_start(*, heat: Heat, at: datetime | None = None) -> Heat:
    """Start a heat's clock: every entrant's start, and the moment the motif becomes public."""
    round_ = round_lock(heat.round)
    heat = Heat.objects.select_for_update().get(pk=heat.pk)
    if heat.started_at is not None:
        raise RoundStateError(_("This heat has already started."))
    if not heat.seats.exists():
        raise RoundStateError(_("Nobody is seated in this heat."))
    heat.started_at = at or timezone.now()
    heat.state = Heat.State.RUNNING
    heat.save(update_fields=["started_at", "state"])
    _ensure_results(heat)
    _record_walkovers(round_, heat.started_at)
    round_.state = Round.State.RUNNING
    round_.seating_published_at = round_.seating_published_at or heat.started_at
    round_.save(update_fields=["state", "seating_published_at", "updated_at"])
    # The new results learn whether their entries are official; the version changes.
    round_recompute(round_)
    return heat


@transaction.atomic
def round_start(*, round_: Round, heat_key: str | None = None) -> list[Heat]:
    """Start the given heat, or every heat of the round not yet started."""
    round_ = round_lock(round_)
    if not round_.heats.exists():
        raise RoundStateError(_("Seat the round before starting it."))
    heats = round_.heats.filter(started_at__isnull=True)
    if heat_key is not None:
        heat = round_.heats.filter(key=heat_key).first()
        if heat is None:
            message = _("This round has no heat “%(key)s”.") % {"key": heat_key}
            raise ValidationError({"heat": [message]})
        heats = heats.filter(pk=heat.pk)
        if not heats:
            raise RoundStateError(_("This heat has already started."))
    if not heats:
        raise RoundStateError(_("Every heat of this round has already started."))
    now = timezone.now()
    return [heat_start(heat=heat, at=now) for heat in heats]


@transaction.atomic
def heat_close(*, heat: Heat, at: datetime | None = None) -> Heat:
    """Close a heat at time-up: from now on only piece counts are recorded."""
    round_ = round_lock(heat.round)
    heat = Heat.objects.select_for_update().get(pk=heat.pk)
    if heat.started_at is None:
        raise RoundStateError(_("This heat has not started."))
    if heat.ended_at is not None:
        raise RoundStateError(_("Time is already up in this heat."))
    heat.ended_at = max(at or timezone.now(), heat.started_at)
    heat.state = Heat.State.TIME_UP
    heat.save(update_fields=["ended_at", "state"])
    if not round_.heats.filter(ended_at__isnull=True).exists():
        round_.state = Round.State.CLOSED
        round_.save(update_fields=["state", "updated_at"])
    # Time-up in the final gives the prizes.
    round_recompute(round_)
    return heat


@transaction.atomic
def round_close(*, round_: Round) -> list[Heat]:
    """Close every running heat of a round: time is up."""
    round_ = round_lock(round_)
    running = list(round_.heats.filter(started_at__isnull=False, ended_at__isnull=True))
    if round_.heats.filter(started_at__isnull=True).exists():
        raise RoundStateError(_("A heat of this round has not started yet."))
    if not running:
        raise RoundStateError(_("No heat of this round is running."))
    now = timezone.now()
    return [heat_close(heat=heat, at=now) for heat in running]


def results_final(round_: Round) -> bool:
    """Return whether a round's results are final: time is up and every entry has a result."""
    return round_.state in (Round.State.CLOSED, Round.State.PUBLISHED) and not results_missing(
        round_
    )


@transaction.atomic
def round_advance(
    *, round_: Round, plan: SeatingPlan | None = None, submission: str | None = None
) -> Round:
    """Seat the qualified of a round in the next round, by placement: the winner at table 1.

    ``submission`` is the form's token: the same form submitted again seats and
    tells nobody anew, and raises ``submissions.SubmittedBefore``.
    """
    round_ = round_lock(round_)
    if submission is not None:
        submissions.submission_claim(
            championship=round_.championship, token=submission, action=submissions.Action.ADVANCE
        )
    following = round_.next_round()
    if following is None:
        raise RoundStateError(_("This is the category's last round: nobody advances from it."))
    if not results_final(round_):
        missing = results_missing(round_)
        raise RoundStateError(
            ngettext(
                "The results are not final yet: %(count)s entry has no result.",
                "The results are not final yet: %(count)s entries have no result.",
                missing,
            )
            % {"count": missing}
            if missing
            else _("The results are not final yet: close the round first.")
        )
    groups.feeders_final_or_refuse(following, results_final)
    standings_ensure(round_)
    if not Result.objects.filter(round=round_, qualified=True).exists():
        raise RoundStateError(_("Nobody has qualified: set how many advance."))
    round_seat(round_=following, plan=plan or SeatingPlan(order="seeding"))
    notifications.advanced(round_, following)
    return following


@transaction.atomic
def round_sign_off(*, round_: Round, by, now: datetime | None = None) -> Round:
    """Sign a round's results off (``results.official``) and tell its entrants."""
    signed = official.round_sign_off(round_=round_, by=by, now=now)
    notifications.results_official(signed)
    return signed
