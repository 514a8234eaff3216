"""What "Edit championship" changes beyond the championship's own row.

A category's capacity goes through registration (a larger one confirms the
waiting list in arrival order), a round's advancement through the round's
service (it marks the qualified anew), and a change of the rules re-ranks
every round that has results. These reach into the apps built on the
championship, so they live above them, beside ``control.rounds``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from championship.models import Category, Championship, Heat, Round
from control import rounds
from registration.models import Entry
from registration.services import category_set_capacity
from results.models import Result
from results.services import standings_recompute


@dataclass
class CategoryChanged:
    """What saving a category did: the entries it moved from the waiting list."""

    category: Category
    promoted: list[Entry] = field(default_factory=list)


def _started(**heat_filter) -> bool:
    return Heat.objects.filter(started_at__isnull=False, **heat_filter).exists()


@transaction.atomic
def category_update(
    *,
    category: Category,
    capacity: int | None,
    fee: Decimal,
    pieces: int,
    time_limit_minutes: int,
    puzzle_brand: str = "",
    puzzle_motif: str = "",
    registration_opens_at: datetime | None = None,
) -> CategoryChanged:
    """Change a category; a new capacity confirms waitlisted entries as places free up.

    The puzzle's pieces and the time limit cannot change once a heat of the
    category has started: results are judged by them.
    """
    locked = Category.objects.select_for_update().select_related("championship").get(pk=category.pk)
    shown = (locked.pieces, locked.time_limit_minutes, locked.puzzle_brand, locked.puzzle_motif)
    if (pieces, time_limit_minutes) != (locked.pieces, locked.time_limit_minutes) and _started(
        round__category=locked
    ):
        raise ValidationError(
            _("A heat of this category has started: its pieces and time limit stay as they are.")
        )
    locked.fee, locked.pieces, locked.time_limit_minutes = fee, pieces, time_limit_minutes
    locked.puzzle_brand, locked.puzzle_motif = puzzle_brand, puzzle_motif
    locked.registration_opens_at = registration_opens_at
    locked.full_clean()
    locked.save(
        update_fields=[
            "fee",
            "pieces",
            "time_limit_minutes",
            "puzzle_brand",
            "puzzle_motif",
            "registration_opens_at",
        ]
    )
    if (pieces, time_limit_minutes, puzzle_brand, puzzle_motif) != shown:
        # The projector shows the time limit and, once a heat starts, the motif.
        Round.objects.filter(category=locked).update(version=F("version") + 1)
    promoted = []
    if capacity != locked.capacity:
        promoted = category_set_capacity(category=locked, capacity=capacity)
    return CategoryChanged(category=locked, promoted=promoted)


@transaction.atomic
def round_update(
    *,
    round_: Round,
    time_limit_minutes: int | None,
    advance: str,
    advance_count: int | None,
    advance_best_remaining: int | None,
    pieces: int | None,
    puzzles: int,
) -> Round:
    """Change a round's own puzzle (pieces, puzzles), time limit and advancement.

    The puzzle and the time limit cannot change once a heat of the round has
    started (a time, a count of pieces or the clock already rests on them);
    ``pieces`` ``None``: the category's. The advancement can change until the
    next round is seated (``RoundStateError``).
    """
    locked = Round.objects.select_for_update(of=("self",)).get(pk=round_.pk)
    own = {
        "pieces": pieces,
        "puzzles": puzzles,
        "time_limit_minutes": time_limit_minutes,
    }
    changed = [name for name, value in own.items() if getattr(locked, name) != value]
    if changed:
        if _started(round=locked):
            refusal = _(
                "A heat of this round has started: its puzzle and time limit stay as they are."
            )
            raise ValidationError({name: [refusal] for name in changed})
        for name in changed:
            setattr(locked, name, own[name])
        locked.full_clean(exclude=["category", "championship", "into"], validate_unique=False)
        locked.save(update_fields=[*changed, "updated_at"])
        # The projector's clock shows the limit, the judges' pages the pieces.
        Round.objects.filter(pk=locked.pk).update(version=F("version") + 1)
        locked.refresh_from_db(fields=["version"])
    settings = (advance, advance_count, advance_best_remaining)
    if settings != (locked.advance, locked.advance_count, locked.advance_best_remaining):
        locked = rounds.round_set_advance(
            round_=locked,
            advance=advance,
            count=advance_count,
            best_remaining=advance_best_remaining,
        )
    return locked


@transaction.atomic
def rules_set(*, championship: Championship, overrides: dict) -> list[Round]:
    """Set the parameters that differ from the preset; re-rank every round with results.

    Return the rounds ranked anew (officiality, penalties, validity, advancement
    and prizes all follow the rules).
    """
    locked = Championship.objects.select_for_update().get(pk=championship.pk)
    if overrides == locked.rule_overrides:
        return []
    locked.rule_overrides = overrides
    locked.full_clean()
    locked.save(update_fields=["rule_overrides", "updated_at"])
    ranked = rounds_rerank(championship=locked)
    # A seated round without results lists its entrants as waiting, official or not.
    Round.objects.filter(championship=locked).exclude(pk__in=[r.pk for r in ranked]).update(
        version=F("version") + 1
    )
    return ranked


@transaction.atomic
def rounds_rerank(*, championship: Championship) -> list[Round]:
    """Rank anew every round of the championship that has results; return them."""
    ranked = list(
        Round.objects.filter(
            pk__in=Result.objects.filter(round__championship=championship).values("round")
        ).order_by("category__order", "order")
    )
    for round_ in ranked:
        standings_recompute(round_=round_)
    return ranked
