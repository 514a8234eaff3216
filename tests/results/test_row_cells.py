"""A new version of the live results renders only the rows whose content changed.

``results.selectors.public_rows`` reads the rows as plain values; ``results.row_cells``
writes each row's places and keeps the rest of it, rendered by a template, per
content and language. These tests hold the two to what the pages showed before.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from championship.models import Round, Seat
from results import row_cells, selectors
from results.models import Result
from results.services import standings_recompute
from tests import factories

pytestmark = pytest.mark.django_db


def finished(round_, heat, entry, minutes, **kwargs):
    return Result.objects.create(
        round=round_, heat=heat, entry=entry, status="finished", time_ms=minutes * 60_000, **kwargs
    )


@pytest.fixture
def pairs_round(championship):
    """A pairs round: one pair both consented, one with a member who did not, one without."""
    pairs = championship.categories.get(kind="pair")
    round_ = pairs.rounds.get()
    heat = factories.heat(round_, key="a")
    both = factories.entry(
        pairs,
        members=[factories.person(championship, name=n) for n in ("Kari Nord", "Ola Sør")],
        name="Nord & Sør",
        publish_consent=True,
    )
    withholding = factories.person(championship, name="Per Vest")
    half = factories.entry(
        pairs,
        members=[factories.person(championship, name="Eva Øst"), withholding],
        name="Øst & Vest",
        publish_consent=True,
    )
    withholding.publish_consent = False
    withholding.save(update_fields=["publish_consent"])
    none = factories.entry(pairs, name="Hemmelig", publish_consent=False)
    for number, (entry, minutes) in enumerate(((both, 50), (half, 40), (none, 45)), start=1):
        Seat.objects.create(
            heat=heat, table=factories.table(championship, number=number), entry=entry
        )
        finished(round_, heat, entry, minutes)
    Round.objects.filter(pk=round_.pk).update(state=Round.State.RUNNING)
    standings_recompute(round_=round_)
    round_.refresh_from_db()
    return round_


def test_public_rows_name_only_those_who_consented_in_standing_order(pairs_round):
    rows = selectors.public_rows(pairs_round)
    assert [(row["place"], row["entry"]["name"], row["entry"]["members"]) for row in rows] == [
        (1, None, ["Eva Øst"]),
        (2, None, []),
        (3, "Nord & Sør", ["Kari Nord", "Ola Sør"]),
    ]
    pair = rows[2]
    assert [person["name"] for person in pair["entry"]["people"]] == ["Kari Nord", "Ola Sør"]
    assert all(person["url"].startswith("/puzzlers/") for person in pair["entry"]["people"])
    assert (pair["table"], pair["heat"], pair["time"], pair["final_seconds"]) == (
        1,
        "a",
        "0:50:00",
        3000,
    )
    assert pair["pieces_per_minute"] == round(pairs_round.category.pieces * 60 / 3000, 1)
    # Read with hand-written SQL: booleans are booleans on every database (JSON says so).
    stored = pairs_round.results.get(place=3)
    flags = {name: pair[name] for name in ("official", "qualified", "incorrect")}
    assert flags == {"official": stored.official, "qualified": False, "incorrect": False}
    assert all(type(value) is bool for value in flags.values())
    assert [row["table"] for row in selectors.public_rows(pairs_round, "a")] == [2, 3, 1]


def test_a_persons_page_in_the_rows_is_the_one_django_reverses(pairs_round):
    from django.urls import reverse

    entry = pairs_round.results.get(place=3).entry
    puzzlers = [member.puzzler.ref for member in entry.members.order_by("memberships__position")]
    people = selectors.public_rows(pairs_round)[2]["entry"]["people"]
    assert [person["url"] for person in people] == [
        reverse("puzzler", kwargs={"ref": ref}) for ref in puzzlers
    ]


CELL_TEMPLATES = [
    "results/_round_row.html",
    "results/_row_result_cells.html",
    "results/_board_row.html",
]


def test_the_cell_templates_read_only_what_a_rows_key_holds():
    """A field the templates read but the key leaves out would show a stale row."""
    known = {*row_cells.ROW_KEY, *(f"entry.{name}" for name in row_cells.ENTRY_KEY), "in_heat"}
    for name in CELL_TEMPLATES:
        source = Path(settings.BASE_DIR, "templates", name).read_text()
        read = set(re.findall(r"\brow\.([a-z_]+(?:\.[a-z_]+)?)", source))
        assert read, name
        unknown = {
            field for field in read if field not in known and field.split(".")[0] != "in_heat"
        }
        # ``entry.people.0`` reads the people the key holds.
        unknown = {field for field in unknown if not field.startswith("entry.people")}
        assert not unknown, (name, unknown)


def render_rows(round_, language="en"):
    with translation.override(language):
        rows = selectors.public_rows(round_)
        for row in rows:
            row["in_heat"] = None
        return str(row_cells.table_rows(rows, decided=False, show_official=False))


def test_a_new_version_renders_only_the_rows_whose_content_changed(pairs_round, monkeypatch):
    rendered = []
    original = row_cells._render

    def counting(view, row, decided):
        rendered.append(row["entry"]["id"])
        return original(view, row, decided)

    monkeypatch.setattr(row_cells, "_render", counting)
    first = render_rows(pairs_round)
    assert len(rendered) == 3
    # The slowest pair finishes faster after a correction: places move, one row's time changes.
    slowest = pairs_round.results.get(place=3)
    Result.objects.filter(pk=slowest.pk).update(time_ms=30 * 60_000)
    standings_recompute(round_=pairs_round)
    rendered.clear()
    second = render_rows(pairs_round)
    assert rendered == [slowest.entry.ref]
    assert first != second
    assert re.findall(r'<td class="num place">(\d)</td>', second) == ["1", "2", "3"]
    assert second.index("30:00") < second.index("40:00") < second.index("45:00")
    # The same rows in another language are rendered in it.
    rendered.clear()
    assert "Navnet vises ikke" in render_rows(pairs_round, "nb")
    assert "Navnet vises ikke" not in second
    assert len(rendered) == 3


def test_the_live_fragment_shows_a_change_after_its_rows_were_kept(client: Client, pairs_round):
    url = f"/{pairs_round.category.championship.slug}/results/{pairs_round.key}/"
    before = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "50:00" in before
    fastest = pairs_round.results.get(place=1)
    Result.objects.filter(pk=fastest.pk).update(status="dns", time_ms=None)
    standings_recompute(round_=pairs_round)
    after = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "40:00" not in after.split("results-print")[0]
    assert 'class="outcome-dns' in after


def test_the_printed_copy_reuses_the_live_rows_in_the_championships_language(
    client, pairs_round, monkeypatch
):
    written = []
    original = row_cells.table_rows

    def counting(rows, **kwargs):
        written.append(translation.get_language())
        return original(rows, **kwargs)

    monkeypatch.setattr(row_cells, "table_rows", counting)
    language = pairs_round.category.championship.language
    path = f"/{pairs_round.category.championship.slug}/results/{pairs_round.key}/"
    page = client.get(path, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    # Once for the live table and its printed copy alike, both in the same language.
    assert written == [language]
    assert page.content.decode().count("Nord &amp; Sør") == 2
    written.clear()
    other = "sv" if language != "sv" else "da"
    client.cookies["django_language"] = other
    page = client.get(path, HTTP_HX_REQUEST="true")
    assert page.status_code == 200
    assert written == [other, language]
