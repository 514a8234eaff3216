"""The database refuses what must never be true, whatever code writes to it."""

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from championship.models import Category, Championship, Heat, Round, Seat, Table
from judging.models import AppendOnlyError, Capture
from registration.models import Entry, EntryMember, Person
from results.models import Result
from tests import factories

pytestmark = pytest.mark.django_db


def refused(callable_, *args, **kwargs):
    """Assert the database refuses the write; roll back only that write."""
    with pytest.raises(IntegrityError), transaction.atomic():
        callable_(*args, **kwargs)


@pytest.fixture
def individual(championship):
    return championship.categories.get(kind="individual")


@pytest.fixture
def final(individual):
    return individual.rounds.get()


@pytest.fixture
def heat(final):
    return factories.heat(final)


def capture(heat, entry, judge, **kwargs):
    kwargs.setdefault("kind", Capture.Kind.FINISH)
    kwargs.setdefault("elapsed_ms", 3_000_000)
    return Capture.objects.create(
        championship=heat.round.championship,
        client_id=kwargs.pop("client_id", uuid.uuid4()),
        round=heat.round,
        heat=heat,
        entry=entry,
        judge=judge,
        **kwargs,
    )


def test_an_entry_has_one_seat_per_heat(championship, heat):
    entry = factories.entry(championship.categories.get(kind="individual"))
    first, second = factories.table(championship), factories.table(championship)
    Seat.objects.create(heat=heat, table=first, entry=entry)
    refused(Seat.objects.create, heat=heat, table=second, entry=entry)


def test_an_entry_has_one_seat_per_round_even_across_heats(championship, final, heat):
    other_heat = factories.heat(final, key="b")
    entry = factories.entry(championship.categories.get(kind="individual"))
    first, second = factories.table(championship), factories.table(championship)
    Seat.objects.create(heat=heat, table=first, entry=entry)
    refused(Seat.objects.create, heat=other_heat, table=second, entry=entry)


def test_a_seat_position_is_taken_once(championship, individual, heat):
    table = factories.table(championship, seats=2)
    Seat.objects.create(heat=heat, table=table, entry=factories.entry(individual), position=1)
    refused(
        Seat.objects.create, heat=heat, table=table, entry=factories.entry(individual), position=1
    )
    Seat.objects.create(heat=heat, table=table, entry=factories.entry(individual), position=2)
    refused(
        Seat.objects.create, heat=heat, table=table, entry=factories.entry(individual), position=3
    )


def test_a_second_seat_on_a_single_table_fails_validation(championship, individual, heat):
    table = factories.table(championship, seats=1)
    seat = Seat(heat=heat, table=table, entry=factories.entry(individual), position=2)
    with pytest.raises(ValidationError, match="only one seat"):
        seat.full_clean()


def test_an_entry_id_is_unique_in_the_championship_not_only_the_category(championship):
    """The interchange format wants entry ids unique in the document: the admin keeps it so."""
    pairs = championship.categories.get(kind="pair")
    first = factories.entry(championship.categories.get(kind="individual"), ref="7")
    second = factories.entry(pairs, ref="8")
    second.ref = "7"
    with pytest.raises(ValidationError, match="Another entry of this championship has this id"):
        second.full_clean()
    other = factories.championship(slug="elsewhere")
    elsewhere = factories.entry(other.categories.get(kind="individual"), ref="7")
    elsewhere.full_clean()  # another championship may use it
    first.full_clean()  # and an entry keeps its own
    refused(factories.entry, championship.categories.get(kind="individual"), ref="7")


def test_table_numbers_are_unique_in_a_championship(championship):
    factories.table(championship, number=7)
    refused(Table.objects.create, championship=championship, number=7)
    other = factories.championship()
    assert Table.objects.create(championship=other, number=7).number == 7


