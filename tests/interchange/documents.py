"""Interchange documents for the tests: the examples, what the database holds, a heat's path."""

from __future__ import annotations

import json

from championship.models import (
    Championship,
    Heat,
    Round,
    Seat,
    Table,
)
from registration.models import Entry, EntryMember, Person
from results.models import Result
from tests.paths import DATA as TEST_DATA
from tests.paths import ROOT

DATA = TEST_DATA / "interchange"
SCHEMA = json.loads((ROOT / "docs" / "interchange.schema.json").read_text(encoding="utf-8"))
MODELS = (Championship, Table, Person, Entry, EntryMember, Round, Heat, Seat, Result)


def example(name: str = "small") -> dict:
    """Return an example document of ``tests/data/interchange`` (a fresh copy)."""
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def results_by_entry(document: dict, competition: int, round_: int) -> dict[str, dict]:
    heats = document["competitions"][competition]["rounds"][round_]["heats"]
    return {result["entry"]: result for heat in heats for result in heat["results"]}


# A heat's path in a document, for the bad documents' errors.
HEAT = "competitions[0].rounds[0].heats[0]"


def heat(document: dict) -> dict:
    return document["competitions"][0]["rounds"][0]["heats"][0]
