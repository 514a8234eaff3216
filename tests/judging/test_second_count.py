"""Two judges count an unfinished puzzle: equal counts are final, different ones go to the head
judge, who decides with a reason; nobody sees the first count before counting second."""

import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from championship.models import Championship, ChampionshipRole
from championship.services import tables_create
from judging import dashboard, selectors
from judging.capture_kinds import CaptureConflict, CaptureInput
from judging.derive import result_derive
from judging.models import Capture
from judging.services import capture_record
from results.models import Result
from results.services import results_missing, standings_ensure
from tests import factories

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)
TIME_UP = START + timedelta(minutes=100)


@pytest.fixture
def counting(db):
    """An sm heat whose time is up: three entrants, two judges and a head judge."""
    championship = factories.championship(slug="sm-count", ruleset="sm")
    assert championship.second_count  # sm's preset: two judges count
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.order_by("order").first()
    tables_create(championship=championship, count=4)
    entries = [
        factories.entry(
            individual,
            members=[factories.person(championship, citizenship=["SE"])],
            checked_in_at=START,
        )
        for _ in range(3)
    ]
    heat = factories.started_heat(round_, started_at=START)
    return {
        "championship": championship,
        "round": round_,
        "heat": heat,
        "entries": entries,
        "pieces": individual.pieces,
        "anna": factories.role(championship, ChampionshipRole.Role.JUDGE, username="anna"),
        "bo": factories.role(championship, ChampionshipRole.Role.JUDGE, username="bo"),
        "cia": factories.role(championship, ChampionshipRole.Role.JUDGE, username="cia"),
        "head": factories.role(championship, ChampionshipRole.Role.HEAD_JUDGE, username="head"),
    }


def record(ctx, judge, kind="pieces", *, entry=0, **fields):
    data = CaptureInput(client_id=uuid.uuid4(), kind=kind, **fields)
    return capture_record(
        round_=ctx["round"], entry=ctx["entries"][entry], judge=ctx[judge], data=data, now=TIME_UP
    )


def result_of(ctx, entry=0) -> Result:
    standings_ensure(ctx["round"])
    return Result.objects.get(round=ctx["round"], entry=ctx["entries"][entry])


def test_the_presets_say_who_counts_twice():
    assert factories.championship(ruleset="sm").second_count
    assert factories.championship(ruleset="dm").second_count
    assert not factories.championship(ruleset="rogaland").second_count


def test_a_first_count_is_provisional_and_gives_no_place(counting):
    first = record(counting, "anna", pieces_remaining=30).result
    assert (first.status, first.count_state) == ("unfinished", "awaiting_second")
    assert first.pieces_placed is None and first.counted_pieces is None
    assert first.outcome == ""
    assert result_of(counting).place is None
    # The round is not complete while a count waits: it cannot be closed as complete.
    assert results_missing(counting["round"]) == 3


def test_an_equal_second_count_makes_the_count_final(counting):
    pieces = counting["pieces"]
    record(counting, "anna", pieces_remaining=30)
    # The second judge counts the pieces placed, the first counted the remaining: the same count.
    agreed = record(counting, "bo", pieces_placed=pieces - 30).result
    assert (agreed.count_state, agreed.pieces_placed, agreed.counted_pieces) == (
        "agreed",
        pieces - 30,
        pieces - 30,
    )
    assert agreed.outcome == "unfinished"
    record(counting, "anna", "finish", entry=1, at=START + timedelta(minutes=80))
    assert result_of(counting).place == 2
    # The entrant confirms the agreed count, at either judge's phone.
    confirmed = record(counting, "bo", "confirm").result
    assert confirmed.confirmed_at is not None and confirmed.count_state == "agreed"


def test_the_first_judge_may_count_again_before_the_second_count(counting):
    record(counting, "anna", pieces_placed=400)
    record(counting, "anna", pieces_placed=410)  # recounted: the latest count is theirs
    assert result_of(counting).count_state == "awaiting_second"
    assert record(counting, "bo", pieces_placed=410).result.count_state == "agreed"


