"""The interchange format and the rules: adjacent pieces, the time limit, plausible counts.

A version-1 document said only whether missing pieces were adjacent; version 2
says how many of the lost ones were. A finish after the time limit is refused
with its path (the choice docs/interchange.md states), as is a count of pieces
that cannot be true.
"""

import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command

from championship.models import Championship
from interchange.export import export_document
from interchange.format import InterchangeError
from interchange.write import import_document
from results.models import Result

pytestmark = pytest.mark.django_db

RESULT = "competitions[0].rounds[0].heats[0].results[0]"


def document(version=2, ruleset="dm", **result):
    """Return a one-entry championship whose individual round has the given result."""
    return {
        "format": "speedpuzzling-championship",
        "version": version,
        "championship": {
            "slug": "dm-2026",
            "name": "DM 2026",
            "ruleset": ruleset,
            "starts_at": "2026-05-09T10:00:00",
        },
        "tables": [{"number": 1}],
        "persons": [{"id": "p1", "name": "Mette Holm", "email": "mette@example.org"}],
        "competitions": [
            {
                "key": "individual",
                "category": "individual",
                "time_limit_minutes": 120,
                "entries": [{"id": "e1", "members": ["p1"]}],
                "rounds": [
                    {
                        "key": "individual-final",
                        "heats": [
                            {
                                "key": "a",
                                "started_at": "2026-05-09T10:30:00",
                                "seats": [{"table": 1, "entry": "e1"}],
                                "results": [{"entry": "e1", **result}],
                            }
                        ],
                    }
                ],
            }
        ],
    }


def imported(doc) -> Result:
    championship = import_document(doc)
    return Result.objects.get(round__championship=championship)


@pytest.mark.parametrize(
    ("adjacent", "stored", "penalty"),
    [(True, 3, 0), (False, 0, 30_000)],
    ids=["true: all the lost pieces", "false: none"],
)
def test_a_version_1_document_keeps_the_meaning_of_yes_and_no(adjacent, stored, penalty):
    result = imported(
        document(
            version=1, status="finished", time="0:50:00", missing_lost=3, adjacent_missing=adjacent
        )
    )
    assert (result.adjacent_missing, result.penalty_ms) == (stored, penalty)


def test_a_version_2_document_counts_the_adjacent_pieces():
    doc = document(
        status="finished", time="0:50:00", missing_found=1, missing_lost=4, adjacent_missing=2
    )
    result = imported(doc)
    assert (result.adjacent_missing, result.penalty_ms) == (2, 30_000)
    exported = export_document(Championship.objects.get(slug="dm-2026"))
    assert exported["version"] == 2
    assert exported["competitions"][0]["rounds"][0]["heats"][0]["results"][0][
        "adjacent_missing"
    ] == (2)


@pytest.mark.parametrize(
    ("result", "field", "message"),
    [
        (
            {"status": "finished", "time": "2:00:01"},
            "time",
            "2:00:01 is after the round's time limit of 120 minutes: a finish after the limit "
            'is not a completion (give status "unfinished" and the pieces placed)',
        ),
        (
            {"status": "unfinished", "pieces_placed": 500},
            "pieces_placed",
            "must be 0, or from 3 to 499, not 500",
        ),
        (
            {"status": "unfinished", "pieces_placed": 2},
            "pieces_placed",
            "must be 0, or from 3 to 499, not 2",
        ),
        (
            {"status": "finished", "time": "0:50:00", "missing_lost": 2, "adjacent_missing": 3},
            "adjacent_missing",
            "3 adjacent pieces, but only 2 lost",
        ),
        (
            {"status": "finished", "time": "0:50:00", "missing_lost": 2, "adjacent_missing": 1},
            "adjacent_missing",
            "adjacent means two or more side by side, not 1",
        ),
        (
            {"status": "finished", "time": "0:50:00", "missing_lost": 2, "adjacent_missing": True},
            "adjacent_missing",
            "must be a whole number, not true",
        ),
    ],
    ids=[
        "a finish after the limit",
        "every piece counted for an unfinished puzzle",
        "a cluster of two",
        "more adjacent pieces than lost",
        "one adjacent piece",
        "yes or no in version 2",
    ],
)
def test_an_impossible_result_is_refused_with_its_path_and_exit_2(tmp_path, result, field, message):
    doc = document(**result)
    with pytest.raises(InterchangeError) as refused:
        import_document(copy.deepcopy(doc))
    assert (refused.value.path, refused.value.message) == (f"{RESULT}.{field}", message)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError) as command:
        call_command("import_championship", str(path), stdout=io.StringIO())
    assert command.value.returncode == 2
    assert not Championship.objects.exists()


def test_a_finish_at_the_limit_and_a_late_finish_counted_as_pieces_are_taken():
    at_limit = imported(document(status="finished", time="2:00:00"))
    assert (at_limit.outcome, at_limit.final_ms) == ("completed", 120 * 60_000)
    Championship.objects.all().delete()
    late = imported(document(status="unfinished", pieces_placed=497))
    assert (late.outcome, late.counted_pieces) == ("unfinished", 497)


def test_a_rounds_own_time_limit_is_the_limit():
    doc = document(status="finished", time="1:30:01")
    doc["competitions"][0]["rounds"][0]["time_limit_minutes"] = 90
    with pytest.raises(InterchangeError) as refused:
        import_document(doc)
    assert refused.value.path == f"{RESULT}.time"
    assert "time limit of 90 minutes" in refused.value.message
