"""A round's standings: one service call, a fixed number of queries, cached per version."""

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from championship.models import Round
from registration.models import Entry
from results import selectors
from results.models import Result
from results.services import (
    lock_ranking,
    standings_ensure,
    standings_ensure_all,
    standings_recompute,
)
from tests import factories

pytestmark = pytest.mark.django_db


def seconds(minutes, secs=0):
    return (minutes * 60 + secs) * 1000


def entrant(championship, category, *, region="Rogaland", **entry_kwargs):
    person = factories.person(championship, region=region)
    entry_kwargs.setdefault("publish_consent", True)
    return factories.entry(category, members=[person], name=person.name, **entry_kwargs)


@pytest.fixture
def individual(championship):
    return championship.categories.get(kind="individual")


@pytest.fixture
def final(individual):
    return individual.rounds.get()


def result(final, heat, entry, **kwargs):
    return Result.objects.create(round=final, heat=heat, entry=entry, **kwargs)


def test_standings_rank_the_round_by_the_rules(championship, individual, final):
    heat_a, heat_b = factories.heat(final, key="a"), factories.heat(final, key="b")
    fast = entrant(championship, individual)
    penalised = entrant(championship, individual)
    guest = entrant(championship, individual, region="Vestland")
    counted = entrant(championship, individual)
    absent = entrant(championship, individual)
    result(final, heat_a, fast, status="finished", time_ms=seconds(40, 0) + 700)
    # 40:00 + 1 piece found later (5 s under rogaland) = 40:05, behind the guest's 40:03.
    result(final, heat_b, penalised, status="finished", time_ms=seconds(40), missing_found=1)
    result(final, heat_a, guest, status="finished", time_ms=seconds(40, 3))
    result(final, heat_b, counted, status="unfinished", pieces_placed=480)
    result(final, heat_a, absent, status="dns")

    Round.objects.filter(pk=final.pk).update(state=Round.State.CLOSED)
    standings_recompute(round_=final)

    got = {r.entry_id: r for r in Result.objects.filter(round=final)}
    assert (got[fast.pk].place, got[fast.pk].official_place, got[fast.pk].prize) == (1, 1, 1)
    assert (got[fast.pk].final_ms, got[fast.pk].outcome) == (seconds(40), "completed")
    assert (got[guest.pk].place, got[guest.pk].official_place, got[guest.pk].official) == (
        2,
        None,
        False,
    )
    assert got[guest.pk].prize is None
    assert (got[penalised.pk].place, got[penalised.pk].official_place) == (3, 2)
    assert (got[penalised.pk].penalty_ms, got[penalised.pk].prize) == (5000, 2)
    assert (got[counted.pk].place, got[counted.pk].counted_pieces, got[counted.pk].prize) == (
        4,
        480,
        3,
    )
    assert (got[absent.pk].place, got[absent.pk].outcome) == (None, "dns")


def test_no_prizes_before_time_is_up(championship, individual, final):
    heat = factories.heat(final)
    result(final, heat, entrant(championship, individual), status="finished", time_ms=seconds(40))
    standings_recompute(round_=final)
    assert Result.objects.get(round=final).prize is None
    Round.objects.filter(pk=final.pk).update(state=Round.State.CLOSED)
    standings_recompute(round_=final)
    assert Result.objects.get(round=final).prize == 1


def test_recomputing_bumps_the_rounds_version(championship, individual, final):
    before = final.version
    standings_recompute(round_=final)
    final.refresh_from_db()
    assert final.version == before + 1


