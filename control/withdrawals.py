"""A qualifier who does not start: withdraw them from the next round, and replace them by the rule.

The organiser withdraws a qualifier of a round (a group, a semifinal) from the
round it goes to, before that round starts. The program offers who takes the
place, by the rule the round advances by (``championship.rules.country_places``,
"Replacement"): in a round with country places, a country place passes to the
next of that country, or, where the country has nobody left, to the next by
classification; in a round advancing the best N (overall or per heat), the
place goes to the best not yet qualified, by classification. The organiser sees
the offer and its reason (``qualifier_withdraw`` without ``confirm``), then
confirms; the replacement is then qualified.

How a withdrawal is stored: a ``results.QualifierWithdrawal`` row for the
withdrawn qualifier's result in the feeding round, with when and by whom. The
ranking of the feeding round applies the withdrawals on every ranking, in the
order they were made (``results.services.qualifiers_of``), so a re-ranking (a
correction, an import) keeps them. The offer is worked out the same way: the
withdrawal is stored in a savepoint, the round ranked in memory, and the
qualifiers compared with those before; without ``confirm`` the savepoint is
rolled back.

Where the next round is seated already (not started), the first replacement
takes the withdrawn qualifier's seat, and any other (tied for the place) the
first free table of that heat.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from championship.errors import RoundStateError
from championship.models import Round, Seat
from championship.rules import country_places
from control import notifications
from registration.models import Entry
from registration.validation import country_name
from results.models import QualifierWithdrawal, Result
from results.services import (
    results_for_ranking,
    round_lock,
    round_recompute,
    standings_compute,
    standings_ensure,
)

COUNTRY = country_places.COUNTRY
CLASSIFICATION = country_places.CLASSIFICATION


@dataclass(frozen=True)
class Replacement:
    """Who takes a withdrawn qualifier's place, and why.

    ``entries``: the new qualifiers (more than one when tied for the place, none
    when nobody is left); ``route``: ``"country"``, ``"classification"``, or
    empty (a round without country places, or nobody); ``promoted``: qualifiers
    by classification who now hold the withdrawn one's country place;
    ``reason``: the rule, in words, in the active language; ``confirmed``:
    whether the withdrawal is stored.
    """

    withdrawn: Entry
    following: Round
    entries: tuple[Entry, ...]
    route: str
    promoted: tuple[Entry, ...]
    reason: str
    confirmed: bool


def _country(entry: Entry) -> str:
    if entry.represents == "neutral":
        return _("the neutral flag")
    return country_name(entry.represents)


def _reason(round_: Round, withdrawn: Entry, route: str, taken: Replacement) -> str:
    """Return why the place goes where it goes, in words."""
    if route == COUNTRY and withdrawn.represents:
        country = _country(withdrawn)
        if taken.route == COUNTRY:
            reason = _("The country place of %(country)s passes to its next-placed entry.")
        elif taken.promoted:
            reason = _(
                "The country place of %(country)s passes to its next-placed entry, who had "
                "qualified by classification: that place goes by classification."
            )
        else:
            reason = _("No one representing %(country)s is left: the place goes by classification.")
        reason %= {"country": country}
    elif round_.advance == Round.Advance.COUNTRY:
        reason = _("The place was won by classification: it passes to the next by classification.")
    else:
        reason = _("The place goes to the next by classification.")
    if not taken.entries:
        reason = " ".join((reason, _("Nobody is left to take it.")))
    return reason


def _check(round_: Round, entry: Entry) -> tuple[Round, Result]:
    """Return the round ``entry`` goes to and its result, or refuse the withdrawal."""
    following = round_.next_round()
    if following is None:
        raise RoundStateError(_("This is the category's last round: nobody advances from it."))
    if following.heats.filter(started_at__isnull=False).exists():
        raise RoundStateError(
            _("The next round, %(round)s, has started: its qualifiers can no longer be withdrawn.")
            % {"round": following.display_name}
        )
    standings_ensure(round_)
    result = Result.objects.filter(round=round_, entry=entry).first()
    if result is not None and QualifierWithdrawal.objects.filter(result=result).exists():
        raise ValidationError(_("This entry is withdrawn from the next round already."))
    if result is None or not result.qualified:
        raise ValidationError(_("This entry has not qualified from this round."))
    return following, result


@transaction.atomic
def qualifier_withdraw(
    *, round_: Round, entry: Entry, by=None, confirm: bool = False
) -> Replacement:
    """Withdraw ``entry``, a qualifier of ``round_``, from the next round; return the replacement.

    Without ``confirm`` nothing is stored: the organiser sees who would take the
    place and why. With ``confirm`` the withdrawal is stored (``by``: the
    organiser), the round ranked anew (the replacement is qualified), and the
    next round's seating, if any, gives the replacement the withdrawn one's seat.
    Refused once the next round has started.
    """
    round_ = round_lock(round_)
    following, result = _check(round_, entry)
    before = dict(
        Result.objects.filter(round=round_, qualified=True).values_list("entry", "qualified_by")
    )
    with transaction.atomic():
        QualifierWithdrawal.objects.create(result=result, withdrawn_by=by)
        after = {
            ranked.entry_id: ranked.qualified_by
            for ranked in standings_compute(round_, results_for_ranking(round_))
            if ranked.qualified
        }
        if not confirm:
            transaction.set_rollback(True)
    new = [pk for pk in after if pk not in before]
    promoted = [pk for pk in after if pk in before and after[pk] != before[pk]]
    entries = Entry.objects.in_bulk([*new, *promoted])
    route = after[new[0]] if new else ""
    taken = Replacement(
        withdrawn=entry,
        following=following,
        entries=tuple(entries[pk] for pk in new),
        route=route,
        promoted=tuple(entries[pk] for pk in promoted),
        reason="",
        confirmed=confirm,
    )
    taken = replace(taken, reason=_reason(round_, entry, before[entry.pk], taken))
    if confirm:
        round_recompute(round_)
        if _reseat(following, entry, taken.entries):
            # Seated in their place: told as the others were when the round was seated.
            notifications.advanced(round_, following, entries=taken.entries)
    return taken


def _reseat(following: Round, withdrawn: Entry, entries: tuple[Entry, ...]) -> bool:
    """Give the replacements the withdrawn qualifier's seat in a seated next round.

    Return whether the next round was seated (``False``: its seating, later, seats them).
    """
    seat = Seat.objects.select_for_update().filter(round=following, entry=withdrawn).first()
    if seat is None:
        return False
    heat, table, position = seat.heat, seat.table, seat.position
    seat.delete()
    taken = set(heat.seats.values_list("table", flat=True))
    free = (
        following.championship.tables.filter(reserved_for_guests=False)
        .exclude(pk__in=taken)
        .order_by("number")
    )
    for index, entry in enumerate(entries):
        if index == 0:
            Seat.objects.create(heat=heat, table=table, position=position, entry=entry)
            continue
        table_ = free.first()
        if table_ is None:
            raise ValidationError(
                _("No table is free for everyone tied for the place: seat the next round again.")
            )
        Seat.objects.create(heat=heat, table=table_, entry=entry)
    # The seating changed: the live pages and the API ask anew.
    Round.objects.filter(pk=following.pk).update(version=F("version") + 1)
    return True
