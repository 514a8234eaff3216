"""The presets: every parameter of the three national rulebooks, as data, and a neutral one.

A championship picks a *preset* (``rogaland``, ``sm`` or ``dm``, or ``neutral`` for
a championship under none of those rulebooks) and may override any *parameter* of
it (``championship.rulesets``). Its *effective rules* are the preset with the
overrides applied, checked parameter by parameter.

This module imports nothing from Django, so it can be read as the rulebook.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from championship.rulesets import (
    INDIVIDUAL,
    PAIR,
    PARAMETERS,
    TEAM,
    CategoryDefaults,
    Preset,
    Ruleset,
    RulesetError,
    check_parameter,
    gettext_noop,
)


def _categories(
    capacities: tuple[int | None, int | None, int | None],
    fees: tuple[str, str, str],
) -> Mapping[str, CategoryDefaults]:
    individual, pair, team = (
        CategoryDefaults(lo, hi, pieces, 120, capacity, Decimal(fee))
        for (lo, hi, pieces), capacity, fee in zip(
            ((1, 1, 500), (2, 2, 500), (3, 4, 1000)), capacities, fees, strict=True
        )
    )
    return MappingProxyType({INDIVIDUAL: individual, PAIR: pair, TEAM: team})


ROGALAND = Preset(
    key="rogaland",
    title="Rogalandsmesterskapet i hurtigpusling",
    country="NO",
    currency="NOK",
    language="nb",
    timezone="Europe/Oslo",
    rules=Ruleset(
        eligibility="region_residence",
        eligibility_region="Rogaland",
        eligibility_region_min_years=5,
        eligibility_citizenship="",
        unofficial_allowed=True,
        pair_official_min_eligible=None,
        team_official_min_eligible=3,
        min_age_individual=None,
        min_age_pair=None,
        min_age_team=None,
        adult_required_below=16,
        registration_closes_days_before=5,
        one_entry_per_person_per_category=False,
        check_in_required=False,
        late_arrival_disqualify_minutes=None,
        rounds_individual=("final",),
        rounds_pair=("final",),
        rounds_team=("final",),
        seating_first_round="organiser",
        seating_later_rounds=None,
        heat_split="organiser",
        table_sharing_above=30,
        reserved_guest_tables_max=0,
        individual_start_times=True,
        penalty_seconds_per_piece=5,
        penalty_charges="found",
        max_lost_pieces=None,
        invalid_attempts_placed=True,
        pieces_found_later=True,
        adjacent_missing_waives_penalty=False,
        late_last_piece_seconds=None,
        misplaced_finish_is_unfinished=True,
        counted_cluster_min_pieces=3,
        unofficial_advance_only_if_better=False,
        prize_places=3,
        title_to_best_official=False,
        published_fields=("name",),
    ),
    categories=_categories((50, 30, 15), ("200", "300", "400")),
)

SM = Preset(
    key="sm",
    title="Pussel-SM",
    country="SE",
    currency="SEK",
    language="sv",
    timezone="Europe/Stockholm",
    # Svenska Pusselförbundet's practice: the creator changes a pair or team until two
    # weeks before.
    member_changes_days_before=14,
    # The piece counts decide every place below the finishers: two judges count them.
    second_count=True,
    rules=Ruleset(
        eligibility="citizenship",
        eligibility_region="",
        eligibility_region_min_years=0,
        eligibility_citizenship="SE",
        unofficial_allowed=True,
        pair_official_min_eligible=None,
        team_official_min_eligible=None,
        min_age_individual=14,
        min_age_pair=None,
        min_age_team=None,
        adult_required_below=14,
        registration_closes_days_before=None,
        one_entry_per_person_per_category=False,
        check_in_required=True,
        late_arrival_disqualify_minutes=None,
        rounds_individual=("prelim", "final"),
        rounds_pair=("prelim", "final"),
        rounds_team=("prelim", "final"),
        # "I första omgången kan bordsordningen komma att fastställas efter resultat":
        # "kan" (may), so the organiser chooses; seeding (prior ranking, then registration
        # time) is every round's default order.
        seating_first_round="organiser",
        seating_later_rounds="previous_placement",
        heat_split="organiser",
        table_sharing_above=None,
        reserved_guest_tables_max=10,
        individual_start_times=False,
        penalty_seconds_per_piece=10,
        penalty_charges="all",
        max_lost_pieces=10,
        invalid_attempts_placed=True,
        pieces_found_later=False,
        adjacent_missing_waives_penalty=False,
        late_last_piece_seconds=None,
        misplaced_finish_is_unfinished=True,
        counted_cluster_min_pieces=3,
        unofficial_advance_only_if_better=True,
        prize_places=0,
        title_to_best_official=True,
        published_fields=("name", "city", "age"),
    ),
    categories=_categories((None, None, None), ("0", "0", "0")),
)

DM = Preset(
    key="dm",
    title="DM i Speedpuzzling",
    country="DK",
    currency="DKK",
    language="da",
    timezone="Europe/Copenhagen",
    second_count=True,
    rules=Ruleset(
        eligibility="everyone",
        eligibility_region="",
        eligibility_region_min_years=0,
        eligibility_citizenship="",
        unofficial_allowed=False,
        pair_official_min_eligible=0,
        team_official_min_eligible=0,
        min_age_individual=16,
        min_age_pair=None,
        min_age_team=None,
        adult_required_below=16,
        registration_closes_days_before=None,
        one_entry_per_person_per_category=True,
        check_in_required=False,
        late_arrival_disqualify_minutes=10,
        rounds_individual=("prelim", "final"),
        rounds_pair=("prelim", "final"),
        rounds_team=("final",),
        # "I de indledende runder afgøres rækkefølgen ud fra resultater": no other order.
        seating_first_round="prior_ranking",
        seating_later_rounds="previous_placement",
        heat_split="equal",
        table_sharing_above=None,
        reserved_guest_tables_max=0,
        individual_start_times=False,
        penalty_seconds_per_piece=10,
        penalty_charges="all",
        max_lost_pieces=10,
        invalid_attempts_placed=True,
        pieces_found_later=True,
        adjacent_missing_waives_penalty=True,
        late_last_piece_seconds=10,
        misplaced_finish_is_unfinished=True,
        counted_cluster_min_pieces=3,
        unofficial_advance_only_if_better=False,
        prize_places=0,
        title_to_best_official=False,
        published_fields=("name", "nationality", "age"),
    ),
    categories=_categories((None, None, None), ("0", "0", "0")),
)

# For a championship that follows none of the national rulebooks (another country, a
# club's own event): everyone is official, nothing is limited that a rulebook would
# have to say, one final per category, missing pieces cost nothing, and result lists
# publish only names. The organiser sets currency, language and time zone.
NEUTRAL = Preset(
    key="neutral",
    title=gettext_noop("Neutral rules"),
    country="",
    currency="EUR",
    language="en",
    timezone="UTC",
    rules=Ruleset(
        eligibility="everyone",
        eligibility_region="",
        eligibility_region_min_years=0,
        eligibility_citizenship="",
        unofficial_allowed=True,
        pair_official_min_eligible=0,
        team_official_min_eligible=0,
        min_age_individual=None,
        min_age_pair=None,
        min_age_team=None,
        adult_required_below=None,
        registration_closes_days_before=None,
        one_entry_per_person_per_category=False,
        check_in_required=False,
        late_arrival_disqualify_minutes=None,
        rounds_individual=("final",),
        rounds_pair=("final",),
        rounds_team=("final",),
        seating_first_round="organiser",
        seating_later_rounds=None,
        heat_split="organiser",
        table_sharing_above=None,
        reserved_guest_tables_max=0,
        individual_start_times=False,
        penalty_seconds_per_piece=0,
        penalty_charges="all",
        max_lost_pieces=None,
        invalid_attempts_placed=True,
        pieces_found_later=False,
        adjacent_missing_waives_penalty=False,
        late_last_piece_seconds=None,
        misplaced_finish_is_unfinished=True,
        counted_cluster_min_pieces=3,
        unofficial_advance_only_if_better=False,
        prize_places=3,
        title_to_best_official=False,
        published_fields=("name",),
    ),
    categories=_categories((None, None, None), ("0", "0", "0")),
)

PRESETS: Mapping[str, Preset] = MappingProxyType({p.key: p for p in (ROGALAND, SM, DM, NEUTRAL)})
PRESET_KEYS = tuple(PRESETS)


def get_preset(key: str) -> Preset:
    """Return the preset called ``key``."""
    try:
        return PRESETS[key]
    except KeyError:
        known = ", ".join(PRESET_KEYS)
        raise RulesetError(
            "ruleset", "unknown_preset", f'unknown preset "{key}" (known: {known})'
        ) from None


def effective_rules(preset_key: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """Return the preset's rules with ``overrides`` applied.

    Raise ``RulesetError`` naming the first unknown parameter or bad value.
    """
    preset = get_preset(preset_key)
    if overrides is None:
        return preset.rules
    if not isinstance(overrides, Mapping):
        raise RulesetError("rules", "invalid_overrides", "overrides must be an object")
    changes = {}
    for name in sorted(overrides):
        if name not in PARAMETERS:
            raise RulesetError(name, "unknown_parameter", f'unknown parameter "{name}"')
        changes[name] = check_parameter(name, overrides[name])
    return dataclasses.replace(preset.rules, **changes)
