"""The presets: every parameter of the three national rulebooks and the world championship's, as
data, and a neutral one.

A championship picks a *preset* (``rogaland``, ``sm`` or ``dm``, ``wjpc`` for the
World Jigsaw Puzzle Championship, or ``neutral`` for a championship under none of
those rulebooks) and may override any *parameter* of it (``championship.rulesets``).
Its *effective rules* are the preset with the overrides applied, checked parameter by
parameter. A preset may lay a category's rounds out as stages of parallel groups
(``championship.layouts``).

This module imports nothing from Django, so it can be read as the rulebook.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from championship.layouts import CountryAdvance, Stage
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
        entries_represent_country=False,
        neutral_flag_allowed=False,
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
        entries_represent_country=False,
        neutral_flag_allowed=False,
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
        entries_represent_country=False,
        neutral_flag_allowed=False,
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
        entries_represent_country=False,
        neutral_flag_allowed=False,
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


def _country(places: int, country_places: int | None, **more: Any) -> CountryAdvance:
    """Return T places per group, the first K countries' best first (``None``: every country)."""
    return CountryAdvance(places=places, country_places=country_places, **more)


# The World Jigsaw Puzzle Championship (Valladolid), with the 2024 values of WJPC.md.
# Each value's source is marked in docs/rulesets.md: the WJPC text, read from the
# published results, or not found (then the default chosen here, marked "default").
WJPC = Preset(
    key="wjpc",
    title="World Jigsaw Puzzle Championship",
    country="ES",
    currency="EUR",
    language="en",
    timezone="Europe/Madrid",
    rules=Ruleset(
        # Default: open to every country, every entry official (no hors concours).
        eligibility="everyone",
        eligibility_region="",
        eligibility_region_min_years=0,
        eligibility_citizenship="",
        unofficial_allowed=False,
        pair_official_min_eligible=0,
        team_official_min_eligible=0,
        # "14 or older; younger only in a pair or team with an adult": the adult is
        # named on the entry (a member may be that adult).
        min_age_individual=14,
        min_age_pair=None,
        min_age_team=None,
        adult_required_below=14,
        registration_closes_days_before=5,
        one_entry_per_person_per_category=True,
        entries_represent_country=True,
        neutral_flag_allowed=True,
        # Default: no check-in rule was found; absence is the 10-minute rule's.
        check_in_required=False,
        late_arrival_disqualify_minutes=10,
        rounds_individual=("prelim", "semifinal", "final"),
        rounds_pair=("prelim", "semifinal", "final"),
        rounds_team=("prelim", "final"),
        seating_first_round="prior_ranking",
        seating_later_rounds="previous_placement",
        # Default: each group is a round of its own, seated as the organiser says.
        heat_split="organiser",
        table_sharing_above=None,
        reserved_guest_tables_max=0,
        individual_start_times=False,
        # Not found for 2024: the 2022 wording (10 s per lost piece, clusters of 3).
        penalty_seconds_per_piece=10,
        penalty_charges="all",
        max_lost_pieces=None,
        invalid_attempts_placed=True,
        pieces_found_later=False,
        adjacent_missing_waives_penalty=False,
        late_last_piece_seconds=None,
        misplaced_finish_is_unfinished=True,
        counted_cluster_min_pieces=3,
        unofficial_advance_only_if_better=False,
        # Not found for 2024: the 2022 wording (a trophy for the first three).
        prize_places=3,
        title_to_best_official=False,
        # Read from the published results: names and countries.
        published_fields=("name", "nationality"),
    ),
    categories=MappingProxyType(
        {
            # Capacity and fee not found: no limit, free, until the organiser sets them.
            INDIVIDUAL: CategoryDefaults(1, 1, 500, 90, None, Decimal("0")),
            PAIR: CategoryDefaults(2, 2, 500, 75, None, Decimal("0")),
            # Teams of 4; some started with 2 or 3 (read from the results).
            TEAM: CategoryDefaults(2, 4, 1000, 180, None, Decimal("0")),
        }
    ),
    layouts=MappingProxyType(
        {
            # 6 groups (A to F) → 2 semifinals (A, B, C → 1; D, E, F → 2) → the final.
            INDIVIDUAL: (
                Stage("prelim", groups=6, advance=_country(60, 30, requires_completion=True)),
                # K: every country ("if they complete the puzzle").
                Stage("semifinal", groups=2, advance=_country(90, None, requires_completion=True)),
                Stage("final", minutes=75),
            ),
            # 4 groups (A, B → 1; C, D → 2) → 2 semifinals → a final of 1,000 pieces.
            PAIR: (
                Stage("prelim", groups=4, advance=_country(90, 45)),
                Stage("semifinal", groups=2, advance=_country(50, 25, requires_completion=True)),
                Stage("final", pieces=1000, minutes=120),
            ),
            # 3 groups → the final; each round two 1,000-piece puzzles counted together.
            # T about 36 (read from the results). K and completion not found: 18, half of T
            # as in the other groups (defaults), without completion (two puzzles in 3 hours).
            TEAM: (
                Stage("prelim", groups=3, puzzles=2, advance=_country(36, 18)),
                Stage("final", puzzles=2),
            ),
        }
    ),
)

PRESETS: Mapping[str, Preset] = MappingProxyType(
    {p.key: p for p in (ROGALAND, SM, DM, WJPC, NEUTRAL)}
)
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
