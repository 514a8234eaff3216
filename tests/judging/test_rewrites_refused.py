"""Through the capture API, as a hostile judge would use it: results a judge cannot rewrite.

RULES.md, "Timing and finishing": a confirmed time can no longer be changed by
the judge; only a head judge corrects it, with a reason. After time-up a judge
changes their own count only until the entrant confirms it; once a later round
is seated from a round, no capture of any kind changes that round's results.
Where two judges count, a count with misplaced pieces waits for the second
judge as any count does; only the entrant's own judge (or a head judge) has the
entrant confirm. A last piece is a missing piece that turned up, and "TIME"
after time was called is no completion, whoever records it.
"""

import pytest

from control import rounds
from judging.models import Capture
from tests.judging.test_result_integrity import Floor

pytestmark = pytest.mark.django_db


def standings(floor) -> list[tuple]:
    """Return each entry's (place, qualified, outcome, final seconds, counted pieces)."""
    rows = []
    for index in range(len(floor.entries)):
        result = floor.result(index)
        rows.append(
            (
                result.place,
                result.qualified,
                result.outcome,
                result.final_seconds,
                result.counted_pieces,
            )
        )
    return rows


# Once a later round is seated ---------------------------------------------------------------


def seated_final():
    """An sm preliminary round, the best 2 qualified and seated in the final."""
    floor = Floor(ruleset="sm", entrants=4)
    for index, minutes in enumerate((40, 41, 42, 43)):
        finish = floor.post(floor.judge, entry=index, at=floor.after_start(minutes))
        assert finish.status_code == 201, finish.json()
    rounds.round_set_advance(round_=floor.round, advance="overall", count=2, best_remaining=None)
    rounds.round_close(round_=floor.round)
    rounds.round_advance(round_=floor.round)
    return floor


@pytest.mark.parametrize(
    ("who", "entry", "kind", "fields"),
    [
        ("judge", 0, "incorrect", {"pieces_placed": 300}),
        ("judge", 1, "pieces", {"pieces_placed": 499}),
        ("judge", 2, "finish", {"at": "early"}),
        ("head", 2, "dns", {}),
        ("head", 0, "dsq", {"reason": "Help from outside"}),
        ("head", 3, "correction", {"time": "0:39:00", "reason": "Misread"}),
    ],
    ids=["incorrect", "pieces", "finish", "dns", "dsq", "correction"],
)
def test_no_capture_of_any_kind_changes_a_round_once_the_next_is_seated(who, entry, kind, fields):
    """A judge moved an entry from 4th to 2nd after the final was seated: no longer."""
    floor = seated_final()
    before = standings(floor)
    captures = Capture.objects.count()
    if fields.get("at") == "early":
        fields = {**fields, "at": floor.after_start(39)}
    fields.setdefault("at", floor.now)
    response = floor.post(getattr(floor, who), entry=entry, kind=kind, **fields)
    assert response.status_code == 409, response.json()
    assert "next round is seated" in response.json()["detail"]
    assert standings(floor) == before
    assert Capture.objects.count() == captures


def test_the_entrants_confirmation_is_still_taken_once_the_next_round_is_seated():
    """A confirmation changes no result: a phone that delivers it late is not refused."""
    floor = seated_final()
    response = floor.post(floor.judge, entry=2, kind="confirm", at=floor.now)
    assert response.status_code == 201, response.json()


# After time-up: a judge's own count, until the entrant confirms it ----------------------------


def test_after_time_up_a_judge_recounts_only_their_own_count_and_only_until_confirmed():
    floor = Floor(started_minutes_ago=125)
    first = floor.post(floor.judge, kind="pieces", pieces_placed=300, at=floor.now)
    assert first.status_code == 201, first.json()
    recount = floor.post(floor.judge, kind="pieces", pieces_placed=320, at=floor.now)
    assert recount.status_code == 201, recount.json()
    other = floor.post(floor.other, kind="pieces", pieces_placed=480, at=floor.now)
    assert other.status_code == 409
    assert floor.post(floor.judge, kind="confirm", at=floor.now).status_code == 201
    again = floor.post(floor.judge, kind="pieces", pieces_placed=480, at=floor.now)
    assert again.status_code == 409
    assert "confirmed" in again.json()["detail"]
    assert floor.result().counted_pieces == 320
    corrected = floor.post(
        floor.head, kind="correction", pieces_placed=330, reason="Recounted with the entrant"
    )
    assert corrected.status_code == 201, corrected.json()
    assert floor.result().counted_pieces == 330