def test_qualifiers_follow_the_rounds_advancement(championship):
    sm = factories.championship(slug="sm-2026", ruleset="sm")
    individual = sm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=2)
    prelim.refresh_from_db()
    heat = factories.heat(prelim)
    swedes = []
    for minutes in (30, 31, 33):
        person = factories.person(sm, citizenship=["SE"])
        swedes.append(factories.entry(individual, members=[person]))
        result(prelim, heat, swedes[-1], status="finished", time_ms=seconds(minutes))
    better_guest = factories.entry(individual, members=[factories.person(sm, citizenship=["NO"])])
    result(prelim, heat, better_guest, status="finished", time_ms=seconds(30, 30))
    slower_guest = factories.entry(individual, members=[factories.person(sm, citizenship=["DK"])])
    result(prelim, heat, slower_guest, status="finished", time_ms=seconds(32))

    standings_recompute(round_=prelim)

    qualified = set(
        Result.objects.filter(round=prelim, qualified=True).values_list("entry", flat=True)
    )
    assert qualified == {swedes[0].pk, swedes[1].pk, better_guest.pk}
    # No prizes in a preliminary round.
    assert not Result.objects.filter(round=prelim, prize__isnull=False).exists()


def build_round(championship, individual, final, size):
    heat = factories.heat(final, key=f"h{size}")
    for index in range(size):
        person = factories.person(championship, region="Rogaland")
        entry = factories.entry(individual, members=[person], publish_consent=True)
        table = factories.table(championship)
        from championship.models import Seat

        Seat.objects.create(heat=heat, table=table, entry=entry)
        result(final, heat, entry, status="finished", time_ms=seconds(30 + index))


def count_queries(function, *args, **kwargs):
    with CaptureQueriesContext(connection) as queries:
        function(*args, **kwargs)
    return len(queries)


def test_recomputing_takes_the_same_number_of_queries_whatever_the_size(
    championship, individual, final
):
    build_round(championship, individual, final, 5)
    # The first ranking of a round creates its ranking row: two queries, once.
    lock_ranking(final.pk)
    small = count_queries(standings_recompute, round_=final)
    build_round(championship, individual, final, 40)
    assert Result.objects.filter(round=final).count() == 45
    assert count_queries(standings_recompute, round_=final) == small
    # Lock the round and its ranking, read the results and their members, write, bump
    # the version and mark it ranked (and the savepoints): a handful.
    assert small <= 10


def test_reading_the_standings_takes_the_same_queries_whatever_the_size(
    championship, individual, final
):
    build_round(championship, individual, final, 5)
    standings_recompute(round_=final)
    final.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        standings = selectors.round_standings(final)
    assert len(standings["rows"]) == 5
    small = len(queries)
    build_round(championship, individual, final, 40)
    standings_recompute(round_=final)
    final.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        standings = selectors.round_standings(final)
    assert len(standings["rows"]) == 45
    # Whether it is ranked, results with entries and heats, members, tables.
    assert len(queries) == small == 4


def test_repeated_reads_of_one_version_come_from_the_cache(championship, individual, final):
    build_round(championship, individual, final, 3)
    standings_recompute(round_=final)
    final.refresh_from_db()
    first = selectors.round_standings(final)
    with CaptureQueriesContext(connection) as queries:
        again = selectors.round_standings(final)
    assert len(queries) == 0
    assert again == first


def test_a_new_version_is_read_afresh(championship, individual, final):
    build_round(championship, individual, final, 3)
    standings_recompute(round_=final)
    final.refresh_from_db()
    before = selectors.round_standings(final)
    changed = Result.objects.filter(round=final).order_by("time_ms").last()
    Result.objects.filter(pk=changed.pk).update(time_ms=seconds(1))
    standings_recompute(round_=final)
    final.refresh_from_db()
    after = selectors.round_standings(final)
    assert after["version"] == before["version"] + 1
    assert after["rows"][0]["entry"]["id"] == changed.entry.ref


def test_public_rows_withhold_names_without_consent(championship, individual, final):
    heat = factories.heat(final)
    hidden = entrant(championship, individual, publish_consent=False)
    # The country it represents goes with the name: it would name the only one of a country.
    Entry.objects.filter(pk=hidden.pk).update(represents="IS")
    result(final, heat, hidden, status="finished", time_ms=seconds(40))
    standings_recompute(round_=final)
    final.refresh_from_db()
    row = selectors.round_standings(final)["rows"][0]
    assert row["entry"] == {
        "id": hidden.ref,
        "name": None,
        "members": [],
        "people": [],
        "represents": None,
    }
    assert row["time"] == "0:40:00"
    assert row["final_seconds"] == 2400


