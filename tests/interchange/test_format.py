"""The championship interchange format: export, import, and what a bad document gets."""

from __future__ import annotations

import copy
import io
import json
import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import jsonschema
import pytest
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from championship import bounds, presets, rulesets
from championship.models import (
    Championship,
    ChampionshipRole,
    Currency,
    Heat,
    Round,
    Seat,
    Table,
)
from interchange import schema
from interchange.export import export_document
from interchange.format import FEE_MAX, READS, InterchangeError
from interchange.write import import_document
from judging.models import Capture
from registration.models import Entry, EntryMember, Person
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.paths import DATA as TEST_DATA
from tests.paths import ROOT

pytestmark = pytest.mark.django_db

DATA = TEST_DATA / "interchange"
SCHEMA = json.loads((ROOT / "docs" / "interchange.schema.json").read_text(encoding="utf-8"))
MODELS = (Championship, Table, Person, Entry, EntryMember, Round, Heat, Seat, Result)


def example(name: str = "small") -> dict:
    """Return an example document of ``tests/data/interchange`` (a fresh copy)."""
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def seconds(minutes: int, extra: int = 0) -> int:
    """Return ``minutes`` and ``extra`` seconds in milliseconds, plus a few stray ms."""
    return (minutes * 60 + extra) * 1000 + 437


def results_by_entry(document: dict, competition: int, round_: int) -> dict[str, dict]:
    heats = document["competitions"][competition]["rounds"][round_]["heats"]
    return {result["entry"]: result for heat in heats for result in heat["results"]}


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
    assert document["version"] == 2
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
        "protest_window_minutes": 0,
        "member_changes_days_before": None,
        "offer_hours": 0,
        "payment_hours": None,
        "release_unpaid": False,
        "second_count": False,
        "mail_seating": True,
        "mail_advanced": True,
        "mail_results": True,
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


# ------------------------------------------------------------------------ examples


def test_the_example_document_is_its_own_export(db):
    """The example in the docs is exactly what exporting it again gives."""
    championship = import_document(example())

    assert export_document(championship) == example()


def test_the_schedule_time_up_and_own_starts_come_back_as_they_were(db):
    """Heat names, planned starts, time-up, own starts and a round's own limit round-trip."""
    document = example()
    document["competitions"][0]["rounds"][0]["time_limit_minutes"] = 100
    championship = import_document(document)

    final = Round.objects.get(championship=championship, key="individual-final")
    assert (final.time_limit_minutes, final.effective_time_limit_minutes) == (100, 100)
    heat = final.heats.get()
    assert (heat.name, heat.state) == ("Finale", Heat.State.TIME_UP)
    assert heat.scheduled_start == heat.started_at == datetime(2026, 3, 14, 9, 15, tzinfo=UTC)
    assert heat.ended_at == datetime(2026, 3, 14, 11, 15, tzinfo=UTC)
    own = {seat.entry.ref: seat.started_at for seat in final.seats.select_related("entry")}
    assert own == {
        "e1": None,
        "e2": None,
        "e3": datetime(2026, 3, 14, 9, 16, 30, tzinfo=UTC),
        "e4": None,
    }
    assert export_document(championship) == document