def test_different_counts_go_to_the_head_judge_who_decides_with_a_reason(counting):
    record(counting, "anna", pieces_placed=400)
    disputed = record(counting, "bo", pieces_placed=397).result
    assert (disputed.count_state, disputed.pieces_placed, disputed.counted_pieces) == (
        "disputed",
        None,
        None,
    )
    assert result_of(counting).place is None
    # Neither the entrant's confirmation nor a third count settles it.
    with pytest.raises(CaptureConflict, match="head judge decides"):
        record(counting, "anna", "confirm")
    with pytest.raises(CaptureConflict, match="head judge decides"):
        record(counting, "cia", pieces_placed=400)
    with pytest.raises(CaptureConflict, match="head judge decides"):
        record(counting, "bo", pieces_placed=400)
    decided = record(
        counting,
        "head",
        "correction",
        pieces_placed=399,
        status="unfinished",
        reason="Counted again with the entrant: one cluster of 3 was short.",
    ).result
    assert (decided.count_state, decided.pieces_placed, decided.counted_pieces) == (
        "decided",
        399,
        399,
    )
    assert decided.confirmed_at is not None
    correction = Capture.objects.get(kind="correction")
    assert correction.judge == counting["head"]
    assert correction.reason.startswith("Counted again with the entrant")
    assert result_of(counting).outcome == "unfinished"


def test_the_head_judge_cannot_decide_without_a_reason(counting):
    record(counting, "anna", pieces_placed=400)
    record(counting, "bo", pieces_placed=397)
    with pytest.raises(Exception, match="reason"):
        record(counting, "head", "correction", pieces_placed=399, status="unfinished", reason="")
    assert result_of(counting).count_state == "disputed"
    assert Capture.objects.filter(kind="correction").count() == 0


def test_the_entrant_confirms_only_a_final_count(counting):
    record(counting, "anna", pieces_placed=400)
    with pytest.raises(CaptureConflict, match="second judge"):
        record(counting, "anna", "confirm")
    assert result_of(counting).confirmed_at is None


def test_an_agreed_count_changes_only_by_the_head_judge(counting):
    record(counting, "anna", pieces_placed=400)
    record(counting, "bo", pieces_placed=400)
    for judge in ("anna", "bo", "cia"):
        with pytest.raises(CaptureConflict, match="Two judges counted the same"):
            record(counting, judge, pieces_placed=401)
    assert result_of(counting).counted_pieces == 400


def test_with_one_judge_counting_a_count_is_final_at_once(counting):
    Championship.objects.filter(pk=counting["championship"].pk).update(second_count=False)
    counting["round"].refresh_from_db()
    result = record(counting, "anna", pieces_placed=400).result
    assert (result.count_state, result.counted_pieces) == ("single", 400)


def _switch_second_count(ctx, on: bool) -> None:
    Championship.objects.filter(pk=ctx["championship"].pk).update(second_count=on)
    ctx["round"].refresh_from_db()
    assert ctx["round"].championship.second_count is on


def test_a_count_keeps_the_rule_it_was_recorded_under_when_the_setting_is_switched_on(counting):
    """Counted once while one count sufficed: still final after two judges are asked for."""
    _switch_second_count(counting, False)
    assert record(counting, "anna", pieces_placed=400).result.count_state == "single"
    record(counting, "bo", "finish", entry=1, at=START + timedelta(minutes=80))
    _switch_second_count(counting, True)
    # The entrant confirms: the result is derived anew from its captures, the count stays.
    confirmed = record(counting, "anna", "confirm").result
    assert (confirmed.count_state, confirmed.counted_pieces) == ("single", 400)
    assert confirmed.confirmed_at is not None
    assert result_of(counting).place == 2
    assert Capture.objects.get(kind="pieces").second_count is False


