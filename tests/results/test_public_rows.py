"""A round's public rows are kept per content; the API's JSON is joined from their kept text.

``results.public_rows`` makes a row's content (all but its ranking) once and
puts each version's ranking into it. These tests hold the kept rows and their
JSON text to what the rows' fields say, whatever changed since they were kept.
"""

import json

import pytest
from rest_framework.renderers import JSONRenderer

from api.views.results import standings_json
from championship.models import Round, Seat
from registration.models import Entry
from results import public_rows, selectors
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.results.test_row_cells import finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_(championship):
    """A pairs round of names JSON has to write with care, one pair still puzzling."""
    pairs = championship.categories.get(kind="pair")
    round_ = pairs.rounds.get()
    heat = factories.heat(round_, key="a")
    names = [
        ('Kari "Nord"', "Ola\u2028Sør", "100 % Nord"),
        ("Åse\\Vest", "Per Øst", "Vest\u2029Øst"),
        ("Mia Sol", "Liv Måne", "Sol & Måne"),
    ]
    entries = []
    for number, (first, second, name) in enumerate(names, start=1):
        entry = factories.entry(
            pairs,
            members=[factories.person(championship, name=n) for n in (first, second)],
            name=name,
            publish_consent=True,
        )
        Seat.objects.create(
            heat=heat, table=factories.table(championship, number=number), entry=entry
        )
        entries.append(entry)
    finished(round_, heat, entries[0], 50)
    finished(round_, heat, entries[1], 40, missing_found=2)
    Result.objects.create(round=round_, heat=heat, entry=entries[2], status="pending")
    Round.objects.filter(pk=round_.pk).update(state=Round.State.RUNNING)
    standings_recompute(round_=round_)
    round_.refresh_from_db()
    return round_


def test_the_rows_json_text_is_the_renderers_text_of_the_rows(round_):
    text = standings_json(round_)
    assert text == JSONRenderer().render(selectors.standings(round_))
    rows = json.loads(text)["rows"]
    # The fields in the order the API has always given them, in the text and in the rows.
    assert all(tuple(row) == public_rows.FIELDS for row in rows)
    assert all(tuple(row) == public_rows.FIELDS for row in selectors.public_rows(round_))
    assert [(row["place"], row["entry"]["name"]) for row in rows] == [
        (1, "Vest\u2029Øst"),
        (2, "100 % Nord"),
        (None, "Sol & Måne"),
    ]
    # Written as the renderer writes them: the line separators escaped, the rest as it is.
    assert b"\\u2028" in text and b"\\u2029" in text and "Åse\\\\Vest".encode() in text
    # Two missing pieces found add their penalty; the pace is of the final time.
    assert rows[0]["final_seconds"] > 40 * 60
    pace = round(round_.category.pieces * 60 / rows[0]["final_seconds"], 1)
    assert rows[0]["pieces_per_minute"] == pace and isinstance(pace, float)
    assert (rows[2]["qualified"], rows[2]["pieces_per_minute"]) == (False, None)


def test_a_row_kept_shows_its_new_places_and_a_changed_row_its_new_content(round_):
    before = {row["entry"]["id"]: row for row in selectors.public_rows(round_)}
    third = round_.results.get(status="pending")
    # The third pair finishes first: every place moves, one row's content changes.
    Result.objects.filter(pk=third.pk).update(status="finished", time_ms=30 * 60_000)
    standings_recompute(round_=round_)
    round_.refresh_from_db()
    after = selectors.public_rows(round_)
    assert [(row["entry"]["name"], row["place"], row["time"]) for row in after] == [
        ("Sol & Måne", 1, "0:30:00"),
        ("Vest\u2029Øst", 2, "0:40:00"),
        ("100 % Nord", 3, "0:50:00"),
    ]
    # The rows whose content did not change are made of what was kept.
    for row in after[1:]:
        assert row["entry"] is before[row["entry"]["id"]]["entry"]
        assert row is not before[row["entry"]["id"]]
    assert after[0]["entry"] is not before[after[0]["entry"]["id"]]["entry"]
    assert standings_json(round_) == JSONRenderer().render(selectors.standings(round_))


def test_a_name_withheld_after_the_rows_were_kept_is_withheld(round_):
    selectors.public_rows(round_)
    entry = round_.results.get(place=1).entry
    Entry.objects.filter(pk=entry.pk).update(publish_consent=False)
    member = entry.members.order_by("memberships__position").first()
    type(member).objects.filter(pk=member.pk).update(publish_consent=False)
    row = selectors.public_rows(round_)[0]
    assert (row["entry"]["name"], row["entry"]["members"]) == (None, ["Per Øst"])
    assert b"\\u2029" not in standings_json(round_)


def test_a_full_store_is_emptied_and_filled_again(round_, monkeypatch):
    monkeypatch.setattr(public_rows._kept, "size", 4)
    selectors.public_rows(round_)
    selectors.public_rows(round_, "a")
    assert len(public_rows._kept) == 3
    third = round_.results.get(status="pending")
    Result.objects.filter(pk=third.pk).update(status="finished", time_ms=30 * 60_000)
    standings_recompute(round_=round_)
    round_.refresh_from_db()
    # A fourth content (the finished pair's) and a fifth would overflow: it starts anew.
    assert selectors.public_rows(round_)[0]["time"] == "0:30:00"
    assert len(public_rows._kept) == 4
    Result.objects.filter(pk=third.pk).update(time_ms=31 * 60_000)
    standings_recompute(round_=round_)
    round_.refresh_from_db()
    assert selectors.public_rows(round_)[0]["time"] == "0:31:00"
    assert len(public_rows._kept) == 1


def test_a_rounds_day_is_its_first_start_in_the_championships_time(round_):
    from datetime import UTC, date, datetime

    championship = round_.category.championship
    championship.timezone = "Europe/Oslo"
    championship.save(update_fields=["timezone"])
    round_.category.championship = championship
    heat = round_.heats.get()
    # Planned for the 3rd in Oslo; the other heat started late on the 1st, in UTC: the 2nd.
    factories.heat(round_, key="b", scheduled_start=datetime(2026, 6, 2, 22, 30, tzinfo=UTC))
    heat.started_at = datetime(2026, 6, 1, 23, 30, tzinfo=UTC)
    heat.save(update_fields=["started_at"])
    assert selectors.round_date(round_) == date(2026, 6, 2)
    # The heats a page has read already give the same day, without a query of their own.
    heats = selectors.heats_of(round_)
    assert selectors.round_date(round_, heats) == date(2026, 6, 2)
    # Neither started nor planned: the championship's day.
    round_.heats.update(started_at=None, scheduled_start=None)
    assert selectors.round_date(round_) == championship.local_date


def test_the_round_of_a_request_is_the_orms_with_its_category_and_championship(round_):
    from django.db.models import Model

    championship = round_.category.championship
    found = selectors.round_for_request(championship.slug, round_.key)
    expected = Round.objects.select_related("category__championship").get(pk=round_.pk)

    def values(instance: Model) -> dict:
        return {field.attname: getattr(instance, field.attname) for field in instance._meta.fields}

    assert values(found) == values(expected)
    assert values(found.category) == values(expected.category)
    assert values(found.category.championship) == values(expected.category.championship)
    assert found.championship is found.category.championship
    assert selectors.round_for_request(championship.slug, "no-such-round") is None
    assert selectors.round_for_request("no-such-championship", round_.key) is None
