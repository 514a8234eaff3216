"""Several senders work the e-mail outbox at once: every mail goes exactly once."""

import threading
import time
from collections import Counter

import pytest
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.db import connections
from django.utils import timezone

from championship import outbox
from championship.models import OutgoingMail
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SENDERS = 4
MAILS = 12
delivered: list[str] = []
_delivered_lock = threading.Lock()


class SlowBackend(LocmemBackend):
    """A mail server that takes its time: the window in which two senders could meet."""

    def send_messages(self, messages):
        time.sleep(0.05)
        with _delivered_lock:
            delivered.extend(message.to[0] for message in messages)
        return len(messages)


@pytest.fixture
def queued(settings):
    settings.EMAIL_BACKEND = "tests.concurrency.test_outbox.SlowBackend"
    delivered.clear()
    championship = factories.championship(slug="outbox")
    # Written as a server down at registration time left them: queued, due now.
    OutgoingMail.objects.bulk_create(
        OutgoingMail(
            championship=championship,
            kind=OutgoingMail.Kind.REGISTERED,
            to=f"entrant{number}@example.org",
            subject="Your entry",
            body="Hello",
            next_attempt_at=timezone.now(),
        )
        for number in range(MAILS)
    )


def run_senders():
    start = threading.Barrier(SENDERS)
    errors = []

    def one():
        try:
            start.wait()
            outbox.send_due()
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(SENDERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors


def test_without_the_row_lock_senders_send_a_mail_twice(queued, monkeypatch):
    """The race is real: senders that do not lock the row pick the same mail."""
    manager = OutgoingMail.objects
    monkeypatch.setattr(manager, "select_for_update", lambda **kwargs: manager.all())
    run_senders()
    assert max(Counter(delivered).values()) > 1


def test_with_the_row_lock_every_mail_goes_exactly_once(queued):
    run_senders()
    assert Counter(delivered) == Counter(f"entrant{n}@example.org" for n in range(MAILS))
    assert set(OutgoingMail.objects.values_list("state", "attempts")) == {("sent", 1)}