def test_a_count_awaiting_a_second_waits_on_when_the_setting_is_switched_off(counting):
    """Recorded under two counts, it waits; a count recorded after the switch is final."""
    record(counting, "anna", pieces_placed=400)
    _switch_second_count(counting, False)
    # Another capture of the entry derives its result anew: the first count still waits.
    record(counting, "head", "warning", reason="Talked to a neighbour")
    assert result_of(counting).count_state == "awaiting_second"
    recounted = record(counting, "bo", pieces_placed=402).result
    assert (recounted.count_state, recounted.counted_pieces) == ("single", 402)
    assert list(Capture.objects.filter(kind="pieces").values_list("second_count", flat=True)) == [
        True,
        False,
    ]


def test_a_count_with_misplaced_pieces_waits_for_a_second_judge_too(counting):
    """One judge cannot set a count alone by declaring misplaced pieces."""
    record(counting, "anna", "finish", at=START + timedelta(minutes=80))
    first = record(counting, "anna", "incorrect", pieces_placed=490).result
    assert (first.count_state, first.counted_pieces, first.outcome) == (
        "awaiting_second",
        None,
        "",
    )
    assert (first.status, first.incorrect) == ("finished", True)
    assert states(counting, "anna")["step"] == "counted"
    assert states(counting, "bo")["step"] == "timeup"
    second = record(counting, "bo", "incorrect", pieces_placed=490).result
    assert (second.count_state, second.counted_pieces, second.outcome) == (
        "agreed",
        490,
        "unfinished",
    )


def test_different_counts_with_misplaced_pieces_go_to_the_head_judge(counting):
    record(counting, "anna", "finish", at=START + timedelta(minutes=80))
    record(counting, "anna", "incorrect", pieces_placed=490)
    disputed = record(counting, "bo", "incorrect", pieces_placed=470).result
    assert (disputed.count_state, disputed.counted_pieces) == ("disputed", None)
    with pytest.raises(CaptureConflict, match="head judge decides"):
        record(counting, "anna", "incorrect", pieces_placed=490)
    (dispute,) = dashboard.round_dashboard(counting["round"], now=TIME_UP).disputes
    assert [count.placed for count in dispute.counts] == [490, 470]


def test_a_count_with_misplaced_pieces_recorded_before_the_rule_stays_single(counting):
    """A count keeps the rule it was recorded under: before, one judge's sufficed."""
    record(counting, "anna", "finish", at=START + timedelta(minutes=80))
    record(counting, "anna", "incorrect", pieces_placed=490)
    captures = list(Capture.objects.filter(entry=counting["entries"][0]).order_by("received_at"))
    for capture in captures:
        capture.second_count = None  # as stored before counts kept their rule
    result = Result.objects.get(entry=counting["entries"][0])
    result_derive(result, counting["pieces"], second_count=True, captures=captures)
    assert (result.count_state, result.pieces_placed) == ("single", 490)


def states(ctx, judge):
    table = (
        Result.objects.get(entry=ctx["entries"][0]).heat.seats.get(entry=ctx["entries"][0]).table
    )
    screen = selectors.table_screen(table, now=TIME_UP, judge=ctx[judge])
    (seat,) = [s for s in screen.seats if s.entry == ctx["entries"][0]]
    return seat.state(ctx[judge])


def test_the_second_judge_does_not_see_the_first_count(counting):
    record(counting, "anna", pieces_placed=412)
    mine = states(counting, "anna")
    assert (mine["step"], mine["ownCount"], mine["countState"]) == (
        "counted",
        412,
        "awaiting_second",
    )
    theirs = states(counting, "bo")
    assert (theirs["step"], theirs["ownCount"], theirs["countState"]) == (
        "timeup",
        None,
        "awaiting_second",
    )
    assert theirs["result"]["pieces_placed"] is None
    assert theirs["result"]["counted_pieces"] is None
    assert "412" not in str(theirs)
    record(counting, "bo", pieces_placed=410)
    assert states(counting, "anna")["step"] == "disputed"
    assert states(counting, "bo")["step"] == "disputed"


