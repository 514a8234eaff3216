"""Password reset goes through the outbox: queued, its token made only as the mail is sent."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from championship import outbox
from championship.models import OutgoingMail
from tests import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

RESET = "/accounts/password_reset/"
LINK = re.compile(r"https?://[^/\s]+(/accounts/reset/[^/\s]+/[^/\s]+/)")


@pytest.fixture
def kari(db):
    return factories.user(username="kari", email="kari@example.org")


def test_the_request_queues_one_mail_and_sends_nothing(client, kari):
    mail.outbox.clear()
    response = client.post(RESET, {"email": "kari@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []
    (row,) = OutgoingMail.objects.all()
    assert row.kind == OutgoingMail.Kind.PASSWORD_RESET
    assert (row.championship, row.reference, row.to) == (None, kari.pk, "kari@example.org")
    assert row.state == OutgoingMail.State.QUEUED


def test_the_stored_mail_holds_no_token(client, kari):
    client.post(RESET, {"email": "kari@example.org"})
    (row,) = OutgoingMail.objects.all()
    (path,) = LINK.findall(row.body)
    assert path.endswith(f"/{outbox.SECRET}/")
    refused = client.get(path)
    assert refused.status_code == 200 and "invalid" in refused.text.lower()


def test_sending_fills_in_a_link_that_resets_the_password(client, kari):
    client.post(RESET, {"email": "kari@example.org"})
    mail.outbox.clear()
    assert outbox.send_due().sent == 1
    (message,) = mail.outbox
    assert message.to == ["kari@example.org"] and outbox.SECRET not in message.body
    (path,) = LINK.findall(message.body)
    form = client.get(path)
    assert form.status_code == 302
    response = client.post(
        form["Location"],
        {"new_password1": "a-fresh-password-42", "new_password2": "a-fresh-password-42"},
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/reset/done/"
    kari.refresh_from_db()
    assert kari.check_password("a-fresh-password-42")
    # The token made for the mail is in no row.
    token = path.rstrip("/").rsplit("/", 1)[1]
    assert not OutgoingMail.objects.filter(body__contains=token).exists()
    # Once used, the link no longer works.
    used = client.get(path)
    assert used.status_code == 200 and "invalid" in used.text.lower()


def test_a_mail_to_a_user_who_changed_address_meanwhile_is_cancelled(client, kari):
    client.post(RESET, {"email": "kari@example.org"})
    kari.email = "kari@elsewhere.example"
    kari.save()
    mail.outbox.clear()
    assert outbox.send_due().cancelled == 1
    assert mail.outbox == []


def test_an_unknown_address_queues_nothing_and_answers_the_same(client, kari):
    known = client.post(RESET, {"email": "kari@example.org"})
    OutgoingMail.objects.all().delete()
    unknown = client.post(RESET, {"email": "nobody@example.org"})
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert not OutgoingMail.objects.exists()
    outbox.send_due()
    assert mail.outbox == []