def test_check_ins_payments_rankings_and_confirmations_come_back(db):
    """What the day's tools set (check-in, payment, seeding, confirmation) survives a move."""
    from judging.capture_kinds import CaptureConflict, CaptureInput
    from judging.services import capture_record

    championship = import_document(example())

    e1 = Entry.objects.get(ref="e1")
    assert (e1.payment_reference, e1.language, e1.prior_ranking) == ("Vipps 4711", "nb", 12)
    assert e1.checked_in_at == datetime(2026, 3, 14, 8, 41, tzinfo=UTC)
    assert Entry.objects.get(ref="e3").language == "en"
    assert Entry.objects.get(ref="e6").checked_in_at is None
    confirmed = Result.objects.get(entry=e1)
    assert confirmed.confirmed_at == datetime(2026, 3, 14, 9, 56, 31, tzinfo=UTC)
    # A confirmed result stays locked against a judge's tap after the move.
    final = Round.objects.get(championship=championship, key="individual-final")
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE)
    with pytest.raises(CaptureConflict, match="confirmed"):
        capture_record(
            round_=final,
            entry=e1,
            judge=judge,
            data=CaptureInput(
                client_id=uuid.uuid4(),
                kind="finish",
                at=datetime(2026, 3, 14, 9, 50, tzinfo=UTC),
            ),
            now=datetime(2026, 3, 14, 10, 0, tzinfo=UTC),
        )
    # The rest of what an organiser set up comes back too.
    assert championship.address == "Kulturhusgata 2, 4005 Stavanger" and championship.is_public
    assert championship.registration_deadline == datetime(2026, 3, 7, 22, 59, tzinfo=UTC)
    reserved = championship.tables.filter(reserved_for_guests=True)
    assert list(reserved.values_list("number", flat=True)) == [4]
    individual = championship.categories.get(kind="individual")
    assert (individual.name, individual.puzzle_brand, individual.puzzle_motif) == (
        "Individual",
        "Ravensburger",
        "Fjordlandskap",
    )
    assert individual.registration_opens_at == datetime(2026, 1, 10, 11, 0, tzinfo=UTC)
    assert Entry.objects.get(ref="e3").notes == "Needs a table near the door"
    assert Entry.objects.get(ref="e6").fee == Decimal("400.00")
    # Omitted, an entry's language is the championship's.
    document = example()
    del document["competitions"][0]["entries"][2]["language"]
    again = import_document(document, replace=True)
    assert Entry.objects.get(category__championship=again, ref="e3").language == "nb"


def test_the_payment_instructions_round_trip_as_an_optional_extension(db):
    """``championship.payment_instructions``: read, written back, empty when omitted."""
    document = example()
    text = "Vipps {fee} til 123 45 og merk betalingen med {reference}."
    assert document["championship"]["payment_instructions"] == text
    jsonschema.validate(document, SCHEMA)
    championship = import_document(document)
    assert championship.payment_instructions == text
    assert export_document(championship)["championship"]["payment_instructions"] == text

    del document["championship"]["payment_instructions"]
    again = import_document(document, replace=True)
    assert again.payment_instructions == ""
    assert export_document(again)["championship"]["payment_instructions"] == ""

    document["championship"]["payment_instructions"] = ["Vipps"]
    with pytest.raises(InterchangeError) as refused:
        import_document(document, replace=True)
    assert refused.value.path == "championship.payment_instructions"


def test_an_omitted_field_takes_its_default(db):
    championship = import_document(example("minimal"))

    assert (championship.timezone, championship.currency, championship.language) == (
        "Europe/Stockholm",
        "SEK",
        "sv",
    )
    # A time without an offset is in the championship's time zone.
    assert championship.starts_at == datetime(2026, 5, 9, 8, 0, tzinfo=UTC)
    tokens = list(championship.tables.values_list("token", flat=True))
    assert len(set(tokens)) == 2 and all(len(token) >= 20 for token in tokens)
    category = championship.categories.get()
    assert (category.pieces, category.capacity, category.fee) == (500, None, 0)
    assert list(Round.objects.filter(category=category).values_list("stage", flat=True)) == [
        "prelim",
        "final",
    ]
    bo = Entry.objects.get(ref="bo-i")
    assert (bo.name, bo.status, bo.payment_status) == ("Bo Ek", "confirmed", "unpaid")
    results = results_by_entry(export_document(championship), 0, 0)
    # Bo's citizenship is not known: unofficial, but faster than the last official qualifier.
    assert results["bo-i"]["official"] is False and results["bo-i"]["qualified"] is True
    assert results["anna-i"]["official_place"] == 1


def test_a_single_citizenship_code_is_read_as_a_list(db):
    import_document(example("minimal"))

    assert Person.objects.get(ref="anna").citizenship == ["SE"]


# ------------------------------------------------------------------------ commands


def test_the_commands_export_and_import(db, tmp_path):
    import_document(example())
    out = io.StringIO()
    call_command("export_championship", "rm-2026", stdout=out)
    assert json.loads(out.getvalue()) == example()
    assert "Sølvberget" in out.getvalue()  # not escaped
    path = tmp_path / "rm-2026.json"
    path.write_text(out.getvalue(), encoding="utf-8")

    out = io.StringIO()
    call_command("import_championship", str(path), "--replace", stdout=out)

    assert 'Loaded championship "rm-2026"' in out.getvalue()
    summary = "competitions: 3, tables: 4, persons: 8, entries: 6, rounds: 3, heats: 1, results: 4"
    assert summary in out.getvalue()
    assert export_document(Championship.objects.get(slug="rm-2026")) == example()


