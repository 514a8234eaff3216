"""The three presets carry every parameter of RULES.md, row by row (no database)."""

import ast
from decimal import Decimal
from pathlib import Path

import pytest

from championship import presets, rulesets
from championship.presets import effective_rules, get_preset
from championship.rulesets import RulesetError
from tests.paths import DATA

RULES_MD = DATA / "rules" / "RULES.md"

# Each row of RULES.md's "Parameters by preset" table, with what it means for each
# preset's parameters. The keys are the rows' first cells, verbatim.
PARAMETER_ROWS = {
    "official eligibility": {
        "rogaland": dict(
            eligibility="region_residence",
            eligibility_region="Rogaland",
            eligibility_region_min_years=5,
        ),
        "sm": dict(eligibility="citizenship", eligibility_citizenship="SE"),
        "dm": dict(eligibility="everyone"),
    },
    "when not eligible": {
        "rogaland": dict(unofficial_allowed=True),
        "sm": dict(unofficial_allowed=True),
        "dm": dict(unofficial_allowed=False),
    },
    "team is official when": {
        "rogaland": dict(team_official_min_eligible=3),
        "sm": dict(team_official_min_eligible=None),  # every member
        "dm": dict(team_official_min_eligible=0),  # always
    },
    "pair is official when": {
        "rogaland": dict(pair_official_min_eligible=None),
        "sm": dict(pair_official_min_eligible=None),
        "dm": dict(pair_official_min_eligible=0),
    },
    "minimum age, individual": {
        "rogaland": dict(min_age_individual=None),
        "sm": dict(min_age_individual=14),
        "dm": dict(min_age_individual=16),
    },
    "minimum age, pair and team": {
        "rogaland": dict(min_age_pair=None, min_age_team=None),
        "sm": dict(min_age_pair=None, min_age_team=None, adult_required_below=14),
        "dm": dict(min_age_pair=None, min_age_team=None, adult_required_below=16),
    },
    "accompanying adult required below": {
        "rogaland": dict(adult_required_below=16),
        "sm": dict(adult_required_below=14),
        "dm": dict(adult_required_below=16),
    },
    "registration closes": {
        "rogaland": dict(registration_closes_days_before=5),
        "sm": dict(registration_closes_days_before=None),
        "dm": dict(registration_closes_days_before=None),
    },
    "rounds": {
        "rogaland": dict(
            rounds_individual=("final",), rounds_pair=("final",), rounds_team=("final",)
        ),
        "sm": dict(
            rounds_individual=("prelim", "final"),
            rounds_pair=("prelim", "final"),
            rounds_team=("prelim", "final"),
        ),
        "dm": dict(
            rounds_individual=("prelim", "final"),
            rounds_pair=("prelim", "final"),
            rounds_team=("final",),
        ),
    },
    "seating, first round": {
        "rogaland": dict(seating_first_round="organiser"),
        # "kan": the organiser's choice, seeding (prior ranking) the default.
        "sm": dict(seating_first_round="organiser"),
        "dm": dict(seating_first_round="prior_ranking"),
    },
    "seating, later rounds": {
        "rogaland": dict(seating_later_rounds=None),
        "sm": dict(seating_later_rounds="previous_placement"),
        "dm": dict(seating_later_rounds="previous_placement"),
    },
    "heats (groups)": {
        "rogaland": dict(heat_split="organiser"),
        "sm": dict(heat_split="organiser"),
        "dm": dict(heat_split="equal"),
    },
    "tables": {
        "rogaland": dict(table_sharing_above=30, reserved_guest_tables_max=0),
        "sm": dict(table_sharing_above=None, reserved_guest_tables_max=10),
        "dm": dict(table_sharing_above=None, reserved_guest_tables_max=0),
    },
    "penalty per missing piece": {
        "rogaland": dict(penalty_seconds_per_piece=5, penalty_charges="found"),
        "sm": dict(penalty_seconds_per_piece=10, penalty_charges="all"),
        "dm": dict(penalty_seconds_per_piece=10, penalty_charges="all"),
    },
    "too many lost pieces": {
        "rogaland": dict(max_lost_pieces=None, pieces_found_later=True),
        # sm has no "found later": every piece missing at TIME counts.
        "sm": dict(max_lost_pieces=10, pieces_found_later=False),
        "dm": dict(max_lost_pieces=10, pieces_found_later=True),
    },
    "adjacent missing pieces": {
        "rogaland": dict(adjacent_missing_waives_penalty=False),
        "sm": dict(adjacent_missing_waives_penalty=False),
        "dm": dict(adjacent_missing_waives_penalty=True),
    },
    "last piece found late": {
        "rogaland": dict(late_last_piece_seconds=None),
        "sm": dict(late_last_piece_seconds=None),
        "dm": dict(late_last_piece_seconds=10),
    },
    "finish declared with misplaced pieces": {
        "rogaland": dict(misplaced_finish_is_unfinished=True),
        "sm": dict(misplaced_finish_is_unfinished=True),
        "dm": dict(misplaced_finish_is_unfinished=True),
    },
    "late arrival": {
        "rogaland": dict(check_in_required=False, late_arrival_disqualify_minutes=None),
        "sm": dict(check_in_required=True, late_arrival_disqualify_minutes=None),
        "dm": dict(check_in_required=False, late_arrival_disqualify_minutes=10),
    },
    "entries per person": {
        "rogaland": dict(one_entry_per_person_per_category=False),
        "sm": dict(one_entry_per_person_per_category=False),
        "dm": dict(one_entry_per_person_per_category=True),
    },
    "prizes": {
        "rogaland": dict(prize_places=3, title_to_best_official=False),
        "sm": dict(prize_places=0, title_to_best_official=True),
        "dm": dict(prize_places=0, title_to_best_official=False),
    },
    "published personal data": {
        "rogaland": dict(published_fields=("name",)),
        "sm": dict(published_fields=("name", "city", "age")),
        "dm": dict(published_fields=("name", "nationality", "age")),
    },
}

