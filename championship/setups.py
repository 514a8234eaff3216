"""What a new championship's categories and rounds are before they are saved.

``categories_of_preset`` fills them in from a preset: one round per stage of the
rules (``rounds_<kind>``), or, where the preset lays a category out in stages of
parallel groups (``championship.layouts``), a round per group, each feeding a
round of the next stage. ``championship.services.championship_set_up`` saves them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils import translation
from django.utils.translation import gettext as _

from championship import layouts, presets, rulesets
from championship.models import Round


@dataclass(frozen=True)
class RoundSetUp:
    """A round of a new category: its stage and how entries advance from it.

    A round of a preset's layout (``championship.layouts``) also has its key after
    the category's (``group-a``; empty: the stage), its group's number in the stage,
    its own pieces, puzzles and time limit (``None``: the category's), the key of the
    round it feeds (``into``; empty: the next round) and country places.
    """

    stage: str
    advance: str = Round.Advance.NONE
    advance_count: int | None = None
    advance_best_remaining: int | None = None
    key: str = ""
    group: int | None = None
    pieces: int | None = None
    puzzles: int = 1
    time_limit_minutes: int | None = None
    into: str = ""
    advance_country_places: int | None = None
    advance_country_requires_completion: bool = False
    advance_per_country: int = 1
    advance_only_countries_without_qualifier: bool = False

    @property
    def key_suffix(self) -> str:
        return self.key or self.stage


@dataclass(frozen=True)
class CategorySetUp:
    """A category of a new championship, as the organiser left it before saving."""

    kind: str
    min_members: int
    max_members: int
    pieces: int
    time_limit_minutes: int
    capacity: int | None
    fee: Decimal
    rounds: tuple[RoundSetUp, ...]
    name: str = ""


def rounds_of_layout(layout: layouts.Layout) -> tuple[RoundSetUp, ...]:
    """Return the rounds of a stage layout: each group a round, feeding the next stage."""
    rounds = []
    for planned in layouts.plan(layout):
        country = planned.advance
        rounds.append(
            RoundSetUp(
                stage=planned.stage,
                key=planned.key,
                group=planned.group,
                pieces=planned.pieces,
                puzzles=planned.puzzles,
                time_limit_minutes=planned.minutes,
                into=planned.into or "",
                advance=Round.Advance.COUNTRY if country else Round.Advance.NONE,
                advance_count=country.places if country else None,
                advance_country_places=country.country_places if country else None,
                advance_country_requires_completion=bool(country and country.requires_completion),
                advance_per_country=country.per_country if country else 1,
                advance_only_countries_without_qualifier=bool(
                    country and country.only_countries_without_qualifier
                ),
            )
        )
    return tuple(rounds)


def preset_layout(preset: str, kind: str) -> layouts.Layout | None:
    """Return the preset's stage layout of a category kind, or ``None`` if it has none."""
    return presets.get_preset(preset).layouts.get(kind)


def preset_rounds(preset: str, kind: str, rules: rulesets.Ruleset) -> tuple[RoundSetUp, ...]:
    """Return a category's rounds under a preset: its layout, or one round per stage.

    The rules' stages (``rounds_<kind>``) decide: where an override leaves out a
    stage of the layout, the other stages keep their groups, pieces, time limits and
    advancement (``layouts.restrict``); a stage the layout lacks is one round.
    """
    stages = rules.rounds_for(kind)
    layout = preset_layout(preset, kind)
    if layout is not None:
        layout = layouts.restrict(layout, stages)
    if layout is not None:
        return rounds_of_layout(layout)
    return tuple(RoundSetUp(stage=stage) for stage in stages)


def categories_of_preset(preset: str, rule_overrides: dict | None = None) -> list[CategorySetUp]:
    """Return what a preset fills in: its three categories, each with its rounds.

    The rounds follow the rules' stages (``rounds_<kind>``), or the preset's layout
    of groups (``preset_rounds``); nobody advances from a round until the organiser
    says how many do, except where the layout says so (country places).
    """
    chosen = presets.get_preset(preset)
    rules = presets.effective_rules(preset, rule_overrides)
    return [
        CategorySetUp(
            kind=kind,
            min_members=defaults.min_members,
            max_members=defaults.max_members,
            pieces=defaults.pieces,
            time_limit_minutes=defaults.time_limit_minutes,
            capacity=defaults.capacity,
            fee=defaults.fee,
            rounds=preset_rounds(preset, kind, rules),
        )
        for kind, defaults in chosen.categories.items()
    ]


def stages_of(setup: CategorySetUp) -> tuple[str, ...]:
    """Return a category's stages in order, each once (the groups of a stage are one)."""
    return tuple(dict.fromkeys(round_.stage for round_ in setup.rounds))


def round_name(setup: RoundSetUp, language: str) -> str:
    """Return a group's name in the championship's language ("Group A", "Semifinal 1").

    A round that is its stage's only one has no name: the stage's is shown.
    """
    if setup.group is None:
        return ""
    label = layouts.group_label(setup.stage, setup.group)
    with translation.override(language):
        if setup.stage == "prelim":
            return _("Group %(group)s") % {"group": label}
        if setup.stage == "semifinal":
            return _("Semifinal %(group)s") % {"group": label}
        return _("Final %(group)s") % {"group": label}