def test_exporting_an_unknown_championship_is_an_error(db):
    with pytest.raises(CommandError, match='unknown championship "nowhere"') as raised:
        call_command("export_championship", "nowhere", stdout=io.StringIO())
    assert raised.value.returncode == 2


def test_an_existing_slug_is_refused_without_replace(db, tmp_path):
    import_document(example())
    before = counts()

    with pytest.raises(InterchangeError) as raised:
        import_document(example())
    assert raised.value.path == "championship.slug"
    assert str(raised.value).startswith('championship.slug: a championship "rm-2026" already')

    path = tmp_path / "again.json"
    path.write_text(json.dumps(example()), encoding="utf-8")
    with pytest.raises(CommandError, match="--replace") as raised:
        call_command("import_championship", str(path), stdout=io.StringIO())
    assert raised.value.returncode == 2
    assert counts() == before


def test_bad_json_is_refused_by_the_command(db, tmp_path):
    import_document(example())
    before = counts()
    path = tmp_path / "broken.json"
    path.write_text('{"format": "speedpuzzling-championship", "version": 1,\n  "champ', "utf-8")

    with pytest.raises(CommandError, match=r"not valid JSON: .* line 2, column 3") as raised:
        call_command("import_championship", str(path), "--replace", stdout=io.StringIO())

    assert raised.value.returncode == 2
    assert counts() == before


def test_a_missing_file_is_refused_by_the_command(db, tmp_path):
    with pytest.raises(CommandError, match="cannot read the file") as raised:
        call_command("import_championship", str(tmp_path / "nope.json"), stdout=io.StringIO())
    assert raised.value.returncode == 2


def test_a_refused_replace_keeps_the_old_championship(db):
    """A problem found after the old championship was deleted rolls the deletion back."""
    old = import_document(example())
    other = factories.championship(slug="elsewhere")
    taken = factories.table(other).token
    before = counts()
    document = example()
    document["tables"][2]["token"] = taken

    with pytest.raises(InterchangeError) as raised:
        import_document(document, replace=True)

    assert str(raised.value) == "tables[2].token: already in use by a table of another championship"
    assert counts() == before
    assert Championship.objects.get(slug="rm-2026").pk == old.pk
    assert export_document(old) == example()


# --------------------------------------------------------------------- bad documents

HEAT = "competitions[0].rounds[0].heats[0]"


def heat(document: dict) -> dict:
    return document["competitions"][0]["rounds"][0]["heats"][0]


def set_in(path, value):
    """Return a change of the example that sets the item at ``path`` (keys and indexes)."""

    def change(document):
        target = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def add_member(document):
    document["competitions"][0]["entries"][3]["members"].append("p9")


def shrink_team(document):
    document["competitions"][2]["entries"][0]["members"] = ["p7", "p8"]


def too_many_missing(document):
    heat(document)["results"][0].update(missing_found=300, missing_lost=201)


def crowd_table(document):
    heat(document)["seats"][2]["table"] = 1


def second_entry_under_dm(document):
    document["championship"].update(ruleset="dm", timezone="Europe/Copenhagen")
    document["competitions"][0]["entries"].append({"id": "e7", "members": ["p1"]})


def drop_name(document):
    del document["championship"]["name"]


def late_piece_before_time(document):
    heat(document)["results"][0]["last_piece_time"] = "0:30:00"