# Parameters that no row of the table states, but the prose sections of RULES.md do.
PROSE_PARAMETERS = {
    # "only pieces joined in a cluster of at least 3 correctly assembled pieces count"
    "counted_cluster_min_pieces": {"rogaland": 3, "sm": 3, "dm": 3},
    # "an entrant whose puzzle bag was taped shut ... gets an individual start (rogaland)"
    "individual_start_times": {"rogaland": True, "sm": False, "dm": False},
    # "sm: an unofficial entrant advances only if their result is better ..."
    "unofficial_advance_only_if_better": {"rogaland": False, "sm": True, "dm": False},
    # "Invalid attempts are ranked after every valid one and share one place among
    # themselves (a decision: ... a void without a place is the other reading, and a
    # championship may choose it)"
    "invalid_attempts_placed": {"rogaland": True, "sm": True, "dm": True},
    # The national rulebooks give no country places: no entry represents a country, and
    # there is no neutral flag (WJPC.md, "Countries of entries", is the world's rule).
    "entries_represent_country": {"rogaland": False, "sm": False, "dm": False},
    "neutral_flag_allowed": {"rogaland": False, "sm": False, "dm": False},
}


def table_rows(markdown: str, heading: str) -> list[list[str]]:
    """Return the body rows of the first table after ``heading`` in a Markdown text."""
    lines = markdown.split(heading, 1)[1].splitlines()
    rows = []
    for line in lines:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows[2:]


def cases():
    for row, by_preset in PARAMETER_ROWS.items():
        for preset, expected in by_preset.items():
            for parameter, value in expected.items():
                yield pytest.param(preset, parameter, value, id=f"{preset}-{row}-{parameter}")
    for parameter, by_preset in PROSE_PARAMETERS.items():
        for preset, value in by_preset.items():
            yield pytest.param(preset, parameter, value, id=f"{preset}-prose-{parameter}")


@pytest.mark.parametrize(("preset", "parameter", "expected"), list(cases()))
def test_preset_parameter_matches_rules_md(preset, parameter, expected):
    """Each preset carries the value RULES.md gives for the parameter."""
    assert getattr(get_preset(preset).rules, parameter) == expected


def test_every_row_of_the_parameter_table_is_checked():
    """No row of RULES.md's parameter table goes unchecked, and no check names a missing row."""
    rows = table_rows(RULES_MD.read_text(encoding="utf-8"), "## Parameters by preset")
    labels = [row[0] for row in rows]
    assert labels, "the parameter table was not found in RULES.md"
    assert set(labels) == set(PARAMETER_ROWS)


def test_every_parameter_is_checked_against_the_rulebook():
    """Every parameter of a ruleset is pinned by a row or a prose rule of RULES.md."""
    checked = {p for by_preset in PARAMETER_ROWS.values() for e in by_preset.values() for p in e}
    checked |= set(PROSE_PARAMETERS)
    assert checked == set(rulesets.PARAMETERS)


CATEGORY_ROWS = {
    # category: (min members, max members, pieces, minutes, rogaland capacity, rogaland fee)
    "individual": (1, 1, 500, 120, 50, Decimal("200")),
    "pair": (2, 2, 500, 120, 30, Decimal("300")),
    "team": (3, 4, 1000, 120, 15, Decimal("400")),
}


