"""What an entry's captures make of its result's inputs (``championship.rules.captures``).

Plain values in, plain values out: no database.
"""

from datetime import UTC, datetime, timedelta

from championship.rules.captures import (
    AGREED,
    AWAITING_SECOND,
    CONFIRM,
    CORRECTION,
    DECIDED,
    DISPUTED,
    DNS,
    DSQ,
    FINISH,
    INCORRECT,
    NOTHING,
    PIECES,
    SINGLE,
    START,
    WARNING,
    Capture,
    Judged,
    Start,
    imported_start,
    judged,
    two_counts,
)
from championship.rules.timing import FINISHED, PENDING, UNFINISHED

HEAT_START = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)
PIECES_500 = 500


def at(minutes, seconds=0, millis=0):
    return HEAT_START + timedelta(minutes=minutes, seconds=seconds, milliseconds=millis)


def ms(minutes, seconds=0, millis=0):
    return (minutes * 60 + seconds) * 1000 + millis


def finish(minutes, seconds=0, millis=0, **kwargs):
    """A finish tapped ``minutes`` after the heat's start, timed from it."""
    return Capture(
        FINISH,
        judge=kwargs.pop("judge", 1),
        received_at=kwargs.pop("received_at", at(minutes, seconds, millis + 300)),
        device_at=at(minutes, seconds, millis),
        elapsed_ms=ms(minutes, seconds, millis),
        **kwargs,
    )


def count(placed=None, *, judge=1, kind=PIECES, remaining=None, second_count=False, minute=91):
    return Capture(
        kind,
        judge=judge,
        received_at=at(minute),
        pieces_placed=placed,
        pieces_remaining=remaining,
        second_count=second_count,
    )


def fold(*captures, **kwargs):
    return judged(captures, PIECES_500, **kwargs)


def test_no_capture_leaves_nothing_recorded():
    assert fold() == NOTHING == Judged()
    assert (NOTHING.status, NOTHING.count_state, NOTHING.pieces_placed) == (PENDING, "", None)


def test_a_finish_is_the_recorded_time_with_its_missing_pieces():
    result = fold(finish(42, 17, 640, missing_found=1, missing_lost=3, adjacent_missing=2))
    assert result == Judged(
        status=FINISHED,
        time_ms=ms(42, 17, 640),
        missing_found=1,
        missing_lost=3,
        adjacent_missing=2,
    )


def test_a_confirmation_records_when_the_server_received_it():
    confirm = Capture(CONFIRM, judge=1, received_at=at(43, 5))
    result = fold(finish(42), confirm)
    assert (result.status, result.confirmed_at) == (FINISHED, at(43, 5))


def test_a_new_finish_takes_back_the_confirmation():
    confirm = Capture(CONFIRM, judge=1, received_at=at(43))
    assert fold(finish(42), confirm, finish(44)).confirmed_at is None


def test_a_finish_follows_a_later_own_start_set_after_the_tap():
    own = at(5)
    tap = finish(42, last_piece_ms=ms(42, 8))
    result = fold(tap, entry_start=Start(HEAT_START, own))
    assert (result.time_ms, result.last_piece_ms) == (ms(37), ms(37, 8))
    # Without the entry's start at hand, the time stays as the tap recorded it.
    assert fold(tap).time_ms == ms(42)


def test_an_own_start_before_the_heats_is_the_heats():
    assert Start(HEAT_START, at(-1)).at == HEAT_START
    assert Start(HEAT_START).at == HEAT_START
    assert fold(finish(42), entry_start=Start(HEAT_START, at(-1))).time_ms == ms(42)


def test_a_tap_before_a_later_own_start_counts_from_that_start():
    result = fold(finish(3), entry_start=Start(HEAT_START, at(5)))
    assert result.time_ms == 0


def test_a_count_at_time_up_is_an_unfinished_attempt():
    result = fold(count(412))
    assert (result.status, result.pieces_placed, result.count_state) == (UNFINISHED, 412, SINGLE)
    assert fold(count(remaining=88)).pieces_placed == 412


def test_a_count_replaces_a_finish_after_the_limit():
    result = fold(finish(92), count(480))
    assert (result.status, result.time_ms, result.pieces_placed) == (UNFINISHED, None, 480)


def test_misplaced_pieces_keep_the_time_on_record():
    result = fold(finish(42), count(490, kind=INCORRECT))
    assert (result.status, result.time_ms, result.incorrect) == (FINISHED, ms(42), True)
    assert result.pieces_placed == 490
    alone = fold(count(490, kind=INCORRECT))
    assert (alone.status, alone.incorrect, alone.time_ms) == (UNFINISHED, True, None)


