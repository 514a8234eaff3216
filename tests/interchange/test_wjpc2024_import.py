"""Real data through the real import: every WJPC 2024 individual round keeps its published places.

Each of the nine rounds of ``tests/data/wjpc2024/individual_results.json`` becomes
an interchange document (one championship, one 500-piece individual competition,
one round with one heat), is loaded with ``import_championship`` and read back
with ``export_championship``: the place of every result must be the official
placement. Round C holds "500", a puzzle completed after the final signal: the
import takes it as published and ranks it first among those that did not finish.
"""

from __future__ import annotations

import io
import json
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from django.core.management import call_command
from django_countries import countries

from tests.paths import DATA

pytestmark = pytest.mark.django_db

ROWS = json.loads((DATA / "wjpc2024" / "individual_results.json").read_text(encoding="utf-8"))
ROUNDS: dict[str, list[dict]] = defaultdict(list)
for _row in ROWS:
    ROUNDS[_row["competition"]].append(_row)

PIECES = 500
# The published round: its stage and time limit (preliminaries and semifinals 90
# minutes, the final 75).
STAGES = {
    **{f"individual_{group}": ("prelim", 90) for group in "ABCDEF"},
    "individual_S1": ("semifinal", 90),
    "individual_S2": ("semifinal", 90),
    "individual_final": ("final", 75),
}
# The file gives no dates or times of day; the championship was held in Valladolid in
# September 2024. The start only has to be plausible: places follow from the results.
STARTS_AT = datetime.fromisoformat("2024-09-20T10:00:00+02:00")

# Countries as the results pages spell them where django-countries (the codes the
# application offers) spells them otherwise.
COUNTRY_ALIASES = {"The Netherlands": "NL", "USA": "US", "Vietnam": "VN"}
# Entrants published under a name that is no country: their country stays empty.
NOT_COUNTRIES = {"International Puzzlers"}


def country_code(name: str) -> str:
    """Return the ISO 3166-1 alpha-2 code of a published country, "" for no country."""
    if name in NOT_COUNTRIES:
        return ""
    code = COUNTRY_ALIASES.get(name) or countries.by_name(name, language="en")
    assert code, f'no country code for "{name}": add it to COUNTRY_ALIASES or NOT_COUNTRIES'
    return code


def slug(competition: str) -> str:
    return "wjpc-2024-" + competition.removeprefix("individual_").lower()


def result(published: str) -> dict:
    """Return the result of a published row: a finish time (penalties included) or a count."""
    if ":" in published:
        return {"status": "finished", "time": published}
    return {"status": "unfinished", "pieces_placed": int(published)}


def document(competition: str, *, registered_at: datetime | None = None) -> dict:
    """Return one published round as an interchange document, entry ``e<n>`` for row n.

    ``registered_at``: every entry's registration time; the file gives none, and
    without it the import stamps the time of the import.
    """
    rows = ROUNDS[competition]
    registration = {} if registered_at is None else {"registered_at": registered_at.isoformat()}
    stage, limit = STAGES[competition]
    started = STARTS_AT.isoformat()
    ended = (STARTS_AT + timedelta(minutes=limit)).isoformat()
    return {
        "format": "speedpuzzling-championship",
        "version": 2,
        "championship": {
            "slug": slug(competition),
            "name": f"WJPC 2024, {competition}",
            # Under no national rulebook; the overrides say what the published list
            # needs even if the neutral preset changes: everyone is official, the
            # times already hold their penalties, and no attempt is invalid.
            "ruleset": "neutral",
            "rules": {
                "eligibility": "everyone",
                "penalty_seconds_per_piece": 0,
                "max_lost_pieces": None,
                "rounds_individual": ["prelim", "semifinal", "final"],
            },
            "timezone": "Europe/Madrid",
            "starts_at": started,
            "currency": "EUR",
            "language": "en",
            "venue": "Valladolid",
        },
        "persons": [
            {"id": f"p{n}", "name": row["name"], "country": country_code(row["country"])}
            for n, row in enumerate(rows, 1)
        ],
        "competitions": [
            {
                "key": "individual",
                "category": "individual",
                "pieces": PIECES,
                "time_limit_minutes": limit,
                "capacity": None,
                "fee": "0",
                "entries": [
                    {"id": f"e{n}", "name": row["name"], "members": [f"p{n}"], **registration}
                    for n, row in enumerate(rows, 1)
                ],
                "rounds": [
                    {
                        "key": competition.replace("_", "-").lower(),
                        "stage": stage,
                        "heats": [
                            {
                                "key": "a",
                                "started_at": started,
                                "ended_at": ended,
                                # Results need no seats (docs/interchange.md, results).
                                "results": [
                                    {"entry": f"e{n}", **result(row["result"])}
                                    for n, row in enumerate(rows, 1)
                                ],
                            }
                        ],
                    }
                ],
            }
        ],
    }


