"""The wjpc preset: the 2024 values of WJPC.md, and the rounds of its stage layouts."""

import ast
import json
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from championship import layouts, presets, services
from championship.models import Championship
from championship.presets import effective_rules, get_preset
from tests import factories

WJPC = get_preset("wjpc")

# Every parameter of the preset, as docs/rulesets.md gives it.
RULES = {
    "eligibility": "everyone",
    "eligibility_region": "",
    "eligibility_region_min_years": 0,
    "eligibility_citizenship": "",
    "unofficial_allowed": False,
    "pair_official_min_eligible": 0,
    "team_official_min_eligible": 0,
    "min_age_individual": 14,
    "min_age_pair": None,
    "min_age_team": None,
    "adult_required_below": 14,
    "registration_closes_days_before": 5,
    "one_entry_per_person_per_category": True,
    "entries_represent_country": True,
    "neutral_flag_allowed": True,
    "check_in_required": False,
    "late_arrival_disqualify_minutes": 10,
    "rounds_individual": ("prelim", "semifinal", "final"),
    "rounds_pair": ("prelim", "semifinal", "final"),
    "rounds_team": ("prelim", "final"),
    "seating_first_round": "prior_ranking",
    "seating_later_rounds": "previous_placement",
    "heat_split": "organiser",
    "table_sharing_above": None,
    "reserved_guest_tables_max": 0,
    "individual_start_times": False,
    "penalty_seconds_per_piece": 10,
    "penalty_charges": "all",
    "max_lost_pieces": None,
    "invalid_attempts_placed": True,
    "pieces_found_later": False,
    "adjacent_missing_waives_penalty": False,
    "late_last_piece_seconds": None,
    "misplaced_finish_is_unfinished": True,
    "counted_cluster_min_pieces": 3,
    "unofficial_advance_only_if_better": False,
    "prize_places": 3,
    "title_to_best_official": False,
    "published_fields": ("name", "nationality"),
}

# (key, name, stage, into, pieces per puzzle, puzzles, minutes, advance, T, K, completion)
GROUP = (500, 1, 90, "country", 60, 30, True)
SEMIFINAL = (500, 1, 90, "country", 90, None, True)
PAIR_SEMIFINAL = (500, 1, 75, "country", 50, 25, True)
INDIVIDUAL_ROUNDS = [
    *[
        (f"individual-group-{g}", f"Group {g.upper()}", "prelim", "individual-semifinal-1", *GROUP)
        for g in "abc"
    ],
    *[
        (f"individual-group-{g}", f"Group {g.upper()}", "prelim", "individual-semifinal-2", *GROUP)
        for g in "def"
    ],
    ("individual-semifinal-1", "Semifinal 1", "semifinal", "individual-final", *SEMIFINAL),
    ("individual-semifinal-2", "Semifinal 2", "semifinal", "individual-final", *SEMIFINAL),
    ("individual-final", "", "final", None, 500, 1, 75, "none", None, None, False),
]
PAIR_ROUNDS = [
    ("pair-group-a", "Group A", "prelim", "pair-semifinal-1", 500, 1, 75, "country", 90, 45, False),
    ("pair-group-b", "Group B", "prelim", "pair-semifinal-1", 500, 1, 75, "country", 90, 45, False),
    ("pair-group-c", "Group C", "prelim", "pair-semifinal-2", 500, 1, 75, "country", 90, 45, False),
    ("pair-group-d", "Group D", "prelim", "pair-semifinal-2", 500, 1, 75, "country", 90, 45, False),
    ("pair-semifinal-1", "Semifinal 1", "semifinal", "pair-final", *PAIR_SEMIFINAL),
    ("pair-semifinal-2", "Semifinal 2", "semifinal", "pair-final", *PAIR_SEMIFINAL),
    ("pair-final", "", "final", None, 1000, 1, 120, "none", None, None, False),
]
TEAM_ROUNDS = [
    ("team-group-a", "Group A", "prelim", "team-final", 1000, 2, 180, "country", 36, 18, False),
    ("team-group-b", "Group B", "prelim", "team-final", 1000, 2, 180, "country", 36, 18, False),
    ("team-group-c", "Group C", "prelim", "team-final", 1000, 2, 180, "country", 36, 18, False),
    ("team-final", "", "final", None, 1000, 2, 180, "none", None, None, False),
]


