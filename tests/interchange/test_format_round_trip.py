"""The interchange format's round trip: the whole championship, in a fixed order, comes back."""

from __future__ import annotations

import copy
import json
import uuid
from datetime import UTC, date, datetime, timedelta

import jsonschema
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from championship import rulesets
from championship.models import (
    Championship,
    ChampionshipRole,
    Round,
    Seat,
    Table,
)
from interchange.export import export_document
from interchange.write import import_document
from judging.models import Capture
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.interchange.documents import SCHEMA, example, results_by_entry

pytestmark = pytest.mark.django_db


def seconds(minutes: int, extra: int = 0) -> int:
    """Return ``minutes`` and ``extra`` seconds in milliseconds, plus a few stray ms."""
    return (minutes * 60 + extra) * 1000 + 437


@pytest.fixture
def realistic(db):
    """A rogaland championship in the middle of its day, with every kind of result.

    Individual: a preliminary round in two heats (the best of each heat and the
    best remaining advance) and a seated final; pair: a preliminary round (the
    best one advances overall) and a final; team: entries only.
    """
    championship = factories.championship(
        slug="rm-2026",
        name="Rogalandsmesterskapet 2026",
        venue="Sølvberget, Stavanger",
        rule_overrides={
            "rounds_individual": ["prelim", "final"],
            "rounds_pair": ["prelim", "final"],
            "max_lost_pieces": 5,
        },
    )
    category = {c.kind: c for c in championship.categories.all()}
    tables = [
        factories.table(championship, seats=2, label="Window" if n == 0 else "") for n in range(4)
    ]
    tables += [factories.table(championship, label="Guests") for _ in range(4)]

    def local(name, **kwargs):
        kwargs = {
            "name": name,
            "birth_date": date(1984, 5, 17),
            "city": "Stavanger",
            "country": "NO",
            "citizenship": ["NO"],
            "region": "Rogaland",
            "publish_consent": True,
            **kwargs,
        }
        return factories.person(championship, **kwargs)

    persons = [
        local("Ingrid Tjelta", ref="ingrid"),
        local("Ola Nilsen", birth_date=date(1975, 11, 2)),
        local("Kari Berg", city="Bergen", region="Vestland", years_in_region=7),
        # Lives elsewhere, and not long enough in Rogaland before: not eligible.
        local("Lars Johansen", city="Bergen", region="Vestland", years_in_region=2),
        local("Sigrid Haugen", birth_date=date(2012, 6, 1), citizenship=["NO", "SE"]),
        local("Erik Haugen", publish_consent=False),
        local("Astrid Sele"),
        local("Åse Undheim", birth_date=None, city="", country="", citizenship=[], region=""),
    ]
    registered = datetime(2026, 2, 1, 17, 4, 31, tzinfo=UTC)

    def entry(kind, members, **kwargs):
        nonlocal registered
        registered += timedelta(hours=7, seconds=13)
        kwargs.setdefault("payment_status", "paid")
        kwargs.setdefault("publish_consent", True)
        return factories.entry(category[kind], members=members, registered_at=registered, **kwargs)

    solo = [entry("individual", [person]) for person in persons[:7]]
    withdrawn = entry(
        "individual", [persons[7]], status="withdrawn", withdrawn_at=registered, ref="gone"
    )
    pairs = [
        entry("pair", persons[4:6], name="Haugen & Haugen", adult_name="Erik Haugen"),
        entry("pair", persons[0:2], name="Ingrid & Ola", payment_status="waived"),
    ]
    teams = [
        entry("team", [persons[0], persons[1], persons[2], persons[3]], name="Brikkeklubben"),
        entry("team", persons[5:8], name="Kantbitene", status="waitlisted"),
    ]
    assert withdrawn and teams

    rounds = {r.key: r for r in Round.objects.filter(championship=championship)}
    prelim = rounds["individual-prelim"]
    prelim.advance, prelim.advance_count, prelim.advance_best_remaining = "per_heat", 1, 1
    prelim.state = "running"
    prelim.save()
    started = datetime(2026, 3, 14, 9, 15, tzinfo=UTC)
    heat_a = factories.heat(prelim, key="a", order=1, started_at=started, state="running")
    heat_b = factories.heat(
        prelim, key="b", order=2, started_at=started + timedelta(hours=1), state="running"
    )
    seating = [
        (heat_a, tables[0], 1, solo[0]),
        (heat_a, tables[0], 2, solo[1]),
        (heat_a, tables[1], 1, solo[2]),
        (heat_b, tables[0], 1, solo[3]),
        (heat_b, tables[4], 1, solo[4]),
        (heat_b, tables[5], 1, solo[5]),
        (heat_b, tables[6], 1, solo[6]),
    ]
    for heat, table, position, seated in seating:
        Seat.objects.create(heat=heat, table=table, position=position, entry=seated)

    def result(round_, heat, entry_, status, **kwargs):
        return Result.objects.create(round=round_, heat=heat, entry=entry_, status=status, **kwargs)

    result(prelim, heat_a, solo[0], "finished", time_ms=seconds(40))
    result(prelim, heat_a, solo[1], "finished", time_ms=seconds(41), missing_found=2)
    result(prelim, heat_a, solo[2], "unfinished", pieces_placed=420)
    result(prelim, heat_b, solo[3], "finished", time_ms=seconds(40, 30))
    result(prelim, heat_b, solo[4], "dns")
    result(prelim, heat_b, solo[5], "dsq")
    result(prelim, heat_b, solo[6], "finished", time_ms=seconds(42), missing_lost=1)
    standings_recompute(round_=prelim)

    final = rounds["individual-final"]
    final_heat = factories.heat(final, key="final", order=1)
    for table, position, seated in ((tables[2], 1, solo[0]), (tables[2], 2, solo[3])):
        Seat.objects.create(heat=final_heat, table=table, position=position, entry=seated)

    pair_prelim = rounds["pair-prelim"]
    pair_prelim.advance, pair_prelim.advance_count = "overall", 1
    pair_prelim.save()
    pair_heat = factories.heat(pair_prelim, key="a", order=1, started_at=started)
    for table, seated in zip(tables[4:6], pairs, strict=True):
        Seat.objects.create(heat=pair_heat, table=table, entry=seated)
    result(pair_prelim, pair_heat, pairs[0], "finished", time_ms=seconds(55))
    result(
        pair_prelim,
        pair_heat,
        pairs[1],
        "finished",
        time_ms=seconds(50),
        missing_found=1,
        missing_lost=2,
        adjacent_missing=2,
        last_piece_ms=seconds(50, 20),
    )
    standings_recompute(round_=pair_prelim)

    judge = factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    Capture.objects.create(
        championship=championship,
        client_id=uuid.uuid4(),
        round=prelim,
        heat=heat_a,
        entry=solo[0],
        kind=Capture.Kind.FINISH,
        judge=judge,
        elapsed_ms=seconds(40),
    )
    championship.solo = solo
    championship.pairs = pairs
    return championship


