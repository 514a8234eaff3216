"""Two judges tap the same entry at the same moment: one result, and the other sees the conflict."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from championship.models import ChampionshipRole
from championship.services import tables_create
from judging.capture_kinds import CaptureConflict, CaptureInput
from judging.models import Capture
from judging.services import capture_record
from results.models import Result
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def running(db):
    championship = factories.championship(slug="race")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    tables_create(championship=championship, count=2)
    entry = factories.entry(individual)
    factories.started_heat(round_, started_at=timezone.now() - timedelta(minutes=40))
    judges = [factories.role(championship, ChampionshipRole.Role.JUDGE) for _ in range(2)]
    return round_, entry, judges


def together(calls):
    """Run the calls in threads released at once; return each one's result or exception."""
    start = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(index, call):
        try:
            start.wait()
            outcomes[index] = call()
        except Exception as error:  # collected for the assertions
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def test_two_judges_at_once_give_one_result_and_one_conflict(running):
    round_, entry, judges = running
    tap = timezone.now() - timedelta(seconds=2)

    def capture(judge):
        return lambda: capture_record(
            round_=round_,
            entry=entry,
            judge=judge,
            data=CaptureInput(client_id=uuid.uuid4(), kind="finish", at=tap),
        )

    outcomes = together([capture(judge) for judge in judges])
    conflicts = [o for o in outcomes if isinstance(o, CaptureConflict)]
    stored = [o for o in outcomes if not isinstance(o, Exception)]
    assert (len(stored), len(conflicts)) == (1, 1), outcomes
    assert Capture.objects.filter(kind="finish").count() == 1
    assert Result.objects.filter(round=round_, entry=entry).count() == 1


def test_the_same_capture_sent_twice_at_once_is_stored_once(running):
    round_, entry, (judge, _other) = running
    data = CaptureInput(
        client_id=uuid.uuid4(), kind="finish", at=timezone.now() - timedelta(seconds=1)
    )
    outcomes = together(
        [lambda: capture_record(round_=round_, entry=entry, judge=judge, data=data)] * 2
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(o.created for o in outcomes) == [False, True]
    assert Capture.objects.count() == 1
