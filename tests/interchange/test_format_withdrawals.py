"""A result's ``withdrawn_at`` (version 3): a qualifier withdrawn from the next round.

The withdrawal is read before the round is ranked, so the place passes by the
rule on import as it did when the organiser withdrew the qualifier; a version-2
document, or a round nobody goes on from, refuses the field with its path.
"""

import pytest

from interchange.export import export_document
from interchange.format import InterchangeError
from interchange.write import import_document
from results.models import QualifierWithdrawal

STARTS = "2027-03-14T10:00:00+01:00"


def document(*, version: int = 3, withdrawn: dict | None = None, advance=None) -> dict:
    """Return a group of five (e1 fastest) whose best three go on to a final."""
    withdrawn = withdrawn or {}
    results = []
    for n in range(1, 6):
        result = {"entry": f"e{n}", "status": "finished", "time": f"0:{40 + n}:00"}
        if f"e{n}" in withdrawn:
            result["withdrawn_at"] = withdrawn[f"e{n}"]
        results.append(result)
    return {
        "format": "speedpuzzling-championship",
        "version": version,
        "championship": {
            "slug": "withdrawals",
            "name": "Withdrawals",
            "ruleset": "rogaland",
            "rules": {"rounds_individual": ["prelim", "final"]},
            "timezone": "Europe/Oslo",
            "starts_at": STARTS,
            "currency": "NOK",
            "language": "nb",
        },
        "persons": [{"id": f"p{n}", "name": f"Puzzler {n}"} for n in range(1, 6)],
        "competitions": [
            {
                "key": "individual",
                "category": "individual",
                "pieces": 500,
                "time_limit_minutes": 90,
                "fee": "0",
                "entries": [
                    {"id": f"e{n}", "name": f"Puzzler {n}", "members": [f"p{n}"]}
                    for n in range(1, 6)
                ],
                "rounds": [
                    {
                        "key": "prelim",
                        "stage": "prelim",
                        "advance": advance if advance is not None else {"overall": 3},
                        "heats": [
                            {
                                "key": "a",
                                "started_at": STARTS,
                                "ended_at": "2027-03-14T11:30:00+01:00",
                                "results": results,
                            }
                        ],
                    },
                    {"key": "final", "stage": "final"},
                ],
            }
        ],
    }


def qualified(exported: dict) -> dict[str, bool]:
    (heat,) = exported["competitions"][0]["rounds"][0]["heats"]
    return {r["entry"]: r["qualified"] for r in heat["results"]}


@pytest.mark.django_db
def test_a_withdrawn_qualifiers_place_passes_to_the_next_on_import():
    championship = import_document(document(withdrawn={"e2": "2027-03-14T12:00:00+01:00"}))
    exported = export_document(championship)
    assert qualified(exported) == {"e1": True, "e2": False, "e3": True, "e4": True, "e5": False}
    (heat,) = exported["competitions"][0]["rounds"][0]["heats"]
    marked = {r["entry"]: r.get("withdrawn_at") for r in heat["results"]}
    assert marked == {
        "e1": None,
        "e2": "2027-03-14T12:00:00+01:00",
        "e3": None,
        "e4": None,
        "e5": None,
    }


@pytest.mark.django_db
def test_export_import_export_keeps_the_withdrawals_in_their_order():
    withdrawn = {"e1": "2027-03-14T12:05:00+01:00", "e4": "2027-03-14T12:10:00+01:00"}
    first = export_document(import_document(document(withdrawn=withdrawn)))
    # e1 withdrawn: e4 takes the place; e4 withdrawn in turn: e5 takes it.
    assert qualified(first) == {"e1": False, "e2": True, "e3": True, "e4": False, "e5": True}
    again = export_document(import_document(first, replace=True))
    assert again == first
    assert QualifierWithdrawal.objects.count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"version": 2},
            '"withdrawn_at" is a field of version 3 (the document says version 2)',
        ),
        (
            {"advance": {}},
            "competitions[0].rounds[0].heats[0].results[1].withdrawn_at: nobody goes on "
            "from this round: there is no qualifier to withdraw",
        ),
    ],
)
def test_a_withdrawal_that_cannot_be_is_refused_and_nothing_is_written(changes, message):
    with pytest.raises(InterchangeError) as refused:
        import_document(document(withdrawn={"e2": "2027-03-14T12:00:00+01:00"}, **changes))
    assert message in str(refused.value)
    assert not QualifierWithdrawal.objects.exists()
