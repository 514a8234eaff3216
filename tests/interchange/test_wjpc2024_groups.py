"""The 2024 individual structure through the real import: groups A-F, two semifinals, a final.

One interchange document holds the whole published individual field
(``tests/data/wjpc2024/individual_results.json``): one entry per entrant,
identified by (name, country) across the nine rounds, with the country it
represents ("International Puzzlers": the neutral flag). Groups A-C feed
semifinal 1 and D-F semifinal 2 (``advance.into``), each giving 60 places of
which 30 go to the first 30 countries' best finishers; each semifinal gives 90,
every country's best finisher first, into the final. The export must mark as
qualified exactly who started the next round (group D sends 61 through a tie at
the cut), and the two finalists the semifinals name but who did not start the
final must have held country places.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from datetime import timedelta

import pytest
from django.core.management import call_command

from championship.models import Championship
from control.withdrawals import qualifier_withdraw
from interchange.write import import_document
from registration.models import Entry
from tests.interchange.test_wjpc2024_import import (
    PIECES,
    ROUNDS,
    ROWS,
    STAGES,
    STARTS_AT,
    country_code,
    result,
)

SLUG = "wjpc-2024-individual"
GROUPS = "ABCDEF"
# The round each group's and semifinal's qualifiers go to (read from the results).
INTO = {**dict.fromkeys("ABC", "s1"), **dict.fromkeys("DEF", "s2"), "S1": "final", "S2": "final"}
GROUP_ADVANCE = {"overall": 60, "country_places": 30, "country_place_requires_completion": True}
SEMIFINAL_ADVANCE = {
    "overall": 90,
    "country_places": "all",
    "country_place_requires_completion": True,
}
NEUTRAL = "International Puzzlers"


def entrant(row: dict) -> tuple[str, str]:
    return row["name"], row["country"]


def represents(country: str) -> str:
    return "neutral" if country == NEUTRAL else country_code(country)


def round_key(competition: str) -> str:
    return competition.removeprefix("individual_").lower()


# Every entrant once, in the order of their first row; entry e<n>, person p<n>.
ENTRANTS = list(dict.fromkeys(entrant(row) for row in ROWS))
ENTRY = {who: f"e{n}" for n, who in enumerate(ENTRANTS, 1)}


def document(*, final_started: bool = True) -> dict:
    """Return the whole individual field as one version-3 document.

    ``final_started`` false: the final as before it starts, without heats.
    """
    rounds = []
    for name in [*(f"individual_{g}" for g in GROUPS), "individual_S1", "individual_S2"]:
        rounds.append((name, round_key(name)))
    rounds.append(("individual_final", "final"))
    started = STARTS_AT.isoformat()

    def round_document(competition: str, key: str) -> dict:
        stage, limit = STAGES[competition]
        short = competition.removeprefix("individual_")
        advance = {}
        if short in INTO:
            advance = {**(GROUP_ADVANCE if short in GROUPS else SEMIFINAL_ADVANCE)}
            advance["into"] = INTO[short]
        if key == "final" and not final_started:
            return {"key": key, "name": "Final", "stage": stage, "time_limit_minutes": limit}
        return {
            "key": key,
            "name": "Final" if key == "final" else f"Group {short}" if short in GROUPS else short,
            "stage": stage,
            "time_limit_minutes": limit,
            "advance": advance,
            "heats": [
                {
                    "key": "a",
                    "started_at": started,
                    "ended_at": (STARTS_AT + timedelta(minutes=limit)).isoformat(),
                    "results": [
                        {"entry": ENTRY[entrant(row)], **result(row["result"])}
                        for row in ROUNDS[competition]
                    ],
                }
            ],
        }

    return {
        "format": "speedpuzzling-championship",
        "version": 3,
        "championship": {
            "slug": SLUG,
            "name": "WJPC 2024, individuals",
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
        },
        "persons": [
            {"id": f"p{n}", "name": name, "country": country_code(country)}
            for n, (name, country) in enumerate(ENTRANTS, 1)
        ],
        "competitions": [
            {
                "key": "individual",
                "category": "individual",
                "pieces": PIECES,
                "time_limit_minutes": 90,
                "capacity": None,
                "fee": "0",
                "entries": [
                    {
                        "id": f"e{n}",
                        "name": name,
                        "members": [f"p{n}"],
                        "represents": represents(country),
                    }
                    for n, (name, country) in enumerate(ENTRANTS, 1)
                ],
                "rounds": [round_document(competition, key) for competition, key in rounds],
            }
        ],
    }


def import_and_export(tmp_path, **options) -> dict:
    """Import the document once with the command, and return what the export gives."""
    path = tmp_path / "individual.json"
    path.write_text(json.dumps(document(**options), ensure_ascii=False), encoding="utf-8")
    call_command("import_championship", str(path), stdout=io.StringIO())
    return export()


def export() -> dict:
    out = io.StringIO()
    call_command("export_championship", SLUG, stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.django_db
def test_the_2024_individual_structure_qualifies_the_real_fields(tmp_path):
    """One import of the ~1,650 results (kept to one test for speed), then every check."""
    exported = import_and_export(tmp_path)
    groups_send_exactly_the_real_semifinalists(exported)
    semifinals_give_the_final_but_two_who_held_country_places(exported)
    the_export_writes_the_structure_it_was_given(exported)


def results_of(exported: dict, key: str) -> dict[str, dict]:
    (competition,) = exported["competitions"]
    (round_,) = [r for r in competition["rounds"] if r["key"] == key]
    return {r["entry"]: r for heat in round_["heats"] for r in heat["results"]}


def entries_of(competition: str) -> set[str]:
    return {ENTRY[entrant(row)] for row in ROUNDS[competition]}


def test_each_entrant_is_one_name_and_country_once_per_round():
    """(name, country) identifies an entrant: nobody appears twice in a round."""
    for rows in ROUNDS.values():
        assert len({entrant(row) for row in rows}) == len(rows)
    groups = [entrant(row) for g in GROUPS for row in ROUNDS[f"individual_{g}"]]
    assert len(groups) == len(set(groups))
    assert set(ENTRANTS) == set(groups)


def groups_send_exactly_the_real_semifinalists(exported):
    semifinalists = entries_of("individual_S1") | entries_of("individual_S2")
    assert len(semifinalists) == 361
    qualified = {}
    for group in GROUPS:
        results = results_of(exported, group.lower())
        qualified[group] = {ref for ref, r in results.items() if r["qualified"]}
        # Every result of a round with country places says how its qualifier went on.
        assert all((r["qualified_by"] is not None) == r["qualified"] for r in results.values()), (
            group
        )
    assert set().union(*qualified.values()) == semifinalists
    sent = {group: len(refs) for group, refs in qualified.items()}
    assert sent["D"] == 61
    assert sorted(count for group, count in sent.items() if group != "D") == [60] * 5
    for group in GROUPS:
        semifinal = "individual_S1" if group in "ABC" else "individual_S2"
        assert qualified[group] <= entries_of(semifinal), group


def semifinals_give_the_final_but_two_who_held_country_places(exported):
    finalists = entries_of("individual_final")
    assert len(finalists) == 180
    qualified = {
        ref: r
        for key in ("s1", "s2")
        for ref, r in results_of(exported, key).items()
        if r["qualified"]
    }
    assert len(finalists & set(qualified)) == 178
    # The other two finalists replaced them (this document marks no withdrawal).
    absent = set(qualified) - finalists
    assert len(absent) == 2
    assert {qualified[ref]["qualified_by"] for ref in absent} == {"country"}
    country = {ENTRY[who]: who[1] for who in ENTRANTS}
    assert sorted(country[ref] for ref in absent) == ["Egypt", "New Zealand"]


def the_export_writes_the_structure_it_was_given(exported):
    (competition,) = exported["competitions"]
    advance = {r["key"]: r["advance"] for r in competition["rounds"]}
    assert advance["a"] == {**GROUP_ADVANCE, "into": "s1"}
    assert advance["f"] == {**GROUP_ADVANCE, "into": "s2"}
    assert advance["s2"] == {**SEMIFINAL_ADVANCE, "into": "final"}
    assert advance["final"] == {}
    flags = Counter(entry["represents"] for entry in competition["entries"])
    assert flags["neutral"] == len({who for who in ENTRANTS if who[1] == NEUTRAL}) > 0
    # The final gives no places: nobody there carries a route.
    assert all("qualified_by" not in r for r in results_of(exported, "final").values())


@pytest.mark.django_db
@pytest.mark.long
def test_withdrawing_the_two_who_did_not_start_gives_the_real_final(tmp_path):
    """Before the final, the organiser withdraws the two; the rule fills their places.

    New Zealand's country place passes to the next New Zealander; Egypt had nobody
    left, so its place goes by classification. The qualified are then exactly
    the 180 who started the published final.
    """
    exported = import_and_export(tmp_path, final_started=False)
    finalists = entries_of("individual_final")
    qualified = {
        ref: (key, r)
        for key in ("s1", "s2")
        for ref, r in results_of(exported, key).items()
        if r["qualified"]
    }
    country = {ENTRY[who]: who[1] for who in ENTRANTS}
    absent = sorted(set(qualified) - finalists, key=lambda ref: country[ref])
    assert [country[ref] for ref in absent] == ["Egypt", "New Zealand"]
    championship = Championship.objects.get(slug=SLUG)
    routes = {}
    for ref in absent:
        key, _result = qualified[ref]
        semifinal = championship.rounds.get(key=key)
        entry = Entry.objects.get(category__championship=championship, ref=ref)
        taken = qualifier_withdraw(round_=semifinal, entry=entry, confirm=True)
        routes[country[ref]] = (taken.route, [country[e.ref] for e in taken.entries])
    assert routes["New Zealand"] == ("country", ["New Zealand"])
    assert routes["Egypt"][0] == "classification"
    after = export()
    now_qualified = {
        ref for key in ("s1", "s2") for ref, r in results_of(after, key).items() if r["qualified"]
    }
    assert now_qualified == finalists
    # The withdrawals travel with the document: imported again, the same qualifiers.
    withdrawn = {
        ref: r["withdrawn_at"]
        for key in ("s1", "s2")
        for ref, r in results_of(after, key).items()
        if "withdrawn_at" in r
    }
    assert sorted(withdrawn) == sorted(absent)
    import_document(after, replace=True)
    assert export() == after
