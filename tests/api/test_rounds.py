"""Round actions over the API: seat, start, close, advance; 409 for what the state forbids."""

import pytest
from rest_framework.test import APIClient

from championship.models import ChampionshipRole, Round
from championship.services import tables_create
from results.models import Result
from results.services import standings_recompute
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def dm(db):
    championship = factories.championship(slug="dm-2026", ruleset="dm")
    individual = championship.categories.get(kind="individual")
    tables_create(championship=championship, count=10)
    for _ in range(6):
        factories.entry(individual)
    prelim = individual.rounds.get(stage="prelim")
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=3)
    return championship


@pytest.fixture
def api(dm):
    client = APIClient()
    client.force_authenticate(factories.role(dm, ChampionshipRole.Role.ORGANISER))
    return client


def action(client, name, round_key="individual-prelim", **body):
    return client.post(
        f"/api/v1/championships/dm-2026/rounds/{round_key}/{name}/", body, format="json"
    )


def test_seat_start_close_advance(api, dm):
    seated = action(api, "seat", heats=2)
    assert seated.status_code == 200, seated.json()
    assert seated.json()["state"] == "seated"
    assert [h["key"] for h in seated.json()["heats"]] == ["a", "b"]
    started = action(api, "start", heat="a")
    assert started.status_code == 200
    assert [h["state"] for h in started.json()["heats"]] == ["running", "scheduled"]
    assert action(api, "start").status_code == 200
    assert action(api, "start").status_code == 409
    assert action(api, "advance").status_code == 409  # not closed, results not final
    assert action(api, "close").json()["state"] == "closed"
    prelim = Round.objects.get(key="individual-prelim")
    factories.ran_earlier(prelim)
    for minute, result in enumerate(Result.objects.filter(round=prelim), start=40):
        result.status, result.time_ms = "finished", minute * 60_000
        result.save()
    standings_recompute(round_=prelim)
    # Provisional results: the API asks first, as the control room does.
    assert action(api, "advance").status_code == 409
    signed = action(api, "publish")
    assert signed.status_code == 200 and signed.json()["state"] == "published"
    advanced = action(api, "advance")
    assert advanced.status_code == 200
    assert advanced.json()["round"] == "individual-final"
    assert advanced.json()["state"] == "seated"


def test_a_second_start_is_a_409_with_the_reason(api):
    action(api, "seat")
    action(api, "start")
    response = action(api, "start")
    assert response.status_code == 409
    assert "already started" in response.json()["detail"]


def test_unknown_action_round_and_heat(api):
    assert action(api, "explode").status_code == 404
    assert action(api, "seat", round_key="no-such-round").status_code == 404
    action(api, "seat")
    assert action(api, "start", heat="zz").status_code == 400
    assert action(api, "seat", heats=0).status_code == 400


def test_only_organisers_act(dm):
    anonymous = APIClient()
    assert action(anonymous, "seat").status_code == 401
    judge = APIClient()
    judge.force_authenticate(factories.role(dm, ChampionshipRole.Role.JUDGE))
    assert action(judge, "seat").status_code == 403
    assert not Round.objects.get(key="individual-prelim").heats.exists()


def test_prior_ranking_rules_answer_400_to_another_order_with_the_reason(api):
    response = action(api, "seat", order="random", seed=3)
    assert response.status_code == 400
    assert "prior ranking" in response.json()["order"][0]
    assert not Round.objects.get(key="individual-prelim").heats.exists()


def test_equal_heats_answer_400_to_heat_sizes(api):
    response = action(api, "seat", heats=2, heat_sizes=[4, 2])
    assert response.status_code == 400
    assert "equal in size" in response.json()["heat_sizes"][0]
    assert not Round.objects.get(key="individual-prelim").heats.exists()


def test_heat_sizes_where_the_organiser_splits_the_heats(db):
    rm = factories.championship(slug="rm-2026")
    individual = rm.categories.get(kind="individual")
    tables_create(championship=rm, count=10)
    for _ in range(6):
        factories.entry(individual)
    client = APIClient()
    client.force_authenticate(factories.role(rm, ChampionshipRole.Role.ORGANISER))
    path = "/api/v1/championships/rm-2026/rounds/individual-final/seat/"
    refused = client.post(path, {"heat_sizes": [4, 1]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["heat_sizes"] == [
        "The heat sizes add up to 5, but there are 6 entries to seat."
    ]
    # The number of heats follows the sizes when it is not given.
    seated = client.post(path, {"heat_sizes": [4, 2], "order": "registration"}, format="json")
    assert seated.status_code == 200, seated.json()
    assert [h["key"] for h in seated.json()["heats"]] == ["a", "b"]
    final = individual.rounds.get()
    assert [h.seats.count() for h in final.heats.order_by("order")] == [4, 2]