def test_only_the_results_that_changed_are_written(championship, individual, final, monkeypatch):
    from results import queries as written_out

    build_round(championship, individual, final, 30)
    standings_recompute(round_=final)
    slowest = Result.objects.filter(round=final).order_by("-time_ms").first()
    Result.objects.filter(pk=slowest.pk).update(missing_lost=1)  # no penalty under rogaland
    Result.objects.filter(pk=slowest.pk).update(time_ms=slowest.time_ms + 1000)
    written = []
    real = written_out.results_update
    monkeypatch.setattr(
        written_out,
        "results_update",
        lambda fields, rows: written.extend(rows) or real(fields, rows),
    )
    with CaptureQueriesContext(connection) as queries:
        standings_recompute(round_=final)
    updates = [q["sql"] for q in queries if 'UPDATE "results_result"' in q["sql"]]
    assert len(updates) == 1
    assert [pk for pk, *_values in written] == [slowest.pk]
    assert Result.objects.get(pk=slowest.pk).final_ms == slowest.final_ms + 1000


def test_a_recompute_that_changes_nothing_writes_no_result(championship, individual, final):
    build_round(championship, individual, final, 10)
    standings_recompute(round_=final)
    with CaptureQueriesContext(connection) as queries:
        standings_recompute(round_=final)
    assert not [q for q in queries if q["sql"].startswith('UPDATE "results_result"')]


def capture_like(final, result_row, **inputs):
    """Change one result's inputs and outcome the way a judge's capture does: no ranking."""
    from championship.scoring import outcome_derive

    for name, value in inputs.items():
        setattr(result_row, name, value)
    outcome_derive(
        result_row,
        final.championship.rules,
        final.category.pieces,
        limit_ms=final.time_limit_ms,
        called_ms=result_row.heat.time_called_ms,
    )
    result_row.save()
    Round.objects.filter(pk=final.pk).update(version=F("version") + 1)


def test_a_round_behind_its_version_is_ranked_by_the_next_reader(championship, individual, final):
    build_round(championship, individual, final, 5)
    standings_recompute(round_=final)
    slowest = Result.objects.filter(round=final).order_by("-time_ms").first()
    capture_like(final, slowest, time_ms=seconds(20))
    assert Result.objects.get(pk=slowest.pk).place == 5, "a capture does not rank"
    final.refresh_from_db()
    rows = selectors.round_standings(final)["rows"]
    assert rows[0]["place"] == 1 and rows[0]["final_seconds"] == 20 * 60
    assert Result.objects.get(pk=slowest.pk).place == 1
    assert [row["place"] for row in rows] == [1, 2, 3, 4, 5]
    assert standings_ensure(final) is False


def test_the_lazy_ranking_writes_only_places_and_only_changed_rows(
    championship, individual, final, monkeypatch
):
    from results import services

    build_round(championship, individual, final, 30)
    standings_recompute(round_=final)
    first, second = Result.objects.filter(round=final).order_by("time_ms")[:2]
    capture_like(final, second, time_ms=second.time_ms - seconds(0, 30))  # still second
    third = Result.objects.filter(round=final).order_by("time_ms")[2]
    capture_like(final, third, time_ms=seconds(29))  # now first: the two ahead move down
    written = []
    real = services._write_places
    monkeypatch.setattr(services, "_write_places", lambda rows: written.extend(rows) or real(rows))
    with CaptureQueriesContext(connection) as queries:
        assert standings_ensure(final) is True
    (update,) = [q["sql"] for q in queries if "UPDATE" in q["sql"] and "results_result" in q["sql"]]
    assert "outcome" not in update and "final_ms" not in update
    # The new first and the two it passed, with their new places.
    assert sorted((pk, place) for pk, place, *_ in written) == sorted(
        [(third.pk, 1), (first.pk, 2), (second.pk, 3)]
    )
    stored = dict(Result.objects.filter(round=final).values_list("pk", "place"))
    assert (stored[third.pk], stored[first.pk], stored[second.pk]) == (1, 2, 3)
    assert sorted(stored.values()) == list(range(1, 31))


