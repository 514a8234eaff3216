"""The organiser's message submitted twice at the same instant (a double click): queued once."""

import threading

import pytest
from django.db import connection, connections

from championship import submissions
from championship.models import OutgoingMail, Submission
from control import notifications
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ENTRANTS = 20
SUBMISSIONS = 2


@pytest.fixture
def championship(db, settings):
    settings.SITE_URL = "https://puzzle.example.org"
    championship = factories.championship(slug="message-once")
    individual = championship.categories.get(kind="individual")
    for number in range(ENTRANTS):
        factories.entry(individual, contact_email=f"entrant{number}@example.org")
    return championship


def submit_at_once(championship, token: str) -> list:
    """Send the same form from ``SUBMISSIONS`` threads at once; return what each was answered."""
    start = threading.Barrier(SUBMISSIONS)
    answers, errors = [], []

    def one():
        try:
            start.wait()
            answers.append(
                notifications.message_send(
                    audience=notifications.Audience(championship=championship),
                    subject="Parking",
                    body="Park at P2.",
                    submission=token,
                )
            )
        except submissions.SubmittedBefore as before:
            answers.append(before)
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(SUBMISSIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return answers


@pytest.fixture
def without_the_constraint():
    """Drop the constraint that holds a token once, for one test; put it back after."""
    constraint = next(c for c in Submission._meta.constraints if c.name == "submission_once")
    with connection.schema_editor() as editor:
        editor.remove_constraint(Submission, constraint)
    yield
    Submission.objects.all().delete()
    with connection.schema_editor() as editor:
        editor.add_constraint(Submission, constraint)


def test_without_the_constraint_both_submissions_queue_the_message(
    championship, without_the_constraint
):
    """The danger is real: nothing else stops the second submission."""
    answers = submit_at_once(championship, submissions.new_token())
    assert answers == [ENTRANTS, ENTRANTS]
    assert OutgoingMail.objects.count() == 2 * ENTRANTS


def test_with_the_constraint_one_submission_queues_and_the_other_is_told_it_went(championship):
    answers = submit_at_once(championship, submissions.new_token())
    queued = [answer for answer in answers if answer == ENTRANTS]
    before = [answer for answer in answers if isinstance(answer, submissions.SubmittedBefore)]
    assert len(queued) == 1 and len(before) == 1
    assert before[0].submission.count == ENTRANTS
    to = OutgoingMail.objects.values_list("to", flat=True)
    assert sorted(to) == sorted(f"entrant{number}@example.org" for number in range(ENTRANTS))