BAD = {
    "unknown person": (
        add_member,
        'competitions[0].entries[3].members[1]: unknown person "p9"',
    ),
    "wrong type": (
        set_in(["competitions", 0, "pieces"], "500"),
        'competitions[0].pieces: must be a whole number, not "500"',
    ),
    "wrong type of a flag": (
        set_in(["persons", 2, "publish_consent"], "yes"),
        'persons[2].publish_consent: must be true or false, not "yes"',
    ),
    "piece count over the puzzle's size": (
        lambda d: heat(d)["results"][2].update(pieces_placed=501),
        f"{HEAT}.results[2].pieces_placed: must be between 0 and 500, not 501",
    ),
    "more missing pieces than the puzzle has": (
        too_many_missing,
        f"{HEAT}.results[0].missing_lost: missing_found + missing_lost is 501, "
        "more than the puzzle's 500 pieces",
    ),
    "team of the wrong size": (
        shrink_team,
        "competitions[2].entries[0].members: a team has 3 to 4 members, not 2",
    ),
    "unknown ruleset parameter": (
        set_in(["championship", "rules"], {"max_lost_piece": 5}),
        'championship.rules.max_lost_piece: unknown parameter "max_lost_piece"',
    ),
    "bad ruleset parameter value": (
        set_in(["championship", "rules"], {"prize_places": 5}),
        "championship.rules.prize_places: must be a whole number from 0 to 3, not 5",
    ),
    "unknown ruleset": (
        set_in(["championship", "ruleset"], "nm"),
        'championship.ruleset: unknown ruleset "nm" (known: rogaland, sm, dm, neutral)',
    ),
    "unknown time zone": (
        set_in(["championship", "timezone"], "Europe/Stavanger"),
        'championship.timezone: unknown time zone "Europe/Stavanger"',
    ),
    "duplicate person id": (
        set_in(["persons", 1, "id"], "p1"),
        'persons[1].id: duplicate id "p1" (also persons[0])',
    ),
    "duplicate entry id across competitions": (
        set_in(["competitions", 1, "entries", 0, "id"], "e1"),
        'competitions[1].entries[0].id: duplicate id "e1" (also competitions[0].entries[0])',
    ),
    "duplicate table number": (
        set_in(["tables", 3, "number"], 1),
        "tables[3].number: duplicate table number 1 (also tables[0])",
    ),
    "duplicate token": (
        set_in(["tables", 1, "token"], "Jx3wq9Vb0LkT2sYd8RfP4A"),
        "tables[1].token: duplicate token (also tables[0])",
    ),
    "unknown table in a seat": (
        lambda d: heat(d)["seats"][0].update(table=99),
        f"{HEAT}.seats[0].table: unknown table 99",
    ),
    "a table seated beyond its seats": (
        crowd_table,
        f'{HEAT}.seats[2].table: table 1 has only two seats, taken in this heat by "e1", "e2"',
    ),
    "a seat for an entry of another competition": (
        lambda d: heat(d)["seats"][0].update(entry="e5"),
        f'{HEAT}.seats[0].entry: entry "e5" is not in this competition (it is in competitions[1])',
    ),
    "a result for an unknown entry": (
        lambda d: heat(d)["results"][1].update(entry="e9"),
        f'{HEAT}.results[1].entry: unknown entry "e9"',
    ),
    "two results for one entry": (
        lambda d: heat(d)["results"][1].update(entry="e1"),
        f'{HEAT}.results[1].entry: entry "e1" already has a result in this round '
        f"({HEAT}.results[0])",
    ),
    "time up before the start": (
        lambda d: heat(d).update(ended_at="2026-03-14T10:14:59+01:00"),
        f"{HEAT}.ended_at: time is up before the heat started (or it never started)",
    ),
    "time up in a heat that never started": (
        lambda d: heat(d).update(started_at=None),
        f"{HEAT}.ended_at: time is up before the heat started (or it never started)",
    ),
    "an own start before the heat's": (
        lambda d: heat(d)["seats"][2].update(started_at="2026-03-14T10:14:00+01:00"),
        f"{HEAT}.seats[2].started_at: an entry's own start must fall between the heat's "
        "start and its time-up",
    ),
    "an own start after time-up": (
        lambda d: heat(d)["seats"][2].update(started_at="2026-03-14T12:15:00+01:00"),
        f"{HEAT}.seats[2].started_at: an entry's own start must fall between the heat's "
        "start and its time-up",
    ),
    "a round time limit of zero": (
        set_in(["competitions", 0, "rounds", 0, "time_limit_minutes"], 0),
        "competitions[0].rounds[0].time_limit_minutes: must be between 1 and 600, not 0",
    ),
    "a walk-over without its reason": (
        set_in(["competitions", 0, "entries", 0, "walkover_at"], "2026-03-14T10:05:00+01:00"),
        "competitions[0].entries[0].walkover_reason: a walk-over needs its reason",
    ),
    "a negative entry fee": (
        set_in(["competitions", 0, "entries", 0, "fee"], "-5.00"),
        'competitions[0].entries[0].fee: "-5.00" is not an amount like "200.00" (digits, '
        "at most two decimals)",
    ),
    "bad contact e-mail": (
        set_in(["competitions", 0, "entries", 0, "contact_email"], "mor at example.org"),
        'competitions[0].entries[0].contact_email: "mor at example.org" is not an e-mail address',
    ),
    "unknown entry language": (
        set_in(["competitions", 0, "entries", 0, "language"], "fi"),
        'competitions[0].entries[0].language: unknown language "fi" (known: en, nb, sv, da)',
    ),
    "a prior ranking of zero": (
        set_in(["competitions", 0, "entries", 0, "prior_ranking"], 0),
        "competitions[0].entries[0].prior_ranking: must be between 1 and 2147483647, not 0",
    ),
    "a bad confirmation time": (
        lambda d: heat(d)["results"][0].update(confirmed_at="yesterday"),
        f'{HEAT}.results[0].confirmed_at: "yesterday" is not an ISO 8601 date and time '
        '(like "2026-03-14T10:00:00+01:00")',
    ),
    "bad time format": (
        lambda d: heat(d)["results"][0].update(time="41:07"),
        f'{HEAT}.results[0].time: "41:07" is not a time H:MM:SS',
    ),
    "a finished result without a time": (
        lambda d: heat(d)["results"][0].update(time=None),
        f"{HEAT}.results[0].time: a finished result needs a time",
    ),
    "the last piece before the time": (
        late_piece_before_time,
        f"{HEAT}.results[0].last_piece_time: the last piece cannot come before the time",
    ),
    "unknown result status": (
        lambda d: heat(d)["results"][0].update(status="dnf"),
        f'{HEAT}.results[0].status: unknown status "dnf" '
        "(known: pending, finished, unfinished, dns, dsq)",
    ),
    "advancement in both modes": (
        set_in(["competitions", 0, "rounds", 0, "advance"], {"overall": 2, "per_heat": 1}),
        "competitions[0].rounds[0].advance: overall and per_heat exclude each other",
    ),
    "unknown advancement setting": (
        set_in(["competitions", 0, "rounds", 0, "advance"], {"top": 3}),
        'competitions[0].rounds[0].advance.top: unknown setting "top"',
    ),
    "a person in two entries of a category under dm": (
        second_entry_under_dm,
        'competitions[0].entries[4].members[0]: person "p1" already has an entry in this '
        "category (competitions[0].entries[0]); the ruleset allows one",
    ),
    "a missing required field": (drop_name, "championship.name: is required"),
    "bad date": (
        set_in(["persons", 0, "birth_date"], "12.04.1988"),
        'persons[0].birth_date: "12.04.1988" is not a date YYYY-MM-DD',
    ),
    "bad date and time": (
        set_in(["championship", "starts_at"], "14 March 2026"),
        'championship.starts_at: "14 March 2026" is not an ISO 8601 date and time '
        '(like "2026-03-14T10:00:00+01:00")',
    ),
    "bad fee": (
        set_in(["competitions", 1, "fee"], "300.005"),
        'competitions[1].fee: "300.005" is not an amount like "200.00" (digits, at most two '
        "decimals)",
    ),
    "bad e-mail address": (
        set_in(["persons", 0, "email"], "ingrid at example.org"),
        'persons[0].email: "ingrid at example.org" is not an e-mail address',
    ),
    "wrong format": (
        set_in(["format"], "wcif"),
        'format: must be "speedpuzzling-championship", not "wcif"',
    ),
    "unsupported version": (
        set_in(["version"], 3),
        "version: 3 is not a version this import reads (1 or 2)",
    ),
    "a fee as a number with three decimals": (
        set_in(["competitions", 1, "fee"], 300.005),
        "competitions[1].fee: 300.005 has more than two decimals",
    ),
    "a wrong type deep inside": (
        lambda d: heat(d)["results"][1].update(missing_found="1"),
        f'{HEAT}.results[1].missing_found: must be a whole number, not "1"',
    ),
    "a whole number written with a fraction": (
        set_in(["competitions", 0, "pieces"], 500.0),
        "competitions[0].pieces: must be a whole number, not 500.0",
    ),
    "a blank name": (
        set_in(["persons", 0, "name"], "   "),
        "persons[0].name: must not be empty",
    ),
    "a member twice": (
        set_in(["competitions", 1, "entries", 0, "members"], ["p5", "p5"]),
        'competitions[1].entries[0].members[1]: duplicate "p5" '
        "(also competitions[1].entries[0].members[0])",
    ),
    "the best remaining without per heat": (
        set_in(["competitions", 0, "rounds", 0, "advance"], {"best_remaining": 1}),
        "competitions[0].rounds[0].advance: best_remaining needs per_heat",
    ),
}


