"""Invalid attempts: one shared place after every valid one, or, if the championship chooses,
none at all.

RULES.md, "Pieces, penalties and validity": "Invalid attempts are ranked after
every valid one and share one place among themselves (a decision: the rulebooks
call the participation invalid; a void without a place is the other reading, and
a championship may choose it)."
"""

import pytest

from control import editing
from interchange.export import export_document
from interchange.write import import_document

pytestmark = pytest.mark.django_db


def document() -> dict:
    """A dm final: one finisher, one with 11 pieces lost (invalid), one counted."""
    results = [
        {"entry": "e1", "status": "finished", "time": "0:50:00"},
        {"entry": "e2", "status": "finished", "time": "0:45:00", "missing_lost": 11},
        {"entry": "e3", "status": "unfinished", "pieces_placed": 420},
    ]
    return {
        "format": "speedpuzzling-championship",
        "version": 2,
        "championship": {
            "slug": "dm-invalid",
            "name": "DM",
            "ruleset": "dm",
            "starts_at": "2026-05-09T10:00:00+02:00",
        },
        "tables": [{"number": n} for n in (1, 2, 3)],
        "persons": [{"id": f"p{n}", "name": f"Deltager {n}"} for n in (1, 2, 3)],
        "competitions": [
            {
                "key": "individual",
                "category": "individual",
                "entries": [{"id": f"e{n}", "members": [f"p{n}"]} for n in (1, 2, 3)],
                "rounds": [
                    {
                        "key": "individual-final",
                        "heats": [
                            {
                                "key": "a",
                                "started_at": "2026-05-09T10:30:00+02:00",
                                "ended_at": "2026-05-09T12:30:00+02:00",
                                "seats": [{"table": n, "entry": f"e{n}"} for n in (1, 2, 3)],
                                "results": results,
                            }
                        ],
                    }
                ],
            }
        ],
    }


def places(championship) -> dict:
    rows = export_document(championship)["competitions"][0]["rounds"][0]["heats"][0]["results"]
    return {row["entry"]: (row["outcome"], row["place"]) for row in rows}


def test_invalid_attempts_share_a_place_after_the_valid_ones_or_get_none_if_chosen():
    championship = import_document(document())
    assert places(championship) == {
        "e1": ("completed", 1),
        "e2": ("invalid", 3),
        "e3": ("unfinished", 2),
    }
    editing.rules_set(championship=championship, overrides={"invalid_attempts_placed": False})
    assert places(championship) == {
        "e1": ("completed", 1),
        "e2": ("invalid", None),
        "e3": ("unfinished", 2),
    }
