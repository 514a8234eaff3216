"""Parallel groups of a category's first stage: which they are, and dealing the entries to them.

A category's first stage may run as several groups (WJPC: groups A to F), each its
own round with its own ranking. Each entry puzzles in exactly one of them: the
organiser deals the category's entries to the groups (``groups_deal``), in the
first round's seating order and serpentine, as heats are dealt
(``championship.rules.seating``, "groups of a first stage"). A group seated on
its own takes the entries not seated in another group of the stage
(``control.rounds.round_entries``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship.errors import RoundStateError
from championship.models import Heat, Round, Seat
from championship.rules import seating
from results.services import round_lock


def stage_groups(round_: Round) -> list[Round]:
    """Return the parallel groups of the first stage ``round_`` belongs to, in order.

    The category's rounds that no round feeds (first rounds) and that have
    ``round_``'s stage. Empty when ``round_`` is not one of several such rounds:
    a first round alone, or a later round.
    """
    rounds = list(Round.objects.filter(category=round_.category_id).order_by("order"))
    fed = set()
    for candidate in rounds:
        following = candidate.following_in(rounds)
        if following is not None:
            fed.add(following.pk)
    groups = [r for r in rounds if r.pk not in fed and r.stage == round_.stage]
    if len(groups) < 2 or round_.pk not in {group.pk for group in groups}:
        return []
    return groups


def other_groups(round_: Round) -> list[Round]:
    """Return the other parallel groups of ``round_``'s first stage (empty: none)."""
    return [group for group in stage_groups(round_) if group.pk != round_.pk]


@transaction.atomic
def groups_deal(*, round_: Round, plan=None, group_sizes: Sequence[int] = ()) -> dict[Round, list]:
    """Deal the category's entries to the groups of ``round_``'s first stage, and seat each.

    ``round_``: any group of the stage. The entries are those a first round
    takes (confirmed, no walk-overs; only the checked-in where ``plan`` asks or
    the rules require), in the seating order of ``plan.order`` (by default
    seeding: prior ranking, then registration time), dealt serpentine to the
    groups; ``group_sizes``: one size per group, in the groups' order (empty:
    sizes that differ by at most one). Each group is then seated with its share
    as ``round_seat`` seats a round (``plan``'s heats, order and tables).
    Refused once a group of the stage has started. Return each group's entries
    in seating order.
    """
    from control import rounds

    plan = plan or rounds.SeatingPlan()
    groups = stage_groups(round_)
    if not groups:
        raise RoundStateError(
            _("This round is not one of several groups of a first stage: seat it on its own.")
        )
    # Locked in order, so that two organisers dealing at once wait for each other.
    groups = [round_lock(group) for group in groups]
    if Heat.objects.filter(round__in=groups, started_at__isnull=False).exists():
        raise RoundStateError(
            _("A group of this stage has started: the entries can no longer be dealt anew.")
        )
    rules = round_.category.championship.rules
    if plan.order not in seating.allowed_orders(
        first_round=True,
        seating_first_round=rules.seating_first_round,
        seating_later_rounds=rules.seating_later_rounds,
    ):
        raise ValidationError({"order": [rounds.fixed_order_reason(first_round=True)]})
    entries = list(
        rounds.first_round_query(groups[0], checked_in_only=plan.checked_in_only)
        .prefetch_related(rounds._members_prefetch())
        .order_by("pk")
    )
    if not entries:
        raise RoundStateError(_("There are no entries to deal to the groups."))
    ordered = rounds.seating_order(groups[0], entries, plan)
    try:
        shares = seating.deal_to_groups(ordered, len(groups), list(group_sizes))
    except seating.SeatingError as error:
        raise ValidationError(
            {"group_sizes": [_group_sizes_refusal(error, group_sizes, len(groups), len(ordered))]}
        ) from None
    # Each group's own seating must not see the others' seats of the dealing before.
    Seat.objects.filter(round__in=groups).delete()
    dealt = {}
    for group, share in zip(groups, shares, strict=True):
        group_plan = replace(plan, heat_sizes=(), scheduled_starts=())
        rounds.round_seat(round_=group, plan=group_plan, entries=share)
        dealt[group] = share
    return dealt


def feeders_final_or_refuse(following: Round, results_final) -> None:
    """Refuse to seat ``following`` while a round feeding it has no final results.

    A round fed by several groups is seated once, from all of them: seating it
    from the groups that are done would leave out the others' qualifiers.
    ``results_final``: ``control.rounds.results_final``.
    """
    feeding = following.previous_rounds()
    waiting = [before for before in feeding if not results_final(before)]
    if len(feeding) > 1 and waiting:
        raise RoundStateError(
            _("%(round)s is fed by several groups: %(groups)s has no final results yet.")
            % {
                "round": following.display_name,
                "groups": ", ".join(before.display_name for before in waiting),
            }
        )


def _group_sizes_refusal(
    error: seating.SeatingError, sizes: Sequence[int], groups: int, entries: int
) -> str:
    """Return why group sizes are refused, in the organiser's words."""
    if error.code == "sizes_count":
        return ngettext(
            "Give one size for the %(count)s group.",
            "Give one size for each of the %(count)s groups.",
            groups,
        ) % {"count": groups}
    if error.code == "size_at_least_one":
        return _("Every group needs at least one entry.")
    return ngettext(
        "The group sizes add up to %(total)s, but there is %(count)s entry to deal.",
        "The group sizes add up to %(total)s, but there are %(count)s entries to deal.",
        entries,
    ) % {"total": sum(sizes), "count": entries}
