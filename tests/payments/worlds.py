"""Championships with entries whose references the statements in tests/data/payments pay."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from championship.models import Category, Championship
from registration import payment
from registration.models import Entry
from tests import factories
from tests.paths import DATA

STATEMENTS = DATA / "payments"


@dataclass
class World:
    championship: Championship
    entries: dict[str, Entry]

    def statement(self, name: str) -> bytes:
        """Return a statement file with the entries' references put in for ``@NAME@``."""
        data = (STATEMENTS / name).read_bytes()
        for key, entry in self.entries.items():
            code = payment.reference(entry)
            spaced = " ".join(code[i : i + 4] for i in range(0, len(code), 4))
            data = data.replace(f"@{key.upper()}_SPACED@".encode(), spaced.encode())
            data = data.replace(f"@{key.upper()}@".encode(), code.encode())
        return data


def _entries(championship, names: dict[str, tuple[str, list[str]]]) -> dict[str, Entry]:
    made = {}
    for key, (kind, people) in names.items():
        category = championship.categories.get(kind=kind)
        members = [factories.person(championship, name=name) for name in people]
        entry = factories.entry(category, members=members, fee=category.fee)
        payment.give_reference(entry, championship)
        entry.save(update_fields=["payment_reference"])
        made[key] = entry
    return made


@pytest.fixture
def norway(db):
    """A rogaland championship (200, 300, 400 kr) paid into NO93 8601 1117 947."""
    championship = factories.championship(
        slug="rm-betaling", starts_at=datetime(factories.NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    Championship.objects.filter(pk=championship.pk).update(
        iban="NO9386011117947", bank_account="86011117947"
    )
    championship.refresh_from_db()
    entries = _entries(
        championship,
        {
            "kari": ("individual", ["Kari Nordmann"]),
            "ola": ("individual", ["Ola Nilsen"]),
            "siri": ("individual", ["Siri Lund"]),
            "per": ("pair", ["Per Hansen", "Pål Hansen"]),
            "liv": ("team", ["Liv Berg", "Tor Berg", "Ida Berg"]),
        },
    )
    return World(championship, entries)


@pytest.fixture
def sweden(db):
    """An SM in kronor (250,50 kr an individual) paid into Swedbank's SE45 5000 … 7466."""
    championship = factories.championship(ruleset="sm", slug="sm-betalning")
    Championship.objects.filter(pk=championship.pk).update(
        iban="SE4550000000058398257466", bank_account="5050-1055", swish_number="1237856901"
    )
    Category.objects.filter(championship=championship).update(fee=Decimal("250.50"))
    championship.refresh_from_db()
    entries = _entries(
        championship,
        {"kajsa": ("individual", ["Kajsa Karlsson"]), "olle": ("individual", ["Olle Svensson"])},
    )
    return World(championship, entries)


@pytest.fixture
def denmark(db):
    """A DM in Danish kroner (175 kr an individual, 1.175 kr a team)."""
    championship = factories.championship(ruleset="dm", slug="dm-betaling")
    Category.objects.filter(championship=championship, kind="individual").update(fee=175)
    Category.objects.filter(championship=championship, kind="team").update(fee=1175)
    championship.refresh_from_db()
    entries = _entries(
        championship,
        {
            "mette": ("individual", ["Mette Hansen"]),
            "jens": ("team", ["Jens Jensen", "Anne Jensen", "Lars Jensen"]),
        },
    )
    return World(championship, entries)
