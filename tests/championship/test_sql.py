"""Model instances read by written-out queries are those the ORM reads (``championship.sql``)."""

import uuid
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from championship import sql
from championship.models import Category, Championship, Heat, Round, Seat
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
    from judging import services

    if by_key:
        round_named = (services.ROUND_BY_KEY, seated.round.key)
        entry_named = (services.ENTRY_BY_REF, seated.entry.ref)
    else:
        round_named = (services.ROUND_BY_ID, seated.round_id)
        entry_named = (services.ENTRY_BY_ID, seated.entry_id)
    versions = Round.objects.values_list("version", "captures_version").get(pk=seated.round_id)
    with transaction.atomic(), django_assert_num_queries(2):
        round_ = services._lock_and_move_on(championship, *round_named)
        found = services._under_lock(round_, *entry_named, uuid.uuid4())
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
    from judging import services

    assert services._lock_and_move_on(championship, services.ROUND_BY_KEY, "nobody") is None
    round_ = services._lock_and_move_on(championship, services.ROUND_BY_KEY, seated.round.key)
    found = services._under_lock(round_, services.ENTRY_BY_REF, "nobody", uuid.uuid4())
    assert (found.entry, found.seat, found.result) == (None, None, None)
    assert fields(found.category) == fields(Category.objects.get(pk=round_.category_id))
    unseated = factories.entry(seated.entry.category)
    found = services._under_lock(round_, services.ENTRY_BY_ID, unseated.pk, uuid.uuid4())
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


def written(instance) -> dict:
    """Return an instance's fields as stored, read back by the ORM, but for its key."""
    stored = type(instance).objects.get(pk=instance.pk)
    return {name: value for name, value in fields(stored).items() if name != "id"}


def a_capture(seated, judge, **kwargs):
    """Return a new finish of the seated entry, with text and JSON that need converting."""
    from judging.models import Capture

    values = {
        "championship": seated.heat.round.championship,
        "client_id": uuid.uuid4(),
        "round": seated.heat.round,
        "heat": seated.heat,
        "entry": seated.entry,
        "kind": "finish",
        "judge": judge,
        "device_at": seated.heat.started_at + timedelta(minutes=20),
        "elapsed_ms": 1_200_000,
        "missing_found": 1,
        "reason": "Tæl igjen – «ok»",
        "payload": {"kind": "finish", "note": "Åse\u2028Ødegård", "n": [1, None, True]},
    }
    return Capture(**{**values, **kwargs})


def test_a_written_out_insert_stores_what_the_orm_stores(seated):
    judge = factories.user()

    def capture():
        return a_capture(seated, judge)

    by_orm = capture()
    by_orm.save()
    by_hand = capture()
    before = timezone.now()
    sql.insert(by_hand)
    assert by_hand.pk is not None and by_hand.pk != by_orm.pk
    assert not by_hand._state.adding and by_hand._state.db == "default"
    orm, hand = written(by_orm), written(by_hand)
    # Each instant of its own (``auto_now_add``), the rest alike.
    assert before <= hand.pop("received_at") <= timezone.now()
    orm.pop("received_at")
    assert (orm.pop("client_id"), hand.pop("client_id")) == (by_orm.client_id, by_hand.client_id)
    assert hand == orm
    # A key given is kept.
    given = Result(round=seated.heat.round, heat=seated.heat, entry=seated.entry, pk=10_000)
    Result.objects.filter(entry=seated.entry).delete()
    sql.insert(given)
    assert Result.objects.get(pk=10_000).entry_id == seated.entry.pk


def test_a_written_out_update_writes_only_the_fields_named(seated):
    from django.db import DatabaseError

    result = Result.objects.get(entry=seated.entry)
    stamped = result.updated_at
    result.time_ms = 1_300_000
    result.incorrect = False
    result.place = 99  # not named: not written
    sql.update(result, ["time_ms", "incorrect", "updated_at"])
    stored = Result.objects.get(pk=result.pk)
    assert (stored.time_ms, stored.incorrect, stored.place) == (1_300_000, False, None)
    assert stored.updated_at > stamped
    gone = Result(pk=-1)
    with pytest.raises(DatabaseError):
        sql.update(gone, ["time_ms"])


def test_a_capture_and_its_result_are_written_together(seated):
    """One statement on PostgreSQL (a ``WITH``), two elsewhere: the same rows either way."""
    from django.db import DatabaseError

    from judging.models import Capture

    def capture():
        return a_capture(seated, factories.user(), kind="confirm")

    new = capture()
    before = timezone.now()
    insert = sql.insertion(new)
    # The instant on the server is set when the insert is prepared, before it is written.
    assert new.pk is None and before <= new.received_at <= timezone.now()
    result = Result.objects.get(entry=seated.entry)
    result.time_ms, result.place = 1_400_000, 98
    sql.insert_and_update(insert, result, ["time_ms", "updated_at"])
    stored = Capture.objects.get(pk=new.pk)
    assert (stored.client_id, stored.received_at) == (new.client_id, new.received_at)
    assert not new._state.adding and stored.payload == new.payload
    written_result = Result.objects.get(pk=result.pk)
    assert (written_result.time_ms, written_result.place) == (1_400_000, None)
    # A result that is not there: an error, and the transaction takes the capture back.
    lost = capture()
    with pytest.raises(DatabaseError), transaction.atomic():
        sql.insert_and_update(sql.insertion(lost), Result(pk=-1), ["time_ms"])
    assert not Capture.objects.filter(client_id=lost.client_id).exists()
