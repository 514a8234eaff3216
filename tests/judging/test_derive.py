"""The stored captures and results read as the rulebook's values (``judging.derive``).

The rulebook keeps its own names for the kinds of capture, the statuses and the
states of a count, and ``championship.scoring`` the names of a result's fields:
they are those of the models.
"""

from championship.rules import captures, timing
from championship.scoring import (
    DERIVED_FIELDS,
    JUDGED_FIELDS,
    OUTCOME_FIELDS,
    RANK_FIELDS,
    SHOWN_FIELDS,
)
from judging.derive import capture_value
from judging.models import Capture
from results.models import CountState, Result


def test_the_rulebook_names_the_models_values():
    assert set(captures.KINDS) == set(Capture.Kind.values)
    assert set(captures.COUNT_STATES) == set(CountState.values)
    assert set(timing.STATUSES) == set(Result.Status.values)


def test_the_field_lists_name_fields_of_a_result():
    names = {field.name for field in Result._meta.concrete_fields}
    for listed in (JUDGED_FIELDS, OUTCOME_FIELDS, RANK_FIELDS, DERIVED_FIELDS, SHOWN_FIELDS):
        assert set(listed) <= names


def test_a_stored_capture_is_read_as_the_fold_reads_it():
    stored = Capture(
        kind=Capture.Kind.CORRECTION,
        judge_id=7,
        elapsed_ms=1_000,
        pieces_remaining=3,
        second_count=None,
        payload={"status": "finished", "time": "0:00:01"},
    )
    value = capture_value(stored)
    assert (value.kind, value.judge, value.elapsed_ms, value.pieces_remaining) == (
        "correction",
        7,
        1_000,
        3,
    )
    assert (value.status, value.second_count) == ("finished", None)
    # Only a correction names a status.
    finish = Capture(kind=Capture.Kind.FINISH, judge_id=7, payload={"status": "dsq"})
    assert capture_value(finish).status == ""
