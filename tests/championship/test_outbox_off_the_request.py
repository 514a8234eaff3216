"""Requests only queue mail: a mail server that hangs or refuses never holds up a request.

These tests run as the site does by default, with ``OUTBOX_SEND_AFTER_COMMIT``
off (the rest of the suite turns it on), and commit for real: a request that
sent its mail after commit would do it here. The mail server is a socket of the
test: one that accepts connections and never answers, counting them, or a port
that nobody listens on.
"""

import io
import os
import socket
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime

import numpy as np
import pytest
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.test import Client
from PIL import Image

from championship.models import ChampionshipRole, OutgoingMail
from control import notifications
from registration import checkin
from registration.models import Entry
from tests import factories
from tests.control.test_cards import decode
from tests.factories import NEXT_YEAR
from tests.paths import ROOT
from tests.registration.test_views import management, member_data

pytestmark = pytest.mark.django_db(transaction=True)

State = OutgoingMail.State
SMTP = "django.core.mail.backends.smtp.EmailBackend"
# The site's own: a request that connected would wait this long for the greeting.
EMAIL_TIMEOUT = 10
# The sender's, later in the test, so that its attempt on the hanging server ends soon.
SENDER_TIMEOUT = 1


class HangingMailServer:
    """A mail server that accepts every connection and never says a word."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.05)
        self.port = self.listener.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self):
        while not self._stopping.is_set():
            try:
                connection, _address = self.listener.accept()
            except TimeoutError:
                continue
            self.accepted.append(connection)  # held open, never answered

    def close(self):
        self._stopping.set()
        self._thread.join(timeout=5)
        for connection in self.accepted:
            connection.close()
        self.listener.close()


def use_mail_server(settings, port):
    settings.EMAIL_BACKEND = SMTP
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = EMAIL_TIMEOUT


@pytest.fixture(autouse=True)
def as_deployed(settings):
    """The default of the settings: only the outbox's sender sends."""
    settings.OUTBOX_SEND_AFTER_COMMIT = False
    settings.SITE_URL = ""


@pytest.fixture
def hanging(settings):
    server = HangingMailServer()
    use_mail_server(settings, server.port)
    yield server
    server.close()


@pytest.fixture
def refusing(settings):
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    # Closed: a connection to it is refused at once.
    use_mail_server(settings, port)


@pytest.fixture
def championship(db):
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


def english():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def register_by_form(client, championship):
    """Register Kari through the form; return the address of her entry's page."""
    data = {**management(1), **member_data(0, name="Kari Nordmann", email="kari@example.org")}
    response = client.post(f"/{championship.slug}/register/individual/", data)
    assert response.status_code == 302, response.content
    return response.headers["Location"]


def register_by_api(client, championship):
    """Register Kari through the API; return the address of her entry's page."""
    member = {
        "name": "Kari Nordmann",
        "email": "kari@example.org",
        "birth_date": "1990-05-01",
        "city": "Stavanger",
        "country": "NO",
        "citizenship": "NO",
        "region": "Rogaland",
    }
    response = client.post(
        f"/api/v1/championships/{championship.slug}/categories/individual/entries/",
        {"members": [member]},
        content_type="application/json",
    )
    assert response.status_code == 201, response.json()
    return response.json()["manage_url"]


DOORS = {"form": register_by_form, "api": register_by_api}


def send_outbox(settings):
    """Run the outbox's sender, as its worker does a moment after the request."""
    settings.EMAIL_TIMEOUT = SENDER_TIMEOUT
    call_command("send_mail_outbox", stdout=io.StringIO())


# Registration ----------------------------------------------------------------------------------


@pytest.mark.parametrize("door", DOORS)
def test_a_registration_answers_without_touching_a_mail_server_that_hangs(
    door, championship, hanging, settings
):
    client = english()
    started = time.monotonic()
    page = DOORS[door](client, championship)
    elapsed = time.monotonic() - started
    assert hanging.accepted == [], "the request connected to the mail server"
    # Only a guard against waiting out the mail server; the count above is the proof.
    assert elapsed < EMAIL_TIMEOUT
    entry = Entry.objects.get(contact_email="kari@example.org")
    queued = OutgoingMail.objects.get()
    assert (queued.kind, queued.reference) == ("registered", entry.pk)
    assert (queued.state, queued.attempts, queued.last_error) == (State.QUEUED, 0, "")
    assert "could not be sent" not in client.get(page).text

    send_outbox(settings)
    assert len(hanging.accepted) == 1, "the outbox's sender tried it"
    queued.refresh_from_db()
    assert (queued.state, queued.attempts) == (State.QUEUED, 1)
    assert queued.last_error.startswith("SMTPServerDisconnected")
    assert "timed out" in queued.last_error
    # The entrant's page says so, and keeps the link on show.
    assert "The e-mail to kari@example.org could not be sent yet" in client.get(page).text