def test_a_count_waits_for_a_second_judges_count():
    first = count(412, judge=1, second_count=True)
    assert (fold(first).pieces_placed, fold(first).count_state) == (None, AWAITING_SECOND)
    agreed = fold(first, count(412, judge=2, second_count=True))
    assert (agreed.pieces_placed, agreed.count_state) == (412, AGREED)
    disputed = fold(first, count(410, judge=2, second_count=True))
    assert (disputed.pieces_placed, disputed.count_state) == (None, DISPUTED)


def test_the_first_judge_may_count_again_and_the_first_two_judges_decide():
    recount = fold(
        count(400, judge=1, second_count=True),
        count(412, judge=1, second_count=True),
        count(412, judge=2, second_count=True),
    )
    assert (recount.pieces_placed, recount.count_state) == (412, AGREED)
    third = fold(
        count(412, judge=1, second_count=True),
        count(412, judge=2, second_count=True),
        count(300, judge=3, second_count=True),
    )
    assert (third.pieces_placed, third.count_state) == (412, AGREED)


def test_a_count_keeps_the_rule_it_was_recorded_under():
    single = count(412, second_count=False)
    assert fold(single, second_count=True).count_state == SINGLE
    # Recorded before counts kept their rule: the setting decides, for a plain count only.
    before = count(412, second_count=None)
    assert fold(before, second_count=True).count_state == AWAITING_SECOND
    assert fold(before, second_count=False).count_state == SINGLE
    misplaced = count(490, kind=INCORRECT, second_count=None)
    assert fold(finish(80), misplaced, second_count=True).count_state == SINGLE


def test_two_counts():
    assert two_counts({}) == (None, AWAITING_SECOND)
    assert two_counts({"anna": 5}) == (None, AWAITING_SECOND)
    assert two_counts({"anna": 5, "bo": 5}) == (5, AGREED)
    assert two_counts({"anna": 5, "bo": 6, "cy": 5}) == (None, DISPUTED)


def test_a_no_show_or_a_disqualification_is_the_status_and_no_count_waits():
    assert fold(Capture(DNS, judge=9)).status == DNS
    waiting = count(412, second_count=True)
    result = fold(finish(42), waiting, Capture(DSQ, judge=9))
    assert (result.status, result.count_state) == (DSQ, "")


def test_a_correction_sets_what_it_gives_and_confirms():
    correction = Capture(
        CORRECTION,
        judge=9,
        received_at=at(60),
        elapsed_ms=ms(38),
        missing_found=2,
        status=FINISHED,
    )
    result = fold(count(412), correction)
    assert (result.status, result.time_ms, result.missing_found) == (FINISHED, ms(38), 2)
    assert result.confirmed_at == at(60)
    # Already confirmed: the confirmation stays as it was.
    confirm = Capture(CONFIRM, judge=1, received_at=at(43))
    assert fold(finish(42), confirm, correction).confirmed_at == at(43)


def test_a_correction_of_the_count_decides_it():
    correction = Capture(CORRECTION, judge=9, received_at=at(95), pieces_remaining=100)
    result = fold(count(412, second_count=True), count(410, judge=2, second_count=True), correction)
    assert (result.pieces_placed, result.count_state, result.status) == (400, DECIDED, UNFINISHED)


def test_a_correction_to_an_unknown_status_keeps_the_status():
    result = fold(finish(42), Capture(CORRECTION, judge=9, received_at=at(50), status="won"))
    assert result.status == FINISHED


def test_a_finish_without_a_time_is_pending_or_unfinished():
    no_time = Capture(CORRECTION, judge=9, received_at=at(50), status=FINISHED)
    assert fold(no_time).status == PENDING
    assert fold(count(412), no_time).status == UNFINISHED


def test_a_warning_and_an_own_start_change_nothing():
    assert fold(Capture(WARNING, judge=9), Capture(START, judge=9)) == NOTHING
    assert fold(finish(42), Capture(WARNING, judge=9)) == fold(finish(42))


def test_captures_apply_to_what_an_import_gave():
    imported = {
        "status": "unfinished",
        "pieces_placed": 480,
        "missing_lost": 1,
        "confirmed_at": "2026-03-14T11:35:00+00:00",
        "anything": "else",
    }
    start = imported_start(imported)
    assert start == Judged(
        status=UNFINISHED,
        pieces_placed=480,
        missing_lost=1,
        confirmed_at=datetime(2026, 3, 14, 11, 35, tzinfo=UTC),
        count_state=SINGLE,
    )
    assert fold(start=start) == start
    assert fold(Capture(DSQ, judge=9), start=start).status == DSQ
    assert imported_start(None) == imported_start({}) == NOTHING
    assert imported_start({"status": "finished", "time_ms": ms(30)}).count_state == ""
