"""Stage layouts: a category's rounds as stages of parallel groups, as a preset lays them out.

A *layout* is a tuple of *stages* in order (``prelim``, ``semifinal``, ``final``).
A stage has one or more *groups*; each group is a round of its own, with its own
puzzle and ranking. A stage's pieces, puzzles and time limit are those of each of
its rounds (``None``: the category's). Its ``advance`` says who goes on from each
of its groups (country places: T per group, the first K countries' best first);
the last stage, the final, is one round from which nobody advances.

The groups of a stage feed the next stage's groups in even, consecutive blocks:
with 6 groups before 2 semifinals, groups A, B, C feed semifinal 1 and D, E, F
semifinal 2 (group *i* of *n* feeds group *i* * *m* // *n* of the next *m*).

This module imports nothing from Django, so it can be read as the rulebook.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from string import ascii_lowercase

STAGE_ORDER = ("prelim", "semifinal", "final")
# A preliminary stage names its groups by letter (A to Z).
MAX_GROUPS = len(ascii_lowercase)


@dataclass(frozen=True)
class CountryAdvance:
    """Who goes on from each group of a stage: country places first, then by classification.

    ``places`` is T (per group), ``country_places`` K (``None``: every country);
    the others as ``Round.Advance.COUNTRY`` and ``championship.rules.country_places``.
    """

    places: int
    country_places: int | None
    requires_completion: bool = False
    per_country: int = 1
    only_countries_without_qualifier: bool = False


@dataclass(frozen=True)
class Stage:
    """A stage of a layout: its groups, and what each of its rounds has."""

    stage: str
    groups: int = 1
    pieces: int | None = None
    puzzles: int = 1
    minutes: int | None = None
    advance: CountryAdvance | None = None


Layout = tuple[Stage, ...]


@dataclass(frozen=True)
class PlannedRound:
    """A round a layout creates: ``key`` follows the category's key (``group-a``)."""

    key: str
    stage: str
    # 1, 2, … within the stage; None when the stage is one round.
    group: int | None
    pieces: int | None
    puzzles: int
    minutes: int | None
    advance: CountryAdvance | None
    # The key of the round its qualifiers go to; None for the final.
    into: str | None


def stages_of(layout: Layout) -> tuple[str, ...]:
    """Return the layout's stages, as the rules list a category's rounds (``rounds_<kind>``)."""
    return tuple(stage.stage for stage in layout)


def check(layout: Layout) -> None:
    """Raise ``ValueError`` unless ``layout`` is stages in order, narrowing to one final."""
    stages = stages_of(layout)
    if (
        not stages
        or any(stage not in STAGE_ORDER for stage in stages)
        or list(stages) != sorted(set(stages), key=STAGE_ORDER.index)
        or stages[-1] != "final"
    ):
        raise ValueError(f"a layout's stages go in the order {', '.join(STAGE_ORDER)}")
    for earlier, later in itertools.pairwise(layout):
        if not 1 <= later.groups <= earlier.groups <= MAX_GROUPS:
            raise ValueError("each stage has 1 to 26 groups, no more than the stage before")
    last = layout[-1]
    if last.groups != 1 or last.advance is not None:
        raise ValueError("the final is one round, and nobody advances from it")
    if any(stage.puzzles < 1 or (stage.pieces or 1) < 1 for stage in layout):
        raise ValueError("a round has at least one puzzle of at least one piece")


def restrict(layout: Layout, stages: tuple[str, ...]) -> Layout | None:
    """Return ``layout`` with only ``stages`` (an organiser's override of the stages).

    A stage the layout has keeps its groups, puzzles, pieces, time and advancement;
    one it lacks is a single round. ``None`` when the result is no layout (``check``).
    """
    given = {stage.stage: stage for stage in layout}
    restricted = tuple(given.get(stage, Stage(stage)) for stage in stages)
    if restricted and restricted[-1].advance is not None:
        restricted = (*restricted[:-1], dataclasses.replace(restricted[-1], advance=None))
    try:
        check(restricted)
    except ValueError:
        return None
    return restricted


def group_key(stage: Stage, index: int) -> str:
    """Return the key of the stage's group ``index`` (from 0): ``group-a``, ``semifinal-1``."""
    if stage.groups == 1:
        return stage.stage
    if stage.stage == "prelim":
        return f"group-{ascii_lowercase[index]}"
    return f"{stage.stage}-{index + 1}"


def fed_group(index: int, groups: int, next_groups: int) -> int:
    """Return which of the next stage's groups the group ``index`` (from 0) feeds."""
    return index * next_groups // groups


def plan(layout: Layout) -> tuple[PlannedRound, ...]:
    """Return the rounds of ``layout`` in order, each with the round it feeds."""
    check(layout)
    rounds = []
    for position, stage in enumerate(layout):
        following = layout[position + 1] if position + 1 < len(layout) else None
        for index in range(stage.groups):
            into = None
            if following is not None:
                into = group_key(following, fed_group(index, stage.groups, following.groups))
            rounds.append(
                PlannedRound(
                    key=group_key(stage, index),
                    stage=stage.stage,
                    group=index + 1 if stage.groups > 1 else None,
                    pieces=stage.pieces,
                    puzzles=stage.puzzles,
                    minutes=stage.minutes,
                    advance=stage.advance,
                    into=into,
                )
            )
    return tuple(rounds)


def group_label(stage: str, group: int) -> str:
    """Return the letter or number a group is called by: ``A`` in the prelim, else ``1``."""
    return ascii_lowercase[group - 1].upper() if stage == "prelim" else str(group)