def load(path: Path, *options: str) -> None:
    call_command("import_championship", str(path), *options, stdout=io.StringIO())


def export(competition: str) -> str:
    out = io.StringIO()
    call_command("export_championship", slug(competition), stdout=out)
    return out.getvalue()


def import_round(competition: str, tmp_path: Path, **options) -> dict:
    """Import the round's document with the command and return what the export gives."""
    path = tmp_path / f"{slug(competition)}.json"
    path.write_text(json.dumps(document(competition, **options), ensure_ascii=False), "utf-8")
    load(path)
    return json.loads(export(competition))


def exported_results(exported: dict) -> dict[str, dict]:
    (competition,) = exported["competitions"]
    (round_,) = competition["rounds"]
    return {r["entry"]: r for heat in round_["heats"] for r in heat["results"]}


def test_the_data_holds_1644_rows_in_nine_rounds_with_one_500():
    """The file is the whole published list: nine rounds, and one "500" (group C)."""
    assert len(ROWS) == 1644
    assert set(ROUNDS) == set(STAGES)
    assert [row["competition"] for row in ROWS if row["result"] == str(PIECES)] == ["individual_C"]


@pytest.mark.parametrize("competition", sorted(STAGES))
def test_an_imported_round_gets_every_published_place(competition, tmp_path):
    """The exported round lists every published entrant, each at the official placement."""
    rows = ROUNDS[competition]

    exported = import_round(competition, tmp_path)

    results = exported_results(exported)
    assert len(results) == len(rows)
    wrong = [
        (f"e{n}", row["name"], row["result"], row["placement"], results[f"e{n}"]["place"])
        for n, row in enumerate(rows, 1)
        if results[f"e{n}"]["place"] != row["placement"]
    ]
    assert not wrong, (
        f"{len(wrong)} of {len(rows)} places differ (entry, name, result, published, "
        f"imported): {wrong[:5]}"
    )
    # Every entrant is official under these rules: the official place is the place.
    assert all(r["official"] and r["official_place"] == r["place"] for r in results.values())
    assert {p["id"]: p["country"] for p in exported["persons"]} == {
        f"p{n}": country_code(row["country"]) for n, row in enumerate(rows, 1)
    }


def test_a_puzzle_completed_after_the_final_signal_is_first_of_those_not_finished(tmp_path):
    """Round C's "500" imports as published: every piece counted, right after the finishers."""
    rows = ROUNDS["individual_C"]
    (n,) = [n for n, row in enumerate(rows, 1) if row["result"] == str(PIECES)]
    finishers = sum(":" in row["result"] for row in rows)

    late = exported_results(import_round("individual_C", tmp_path))[f"e{n}"]

    assert late["status"] == "unfinished"
    assert late["outcome"] == "unfinished"
    assert late["pieces_placed"] == late["counted_pieces"] == PIECES
    assert late["place"] == finishers + 1 == rows[n - 1]["placement"] == 148


def test_a_round_with_a_500_exports_the_same_after_export_and_import(tmp_path):
    """Export, import with --replace, export: the document of round C is unchanged.

    The entries carry a registration time (the day before the start stands in:
    the file gives none); without one, see the test below.
    """
    import_round("individual_C", tmp_path, registered_at=STARTS_AT - timedelta(days=1))
    first = export("individual_C")
    path = tmp_path / "export.json"
    path.write_text(first, encoding="utf-8")

    load(path, "--replace")

    second = export("individual_C")
    assert json.loads(second) == json.loads(first)
    assert second == first


def test_an_archive_without_registration_times_exports_the_same_after_export_and_import(
    tmp_path,
):
    """An archive of a championship three years back, entries without registration times.

    Imported, exported, imported with --replace and exported again, it gives the
    same document, as the format promises.
    """
    with time_machine.travel(STARTS_AT + timedelta(days=3 * 365), tick=False):
        import_round("individual_C", tmp_path)
        first = export("individual_C")
        path = tmp_path / "export.json"
        path.write_text(first, encoding="utf-8")

        load(path, "--replace")

        assert export("individual_C") == first
