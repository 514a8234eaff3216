"""Ranking a round while judges capture: no capture waits for it, and the places end right."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connections, transaction
from django.utils import timezone

from championship.models import ChampionshipRole, Round
from championship.scoring import DERIVED_FIELDS
from championship.services import tables_create
from judging import services as judging_services
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from results.models import Result, RoundRanking
from results.services import lock_ranking, standings_ensure, standings_recompute
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ENTRIES = 12


@pytest.fixture
def running(db):
    championship = factories.championship(slug="ranking-race")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    tables_create(championship=championship, count=ENTRIES)
    entries = [factories.entry(individual) for _ in range(ENTRIES)]
    factories.started_heat(round_, started_at=timezone.now() - timedelta(minutes=40))
    judges = [factories.role(championship, ChampionshipRole.Role.JUDGE) for _ in range(2)]
    return round_, entries, judges


def finish(round_, entry, judge, minutes_ago):
    return capture_record(
        round_=round_,
        entry=entry,
        judge=judge,
        data=CaptureInput(
            client_id=uuid.uuid4(),
            kind="finish",
            at=timezone.now() - timedelta(minutes=minutes_ago),
        ),
    )


def test_a_ranking_in_progress_does_not_hold_up_a_capture(running):
    round_, entries, (judge, _other) = running
    held, release = threading.Event(), threading.Event()
    released = threading.Event()

    def ranking():
        try:
            with transaction.atomic():
                lock_ranking(round_.pk)
                held.set()
                release.wait(timeout=20)
            released.set()
        finally:
            connections.close_all()

    thread = threading.Thread(target=ranking)
    thread.start()
    try:
        assert held.wait(timeout=20)
        recorded = finish(round_, entries[0], judge, minutes_ago=5)
        stored_while_ranking = not released.is_set()
    finally:
        release.set()
        thread.join(timeout=30)
    assert recorded.created and stored_while_ranking


def test_captures_and_rankings_at_once_end_in_the_full_ranking(running):
    round_, entries, judges = running
    captured = threading.Event()
    failures = []

    def judge_loop(judge, mine):
        try:
            for index, entry in mine:
                finish(round_, entry, judge, minutes_ago=1 + (index * 7) % ENTRIES)
        except Exception as error:  # collected for the assertion
            failures.append(error)
        finally:
            connections.close_all()

    def reader_loop():
        try:
            while not captured.is_set():
                standings_ensure(round_)
        except Exception as error:  # collected for the assertion
            failures.append(error)
        finally:
            connections.close_all()

    numbered = list(enumerate(entries))
    judges_threads = [
        threading.Thread(target=judge_loop, args=(judges[0], numbered[0::2])),
        threading.Thread(target=judge_loop, args=(judges[1], numbered[1::2])),
    ]
    readers = [threading.Thread(target=reader_loop) for _ in range(2)]
    for thread in readers + judges_threads:
        thread.start()
    for thread in judges_threads:
        thread.join(timeout=60)
    captured.set()
    for thread in readers:
        thread.join(timeout=60)
    assert not failures, failures

    standings_ensure(round_)
    version = Round.objects.values_list("version", flat=True).get(pk=round_.pk)
    assert RoundRanking.objects.get(round=round_).version == version
    lazily = sorted(Result.objects.filter(round=round_).values_list("pk", *DERIVED_FIELDS))
    assert sorted(place for *_, place in Result.objects.values_list("pk", "place")) == list(
        range(1, ENTRIES + 1)
    )
    standings_recompute(round_=round_)
    assert sorted(Result.objects.filter(round=round_).values_list("pk", *DERIVED_FIELDS)) == lazily


def test_a_later_start_while_a_ranking_is_under_way_waits_for_it(running, monkeypatch):
    """A service writes a result and then ranks; a reader's ranking is writing that result.

    The service takes the ranking's lock before it writes anything, so it waits
    for the ranking instead of holding the result the ranking waits for.
    """
    from results import services

    round_, entries, (judge, _other) = running
    for index, entry in enumerate(entries):
        finish(round_, entry, judge, minutes_ago=2 + index)
    standings_ensure(round_)
    fastest = entries[-1]
    assert Result.objects.get(round=round_, entry=fastest).place == 1
    finish(round_, entries[0], judge, minutes_ago=20)  # now ahead of the fastest: it moves down

    paused, go = threading.Event(), threading.Event()
    compute = services.rank_outcomes

    def slow_compute(*args, **kwargs):
        if threading.current_thread().name == "ranker":
            paused.set()
            go.wait(timeout=20)
        return compute(*args, **kwargs)

    monkeypatch.setattr(services, "rank_outcomes", slow_compute)
    failures = []

    def run(call):
        try:
            call()
        except Exception as error:  # collected for the assertion
            failures.append(error)
        finally:
            connections.close_all()

    heat = round_.heats.get()
    seat = round_.seats.get(entry=fastest)
    ranker = threading.Thread(target=run, args=(lambda: standings_ensure(round_),), name="ranker")
    ranker.start()
    assert paused.wait(timeout=20)
    service = threading.Thread(
        target=run,
        args=(
            lambda: judging_services.seat_set_start(
                seat=seat, at=heat.started_at + timedelta(seconds=1)
            ),
        ),
    )
    service.start()
    service.join(timeout=1)  # it is waiting for the ranking (or, wrongly, holds the result)
    go.set()
    ranker.join(timeout=30)
    service.join(timeout=30)
    assert not failures, failures
    assert Result.objects.get(round=round_, entry=fastest).place == 2