def test_table_tokens_are_unguessable_and_unique(championship):
    tables = [factories.table(championship) for _ in range(20)]
    tokens = {t.token for t in tables}
    assert len(tokens) == 20
    assert all(len(token) >= 22 for token in tokens)
    refused(Table.objects.create, championship=championship, number=99, token=tables[0].token)


@pytest.mark.parametrize("seats", [0, 3])
def test_a_table_seats_one_or_two(championship, seats):
    refused(Table.objects.create, championship=championship, number=50, seats=seats)


def test_client_ids_of_captures_are_unique(championship, heat, judge):
    entry = factories.entry(championship.categories.get(kind="individual"))
    client_id = uuid.uuid4()
    capture(heat, entry, judge, client_id=client_id)
    refused(capture, heat, entry, judge, client_id=client_id)


@pytest.mark.parametrize("field", ["missing_found", "missing_lost", "pieces_placed"])
def test_piece_counts_are_never_negative(championship, heat, judge, field):
    entry = factories.entry(championship.categories.get(kind="individual"))
    refused(capture, heat, entry, judge, **{field: -1})
    refused(Result.objects.create, round=heat.round, heat=heat, entry=entry, **{field: -1})


def test_a_finish_capture_carries_a_time(championship, heat, judge):
    entry = factories.entry(championship.categories.get(kind="individual"))
    refused(capture, heat, entry, judge, elapsed_ms=None)


def test_a_correction_carries_a_reason(championship, heat, judge):
    entry = factories.entry(championship.categories.get(kind="individual"))
    refused(capture, heat, entry, judge, kind=Capture.Kind.CORRECTION, reason="")
    assert capture(heat, entry, judge, kind=Capture.Kind.CORRECTION, reason="Misread clock").pk


def test_a_stored_capture_cannot_be_changed(championship, heat, judge):
    entry = factories.entry(championship.categories.get(kind="individual"))
    stored = capture(heat, entry, judge, elapsed_ms=3_000_000)
    stored.elapsed_ms = 1
    with pytest.raises(AppendOnlyError):
        stored.save()
    with pytest.raises(AppendOnlyError):
        Capture.objects.filter(pk=stored.pk).update(elapsed_ms=1)
    with pytest.raises(AppendOnlyError):
        stored.delete()