def rounds_of(championship) -> list[tuple]:
    """Return each round as the tables above give it, in the category's order."""
    return [
        (
            r.key,
            r.name,
            r.stage,
            r.into.key if r.into else None,
            r.pieces_per_puzzle,
            r.puzzles,
            r.effective_time_limit_minutes,
            r.advance,
            r.advance_count,
            r.advance_country_places,
            r.advance_country_requires_completion,
        )
        for r in championship.rounds.select_related("into", "category").order_by(
            "category__order", "order"
        )
    ]


def winter_day(day: int) -> date:
    return date(timezone.now().year + 1, 1, day)


def wjpc_championship(**kwargs):
    return services.championship_create(
        slug="wjpc-2027",
        name="WJPC 2027",
        ruleset="wjpc",
        starts_at=timezone.now() + timedelta(days=60),
        **kwargs,
    )


# The preset's values (no database) -------------------------------------------------------


def test_the_preset_is_offered_with_its_country():
    assert "wjpc" in presets.PRESET_KEYS
    assert (WJPC.country, WJPC.currency, WJPC.language, WJPC.timezone) == (
        "ES",
        "EUR",
        "en",
        "Europe/Madrid",
    )
    assert WJPC.title == "World Jigsaw Puzzle Championship"


@pytest.mark.parametrize(("parameter", "value"), list(RULES.items()))
def test_each_parameter_has_the_2024_value(parameter, value):
    assert getattr(WJPC.rules, parameter) == value


def test_every_parameter_is_pinned():
    assert set(RULES) == set(WJPC.rules.as_dict())


def test_the_categories():
    rows = {
        kind: (d.min_members, d.max_members, d.pieces, d.time_limit_minutes, d.capacity, d.fee)
        for kind, d in WJPC.categories.items()
    }
    assert rows == {
        "individual": (1, 1, 500, 90, None, Decimal("0")),
        "pair": (2, 2, 500, 75, None, Decimal("0")),
        # Teams of 4; some started with 2 or 3.
        "team": (2, 4, 1000, 180, None, Decimal("0")),
    }


@pytest.mark.parametrize("kind", ["individual", "pair", "team"])
def test_each_layout_has_the_rules_stages(kind):
    assert layouts.stages_of(WJPC.layouts[kind]) == WJPC.rules.rounds_for(kind)


def test_the_other_presets_have_no_layout():
    for key in ("rogaland", "sm", "dm", "neutral"):
        assert get_preset(key).layouts == {}, key


def test_the_groups_feed_the_next_stage_in_blocks():
    planned = layouts.plan(WJPC.layouts["individual"])
    assert [(r.key, r.into) for r in planned] == [
        ("group-a", "semifinal-1"),
        ("group-b", "semifinal-1"),
        ("group-c", "semifinal-1"),
        ("group-d", "semifinal-2"),
        ("group-e", "semifinal-2"),
        ("group-f", "semifinal-2"),
        ("semifinal-1", "final"),
        ("semifinal-2", "final"),
        ("final", None),
    ]


@pytest.mark.parametrize(
    "layout",
    [
        (),
        (layouts.Stage("prelim", groups=2),),
        (layouts.Stage("final"), layouts.Stage("prelim")),
        (
            layouts.Stage("prelim", groups=2),
            layouts.Stage("semifinal", groups=3),
            layouts.Stage("final"),
        ),
        (layouts.Stage("prelim", groups=27), layouts.Stage("final")),
        (layouts.Stage("final", advance=layouts.CountryAdvance(places=5, country_places=None)),),
        (layouts.Stage("prelim", puzzles=0), layouts.Stage("final")),
    ],
)
def test_a_layout_that_does_not_narrow_to_one_final_is_refused(layout):
    with pytest.raises(ValueError):
        layouts.plan(layout)


def test_overriding_the_stages_keeps_the_rest_of_the_layout():
    team = layouts.restrict(WJPC.layouts["team"], ("final",))
    assert team == (layouts.Stage("final", puzzles=2),)
    individual = layouts.restrict(WJPC.layouts["individual"], ("prelim", "final"))
    assert [(s.stage, s.groups) for s in individual] == [("prelim", 6), ("final", 1)]


def test_overrides_still_apply():
    rules = effective_rules(
        "wjpc", {"min_age_individual": 16, "late_arrival_disqualify_minutes": None}
    )
    assert (rules.min_age_individual, rules.late_arrival_disqualify_minutes) == (16, None)
    assert rules.registration_closes_days_before == 5