def test_the_lazy_ranking_takes_the_same_number_of_queries_whatever_the_size(
    championship, individual, final
):
    build_round(championship, individual, final, 5)
    standings_recompute(round_=final)
    capture_like(final, Result.objects.filter(round=final).first(), time_ms=seconds(10))
    small = count_queries(standings_ensure, final)
    build_round(championship, individual, final, 40)
    standings_recompute(round_=final)
    capture_like(final, Result.objects.filter(round=final).first(), time_ms=seconds(5))
    assert count_queries(standings_ensure, final) == small <= 10


def test_the_lazy_ranking_reuses_only_the_rows_whose_outcome_did_not_change(
    championship, individual, final, monkeypatch
):
    from championship.rules import ranking

    build_round(championship, individual, final, 6)
    standings_recompute(round_=final)
    capture_like(final, Result.objects.filter(round=final).first(), time_ms=seconds(30))
    assert standings_ensure(final) is True
    built = []
    real = ranking.Ranked
    monkeypatch.setattr(
        ranking, "Ranked", lambda *args, **kwargs: built.append(args[0]) or real(*args, **kwargs)
    )
    slowest = Result.objects.filter(round=final).order_by("-time_ms").first()
    capture_like(final, slowest, time_ms=seconds(1))
    assert standings_ensure(final) is True
    # One result changed: its row is built anew, the five others come as they were.
    assert built == [slowest.pk]
    places = dict(Result.objects.filter(round=final).values_list("pk", "place"))
    assert places[slowest.pk] == 1 and sorted(places.values()) == [1, 2, 3, 4, 5, 6]
    # An entry withdrawn: the outcome is the same, the ranking reads it (no place).
    Entry.objects.filter(pk=slowest.entry_id).update(
        status=Entry.Status.WITHDRAWN, withdrawn_at=timezone.now()
    )
    Round.objects.filter(pk=final.pk).update(version=F("version") + 1)
    assert standings_ensure(final) is True
    places = dict(Result.objects.filter(round=final).values_list("pk", "place"))
    assert places.pop(slowest.pk) is None
    assert sorted(places.values()) == [1, 2, 3, 4, 5]
    # The withdrawal is read with the outcomes; no row had to be built for it.
    assert built == [slowest.pk]


def test_the_lazy_ranking_keeps_the_standings_ahead_of_the_first_changed_row(
    championship, individual, final, monkeypatch
):
    from results.ranking_reuse import Kept

    build_round(championship, individual, final, 6)
    standings_recompute(round_=final)
    slowest = Result.objects.filter(round=final).order_by("-time_ms").first()
    capture_like(final, slowest, time_ms=slowest.time_ms + seconds(0, 10))
    assert standings_ensure(final) is True
    made = []
    real = Kept.rank
    monkeypatch.setattr(
        Kept,
        "rank",
        lambda kept, rows, **rules: (
            made.append((kept.last.standings, real(kept, rows, **rules))) or made[-1][1]
        ),
    )
    # The slowest slower still: the five ahead of it keep the standings the last ranking made.
    capture_like(final, slowest, time_ms=slowest.time_ms + seconds(0, 20))
    assert standings_ensure(final) is True
    ((before, after),) = made
    assert len(after) == 6 and all(a is b for a, b in zip(after[:5], before[:5], strict=True))
    assert [standing.place for standing in after] == [1, 2, 3, 4, 5, 6]


def test_ranking_every_round_behind_ranks_only_those(championship, individual, final):
    build_round(championship, individual, final, 3)
    standings_recompute(round_=final)
    rounds = Round.objects.filter(championship=championship)
    # The other two categories' rounds were never ranked: ranked once (nothing to place).
    assert (rounds.count(), standings_ensure_all(rounds)) == (3, 2)
    assert standings_ensure_all(rounds) == 0
    capture_like(final, Result.objects.filter(round=final).last(), time_ms=seconds(1))
    assert standings_ensure_all(Round.objects.filter(championship=championship)) == 1
    assert Result.objects.filter(round=final).order_by("place").first().time_ms == seconds(1)