@pytest.mark.parametrize("door", DOORS)
def test_a_registration_with_the_mail_server_refusing_leaves_the_attempt_to_the_outbox(
    door, championship, refusing, settings
):
    client = english()
    DOORS[door](client, championship)
    queued = OutgoingMail.objects.get()
    assert (queued.state, queued.attempts, queued.last_error) == (State.QUEUED, 0, "")

    send_outbox(settings)
    queued.refresh_from_db()
    assert (queued.state, queued.attempts) == (State.QUEUED, 1)
    assert queued.last_error.startswith("ConnectionRefusedError")
    assert queued.next_attempt_at > queued.last_attempt_at


def test_with_a_working_mail_server_the_outbox_delivers_what_the_request_queued(
    championship, settings
):
    """Sent outside the request, without ``SITE_URL``: links and check-in code on its address."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    register_by_form(english(), championship)
    assert mail.outbox == []
    send_outbox(settings)
    (message,) = mail.outbox
    entry = Entry.objects.get()
    assert message.to == ["kari@example.org"]
    assert f"http://testserver/{championship.slug}/entries/{entry.manage_token}/" in message.body
    ((name, content, _mimetype),) = message.attachments
    assert name == "check-in.png"
    pixels = np.array(Image.open(io.BytesIO(content)).convert("L"))
    assert decode(pixels) == "http://testserver" + checkin.checkin_path(entry)
    assert OutgoingMail.objects.get().state == State.SENT


# The organiser's message and "Send again" ------------------------------------------------------


def test_the_organisers_message_to_every_entrant_answers_without_touching_the_mail_server(
    championship, hanging, settings
):
    individual = championship.categories.get(kind="individual")
    for number in range(12):
        factories.entry(individual, contact_email=f"entrant{number}@example.org")
    client = english()
    client.force_login(factories.role(championship, ChampionshipRole.Role.ORGANISER))
    page = client.get(f"/{championship.slug}/manage/").text
    token = page.split('name="submission" value="', 1)[1].split('"', 1)[0]
    started = time.monotonic()
    answer = client.post(
        f"/{championship.slug}/manage/message/",
        {"audience": "", "subject": "Parking", "body": "Park at P2.", "submission": token},
        follow=True,
    )
    elapsed = time.monotonic() - started
    assert "The message is on its way to 12 entrants." in answer.text
    assert hanging.accepted == []
    assert elapsed < EMAIL_TIMEOUT
    assert OutgoingMail.objects.filter(kind="message", state=State.QUEUED, attempts=0).count() == 12


def test_send_again_queues_the_mail_for_the_outbox_and_answers_at_once(
    championship, hanging, settings
):
    entry = factories.entry(
        championship.categories.get(kind="individual"), contact_email="kari@example.org"
    )
    notifications.message_send(
        audience=notifications.Audience(championship=championship), subject="Hi", body="Hello"
    )
    send_outbox(settings)
    failed = OutgoingMail.objects.get(reference=entry.pk)
    assert failed.failing and len(hanging.accepted) == 1
    settings.EMAIL_TIMEOUT = EMAIL_TIMEOUT

    client = english()
    client.force_login(factories.role(championship, ChampionshipRole.Role.ORGANISER))
    answer = client.post(f"/{championship.slug}/manage/mail/{failed.pk}/retry/", follow=True)
    queued_again = "The e-mail to kari@example.org is queued: it goes out within a minute."
    assert queued_again in answer.text
    assert len(hanging.accepted) == 1, "Send again connected to the mail server"
    failed.refresh_from_db()
    assert (failed.state, failed.attempts) == (State.QUEUED, 1)

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    send_outbox(settings)
    failed.refresh_from_db()
    assert (failed.state, failed.attempts) == (State.SENT, 2)
    assert [message.to for message in mail.outbox] == [["kari@example.org"]]


# The setting -----------------------------------------------------------------------------------


def setting_as_started(**environ):
    """Return ``OUTBOX_SEND_AFTER_COMMIT`` as a site started with ``environ`` reads it."""
    dropped = {"OUTBOX_SEND_AFTER_COMMIT", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="true", **environ)
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", SHOW_SETTING],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


SHOW_SETTING = "from django.conf import settings; print(settings.OUTBOX_SEND_AFTER_COMMIT)"


def test_a_site_sends_mail_after_commit_only_when_told_to():
    assert setting_as_started() == "False"
    assert setting_as_started(OUTBOX_SEND_AFTER_COMMIT="true") == "True"