# ----------------------------------------------------------------------- round trip


def test_export_import_export_gives_the_same_document(realistic):
    """Ids, tokens, results and their computed fields all survive a replacing import."""
    first = export_document(realistic)
    imported = import_document(copy.deepcopy(first), replace=True)
    second = export_document(imported)

    assert json.dumps(second, indent=2) == json.dumps(first, indent=2)
    assert imported.pk != realistic.pk
    assert Championship.objects.filter(slug="rm-2026").count() == 1
    assert {t["token"] for t in first["tables"]} == set(
        Table.objects.filter(championship=imported).values_list("token", flat=True)
    )


def test_a_replacing_import_keeps_the_staff_roles(realistic):
    """Users are not in the document: the organiser and judge keep their roles."""
    imported = import_document(export_document(realistic), replace=True)

    roles = set(imported.roles.values_list("user__username", "role"))
    assert roles == {("judy", "judge"), ("orga", "organiser")}
    # The old championship went with its captures.
    assert not Capture.objects.exists()


def test_the_export_holds_the_whole_championship(realistic):
    document = export_document(realistic)

    assert document["format"] == "speedpuzzling-championship"
    assert document["version"] == 4
    assert document["championship"] == {
        "slug": "rm-2026",
        "name": "Rogalandsmesterskapet 2026",
        "ruleset": "rogaland",
        "rules": {
            "rounds_individual": ["prelim", "final"],
            "rounds_pair": ["prelim", "final"],
            "max_lost_pieces": 5,
        },
        "timezone": "Europe/Oslo",
        "starts_at": "2026-03-14T10:00:00+01:00",
        "currency": "NOK",
        "payment_instructions": "",
        "language": "nb",
        "venue": "Sølvberget, Stavanger",
        "address": "",
        "registration_deadline": None,
        "listed": True,
        "draft": False,
        "protest_window_minutes": 0,
        "member_changes_days_before": None,
        "offer_hours": 0,
        "payment_hours": None,
        "release_unpaid": False,
        "second_count": False,
        "mail_seating": True,
        "mail_advanced": True,
        "mail_results": True,
        # Version 4: nowhere to pay named yet, references as the currency suggests.
        "payment_reference_scheme": "",
        "payee_name": "",
        "swish_number": "",
        "vipps_number": "",
        "mobilepay_number": "",
        "bank_account": "",
        "iban": "",
        "bic": "",
        "refund_days_before": None,
    }
    assert [t["number"] for t in document["tables"]] == list(range(1, 9))
    assert document["tables"][0]["seats"] == 2 and document["tables"][0]["label"] == "Window"
    ingrid = next(p for p in document["persons"] if p["id"] == "ingrid")
    assert ingrid["birth_date"] == "1984-05-17"
    assert ingrid["citizenship"] == ["NO"]
    assert [c["category"] for c in document["competitions"]] == ["individual", "pair", "team"]
    individual = document["competitions"][0]
    assert [e["id"] for e in individual["entries"]][-1] == "gone"
    assert individual["entries"][0]["members"] == ["ingrid"]
    assert individual["entries"][0]["registered_at"] == "2026-02-02T01:04:44+01:00"
    team = document["competitions"][2]["entries"][0]
    assert len(team["members"]) == 4 and team["members"][0] == "ingrid"
    assert individual["fee"] == "200.00"
    prelim, final = individual["rounds"]
    assert prelim["advance"] == {"per_heat": 1, "best_remaining": 1}
    assert prelim["stage"] == "prelim" and final["stage"] == "final"
    assert [h["key"] for h in prelim["heats"]] == ["a", "b"]
    assert prelim["heats"][0]["started_at"] == "2026-03-14T10:15:00+01:00"
    assert final["heats"][0]["started_at"] is None
    assert [s["table"] for s in prelim["heats"][0]["seats"]] == [1, 1, 2]
    assert document["competitions"][1]["rounds"][0]["advance"] == {"overall": 1}


