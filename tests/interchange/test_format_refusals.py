"""Bad interchange documents: each is refused with a clear error, and nothing is written."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command

from championship.models import (
    Championship,
)
from interchange.export import export_document
from interchange.format import InterchangeError
from interchange.write import import_document
from tests.interchange.documents import HEAT, counts, example, heat
from tests.paths import ROOT

pytestmark = pytest.mark.django_db


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
        'championship.ruleset: unknown ruleset "nm" (known: rogaland, sm, dm, wjpc, neutral)',
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
        set_in(["version"], 5),
        "version: 5 is not a version this import reads (1, 2, 3 or 4)",
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