def test_the_database_itself_refuses_to_change_a_capture(championship, heat, judge):
    """Even raw SQL cannot rewrite a judge's capture (a trigger guards the table)."""
    entry = factories.entry(championship.categories.get(kind="individual"))
    stored = capture(heat, entry, judge, elapsed_ms=3_000_000)
    with (
        pytest.raises(Exception, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE judging_capture SET elapsed_ms = 1 WHERE id = %s", [stored.pk])
    assert Capture.objects.get(pk=stored.pk).elapsed_ms == 3_000_000


def test_an_entry_with_captures_cannot_be_deleted_alone(championship, heat, judge):
    entry = factories.entry(championship.categories.get(kind="individual"))
    capture(heat, entry, judge)
    with pytest.raises(Exception, match=r"restricted|protected|Cannot delete"):
        entry.delete()
    assert Capture.objects.filter(entry=entry).exists()


def test_deleting_a_whole_championship_removes_its_captures(championship, heat, judge):
    entry = factories.entry(championship.categories.get(kind="individual"))
    factories.table(championship)
    Seat.objects.create(heat=heat, table=championship.tables.get(), entry=entry)
    capture(heat, entry, judge)
    championship.delete()
    assert not Capture.objects.exists()
    assert not Championship.objects.filter(slug="rm-2026").exists()


def test_one_result_per_entry_per_round(championship, heat):
    entry = factories.entry(championship.categories.get(kind="individual"))
    Result.objects.create(round=heat.round, heat=heat, entry=entry)
    refused(Result.objects.create, round=heat.round, heat=heat, entry=entry)


def test_a_finished_result_has_a_time(championship, heat):
    entry = factories.entry(championship.categories.get(kind="individual"))
    refused(Result.objects.create, round=heat.round, heat=heat, entry=entry, status="finished")


def test_only_official_entries_get_an_official_place(championship, heat):
    entry = factories.entry(championship.categories.get(kind="individual"))
    refused(
        Result.objects.create,
        round=heat.round,
        heat=heat,
        entry=entry,
        official=False,
        official_place=1,
    )


@pytest.mark.parametrize("prize", [0, 4])
def test_prizes_are_first_second_or_third(championship, heat, prize):
    entry = factories.entry(championship.categories.get(kind="individual"))
    refused(Result.objects.create, round=heat.round, heat=heat, entry=entry, prize=prize)


def test_category_keys_are_unique_in_a_championship(championship):
    refused(Category.objects.create, championship=championship, key="individual", kind="individual")


@pytest.mark.parametrize(
    "fields",
    [
        {"min_members": 0},
        {"min_members": 4, "max_members": 3},
        {"pieces": 0},
        {"time_limit_minutes": 0},
        {"fee": Decimal("-1")},
        {"kind": "quartet"},
    ],
)
def test_category_settings_must_make_sense(championship, fields):
    values = {"championship": championship, "key": "extra", "kind": "individual", **fields}
    refused(Category.objects.create, **values)


def test_round_keys_are_unique_in_a_championship(championship):
    pair = championship.categories.get(kind="pair")
    refused(Round.objects.create, category=pair, key="individual-final", stage="final", order=5)


@pytest.mark.parametrize(
    "advance",
    [
        {"advance": "overall"},
        {"advance": "overall", "advance_count": 0},
        {"advance": "per_heat", "advance_count": 3},
        {"advance": "none", "advance_count": 3},
        {"advance": "sideways"},
    ],
)
def test_advancement_settings_must_be_complete(championship, advance):
    pair = championship.categories.get(kind="pair")
    refused(Round.objects.create, category=pair, key="pair-x", stage="final", order=5, **advance)


def test_a_heat_cannot_end_before_it_starts(final):
    from datetime import timedelta

    start = factories.START
    refused(
        Heat.objects.create,
        round=final,
        key="z",
        state="time_up",
        started_at=start,
        ended_at=start - timedelta(seconds=1),
    )
    refused(Heat.objects.create, round=final, key="y", state="running", started_at=None)


def test_a_person_is_a_member_of_an_entry_once(championship):
    pair = championship.categories.get(kind="pair")
    person = factories.person(championship)
    entry = factories.entry(pair, members=[person, factories.person(championship)])
    refused(EntryMember.objects.create, entry=entry, person=person, position=3)


def test_entry_status_and_payment_status_are_known_values(championship):
    individual = championship.categories.get(kind="individual")
    refused(Entry.objects.create, category=individual, name="X", status="maybe")
    refused(Entry.objects.create, category=individual, name="X", payment_status="owed")
    refused(Entry.objects.create, category=individual, name="X", status="withdrawn")


@pytest.mark.parametrize("country", ["no", "N1"])
def test_countries_are_two_capital_letters(championship, country):
    refused(Person.objects.create, championship=championship, name="X", country=country)


def test_an_unknown_preset_is_refused_by_the_database(championship):
    refused(Championship.objects.filter(pk=championship.pk).update, ruleset="ejpc")


@pytest.mark.parametrize(
    "change", [{"puzzles": 0}, {"pieces": 0}, {"advance_per_country": 0}, {"advance": "country"}]
)
def test_a_rounds_counts_and_country_places_are_kept_whole(final, change):
    # Country places need their N (advance_count): the advancement's own constraint.
    refused(Round.objects.filter(pk=final.pk).update, **change)


def test_an_entry_represents_a_country_code_or_the_neutral_flag(championship, individual):
    entry = factories.entry(individual)
    for value in ("neutral", "NZ", ""):
        Entry.objects.filter(pk=entry.pk).update(represents=value)
    for value in ("nz", "NZL", "Neutral"):
        refused(Entry.objects.filter(pk=entry.pk).update, represents=value)