def test_category_table_rows_are_the_checked_ones():
    rows = table_rows(RULES_MD.read_text(encoding="utf-8"), "## Categories (competitions)")
    assert [row[0] for row in rows] == list(CATEGORY_ROWS)


# The world championship's categories are its own (tests/championship/test_preset_wjpc.py).
@pytest.mark.parametrize("preset", [key for key in presets.PRESET_KEYS if key != "wjpc"])
@pytest.mark.parametrize("kind", list(CATEGORY_ROWS))
def test_category_defaults_follow_the_categories_table(preset, kind):
    """Members, pieces and time limit are the same everywhere; rogaland sets capacity and fee."""
    lo, hi, pieces, minutes, capacity, fee = CATEGORY_ROWS[kind]
    defaults = get_preset(preset).categories[kind]
    assert (defaults.min_members, defaults.max_members) == (lo, hi)
    assert (defaults.pieces, defaults.time_limit_minutes) == (pieces, minutes)
    if preset == "rogaland":
        assert (defaults.capacity, defaults.fee) == (capacity, fee)
    else:  # sm and dm set capacity and fee per event
        assert (defaults.capacity, defaults.fee) == (None, Decimal("0"))


@pytest.mark.parametrize(
    ("preset", "currency", "language", "timezone"),
    [
        ("rogaland", "NOK", "nb", "Europe/Oslo"),
        ("sm", "SEK", "sv", "Europe/Stockholm"),
        ("dm", "DKK", "da", "Europe/Copenhagen"),
    ],
)
def test_currency_and_language_follow_the_country(preset, currency, language, timezone):
    chosen = get_preset(preset)
    assert (chosen.currency, chosen.language, chosen.timezone) == (currency, language, timezone)


def test_overrides_replace_only_the_named_parameters():
    rules = effective_rules("sm", {"max_lost_pieces": 5, "rounds_team": ["final"]})
    assert rules.max_lost_pieces == 5
    assert rules.rounds_team == ("final",)
    assert rules.penalty_seconds_per_piece == 10


def test_no_overrides_give_the_preset_itself():
    assert effective_rules("dm", {}) == get_preset("dm").rules
    assert effective_rules("dm", None) is get_preset("dm").rules


@pytest.mark.parametrize(
    ("overrides", "parameter", "code"),
    [
        ({"penalty_per_piece": 5}, "penalty_per_piece", "unknown_parameter"),
        ({"penalty_seconds_per_piece": -1}, "penalty_seconds_per_piece", "invalid_value"),
        ({"penalty_seconds_per_piece": "10"}, "penalty_seconds_per_piece", "invalid_value"),
        ({"penalty_seconds_per_piece": True}, "penalty_seconds_per_piece", "invalid_value"),
        ({"max_lost_pieces": 2.5}, "max_lost_pieces", "invalid_value"),
        ({"prize_places": 4}, "prize_places", "invalid_value"),
        (
            {"adjacent_missing_waives_penalty": "yes"},
            "adjacent_missing_waives_penalty",
            "invalid_value",
        ),
        ({"penalty_charges": "some"}, "penalty_charges", "invalid_value"),
        ({"rounds_pair": []}, "rounds_pair", "invalid_value"),
        ({"rounds_pair": ["final", "prelim"]}, "rounds_pair", "invalid_value"),
        ({"rounds_pair": ["prelim"]}, "rounds_pair", "invalid_value"),
        ({"rounds_pair": ["prelim", "prelim", "final"]}, "rounds_pair", "invalid_value"),
        ({"published_fields": ["email"]}, "published_fields", "invalid_value"),
        ({"seating_first_round": None}, "seating_first_round", "invalid_value"),
    ],
)
def test_bad_overrides_are_refused_naming_the_parameter(overrides, parameter, code):
    with pytest.raises(RulesetError) as caught:
        effective_rules("rogaland", overrides)
    assert caught.value.parameter == parameter
    assert caught.value.code == code
    assert parameter in str(caught.value)


def test_an_unknown_preset_is_refused():
    with pytest.raises(RulesetError) as caught:
        effective_rules("ejpc")
    assert caught.value.parameter == "ruleset"
    assert "ejpc" in caught.value.message


def test_overrides_must_be_an_object():
    with pytest.raises(RulesetError) as caught:
        effective_rules("sm", ["max_lost_pieces"])
    assert caught.value.code == "invalid_overrides"


def test_rules_round_trip_through_json_values():
    """as_dict gives JSON values that are accepted back as overrides, unchanged."""
    rules = get_preset("sm").rules
    assert effective_rules("sm", rules.as_dict()) == rules


def test_the_rules_module_imports_nothing_from_django():
    tree = ast.parse(Path(rulesets.__file__).read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported, "the import check found no imports at all"
    assert not any(name.split(".")[0] == "django" for name in imported)
