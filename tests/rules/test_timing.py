"""RULES.md, "Timing and finishing" and "Pieces, penalties and validity", preset by preset."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from championship.presets import get_preset
from championship.rules.ranking import Ranked, rank
from championship.rules.timing import (
    COMPLETED,
    DNS,
    DSQ,
    FINISHED,
    INVALID,
    PENDING,
    UNFINISHED,
    Attempt,
    AttemptError,
    elapsed_ms,
    outcome,
)

ROGALAND, SM, DM = (get_preset(key).rules for key in ("rogaland", "sm", "dm"))
PRESETS = {"rogaland": ROGALAND, "sm": SM, "dm": DM}


def ms(minutes=0, seconds=0, millis=0):
    return (minutes * 60 + seconds) * 1000 + millis


def finish(time_ms, **kwargs):
    return Attempt(status=FINISHED, time_ms=time_ms, **kwargs)


# Timing and finishing ------------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS.values(), ids=PRESETS.keys())
def test_final_time_is_the_recorded_time_when_nothing_is_missing(rules):
    result = outcome(finish(ms(42, 17)), rules, 500)
    assert (result.kind, result.final_ms, result.penalty_ms) == (COMPLETED, ms(42, 17), 0)


@pytest.mark.parametrize("rules", PRESETS.values(), ids=PRESETS.keys())
def test_times_are_truncated_to_the_whole_second(rules):
    """Time is kept in whole seconds: 42:17.999 is 42:17."""
    result = outcome(finish(ms(42, 17, 999)), rules, 500)
    assert result.final_ms == ms(42, 17)
    assert result.final_seconds == 42 * 60 + 17


def test_every_entrant_starts_at_the_hosts_signal():
    start = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)
    finish_at = start + timedelta(minutes=42, seconds=17, milliseconds=640)
    assert elapsed_ms(finish_at, start) == ms(42, 17, 640)


def test_rogaland_an_entrant_with_a_taped_bag_gets_a_later_start_of_their_own():
    start = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)
    own_start = start + timedelta(minutes=2)
    finish_at = start + timedelta(minutes=50)
    assert elapsed_ms(finish_at, start, own_start) == ms(48)


def test_an_own_start_before_the_signal_does_not_count():
    start = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)
    assert elapsed_ms(start + timedelta(minutes=5), start, start - timedelta(minutes=1)) == ms(5)


def test_a_finish_before_the_start_is_refused():
    start = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)
    with pytest.raises(AttemptError) as caught:
        elapsed_ms(start - timedelta(seconds=1), start)
    assert caught.value.code == "before_start"


# Penalties ----------------------------------------------------------------------------


def test_rogaland_charges_5_seconds_per_piece_found_later():
    result = outcome(finish(ms(50), missing_found=2), ROGALAND, 500)
    assert (result.penalty_ms, result.final_ms) == (10_000, ms(50, 10))


def test_rogaland_charges_nothing_for_a_piece_gone_for_good():
    result = outcome(finish(ms(50), missing_lost=3), ROGALAND, 500)
    assert (result.kind, result.penalty_ms, result.final_ms) == (COMPLETED, 0, ms(50))


def test_rogaland_charges_only_the_found_pieces_when_some_are_lost():
    result = outcome(finish(ms(50), missing_found=1, missing_lost=2), ROGALAND, 500)
    assert result.penalty_ms == 5_000


@pytest.mark.parametrize("rules", [SM, DM], ids=["sm", "dm"])
def test_sm_and_dm_charge_10_seconds_for_every_piece_missing_at_time(rules):
    result = outcome(finish(ms(50), missing_found=1, missing_lost=2), rules, 500)
    assert (result.penalty_ms, result.final_ms) == (30_000, ms(50, 30))


def test_dm_charges_nothing_for_two_adjacent_pieces_that_never_turned_up():
    attempt = finish(ms(50), missing_lost=2, adjacent_missing=2)
    assert outcome(attempt, DM, 500).penalty_ms == 0


def test_dm_charges_the_missing_pieces_that_are_not_adjacent():
    """Adjacent pieces never found cost nothing; a separate piece, or one found later, does."""
    attempt = finish(ms(50), missing_found=1, missing_lost=3, adjacent_missing=2)
    assert outcome(attempt, DM, 500).penalty_ms == 2 * 10_000


@pytest.mark.parametrize("rules", [SM, ROGALAND], ids=["sm", "rogaland"])
def test_adjacent_missing_pieces_are_charged_outside_dm(rules):
    attempt = finish(ms(50), missing_found=2, missing_lost=2, adjacent_missing=2)
    charged = 4 if rules is SM else 2
    expected = charged * rules.penalty_seconds_per_piece * 1000
    assert outcome(attempt, rules, 500).penalty_ms == expected


def test_the_penalty_is_added_after_truncating_the_recorded_time():
    result = outcome(finish(ms(50, 0, 700), missing_found=1), SM, 500)
    assert result.final_ms == ms(50, 10)


# dm's late last piece ------------------------------------------------------------------


def test_dm_last_piece_placed_within_10_seconds_keeps_the_actual_finish():
    """Recorded at the second-to-last piece; the last found and placed 7 s later."""
    attempt = finish(ms(50), missing_found=1, last_piece_ms=ms(50, 7))
    result = outcome(attempt, DM, 500)
    assert (result.final_ms, result.penalty_ms) == (ms(50, 7), 0)


def test_dm_last_piece_found_after_more_than_10_seconds_gives_second_to_last_plus_penalty():
    attempt = finish(ms(50), missing_found=1, last_piece_ms=ms(50, 25))
    result = outcome(attempt, DM, 500)
    assert (result.final_ms, result.penalty_ms) == (ms(50, 10), 10_000)


def test_dm_last_piece_placed_after_exactly_10_seconds_keeps_the_actual_finish():
    """Within the window means 10 s or less of searching, in whole seconds."""
    at_boundary = finish(ms(50), missing_found=1, last_piece_ms=ms(50, 10, 900))
    result = outcome(at_boundary, DM, 500)
    assert (result.final_ms, result.penalty_ms) == (ms(50, 10), 0)


def test_dm_search_window_and_penalty_are_two_parameters():
    """A 30 s window keeps a 25 s search; a 5 s penalty is what a late piece costs."""
    wider = replace(DM, late_last_piece_seconds=30)
    searched = finish(ms(50), missing_found=1, last_piece_ms=ms(50, 25))
    assert (outcome(searched, wider, 500).final_ms, outcome(searched, DM, 500).final_ms) == (
        ms(50, 25),
        ms(50, 10),
    )
    cheaper = replace(DM, penalty_seconds_per_piece=5)
    within = finish(ms(50), missing_found=1, last_piece_ms=ms(50, 8))
    late = finish(ms(50), missing_found=1, last_piece_ms=ms(50, 12))
    assert (outcome(within, cheaper, 500).final_ms, outcome(late, cheaper, 500).final_ms) == (
        ms(50, 8),
        ms(50, 5),
    )


@pytest.mark.parametrize("rules", [SM, ROGALAND], ids=["sm", "rogaland"])
def test_the_late_last_piece_rule_is_dms_alone(rules):
    attempt = finish(ms(50), missing_found=1, last_piece_ms=ms(50, 3))
    expected = ms(50) + rules.penalty_seconds_per_piece * 1000
    assert outcome(attempt, rules, 500).final_ms == expected


# Validity ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [SM, DM], ids=["sm", "dm"])
def test_more_than_10_lost_pieces_make_the_attempt_invalid(rules):
    assert outcome(finish(ms(50), missing_lost=11), rules, 500).kind == INVALID


@pytest.mark.parametrize("rules", [SM, DM], ids=["sm", "dm"])
def test_exactly_10_lost_pieces_are_still_valid(rules):
    result = outcome(finish(ms(50), missing_lost=10), rules, 500)
    assert (result.kind, result.final_ms) == (COMPLETED, ms(50) + 100_000)


def test_dm_pieces_found_later_do_not_count_towards_the_lost_limit():
    assert outcome(finish(ms(50), missing_found=11), DM, 500).kind == COMPLETED


def test_sm_counts_every_piece_missing_at_time_towards_the_limit():
    """sm has no "found later" (no change after TIME): 11 missing at TIME is invalid."""
    assert outcome(finish(ms(50), missing_found=5, missing_lost=6), SM, 500).kind == INVALID


def test_rogaland_has_no_lost_piece_limit():
    assert outcome(finish(ms(50), missing_lost=40), ROGALAND, 500).kind == COMPLETED


def test_dm_invalid_even_when_adjacent():
    attempt = finish(ms(50), missing_lost=12, adjacent_missing=12)
    assert outcome(attempt, DM, 500).kind == INVALID


# Unfinished and counted pieces ---------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS.values(), ids=PRESETS.keys())
def test_an_unfinished_entry_is_ranked_by_correctly_placed_pieces(rules):
    result = outcome(Attempt(status=UNFINISHED, pieces_placed=412), rules, 500)
    assert (result.kind, result.counted_pieces, result.final_ms) == (UNFINISHED, 412, None)


@pytest.mark.parametrize("rules", PRESETS.values(), ids=PRESETS.keys())
def test_placed_pieces_are_total_minus_the_pieces_remaining(rules):
    """The entrant sorts the pieces that do not count into piles; placed = total - remaining."""
    result = outcome(Attempt(status=UNFINISHED, pieces_remaining=130), rules, 1000)
    assert result.counted_pieces == 870


def test_an_unfinished_entry_not_counted_yet_has_no_outcome_yet():
    assert outcome(Attempt(status=UNFINISHED), SM, 500).kind == PENDING


@pytest.mark.parametrize(
    ("attempt", "code"),
    [
        (Attempt(status=UNFINISHED, pieces_placed=501), "pieces_implausible"),
        (Attempt(status=UNFINISHED, pieces_placed=500), "pieces_implausible"),
        (Attempt(status=UNFINISHED, pieces_placed=-1), "pieces_implausible"),
        (Attempt(status=UNFINISHED, pieces_placed=2), "pieces_implausible"),
        (Attempt(status=UNFINISHED, pieces_remaining=501), "pieces_out_of_range"),
        (Attempt(status=UNFINISHED, pieces_remaining=-3), "pieces_out_of_range"),
        (Attempt(status=UNFINISHED, pieces_remaining=0), "pieces_implausible"),
    ],
)
def test_a_judges_count_is_0_or_a_cluster_up_to_all_but_one(attempt, code):
    with pytest.raises(AttemptError) as caught:
        outcome(attempt, SM, 500, judge_count=True)
    assert caught.value.code == code


@pytest.mark.parametrize(
    "attempt",
    [Attempt(status=UNFINISHED, pieces_placed=500), Attempt(status=UNFINISHED, pieces_remaining=0)],
    ids=["placed", "remaining"],
)
def test_a_published_result_may_count_every_piece_first_among_the_unfinished(attempt):
    """WJPC 2024 publishes "500" in 500-piece rounds: a puzzle completed after the signal."""
    whole = outcome(attempt, SM, 500)
    assert (whole.kind, whole.counted_pieces) == (UNFINISHED, 500)
    standings = rank(
        [
            Ranked("whole", whole),
            Ranked("almost", outcome(Attempt(status=UNFINISHED, pieces_placed=499), SM, 500)),
            Ranked("finisher", outcome(finish(ms(119)), SM, 500, time_limit_ms=ms(120))),
        ]
    )
    assert [(s.entry, s.place) for s in standings] == [("finisher", 1), ("whole", 2), ("almost", 3)]


def test_sm_time_with_misplaced_pieces_is_not_completed():
    """Declared "TIME", but pieces were placed wrongly: ranked among the unfinished."""
    attempt = finish(ms(40), incorrect=True, pieces_placed=488)
    result = outcome(attempt, SM, 500)
    assert (result.kind, result.counted_pieces, result.final_ms) == (UNFINISHED, 488, None)


@pytest.mark.parametrize("rules", PRESETS.values(), ids=PRESETS.keys())
def test_time_with_misplaced_pieces_is_not_completed_in_any_preset(rules):
    """Every rulebook ranks by *completing* the puzzle: pending until counted, then unfinished."""
    assert outcome(finish(ms(40), incorrect=True), rules, 500).kind == PENDING
    counted = outcome(finish(ms(40), incorrect=True, pieces_placed=490), rules, 500)
    assert (counted.kind, counted.counted_pieces) == (UNFINISHED, 490)


@pytest.mark.parametrize("rules", PRESETS.values(), ids=PRESETS.keys())
def test_time_after_the_limit_is_not_a_completion(rules):
    """2:00:00 is in time; 2:00:01 is ranked by its counted pieces, once counted."""
    limit = ms(120)
    assert outcome(finish(ms(120, 0, 999)), rules, 500, time_limit_ms=limit).kind == COMPLETED
    assert outcome(finish(ms(120, 1)), rules, 500, time_limit_ms=limit).kind == PENDING
    late = outcome(finish(ms(120, 1), pieces_placed=470), rules, 500, time_limit_ms=limit)
    assert (late.kind, late.counted_pieces) == (UNFINISHED, 470)


# Not started, disqualified, still puzzling ---------------------------------------------


@pytest.mark.parametrize("status", [DNS, DSQ, PENDING])
def test_did_not_start_disqualified_and_still_puzzling_have_no_time(status):
    result = outcome(Attempt(status=status), DM, 500)
    assert (result.kind, result.final_ms, result.counted_pieces) == (status, None, None)


# Bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attempt", "field", "code"),
    [
        (Attempt(status=FINISHED), "time_ms", "time_required"),
        (Attempt(status="late"), "status", "unknown_status"),
        (finish(-5), "time_ms", "negative"),
        (finish(ms(5), missing_found=-1), "missing_found", "negative"),
        (finish(ms(5), missing_found=300, missing_lost=300), "missing_lost", "pieces_out_of_range"),
        (finish(ms(50), last_piece_ms=ms(49)), "last_piece_ms", "before_recorded_time"),
    ],
)
def test_contradictory_inputs_are_refused_naming_the_field(attempt, field, code):
    with pytest.raises(AttemptError) as caught:
        outcome(attempt, DM, 500)
    assert (caught.value.field, caught.value.code) == (field, code)