def test_the_export_carries_the_computed_fields(realistic):
    """Places rank both heats together; the unofficial entrant has no official place."""
    document = export_document(realistic)
    solo = [entry.ref for entry in realistic.solo]
    results = results_by_entry(document, 0, 0)

    fastest = results[solo[0]]
    assert fastest["time"] == "0:40:00"
    assert (fastest["place"], fastest["official_place"], fastest["official"]) == (1, 1, True)
    assert fastest["outcome"] == "completed" and fastest["final_seconds"] == 2400
    assert fastest["qualified"] is True and fastest["prize"] is None

    guest = results[solo[3]]  # lives in Vestland, only 2 years in Rogaland before
    assert (guest["place"], guest["official_place"], guest["official"]) == (2, None, False)
    assert guest["qualified"] is True  # the best of heat b

    penalised = results[solo[1]]  # rogaland: 5 s per missing piece found later
    assert penalised["missing_found"] == 2 and penalised["penalty_seconds"] == 10
    assert penalised["final_seconds"] == 41 * 60 + 10
    assert (penalised["place"], penalised["official_place"]) == (3, 2)
    assert penalised["qualified"] is True  # the best remaining

    lost = results[solo[6]]  # a lost piece costs nothing under rogaland
    assert (lost["penalty_seconds"], lost["place"], lost["qualified"]) == (0, 4, False)

    unfinished = results[solo[2]]
    assert unfinished["outcome"] == "unfinished" and unfinished["time"] is None
    assert (unfinished["counted_pieces"], unfinished["place"]) == (420, 5)

    assert results[solo[4]]["outcome"] == "dns" and results[solo[4]]["place"] is None
    assert results[solo[5]]["outcome"] == "dsq" and results[solo[5]]["place"] is None

    pairs = results_by_entry(document, 1, 0)
    best = pairs[realistic.pairs[1].ref]
    assert best["adjacent_missing"] == 2 and best["last_piece_time"] == "0:50:20"
    assert (best["place"], best["qualified"], best["final_seconds"]) == (1, True, 50 * 60 + 5)
    assert pairs[realistic.pairs[0].ref]["qualified"] is False


def test_the_export_is_in_a_fixed_order(realistic):
    document = export_document(realistic)

    assert [p["id"] for p in document["persons"]] == sorted(p["id"] for p in document["persons"])
    for heat in document["competitions"][0]["rounds"][0]["heats"]:
        refs = [result["entry"] for result in heat["results"]]
        assert refs == sorted(refs)
    assert export_document(realistic) == document


def test_the_export_takes_the_same_number_of_queries_however_large(realistic):
    export_document(realistic)  # ranks the rounds whose standings are behind, once
    with CaptureQueriesContext(connection) as small:
        export_document(realistic)
    individual = realistic.categories.get(kind="individual")
    prelim = Round.objects.get(championship=realistic, key="individual-prelim")
    heat = factories.heat(prelim, key="c", order=3, started_at=datetime(2026, 3, 14, tzinfo=UTC))
    for number in range(20):
        more = factories.entry(individual)
        table = factories.table(realistic)
        Seat.objects.create(heat=heat, table=table, entry=more)
        Result.objects.create(
            round=prelim, heat=heat, entry=more, status="finished", time_ms=seconds(45, number)
        )
    standings_recompute(round_=prelim)

    with CaptureQueriesContext(connection) as large:
        document = export_document(realistic)

    assert len(document["competitions"][0]["rounds"][0]["heats"][2]["results"]) == 20
    # Constant: the championship, tables, persons, entries, members, rounds, heats, seats,
    # results, standings and the questions with their categories.
    assert len(large.captured_queries) == len(small.captured_queries) <= 12


def test_the_export_follows_the_schema(realistic):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(export_document(realistic), SCHEMA, jsonschema.Draft202012Validator)
    for name in ("small", "minimal"):
        jsonschema.validate(example(name), SCHEMA, jsonschema.Draft202012Validator)
    for name in ("small", "minimal"):
        jsonschema.validate(example(name), SCHEMA, jsonschema.Draft202012Validator)


def test_the_schema_knows_every_ruleset_parameter():
    names = SCHEMA["$defs"]["championship"]["properties"]["rules"]["propertyNames"]["enum"]
    assert names == list(rulesets.PARAMETERS)
