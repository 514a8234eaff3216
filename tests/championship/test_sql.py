"""Model instances read by written-out queries are those the ORM reads (``core.sql``)."""

import uuid
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from championship.models import Category, Championship, Heat, Round, Seat
from core import queries as sql
from registration.models import Entry
from results.models import Result
from tests import factories

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {
        field.attname: getattr(instance, field.attname)
        for field in type(instance)._meta.concrete_fields
    }


@pytest.fixture
def seated(championship):
    """A running heat with a seated entry whose result has every kind of value set."""
    category = championship.categories.get(kind="individual")
    round_ = category.rounds.get()
    started = timezone.now() - timedelta(minutes=30)
    Round.objects.filter(pk=round_.pk).update(
        state=Round.State.RUNNING,
        corrections=[{"at": started.isoformat(), "entry": 1, "reason": "Tæl igjen – «ok»"}],
    )
    heat = factories.heat(round_, started_at=started)
    entry = factories.entry(category, name="Åse Ødegård", publish_consent=True)
    seat = Seat.objects.create(
        heat=heat, table=factories.table(championship, number=7), entry=entry, position=2
    )
    Result.objects.create(
        round=round_,
        heat=heat,
        entry=entry,
        status="finished",
        time_ms=1_234_000,
        incorrect=True,
        confirmed_at=started + timedelta(minutes=21),
        official=True,
        qualified=True,
    )
    return seat


@pytest.mark.parametrize("model", [Championship, Category, Round, Heat, Seat, Entry, Result])
def test_a_written_out_read_gives_the_instance_the_orm_gives(seated, model):
    expected = model.objects.order_by("pk").first()
    found = sql.get(model, "t.id = %s", [expected.pk])
    assert fields(found) == fields(expected)
    assert type(found) is model and not found._state.adding
    assert (found._state.db, found.__dict__.keys()) == ("default", expected.__dict__.keys())
    # Booleans are booleans and date-times aware, on SQLite as on PostgreSQL.
    for name, value in fields(expected).items():
        assert type(getattr(found, name)) is type(value), name
    assert sql.get(model, "t.id = %s", [-1]) is None


@pytest.mark.parametrize("by_key", [True, False])
def test_a_capture_locks_its_round_and_reads_its_entry_in_two_queries(
    seated, django_assert_num_queries, championship, by_key
):
    from judging import queries

    if by_key:
        round_named = (queries.ROUND_BY_KEY, seated.round.key)
        entry_named = (queries.ENTRY_BY_REF, seated.entry.ref)
    else:
        round_named = (queries.ROUND_BY_ID, seated.round_id)
        entry_named = (queries.ENTRY_BY_ID, seated.entry_id)
    versions = Round.objects.values_list("version", "captures_version").get(pk=seated.round_id)
    with transaction.atomic(), django_assert_num_queries(2):
        round_ = queries.round_lock_and_move_on(championship, *round_named)
        found = queries.under_lock(round_, *entry_named, uuid.uuid4())
    assert fields(round_) == {
        **fields(Round.objects.get(pk=seated.round_id)),
        "version": versions[0] + 1,
        "captures_version": versions[1] + 1,
    }
    assert round_.corrections[0]["reason"] == "Tæl igjen – «ok»"
    assert fields(found.category) == fields(Category.objects.get(pk=round_.category_id))
    assert fields(found.entry) == fields(Entry.objects.get(pk=seated.entry_id))
    assert fields(found.seat) == fields(seated)
    assert fields(found.seat.heat) == fields(seated.heat)
    assert fields(found.result) == fields(Result.objects.get(entry=seated.entry_id))
    assert (found.earlier, found.captured) == (None, False)


def test_a_capture_names_what_is_not_there(seated, championship):
    from judging import queries

    assert queries.round_lock_and_move_on(championship, queries.ROUND_BY_KEY, "nobody") is None
    round_ = queries.round_lock_and_move_on(championship, queries.ROUND_BY_KEY, seated.round.key)
    found = queries.under_lock(round_, queries.ENTRY_BY_REF, "nobody", uuid.uuid4())
    assert (found.entry, found.seat, found.result) == (None, None, None)
    assert fields(found.category) == fields(Category.objects.get(pk=round_.category_id))
    unseated = factories.entry(seated.entry.category)
    found = queries.under_lock(round_, queries.ENTRY_BY_ID, unseated.pk, uuid.uuid4())
    assert (found.entry.pk, found.seat, found.result) == (unseated.pk, None, None)


def test_a_rounds_heats_are_read_in_their_order(championship, django_assert_num_queries):
    from results import selectors as results_selectors

    round_ = championship.categories.get(kind="individual").rounds.get()
    for key, order in (("c", 1), ("b", 2), ("a", 2)):
        factories.heat(round_, key=key, order=order)
    with django_assert_num_queries(1):
        heats = results_selectors.heats_of(round_)
    assert [heat.key for heat in heats] == ["c", "a", "b"]
    assert [fields(heat) for heat in heats] == [fields(heat) for heat in round_.heats.all()]
