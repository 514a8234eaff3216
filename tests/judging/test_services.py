"""Captures: stored once, derived into results, confirmed results locked, corrections audited."""

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError

from championship.models import ChampionshipRole, Round
from championship.services import tables_create
from judging import services as judging_services
from judging.capture_kinds import CaptureConflict, CaptureForbidden, CaptureInput
from judging.models import Capture
from judging.services import capture_record
from results.models import Result, RoundRanking
from results.services import standings_ensure
from tests import factories

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)


def at(minutes, seconds=0, millis=0):
    return START + timedelta(minutes=minutes, seconds=seconds, milliseconds=millis)


@pytest.fixture
def running(request):
    """A running heat of a championship on the preset named by the test's ``preset`` mark."""
    marker = request.node.get_closest_marker("preset")
    preset = marker.args[0] if marker else "rogaland"
    championship = factories.championship(slug=f"{preset}-run", ruleset=preset)
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.order_by("order").first()
    tables_create(championship=championship, count=4)
    entries = []
    for _ in range(3):
        citizenship = ["SE"] if preset == "sm" else ["NO"]
        person = factories.person(championship, region="Rogaland", citizenship=citizenship)
        # Checked in: sm seats only the checked-in.
        entries.append(factories.entry(individual, members=[person], checked_in_at=START))
    # Seeding (no prior rankings: registration order) is the order every preset allows.
    heat = factories.started_heat(round_, started_at=START)
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE)
    other = factories.role(championship, ChampionshipRole.Role.JUDGE)
    head = factories.role(championship, ChampionshipRole.Role.HEAD_JUDGE)
    return {
        "round": round_,
        "heat": heat,
        "entries": entries,
        "judge": judge,
        "other": other,
        "head": head,
    }


def record(ctx, kind="finish", *, entry=0, judge="judge", now=None, **fields):
    data = CaptureInput(client_id=fields.pop("client_id", uuid.uuid4()), kind=kind, **fields)
    return capture_record(
        round_=ctx["round"],
        entry=ctx["entries"][entry],
        judge=ctx[judge],
        data=data,
        now=now or at(100),
    )


def ranked(ctx, entry=0) -> Result:
    """Return an entry's result as a reader of the standings sees it: ranked."""
    standings_ensure(ctx["round"])
    return Result.objects.get(round=ctx["round"], entry=ctx["entries"][entry])


def test_a_finish_becomes_the_entrys_result(running):
    recorded = record(running, at=at(42, 17, 640))
    assert recorded.created
    result = recorded.result
    assert (result.status, result.time_ms, result.final_ms) == ("finished", 2_537_640, 2_537_000)
    assert result.outcome == "completed" and result.confirmed_at is None
    assert ranked(running).place == 1
    capture = recorded.capture
    assert (capture.judge, capture.device_at, capture.elapsed_ms) == (
        running["judge"],
        at(42, 17, 640),
        2_537_640,
    )
    assert capture.received_at is not None


def test_the_same_capture_sent_twice_is_stored_once_and_answered_alike(running):
    client_id = uuid.uuid4()
    first = record(running, at=at(40), missing_found=1, client_id=client_id)
    again = record(running, at=at(40), missing_found=1, client_id=client_id)
    assert not again.created
    assert again.capture.pk == first.capture.pk
    assert Capture.objects.count() == 1
    assert again.result.time_ms == 40 * 60_000


def test_only_a_stored_capture_moves_the_rounds_version_on(running):
    """Pollers fetch a new version only when something changed: not for a replay or a refusal."""
    round_ = running["round"]

    def version():
        return Round.objects.values_list("version", flat=True).get(pk=round_.pk)

    before = version()
    client_id = uuid.uuid4()
    record(running, at=at(40), client_id=client_id)
    assert version() == before + 1
    record(running, at=at(40), client_id=client_id)  # the phone sends it again
    assert version() == before + 1
    with pytest.raises(CaptureConflict):
        record(running, at=at(41), client_id=client_id)
    with pytest.raises(ValidationError):
        record(running, at=at(200))  # after the time limit
    assert version() == before + 1
    assert Capture.objects.count() == 1


@pytest.mark.parametrize(
    "changed",
    [
        {"at": at(41)},
        {"missing_found": 2},
        {"missing_lost": 1},
        {"kind": "pieces", "pieces_placed": 300},
    ],
    ids=["another instant", "other found", "other lost", "another kind"],
)
def test_a_capture_id_sent_again_with_another_body_is_a_conflict(running, changed):
    """A retry is the same capture; the same id with something else in it is refused."""
    client_id = uuid.uuid4()
    record(running, at=at(40), missing_found=1, client_id=client_id)
    body = {"at": at(40), "missing_found": 1, **changed}
    with pytest.raises(CaptureConflict):
        record(running, body.pop("kind", "finish"), client_id=client_id, **body)
    result = Result.objects.get(round=running["round"], entry=running["entries"][0])
    assert (result.time_ms, result.missing_found, Capture.objects.count()) == (40 * 60_000, 1, 1)