@pytest.fixture
def loaded(db):
    """The example championship, already in the database, to be replaced by bad documents."""
    return import_document(example())


@pytest.mark.parametrize("change, message", BAD.values(), ids=BAD.keys())
def test_a_bad_document_is_refused_with_its_path_and_writes_nothing(
    loaded, tmp_path, change, message
):
    before = counts()
    document = example()
    change(document)

    with pytest.raises(InterchangeError) as raised:
        import_document(copy.deepcopy(document), replace=True)
    assert str(raised.value) == message
    assert raised.value.path == message.split(": ", 1)[0]

    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CommandError) as raised:
        call_command("import_championship", str(path), "--replace", stdout=io.StringIO())
    assert str(raised.value) == message
    assert raised.value.returncode == 2

    assert counts() == before
    assert export_document(Championship.objects.get(slug="rm-2026")) == example()


def test_a_document_that_is_not_an_object_is_refused(db):
    with pytest.raises(InterchangeError, match="the document must be a JSON object, not"):
        import_document([example()])


def test_the_docs_show_the_example_document():
    text = (ROOT / "docs" / "interchange.md").read_text(encoding="utf-8")
    shown = text.split("<!-- example: tests/data/interchange/small.json -->\n```json\n", 1)[1]
    assert json.loads(shown.split("\n```", 1)[0]) == example()