def test_the_capture_answer_carries_the_count_state(counting):
    client = APIClient()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("api:captures", kwargs={"championship_slug": "sm-count"})
    answers = []
    for judge, placed in (("anna", 400), ("bo", 400)):
        client.force_authenticate(counting[judge])
        response = client.post(
            url,
            {
                "id": str(uuid.uuid4()),
                "round": counting["round"].key,
                "entry": counting["entries"][0].ref,
                "kind": "pieces",
                "pieces_placed": placed,
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
        answers.append(response.json()["result"])
    assert [(a["count_state"], a["counted_pieces"]) for a in answers] == [
        ("awaiting_second", None),
        ("agreed", 400),
    ]


@pytest.fixture
def head_client(client, counting):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(counting["head"])
    return client


def dashboard_url(ctx):
    return reverse(
        "manage:dashboard", kwargs={"championship_slug": "sm-count", "round_key": ctx["round"].key}
    )


def test_the_dashboard_shows_counting_progress_and_hides_a_first_count(counting, head_client):
    counting["heat"].state = "time_up"
    counting["heat"].save()
    record(counting, "anna", entry=0, pieces_placed=412)
    record(counting, "anna", entry=1, pieces_placed=300)
    record(counting, "bo", entry=1, pieces_placed=300)
    record(counting, "anna", entry=2, pieces_placed=250)
    record(counting, "bo", entry=2, pieces_placed=260)
    board = dashboard.round_dashboard(counting["round"], now=TIME_UP)
    (heat,) = board.heats
    assert (heat.counted, heat.second_awaited, heat.disputed) == (1, 1, 1)
    assert heat.awaiting == 1  # only the agreed count waits for the entrant's confirmation
    (dispute,) = board.disputes
    assert dispute.row.seat.entry == counting["entries"][2]
    assert [(c.judge, c.placed) for c in dispute.counts] == [("anna", 250), ("bo", 260)]
    page = head_client.get(dashboard_url(counting)).content.decode()
    assert "1 piece count to decide" in page
    assert "anna counted 250 pieces placed" in page and "bo counted 260 pieces placed" in page
    assert "1</strong> waiting for a second count" in page
    assert "412" not in page  # the first count of entry 0 waits for its second count
    assert "counted; shown after the second count" in page


def test_the_head_judge_decides_on_the_dashboard_with_a_reason(counting, head_client):
    record(counting, "anna", pieces_placed=250)
    record(counting, "bo", pieces_placed=260)
    url = reverse(
        "manage:dashboard_correct",
        kwargs={"championship_slug": "sm-count", "round_key": counting["round"].key},
    )
    entry = counting["entries"][0]
    form = {"entry": entry.pk, "status": "unfinished", "pieces_placed": 255, "missing_lost": 0}
    refused = head_client.post(url, {**form, "reason": ""})
    assert refused.status_code == 200
    assert "A correction needs a reason." in refused.content.decode()
    assert result_of(counting).count_state == "disputed"
    decided = head_client.post(url, {**form, "reason": "Recounted together"})
    assert decided.status_code == 302
    result = result_of(counting)
    assert (result.count_state, result.counted_pieces) == ("decided", 255)
    page = head_client.get(dashboard_url(counting)).content.decode()
    assert "piece count to decide" not in page
    assert "Recounted together" in page


def test_the_results_say_counting_and_never_show_a_provisional_count(counting, client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    record(counting, "anna", pieces_placed=412)
    kwargs = {"championship_slug": "sm-count", "round_key": counting["round"].key}
    for name in ("results:round", "results:screen"):
        page = client.get(reverse(name, kwargs=kwargs)).content.decode()
        assert "Counting" in page
        # As a number of its own: an entry's random reference may hold the digits.
        assert not re.search(r"\b412\b", page)
    answer = client.get(
        reverse(
            "api:round-results",
            kwargs={"championship_slug": "sm-count", "round_key": counting["round"].key},
        )
    )
    assert not re.search(r"\b412\b", answer.content.decode())