def test_a_capture_id_reused_for_another_entry_is_a_conflict(running):
    client_id = uuid.uuid4()
    record(running, at=at(40), client_id=client_id)
    with pytest.raises(CaptureConflict):
        record(running, at=at(40), client_id=client_id, entry=1)


def test_rogaland_penalty_for_a_piece_found_later(running):
    result = record(running, at=at(40), missing_found=1).result
    assert (result.penalty_ms, result.final_ms) == (5000, 40 * 60_000 + 5000)


def test_a_confirmed_time_cannot_be_changed_by_a_judge(running):
    record(running, at=at(40))
    confirmed = record(running, "confirm", at=at(40, 20)).result
    assert confirmed.confirmed_at is not None
    with pytest.raises(CaptureConflict, match="confirmed"):
        record(running, at=at(39))
    with pytest.raises(CaptureConflict):
        record(running, "pieces", pieces_placed=400)
    assert Result.objects.get(pk=confirmed.pk).time_ms == 40 * 60_000


def test_a_head_judge_corrects_a_confirmed_time_with_a_reason(running):
    record(running, at=at(40))
    record(running, "confirm", at=at(40, 20))
    with pytest.raises(ValidationError):
        record(running, "correction", judge="head", time_ms=38 * 60_000, reason="  ")
    corrected = record(
        running, "correction", judge="head", time_ms=38 * 60_000, reason="Stopwatch misread"
    ).result
    assert corrected.time_ms == 38 * 60_000 and corrected.confirmed_at is not None
    kinds = list(Capture.objects.order_by("received_at", "id").values_list("kind", "reason"))
    assert kinds[-1] == ("correction", "Stopwatch misread")
    assert len(kinds) == 3  # nothing was overwritten


def test_a_judge_may_not_correct_or_disqualify(running):
    with pytest.raises(CaptureForbidden):
        record(running, "correction", time_ms=1, reason="x")
    with pytest.raises(CaptureForbidden):
        record(running, "dsq", reason="Template used")


def test_another_judges_finish_for_the_same_entry_is_a_conflict(running):
    record(running, at=at(40))
    with pytest.raises(CaptureConflict, match="already recorded"):
        record(running, at=at(40, 1), judge="other")


def test_the_same_judge_may_tap_again_before_confirmation(running):
    record(running, at=at(40))
    assert record(running, at=at(40, 5)).result.time_ms == 40 * 60_000 + 5000


def test_pieces_at_time_up_rank_an_unfinished_entry(running):
    record(running, at=at(40), entry=0)
    record(running, "pieces", entry=1, pieces_remaining=30)
    unfinished = ranked(running, entry=1)
    assert (unfinished.status, unfinished.counted_pieces, unfinished.place) == (
        "unfinished",
        470,
        2,
    )


@pytest.mark.preset("sm")
def test_sm_time_with_misplaced_pieces_is_unfinished_with_its_count(running):
    record(running, at=at(40))
    record(running, "incorrect", pieces_placed=490)
    # sm asks two judges to count: the second judge's count makes it final.
    result = record(running, "incorrect", judge="other", pieces_placed=490).result
    assert (result.status, result.incorrect, result.outcome, result.counted_pieces) == (
        "finished",
        True,
        "unfinished",
        490,
    )


@pytest.mark.preset("dm")
def test_dm_late_last_piece(running):
    result = record(running, at=at(40), missing_found=1, last_piece_at=at(40, 6)).result
    assert result.final_ms == 40 * 60_000 + 6000
    late = record(running, entry=1, at=at(41), missing_found=1, last_piece_at=at(41, 30)).result
    assert late.final_ms == 41 * 60_000 + 10_000


def test_a_tap_in_the_future_or_before_the_start_is_refused(running):
    with pytest.raises(ValidationError, match="future"):
        record(running, at=at(50), now=at(49))
    with pytest.raises(ValidationError, match="before the entry's start"):
        record(running, at=START - timedelta(seconds=1))
    assert not Capture.objects.exists()


def test_an_offline_tap_keeps_its_original_instant(running):
    """Sent 20 minutes late when the network came back: the tap's own instant counts."""
    result = record(running, at=at(40), now=at(60)).result
    assert result.time_ms == 40 * 60_000


def test_a_finish_after_the_time_limit_is_refused(running):
    with pytest.raises(ValidationError, match="time limit"):
        record(running, at=at(121), now=at(121))


def test_a_capture_for_an_entry_not_seated_is_refused(running):
    stranger = factories.entry(running["round"].category)
    running["entries"].append(stranger)
    with pytest.raises(ValidationError, match="not seated"):
        record(running, entry=3, at=at(40))


