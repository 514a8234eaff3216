"""The CSV tests' material: entries made, uploaded, confirmed and exported."""

import codecs
import csv
import io
from datetime import UTC, date, datetime
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile

from championship.models import ChampionshipRole
from registration import services
from registration.validation import MemberData
from tests import factories
from tests.factories import NEXT_YEAR

DATA = Path(__file__).resolve().parent.parent / "data" / "csv"
ORGANISER = ChampionshipRole.Role.ORGANISER


def future_championship(slug, ruleset="rogaland"):
    return factories.championship(
        slug=slug, ruleset=ruleset, starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


def member(name, email="", **kwargs):
    kwargs.setdefault("birth_date", date(1980, 1, 1))
    kwargs.setdefault("region", "Rogaland")
    return MemberData(name=name, email=email, **kwargs)


def register(championship, key, members, **kwargs):
    category = championship.categories.get(key=key)
    return services.entry_register(category=category, members=members, send_mail=False, **kwargs)


def upload(client, championship, data: bytes, *, category="", name="entries.csv"):
    """Upload a file and return the preview page's address."""
    response = client.post(
        f"/{championship.slug}/manage/entries/import/",
        {"file": SimpleUploadedFile(name, data, content_type="text/csv"), "category": category},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return response.url


def confirm(client, preview_url, **data):
    return client.post(preview_url, {"action": "import", **data})


def read_export(response) -> list[dict]:
    """Return the rows of an nb championship's export: semicolons, after a byte-order mark."""
    content = b"".join(response.streaming_content) if response.streaming else response.content
    assert content.startswith(codecs.BOM_UTF8)
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))