def test_the_layouts_module_imports_nothing_from_django():
    tree = ast.parse(Path(layouts.__file__).read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(name.split(".")[0] in ("django", "championship") for name in imported)


# A championship created from the preset ---------------------------------------------------


@pytest.mark.django_db
def test_a_championship_gets_exactly_the_layouts_rounds():
    championship = wjpc_championship()
    assert (championship.ruleset, championship.currency, championship.language) == (
        "wjpc",
        "EUR",
        "en",
    )
    assert championship.timezone == "Europe/Madrid"
    assert championship.rule_overrides == {}
    assert rounds_of(championship) == INDIVIDUAL_ROUNDS + PAIR_ROUNDS + TEAM_ROUNDS
    # Pieces and time limits are stored only where they differ from the category's.
    stored = {
        r.key: (r.pieces, r.time_limit_minutes)
        for r in championship.rounds.filter(key__in=["individual-group-a", "pair-final"])
    }
    assert stored == {"individual-group-a": (None, None), "pair-final": (1000, 120)}
    team = championship.rounds.get(key="team-group-a")
    assert team.total_pieces == 2000
    orders = list(
        championship.rounds.filter(category__kind="individual").values_list("order", flat=True)
    )
    assert orders == list(range(1, 10))


@pytest.mark.django_db
def test_the_rounds_country_places_go_to_the_rules():
    championship = wjpc_championship()
    semifinal = championship.rounds.get(key="individual-semifinal-1")
    settings = semifinal.country_places_settings()
    assert (settings.places, settings.country_places, settings.requires_completion) == (
        90,
        None,
        True,
    )
    assert (settings.per_country, settings.only_countries_without_qualifier) == (1, False)
    fed = championship.rounds.get(key="individual-semifinal-1").fed_by.order_by("order")
    assert [r.key for r in fed] == [
        "individual-group-a",
        "individual-group-b",
        "individual-group-c",
    ]


@pytest.mark.django_db
def test_the_groups_are_named_in_the_championships_language():
    championship = wjpc_championship(language="nb")
    names = dict(championship.rounds.values_list("key", "name"))
    assert names["individual-group-a"] == "Gruppe A"
    assert names["individual-semifinal-2"] == "Semifinale 2"
    assert names["individual-final"] == ""


@pytest.mark.django_db
def test_an_override_of_the_stages_keeps_the_layouts_other_settings():
    championship = wjpc_championship(
        rule_overrides={"rounds_team": ["final"], "min_age_individual": 16}
    )
    assert championship.rules.min_age_individual == 16
    team = list(championship.rounds.filter(category__kind="team"))
    assert [(r.key, r.puzzles, r.effective_time_limit_minutes) for r in team] == [
        ("team-final", 2, 180)
    ]
    assert rounds_of(championship)[: len(INDIVIDUAL_ROUNDS)] == INDIVIDUAL_ROUNDS


@pytest.mark.django_db
@pytest.mark.parametrize("preset", ["rogaland", "sm", "dm", "neutral"])
def test_the_other_presets_create_what_they_did(preset):
    championship = services.championship_create(
        slug=f"{preset}-2027",
        name="X",
        ruleset=preset,
        starts_at=timezone.now() + timedelta(days=60),
        timezone="Europe/Oslo",
    )
    rules = championship.rules
    expected = [
        (f"{kind}-{stage}", "", stage, None, None, 1, None, "none", None, None, False, 1, False)
        for kind in ("individual", "pair", "team")
        for stage in rules.rounds_for(kind)
    ]
    rows = [
        (
            r.key,
            r.name,
            r.stage,
            r.into_id,
            r.pieces,
            r.puzzles,
            r.time_limit_minutes,
            r.advance,
            r.advance_count,
            r.advance_country_places,
            r.advance_country_requires_completion,
            r.advance_per_country,
            r.advance_only_countries_without_qualifier,
        )
        for r in championship.rounds.order_by("category__order", "order")
    ]
    assert rows == expected


# The page "New championship" and the API ---------------------------------------------------


@pytest.fixture
def creator(db):
    user = factories.user(username="creator")
    user.groups.add(services.organisers_group())
    return user


def page_post(client) -> dict:
    """Return what the page posts for a wjpc championship as the preset fills it in."""
    response = client.get(reverse("new"), {"preset": "wjpc"}, HTTP_HX_REQUEST="true")
    form = response.context["form"]
    formset = response.context["formset"]
    data = {
        "preset": "wjpc",
        "name": "WJPC 2027",
        "slug": "wjpc-2027",
        "starts_at": f"{winter_day(20):%Y-%m-%d}T10:00",
        "venue": "Valladolid",
        "currency": form["currency"].value(),
        "language": form["language"].value(),
        "timezone": form["timezone"].value(),
        "category-TOTAL_FORMS": "3",
        "category-INITIAL_FORMS": "3",
        "category-MIN_NUM_FORMS": "1",
        "category-MAX_NUM_FORMS": "3",
    }
    for index, row in enumerate(formset.forms):
        for name, value in row.initial.items():
            if name == "include":
                value = "on"
            data[f"category-{index}-{name}"] = "" if value is None else str(value)
    return data


@pytest.mark.django_db
def test_the_page_offers_the_preset_and_its_layouts(client, creator, english):
    client.force_login(creator)
    response = client.get(reverse("new"), {"preset": "wjpc"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    form = response.context["form"]
    assert "wjpc" in dict(form.fields["preset"].choices)
    assert (form["currency"].value(), form["language"].value()) == ("EUR", "en")
    assert form["timezone"].value() == "Europe/Madrid"
    rows = response.context["formset"].forms
    assert [row.initial["stages"] for row in rows] == ["layout:wjpc"] * 3
    labels = [dict(row.fields["stages"].choices)["layout:wjpc"] for row in rows]
    assert labels[0] == ("The preset's groups: 6 × Preliminary round → 2 × Semifinal → Final")
    assert labels[2] == "The preset's groups: 3 × Preliminary round → Final"
    # Another preset's page offers no layout.
    response = client.get(reverse("new"), {"preset": "sm"}, HTTP_HX_REQUEST="true")
    assert all(
        "layout:wjpc" not in dict(row.fields["stages"].choices)
        for row in response.context["formset"].forms
    )


@pytest.mark.django_db
def test_the_page_creates_the_layouts_rounds(client, creator, english):
    client.force_login(creator)
    data = page_post(client)
    response = client.post(reverse("new"), data)
    assert response.status_code == 302, response.context["formset"].errors
    championship = Championship.objects.get(slug="wjpc-2027")
    assert championship.ruleset == "wjpc"
    assert championship.rule_overrides == {}
    assert rounds_of(championship) == INDIVIDUAL_ROUNDS + PAIR_ROUNDS + TEAM_ROUNDS


@pytest.mark.django_db
def test_on_the_page_a_category_may_leave_the_layout(client, creator, english):
    client.force_login(creator)
    data = page_post(client)
    data["category-2-stages"] = "final"
    response = client.post(reverse("new"), data)
    assert response.status_code == 302, response.context["formset"].errors
    championship = Championship.objects.get(slug="wjpc-2027")
    assert championship.rule_overrides == {"rounds_team": ["final"]}
    assert [r.key for r in championship.rounds.filter(category__kind="team")] == ["team-final"]


@pytest.mark.django_db
def test_a_layout_of_another_kind_or_preset_is_refused_on_the_page(client, creator, english):
    client.force_login(creator)
    data = page_post(client)
    data["category-0-stages"] = "layout:sm"
    response = client.post(reverse("new"), data)
    assert response.status_code == 200
    assert "stages" in response.context["formset"].forms[0].errors
    assert not Championship.objects.exists()


def api_post(client, body, user):
    token = Token.objects.get_or_create(user=user)[0].key
    return client.post(
        reverse("api:championship-list"),
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token}",
    )


@pytest.mark.django_db
def test_the_api_creates_the_layouts_rounds(client, creator):
    body = {
        "preset": "wjpc",
        "name": "WJPC 2027",
        "slug": "wjpc-2027",
        "starts_at": f"{winter_day(20):%Y-%m-%d}T10:00",
    }
    response = api_post(client, body, creator)
    assert response.status_code == 201, response.json()
    assert response.json()["ruleset"] == "wjpc"
    championship = Championship.objects.get(slug="wjpc-2027")
    assert rounds_of(championship) == INDIVIDUAL_ROUNDS + PAIR_ROUNDS + TEAM_ROUNDS


@pytest.mark.django_db
def test_the_api_keeps_the_layout_of_a_category_given_without_rounds(client, creator):
    body = {
        "preset": "wjpc",
        "name": "WJPC 2027",
        "slug": "wjpc-2027",
        "starts_at": f"{winter_day(20):%Y-%m-%d}T10:00",
        "categories": [
            {"kind": "pair", "pieces": 600},
            {"kind": "team", "rounds": [{"stage": "final"}]},
        ],
    }
    response = api_post(client, body, creator)
    assert response.status_code == 201, response.json()
    championship = Championship.objects.get(slug="wjpc-2027")
    pair = [row for row in rounds_of(championship) if row[0].startswith("pair-")]
    assert [row[4] for row in pair] == [600] * 6 + [1000]
    assert [row[3] for row in pair] == [row[3] for row in PAIR_ROUNDS]
    assert championship.rule_overrides == {"rounds_team": ["final"]}
