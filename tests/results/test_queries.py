"""The written-out statements of ``results.queries`` read and write what the ORM would.

Each statement is held to the ORM's way of saying the same, on a round with two
heats, an entry without a seat, one still puzzling, one disqualified and one
withdrawn, and pairs whose members have puzzlers.
"""

import pytest
from django.db.models import (
    BooleanField,
    Exists,
    ExpressionWrapper,
    F,
    FilteredRelation,
    OuterRef,
    Q,
)
from django.utils import timezone

from championship.models import Heat, Round, Seat
from championship.rules import ranking
from registration.models import Entry, EntryMember
from results import queries
from results.models import Result, RoundRanking
from results.public_rows import COLUMNS
from results.services import RANKED, standings_recompute
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_(championship):
    pairs = championship.categories.get(kind="pair")
    round_ = pairs.rounds.get()
    heats = [factories.heat(round_, key="a", order=2), factories.heat(round_, key="b", order=1)]
    entries = [
        factories.entry(pairs, name=f"Pair {number}", publish_consent=number % 2 == 0)
        for number in range(6)
    ]
    outcomes = [
        {"status": "finished", "time_ms": 50 * 60_000},
        {"status": "finished", "time_ms": 40 * 60_000, "missing_found": 1},
        {"status": "finished", "time_ms": 45 * 60_000},
        {"status": "pending"},
        {"status": "dsq"},
        {"status": "finished", "time_ms": 42 * 60_000},
    ]
    for number, (entry, inputs) in enumerate(zip(entries, outcomes, strict=True), start=1):
        heat = heats[number % 2]
        if number < len(entries):  # the last is not seated
            Seat.objects.create(
                heat=heat, table=factories.table(championship, number=number), entry=entry
            )
        Result.objects.create(round=round_, heat=heat, entry=entry, **inputs)
    Entry.objects.filter(pk=entries[2].pk).update(
        status=Entry.Status.WITHDRAWN, withdrawn_at=timezone.now()
    )
    Round.objects.filter(pk=round_.pk).update(state=Round.State.RUNNING)
    standings_recompute(round_=round_)
    round_.refresh_from_db()
    return round_


def orm_poll_state(slug: str, key: str, heat: str):
    return (
        Round.objects.filter(championship__slug=slug, key=key)
        .values_list(
            "id",
            "version",
            "championship__language",
            Exists(Heat.objects.filter(round=OuterRef("pk"), key=heat)),
        )
        .first()
    )


def test_the_poll_state_is_the_orms(round_, championship):
    other = factories.championship(slug="other")
    for slug, key, heat in [
        (championship.slug, round_.key, ""),
        (championship.slug, round_.key, "a"),
        (championship.slug, round_.key, "z"),
        (championship.slug, "no-such-round", ""),
        (other.slug, round_.key, "a"),
    ]:
        found = queries.poll_state(slug, key, heat)
        assert (None if found is None else tuple(found)) == orm_poll_state(slug, key, heat)
    assert queries.poll_state(championship.slug, round_.key, "a")[1:] == (
        round_.version,
        championship.language,
        True,
    )


def orm_public_rows(round_, heat: str | None):
    results = Result.objects.filter(round=round_)
    if heat:
        results = results.filter(heat__key=heat)
    names = ["seat_here__table__number" if name == "table_number" else name for name in COLUMNS]
    rows = (
        results.annotate(
            seat_here=FilteredRelation("entry__seats", condition=Q(entry__seats__round=F("round")))
        )
        .order_by(
            F("place").asc(nulls_last=True), "official_place", "entry__registered_at", "entry__id"
        )
        .values_list(*names)
    )
    members = (
        EntryMember.objects.filter(entry_id__in=results.values("entry_id"))
        .order_by("entry_id", "position")
        .values_list("entry_id", "person__name", "person__publish_consent", "person__puzzler__ref")
    )
    return list(rows), list(members)


@pytest.mark.parametrize("heat", [None, "a", "b"])
def test_the_public_rows_are_the_orms(round_, heat):
    rows, members = queries.public_rows(round_.pk, heat, COLUMNS)
    expected_rows, expected_members = orm_public_rows(round_, heat)
    assert [tuple(row) for row in rows] == expected_rows
    assert [tuple(member) for member in members] == expected_members
    # The places still to come last; the entry without a seat has no table.
    places = [row[COLUMNS.index("place")] for row in rows]
    assert places == sorted(places, key=lambda place: (place is None, place or 0))
    if heat is None:
        assert len(rows) == 6 and len(members) == 12
        assert None in [row[COLUMNS.index("table_number")] for row in rows]


def orm_stored_outcomes(round_):
    return list(
        Result.objects.filter(round=round_)
        .filter(
            Q(outcome__in=sorted(ranking.RANKED))
            | Q(place__isnull=False)
            | Q(official_place__isnull=False)
            | Q(qualified=True)
            | Q(prize__isnull=False)
        )
        .annotate(
            withdrawn=ExpressionWrapper(
                Q(entry__status=Entry.Status.WITHDRAWN), output_field=BooleanField()
            )
        )
        .order_by(F("place").asc(nulls_last=True), "pk")
        .values_list(*queries.STORED_INPUTS, "withdrawn", *queries.STORED_RANKING)
    )


def test_the_stored_outcomes_are_the_orms(round_):
    found = [tuple(row) for row in queries.stored_outcomes(round_.pk)]
    assert found == orm_stored_outcomes(round_)
    # The one still puzzling and the disqualified one hold nothing: they are not read.
    assert len(found) == 4
    assert [row[len(queries.STORED_INPUTS)] for row in found].count(True) == 1


def test_the_ranking_lock_and_mark_are_the_orms(round_):
    def orm_version(round_id: int):
        return RoundRanking.objects.filter(round_id=round_id).values_list("version", flat=True)

    def orm_ranked(round_id: int) -> bool:
        return Round.objects.filter(pk=round_id).filter(RANKED).exists()

    assert queries.ranked_version(round_.pk) == orm_version(round_.pk).get() == round_.version
    assert queries.ranked_version(round_.pk, lock=True) == round_.version
    assert queries.is_ranked(round_.pk) is orm_ranked(round_.pk) is True
    Round.objects.filter(pk=round_.pk).update(version=F("version") + 1)
    assert queries.is_ranked(round_.pk) is orm_ranked(round_.pk) is False
    queries.mark_ranked(round_.pk, round_.version + 1)
    assert orm_version(round_.pk).get() == round_.version + 1
    assert queries.is_ranked(round_.pk) is orm_ranked(round_.pk) is True
    RoundRanking.objects.filter(round_id=round_.pk).delete()
    assert queries.ranked_version(round_.pk) is None and not orm_version(round_.pk).exists()
    assert queries.is_ranked(round_.pk) is orm_ranked(round_.pk) is False


def test_a_round_by_its_id_is_the_orms(round_):
    def fields(instance) -> dict:
        return {field.attname: getattr(instance, field.attname) for field in Round._meta.fields}

    assert fields(queries.round_by_id(round_.pk)) == fields(Round.objects.get(pk=round_.pk))
    assert queries.round_by_id(0) is None