# ------------------------------------------------------------------ the schema, at runtime


@pytest.fixture
def fresh_schema():
    """The schema is read again in the test and after it (a test may point elsewhere)."""
    schema.validator.cache_clear()
    yield
    schema.validator.cache_clear()


def test_the_import_checks_the_schema_the_docs_publish(fresh_schema):
    assert schema.schema_path() == ROOT / "docs" / "interchange.schema.json"
    assert schema.validator().schema == SCHEMA


def test_a_change_to_the_schema_file_changes_the_import(db, fresh_schema, settings, tmp_path):
    """The import validates against the file under BASE_DIR, not a copy of its own."""
    changed = copy.deepcopy(SCHEMA)
    changed["$defs"]["championship"]["properties"]["name"]["maxLength"] = 5
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "interchange.schema.json").write_text(json.dumps(changed))
    settings.BASE_DIR = tmp_path

    with pytest.raises(InterchangeError) as refused:
        import_document(example())

    assert str(refused.value) == "championship.name: must be at most 5 characters long"
    assert not Championship.objects.exists()


def test_the_schemas_choices_and_bounds_are_the_applications():
    """The import no longer checks these itself: the schema's must be the application's."""
    defs = SCHEMA["$defs"]

    def choices(name, field):
        return [value for value in defs[name]["properties"][field]["enum"] if value is not None]

    languages = [code for code, _name in django_settings.LANGUAGES]
    assert SCHEMA["properties"]["version"]["enum"] == list(READS)
    assert choices("championship", "ruleset") == list(presets.PRESET_KEYS)
    assert choices("championship", "currency") == list(Currency.values)
    assert choices("championship", "language") == choices("entry", "language") == languages
    assert choices("competition", "category") == list(rulesets.CATEGORY_KINDS)
    assert choices("entry", "status") == list(Entry.Status.values)
    assert choices("entry", "payment_status") == list(Entry.Payment.values)
    assert choices("round", "stage") == list(Round.Stage.values)
    assert choices("result", "status") == list(Result.Status.values)
    for name, field in (("competition", "time_limit_minutes"), ("round", "time_limit_minutes")):
        limit = defs[name]["properties"][field]
        assert (limit["minimum"], limit["maximum"]) == (
            bounds.TIME_LIMIT_MINUTES_MIN,
            bounds.TIME_LIMIT_MINUTES_MAX,
        )
    assert Decimal(str(defs["amount"]["maximum"])) == FEE_MAX


