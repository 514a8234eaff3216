"""The championships API: the list and the detail, and the registration states they show."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from championship.models import Championship, Round
from registration import places
from tests import factories
from tests.api.championships import results_url

pytestmark = pytest.mark.django_db


CHAMPIONSHIP_KEYS = {
    "slug",
    "name",
    "ruleset",
    "starts_at",
    "timezone",
    "venue",
    "currency",
    "language",
    "draft",
    "url",
}
DETAIL_KEYS = CHAMPIONSHIP_KEYS | {
    "address",
    "registration_deadline",
    "categories",
    "rounds",
    "questions",
    # Where and how entrants pay (each empty where the championship has none).
    "payment_reference_scheme",
    "payee_name",
    "swish_number",
    "vipps_number",
    "mobilepay_number",
    "bank_account",
    "iban",
    "bic",
    "refund_days_before",
}
CATEGORY_KEYS = {
    "key",
    "kind",
    "name",
    "min_members",
    "max_members",
    "pieces",
    "time_limit_minutes",
    "capacity",
    "confirmed_count",
    "waitlisted_count",
    "fee",
    "currency",
    "registration_opens_at",
    "registration_state",
    "puzzle_brand",
    "puzzle_motif",
}
ROUND_KEYS = {
    "key",
    "name",
    "category",
    "stage",
    "state",
    "version",
    "time_limit_minutes",
    "pieces",
    "puzzles",
    "advance",
    "heats",
    "results_url",
}
HEAT_KEYS = {"key", "name", "state", "scheduled_start", "started_at"}


# The list and the detail.


def test_the_list_shows_the_publicly_listed_championships(api, championship):
    Championship.objects.filter(pk=factories.championship(slug="hidden").pk).update(is_public=False)
    factories.championship(slug="a-draft", draft=True)
    response = api.get("/api/v1/championships/")
    assert response.status_code == 200
    assert [item["slug"] for item in response.json()] == ["rm-2026"]
    item = response.json()[0]
    assert set(item) == CHAMPIONSHIP_KEYS
    assert item["draft"] is False
    assert item["name"] == "Rogalandsmesterskapet 2026"
    assert item["ruleset"] == "rogaland"
    assert item["currency"] == "NOK"
    assert item["timezone"] == "Europe/Oslo"
    assert item["url"] == "http://testserver/api/v1/championships/rm-2026/"


def test_the_detail_shows_categories_and_rounds_with_heats(api, championship):
    individual = championship.categories.get(kind="individual")
    factories.entry(individual)
    factories.entry(individual)
    factories.entry(individual, status="waitlisted")
    final = individual.rounds.get()
    factories.heat(final, key="b", order=2, name="Heat B")
    factories.heat(final, key="a", order=1)

    response = api.get("/api/v1/championships/rm-2026/")

    assert response.status_code == 200
    body = response.json()
    assert set(body) == DETAIL_KEYS
    assert body["slug"] == "rm-2026"
    assert body["url"] == "http://testserver/api/v1/championships/rm-2026/"
    assert [c["key"] for c in body["categories"]] == ["individual", "pair", "team"]
    category = body["categories"][0]
    assert set(category) == CATEGORY_KEYS
    assert category == category | {
        "kind": "individual",
        "min_members": 1,
        "max_members": 1,
        "pieces": 500,
        "capacity": 50,
        "confirmed_count": 2,
        "waitlisted_count": 1,
        "fee": "200.00",
        "currency": "NOK",
    }
    assert [r["key"] for r in body["rounds"]] == ["individual-final", "pair-final", "team-final"]
    round_ = body["rounds"][0]
    assert set(round_) == ROUND_KEYS
    assert round_ == round_ | {
        "category": "individual",
        "stage": "final",
        "state": "planned",
        "version": 1,
        "pieces": 500,
        "puzzles": 1,
        "advance": {},
        "results_url": "http://testserver" + results_url(championship, "individual-final"),
    }
    assert [heat["key"] for heat in round_["heats"]] == ["a", "b"]
    assert set(round_["heats"][0]) == HEAT_KEYS
    assert [heat["name"] for heat in round_["heats"]] == ["a", "Heat B"]
    assert round_["heats"][0]["state"] == "scheduled"
    assert round_["heats"][0]["started_at"] is None


def test_the_advancement_is_shown_as_in_the_interchange_format(api, db):
    factories.championship(slug="sm-2026", ruleset="sm")
    Round.objects.filter(key="individual-prelim").update(
        advance="per_heat", advance_count=3, advance_best_remaining=2
    )
    Round.objects.filter(key="pair-prelim").update(advance="overall", advance_count=4)
    rounds = {r["key"]: r for r in api.get("/api/v1/championships/sm-2026/").json()["rounds"]}
    assert rounds["individual-prelim"]["advance"] == {"per_heat": 3, "best_remaining": 2}
    assert rounds["pair-prelim"]["advance"] == {"overall": 4}
    assert rounds["individual-final"]["advance"] == {}


def test_the_puzzle_is_shown_only_once_a_heat_of_its_category_started(api, championship):
    individual = championship.categories.get(kind="individual")
    individual.puzzle_brand, individual.puzzle_motif = "Ravensburger", "Preikestolen at dawn"
    individual.save()
    heat = factories.heat(individual.rounds.get())

    category = api.get("/api/v1/championships/rm-2026/").json()["categories"][0]
    assert (category["puzzle_brand"], category["puzzle_motif"]) == (None, None)

    heat.started_at, heat.state = factories.START, "running"
    heat.save()
    category = api.get("/api/v1/championships/rm-2026/").json()["categories"][0]
    assert (category["puzzle_brand"], category["puzzle_motif"]) == (
        "Ravensburger",
        "Preikestolen at dawn",
    )


def test_the_detail_takes_the_same_queries_however_big_the_championship(api, championship):
    with CaptureQueriesContext(connection) as small:
        assert api.get("/api/v1/championships/rm-2026/").status_code == 200
    for category in championship.categories.all():
        for _ in range(3):
            factories.entry(category, members=[factories.person(championship)])
        for key in "abc":
            factories.heat(category.rounds.get(), key=key, started_at=factories.START)
    with CaptureQueriesContext(connection) as big:
        assert api.get("/api/v1/championships/rm-2026/").status_code == 200
    assert len(big) == len(small)


def test_an_unknown_championship_is_404(api, db):
    assert api.get("/api/v1/championships/nowhere/").status_code == 404
    assert api.get("/api/v1/championships/nowhere/rounds/x/results/").status_code == 404


# Registration states.


def registration_states(api, championship) -> dict[str, str]:
    body = api.get(f"/api/v1/championships/{championship.slug}/").json()
    return {category["key"]: category["registration_state"] for category in body["categories"]}


def test_registration_is_open_full_not_open_or_closed(api, db):
    now = timezone.now()
    championship = factories.championship(slug="later", starts_at=now + timedelta(days=30))
    pair = championship.categories.get(kind="pair")
    pair.capacity = 1
    pair.save()
    factories.entry(pair)
    team = championship.categories.get(kind="team")
    team.registration_opens_at = now + timedelta(days=1)
    team.save()

    assert registration_states(api, championship) == {
        "individual": "open",
        "pair": "full",
        "team": "not_open",
    }

    # rogaland closes registration five days before the start.
    soon = factories.championship(slug="soon", starts_at=now + timedelta(days=4))
    assert set(registration_states(api, soon).values()) == {"closed"}


def test_a_waitlisted_or_withdrawn_entry_does_not_fill_a_category(championship):
    individual = championship.categories.get(kind="individual")
    individual.capacity = 1
    individual.save()
    factories.entry(individual, status="waitlisted")
    before_deadline = championship.starts_at - timedelta(days=10)
    assert places.registration_state(individual, now=before_deadline) == "open"
    factories.entry(individual)
    assert places.registration_state(individual, now=before_deadline) == "full"


def test_registration_closes_at_the_organisers_deadline(championship):
    individual = championship.categories.get(kind="individual")
    # Earlier than rogaland's own deadline (five days before the start), so it holds.
    championship.registration_deadline = championship.starts_at - timedelta(days=6)
    championship.save()
    individual.refresh_from_db()
    deadline = championship.registration_deadline
    assert places.registration_state(individual, now=deadline - timedelta(seconds=1)) == "open"
    assert places.registration_state(individual, now=deadline) == "closed"


def test_a_category_without_capacity_is_never_full(db):
    sm = factories.championship(ruleset="sm", starts_at=timezone.now() + timedelta(days=30))
    individual = sm.categories.get(kind="individual")
    for _ in range(3):
        factories.entry(individual)
    assert places.registration_state(individual) == "open"
