"""The interchange format and the rules: adjacent pieces, the time limit, plausible counts.

A version-1 document said only whether missing pieces were adjacent; version 2
says how many of the lost ones were. A finish after the time limit, or after
time was called in its heat, is not a completion: with its counted pieces it is
ranked by them, without them it is refused with its path (the choice
docs/interchange.md states), as is a count of pieces that cannot be true. A
published result may count every piece (a puzzle completed after the final
signal), and a last-piece time needs a piece missing and found later.
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
    assert exported["version"] == 4
    assert exported["competitions"][0]["rounds"][0]["heats"][0]["results"][0][
        "adjacent_missing"
    ] == (2)


@pytest.mark.parametrize(
    ("result", "field", "message"),
    [
        (
            {"status": "finished", "time": "2:00:01"},
            "time",
            "2:00:01 is after the round's time limit of 120 minutes: a finish after time is up "
            'is not a completion (give status "unfinished" and the pieces placed)',
        ),
        (
            {"status": "unfinished", "incorrect": True, "pieces_placed": 500},
            "pieces_placed",
            "must be 0, or from 3 to 499, not 500",
        ),
        (
            {"status": "unfinished", "pieces_placed": 2},
            "pieces_placed",
            "must be 0, or from 3 to 500, not 2",
        ),
        (
            {"status": "finished", "time": "0:30:00", "last_piece_time": "0:30:25"},
            "last_piece_time",
            "a last piece was placed after TIME, but no piece was missing at TIME and found "
            "later (missing_found is 0)",
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
        "every piece counted of a puzzle with misplaced pieces",
        "a cluster of two",
        "a last piece that was never missing",
        "more adjacent pieces than lost",
        "one adjacent piece",
        "yes or no in version 2",
    ],
)
def test_an_impossible_result_is_refused_with_its_path_and_exit_2(tmp_path, result, field, message):
    refused = refused_everywhere(tmp_path, document(**result))
    assert (refused.path, refused.message) == (f"{RESULT}.{field}", message)


def refused_everywhere(tmp_path, doc) -> InterchangeError:
    """Return why ``doc`` is refused; the command refuses it too (exit 2), and writes nothing."""
    with pytest.raises(InterchangeError) as refused:
        import_document(copy.deepcopy(doc))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError) as command:
        call_command("import_championship", str(path), stdout=io.StringIO())
    assert command.value.returncode == 2
    assert not Championship.objects.exists()
    return refused.value


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


def called_early(**result):
    """Return a document whose heat's time was called at 1:30:00, before the 120-minute limit."""
    doc = document(**result)
    doc["competitions"][0]["rounds"][0]["heats"][0]["ended_at"] = "2026-05-09T12:00:00"
    return doc


def test_a_finish_after_time_was_called_is_refused_without_its_pieces(tmp_path):
    """The phone refuses the same tap ("Time was up before the tap"): one check for both."""
    refused = refused_everywhere(tmp_path, called_early(status="finished", time="1:30:01"))
    assert (refused.path, refused.message) == (
        f"{RESULT}.time",
        "1:30:01 is after time was called in this heat, 1:30:00 after its start: a finish "
        'after time is up is not a completion (give status "unfinished" and the pieces placed)',
    )


def test_a_finish_after_time_was_called_is_ranked_by_its_pieces(tmp_path):
    """Through the commands: the import takes it, the export says it was no completion."""
    path = tmp_path / "called.json"
    doc = called_early(status="finished", time="1:35:00", pieces_placed=480)
    path.write_text(json.dumps(doc), encoding="utf-8")
    call_command("import_championship", str(path), stdout=io.StringIO())
    out = io.StringIO()
    call_command("export_championship", "dm-2026", stdout=out)
    (row,) = json.loads(out.getvalue())["competitions"][0]["rounds"][0]["heats"][0]["results"]
    assert (row["status"], row["time"]) == ("finished", "1:35:00")
    assert (row["outcome"], row["counted_pieces"], row["final_seconds"], row["place"]) == (
        "unfinished",
        480,
        None,
        1,
    )


def test_a_finish_when_time_was_called_is_a_completion():
    at_call = imported(called_early(status="finished", time="1:30:00"))
    assert (at_call.outcome, at_call.final_ms) == ("completed", 90 * 60_000)


def test_an_own_start_keeps_its_delay_when_time_is_called():
    """Started 5 minutes late (rogaland's taped bag): 90 minutes from the own start still count."""
    doc = called_early(ruleset="rogaland", status="finished", time="1:29:30")
    heat = doc["competitions"][0]["rounds"][0]["heats"][0]
    heat["seats"][0]["started_at"] = "2026-05-09T10:35:00"
    late_start = imported(doc)
    assert (late_start.outcome, late_start.final_ms) == ("completed", (89 * 60 + 30) * 1000)


def with_second_entry(doc: dict, result: dict) -> dict:
    """Return ``doc`` with a second entrant, Jonas Berg (``e2``), seated with ``result``."""
    competition = doc["competitions"][0]
    doc["persons"].append({"id": "p2", "name": "Jonas Berg", "email": "jonas@example.org"})
    competition["entries"].append({"id": "e2", "members": ["p2"]})
    doc["tables"].append({"number": 2})
    heat = competition["rounds"][0]["heats"][0]
    heat["seats"].append({"table": 2, "entry": "e2"})
    heat["results"].append({"entry": "e2", **result})
    return doc


def test_a_published_count_of_every_piece_is_taken_and_ranked_first_among_the_unfinished():
    """WJPC 2024 publishes "500" in 500-piece rounds: a puzzle completed after the signal."""
    doc = with_second_entry(
        document(status="unfinished", pieces_placed=500),
        {"status": "unfinished", "pieces_placed": 499},
    )
    championship = import_document(doc)
    exported = export_document(championship)
    rows = exported["competitions"][0]["rounds"][0]["heats"][0]["results"]
    assert [(row["entry"], row["counted_pieces"], row["place"]) for row in rows] == [
        ("e1", 500, 1),
        ("e2", 499, 2),
    ]
    import_document(copy.deepcopy(exported), replace=True)
    assert export_document(Championship.objects.get(slug="dm-2026")) == exported


@pytest.mark.parametrize(
    ("ruleset", "found", "final_seconds", "place_before"),
    [("dm", 1, 30 * 60 + 10, 2), ("rogaland", 1, 30 * 60 + 5, 2)],
    ids=["dm: 10 s", "rogaland: 5 s"],
)
def test_a_last_piece_that_turned_up_is_charged_as_a_piece_found_later(
    ruleset, found, final_seconds, place_before
):
    """30:00 with the last piece at 30:25: charged, so 30:08 without a missing piece wins."""
    doc = with_second_entry(
        document(
            ruleset=ruleset,
            status="finished",
            time="0:30:00",
            missing_found=found,
            last_piece_time="0:30:25",
        ),
        {"status": "finished", "time": "0:30:03"},
    )
    exported = export_document(import_document(doc))
    rows = {
        row["entry"]: row for row in exported["competitions"][0]["rounds"][0]["heats"][0]["results"]
    }
    assert (rows["e1"]["final_seconds"], rows["e1"]["place"]) == (final_seconds, place_before)
    assert rows["e2"]["place"] == 1