def test_after_time_up_a_judge_cannot_turn_a_recorded_time_into_a_count():
    floor = Floor(started_minutes_ago=125)
    assert floor.post(floor.judge, at=floor.after_start(100)).status_code == 201
    response = floor.post(floor.judge, kind="pieces", pieces_placed=300, at=floor.now)
    assert response.status_code == 409
    assert floor.result().outcome == "completed"


# The second count ----------------------------------------------------------------------------


def test_a_count_with_misplaced_pieces_needs_the_second_judge_where_two_count():
    """dm asks for two counts: "incorrect" with a count is no way round the second judge."""
    floor = Floor(ruleset="dm", started_minutes_ago=60)
    assert floor.post(floor.judge, at=floor.after_start(50)).status_code == 201
    first = floor.post(floor.judge, kind="incorrect", pieces_placed=480, at=floor.now)
    assert first.status_code == 201, first.json()
    assert first.json()["result"]["count_state"] == "awaiting_second"
    assert floor.result().counted_pieces is None
    assert floor.result().place is None
    confirm = floor.post(floor.judge, kind="confirm", at=floor.now)
    assert confirm.status_code == 409
    second = floor.post(floor.other, kind="incorrect", pieces_placed=480, at=floor.now)
    assert second.status_code == 201, second.json()
    assert second.json()["result"]["count_state"] == "agreed"
    result = floor.result()
    assert (result.outcome, result.counted_pieces, result.place) == ("unfinished", 480, 1)


# Who confirms --------------------------------------------------------------------------------


def test_a_judge_cannot_confirm_another_judges_time():
    floor = Floor()
    assert floor.post(floor.judge, at=floor.after_start(40)).status_code == 201
    response = floor.post(floor.other, kind="confirm", at=floor.now)
    assert response.status_code == 409
    assert floor.judge.get_username() in response.json()["detail"]
    assert floor.result().confirmed_at is None
    assert floor.post(floor.judge, kind="confirm", at=floor.now).status_code == 201
    assert floor.result().confirmed_at is not None


def test_a_head_judge_may_have_the_entrant_confirm_any_time():
    floor = Floor()
    assert floor.post(floor.judge, at=floor.after_start(40)).status_code == 201
    assert floor.post(floor.head, kind="confirm", at=floor.now).status_code == 201


# A last piece, and time called early ---------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["dm", "rogaland"])
def test_a_last_piece_without_a_missing_piece_is_refused_with_the_reason(ruleset):
    """30:00 with the last piece at 30:25 and nothing missing would make the piece free."""
    floor = Floor(ruleset=ruleset)
    response = floor.post(
        floor.judge,
        at=floor.after_start(30),
        last_piece_at=floor.after_start(30, 25).isoformat(),
        missing_found=0,
    )
    assert response.status_code == 400
    assert "found later" in response.json()["last_piece_at"][0]
    assert not Capture.objects.exists()
    charged = floor.post(
        floor.judge,
        at=floor.after_start(30),
        last_piece_at=floor.after_start(30, 25).isoformat(),
        missing_found=1,
    )
    assert charged.status_code == 201, charged.json()
    expected = {"dm": 30 * 60 + 10, "rogaland": 30 * 60 + 5}[ruleset]
    assert charged.json()["result"]["final_seconds"] == expected


def test_a_corrected_time_after_time_was_called_is_no_completion():
    """The head judge's correction meets the check the judge's tap meets."""
    floor = Floor(started_minutes_ago=100)
    rounds.heat_close(heat=floor.heat, at=floor.after_start(90))
    assert floor.post(floor.judge, at=floor.after_start(60)).status_code == 201
    response = floor.post(floor.head, kind="correction", time="1:35:00", reason="Misread the clock")
    assert response.status_code == 201, response.json()
    assert floor.result().outcome == ""
    assert floor.result().place is None