def test_an_entry_with_a_later_start_is_timed_from_it(running):
    seat = running["round"].seats.get(entry=running["entries"][0])
    judging_services.seat_set_start(seat=seat, at=at(2))
    assert record(running, at=at(42)).result.time_ms == 40 * 60_000


def test_dns_and_dsq_take_no_place(running):
    record(running, at=at(40))
    record(running, "dns", entry=1, judge="head")
    assert (ranked(running).place, ranked(running, entry=1).place) == (1, None)
    record(running, "dsq", entry=2, judge="head", reason="Outside help")
    dsq = ranked(running, entry=2)
    assert (dsq.status, dsq.outcome, dsq.place) == ("dsq", "dsq", None)
    with pytest.raises(CaptureConflict):
        record(running, entry=2, at=at(45))


def test_negative_or_oversized_counts_are_refused(running):
    with pytest.raises(ValidationError):
        record(running, at=at(40), missing_found=-1)
    with pytest.raises(ValidationError):
        record(running, "pieces", pieces_placed=501)
    assert not Capture.objects.exists()


def test_every_capture_bumps_the_rounds_version(running):
    round_ = running["round"]
    round_.refresh_from_db()
    before = round_.version
    record(running, at=at(40))
    round_.refresh_from_db()
    assert round_.version > before


def test_a_no_show_can_be_marked_before_the_heat_starts(running):
    from championship.models import Heat

    Heat.objects.filter(pk=running["heat"].pk).update(started_at=None, state="scheduled")
    result = record(running, "dns", entry=2, judge="head").result
    assert result.status == "dns"
    with pytest.raises(ValidationError, match="not started"):
        record(running, at=at(40))


def test_a_later_start_set_after_the_tap_retimes_the_finish(running):
    """The judge tapped TIME, then the head judge recorded the taped bag's later start."""
    record(running, at=at(42))
    seat = running["round"].seats.get(entry=running["entries"][0])
    judging_services.seat_set_start(seat=seat, at=at(3))
    result = Result.objects.get(round=running["round"], entry=running["entries"][0])
    assert result.time_ms == 39 * 60_000
    assert result.place == 1


@pytest.mark.preset("sm")
def test_ranking_after_a_capture_equals_ranking_everything_anew(running):
    """A capture derives only its own result; ranked on reading, they equal a full recompute."""
    from championship.scoring import DERIVED_FIELDS
    from results.services import standings_recompute

    record(running, at=at(40), entry=0, missing_found=2)
    record(running, at=at(38), entry=1, missing_lost=11)
    standings_ensure(running["round"])
    record(running, "pieces", entry=2, pieces_remaining=12)
    record(running, "incorrect", entry=0, pieces_placed=450)
    standings_ensure(running["round"])
    after_captures = sorted(
        Result.objects.filter(round=running["round"]).values_list("pk", *DERIVED_FIELDS)
    )
    standings_recompute(round_=running["round"])
    assert (
        sorted(Result.objects.filter(round=running["round"]).values_list("pk", *DERIVED_FIELDS))
        == after_captures
    )


def test_a_capture_leaves_the_ranking_to_the_next_reader(running):
    """A capture stores the outcome and moves the version on; places wait for a reader."""
    round_ = running["round"]
    record(running, at=at(40), entry=0)
    assert standings_ensure(round_) is True
    assert standings_ensure(round_) is False, "ranked once, not again for the same version"
    recorded = record(running, at=at(30), entry=1)
    assert recorded.result.outcome == "completed"
    stored = {r.entry_id: r.place for r in Result.objects.filter(round=round_)}
    assert (stored[running["entries"][0].pk], stored[running["entries"][1].pk]) == (1, None)
    round_.refresh_from_db()
    assert RoundRanking.objects.get(round=round_).version < round_.version
    assert (ranked(running, entry=1).place, ranked(running, entry=0).place) == (1, 2)
    assert RoundRanking.objects.get(round=round_).version == round_.version


@pytest.mark.parametrize("zone", ["UTC", "Europe/Oslo"])
def test_a_captures_answer_is_what_its_serializer_writes(running, zone):
    from django.utils import timezone

    from api.serializers import CaptureSerializer
    from api.views.captures import capture_answer, capture_body

    recorded = [
        record(running, at=at(40), missing_found=1),
        record(running, "confirm", at=at(40, 20)),
        record(running, "correction", judge="head", time_ms=38 * 60_000, reason="Misread"),
        record(running, "pieces", entry=1, pieces_remaining=30),
        record(running, "dns", entry=2, judge="head"),
    ]
    with timezone.override(zone):
        for one in recorded:
            expected = CaptureSerializer(capture_body(one)).data
            answer = capture_answer(one)
            assert answer == expected
            assert json.dumps(answer) == json.dumps(expected)