def test_null_is_the_default_as_the_docs_say(db):
    """A member with a default may be null (docs/interchange.md); the schema takes it."""
    document = example("minimal")
    document["championship"].update(timezone=None, currency=None, language=None, rules=None)
    document["tables"][0]["seats"] = None
    competition = document["competitions"][0]
    competition.update(pieces=None, time_limit_minutes=None, fee=None, min_members=None)
    competition["entries"][1].update(status=None, payment_status=None)
    competition["rounds"][1].update(stage=None, heats=None, advance=None)
    document["persons"] = document["persons"] + [{"id": "cy", "name": "Cy", "country": None}]
    jsonschema.validate(document, SCHEMA, jsonschema.Draft202012Validator)

    championship = import_document(document)

    assert (championship.timezone, championship.currency, championship.language) == (
        "Europe/Stockholm",
        "SEK",
        "sv",
    )
    assert championship.tables.get(number=1).seats == 1
    category = championship.categories.get()
    assert (category.pieces, category.time_limit_minutes, category.fee) == (500, 120, 0)
    bo = Entry.objects.get(ref="bo-i")
    assert (bo.status, bo.payment_status) == ("confirmed", "unpaid")
    assert Round.objects.get(key="individual-final").stage == "final"


def natural(path: str) -> list:
    """Return a path's steps, an index as a number: the order the problems come in."""
    steps = path.replace("[", ".[").split(".")
    return [(True, int(step[1:-1])) if step.startswith("[") else (False, step) for step in steps]


def many_persons(document):
    document["persons"] = [{"id": number, "name": ""} for number in range(100_000)]


def many_parameters(document):
    document["championship"]["rules"] = {f"rule_{number}": 1 for number in range(100_000)}


def many_results(document):
    heat(document)["results"] = [{"entry": "e1", "status": 5}] * 100_000


def long_unsortable_members(document):
    """Items the library cannot sort to find repeats: it would compare every pair of them."""
    members = [f"p{number}" for number in range(30_000)] + [{"p": 1}]
    document["competitions"][0]["entries"][0]["members"] = members


MANY = {
    "100,000 bad persons": (many_persons, ("persons[0].id", "must be text, not 0")),
    "100,000 unknown rules": (
        many_parameters,
        ("championship.rules.rule_0", 'unknown parameter "rule_0"'),
    ),
    "100,000 bad results": (
        many_results,
        (
            f"{HEAT}.results[0].status",
            "unknown status 5 (known: pending, finished, unfinished, dns, dsq)",
        ),
    ),
    "a long list of members that cannot be sorted": (
        long_unsortable_members,
        ("competitions[0].entries[0].members[30000]", 'must be text, not {"p": 1}'),
    ),
}


@pytest.mark.parametrize("change, first", MANY.values(), ids=MANY.keys())
def test_many_bad_items_get_a_few_messages(db, change, first):
    document = example()
    change(document)

    with pytest.raises(InterchangeError) as refused:
        import_document(document)

    problems = refused.value.problems
    assert problems[0] == first == (refused.value.path, refused.value.message)
    assert 1 <= len(problems) <= schema.MAX_PROBLEMS
    paths = [path for path, _message in problems]
    assert paths == sorted(paths, key=natural) and len(set(paths)) == len(paths)
    assert str(refused.value).splitlines() == [f"{path}: {message}" for path, message in problems]
    assert not Championship.objects.exists()


def test_the_problems_of_a_document_come_in_the_order_of_their_paths(db):
    document = example()
    document["version"] = "2"
    document["persons"][2]["publish_consent"] = "yes"
    document["tables"][3]["seats"] = 3
    heat(document)["seats"][0]["table"] = "1"
    del document["championship"]["starts_at"]

    with pytest.raises(InterchangeError) as refused:
        import_document(document)

    assert str(refused.value).splitlines() == [
        "championship.starts_at: is required",
        f'{HEAT}.seats[0].table: must be a whole number, not "1"',
        'persons[2].publish_consent: must be true or false, not "yes"',
        "tables[3].seats: must be between 1 and 2, not 3",
        'version: must be a version this import reads (1 or 2), not "2"',
    ]
