"""The e-mail outbox: a mail server that is down costs no entry, no link and no e-mail."""

import smtplib
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core import mail
from django.core.mail import get_connection
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from championship import outbox, staff_links
from championship.models import Category, ChampionshipRole, OutgoingMail
from registration import services
from registration.models import Entry
from registration.validation import MemberData
from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.test_views import management, member_data

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
State = OutgoingMail.State
FAILING = "tests.championship.test_outbox.FailingBackend"
WORKING = "django.core.mail.backends.locmem.EmailBackend"


class FailingBackend(LocmemBackend):
    """A mail server that is down: every send raises, nothing is delivered."""

    def send_messages(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


@pytest.fixture
def championship(db):
    """A championship whose registration is open (the organiser fixture is its organiser)."""
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = ""
    settings.EMAIL_BACKEND = WORKING


@pytest.fixture
def mail_down(settings):
    settings.EMAIL_BACKEND = FAILING


def later(minutes):
    """Let ``minutes`` pass for the outbox: every scheduled attempt comes that much sooner."""
    for row in OutgoingMail.objects.filter(next_attempt_at__isnull=False):
        OutgoingMail.objects.filter(pk=row.pk).update(
            next_attempt_at=row.next_attempt_at - timedelta(minutes=minutes)
        )


def register(client, championship, email="kari@example.org"):
    data = {**management(1), **member_data(0, name="Kari Nordmann", email=email)}
    return client.post(f"/{championship.slug}/register/individual/", data)


# Registration with the mail server down -------------------------------------------------------


def test_a_registration_with_the_mail_server_down_is_saved_and_shows_the_private_link(
    english, championship, mail_down, django_capture_on_commit_callbacks
):
    """The entrant gets their page and link; the failure is recorded, not answered as a 500."""
    with django_capture_on_commit_callbacks(execute=True):
        response = register(english, championship)
    assert response.status_code == 302
    entry = Entry.objects.get(contact_email="kari@example.org")
    page = english.get(response.headers["Location"])
    assert page.status_code == 200
    link = f"http://testserver/{championship.slug}/entries/{entry.manage_token}/"
    assert link in page.text
    assert "Keep this link" in page.text
    assert "The e-mail to kari@example.org could not be sent yet" in page.text
    assert mail.outbox == []
    (row,) = OutgoingMail.objects.all()
    assert (row.state, row.attempts, row.to) == (State.QUEUED, 1, "kari@example.org")
    assert "SMTPServerDisconnected: Connection unexpectedly closed" in row.last_error
    assert row.next_attempt_at > timezone.now()
    # The stored mail holds a placeholder where the link's token goes, filled in as it is sent.
    assert link.replace(entry.manage_token, outbox.PRIVATE_LINK) in row.body
    assert entry.manage_token not in row.body


def test_the_outbox_command_delivers_the_failed_confirmation_once_the_server_is_back(
    english, championship, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = FAILING
    with django_capture_on_commit_callbacks(execute=True):
        register(english, championship)
    entry = Entry.objects.get()
    settings.EMAIL_BACKEND = WORKING
    call_command("send_mail_outbox")
    assert mail.outbox == [], "not due before its back-off"
    later(1)
    call_command("send_mail_outbox")
    call_command("send_mail_outbox")
    (message,) = mail.outbox
    assert message.to == ["kari@example.org"]
    assert entry.manage_token in message.body
    row = OutgoingMail.objects.get()
    assert (row.state, row.attempts) == (State.SENT, 2)
    assert row.sent_at is not None and row.next_attempt_at is None


def test_with_the_mail_server_up_the_confirmation_goes_at_once(
    english, championship, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        register(english, championship)
    (message,) = mail.outbox
    row = OutgoingMail.objects.get()
    assert (row.state, row.attempts, row.subject) == (State.SENT, 1, message.subject)
    page = english.get(f"/{championship.slug}/entries/{Entry.objects.get().manage_token}/")
    assert "could not be sent" not in page.text


def test_a_registration_that_rolls_back_queues_no_mail(championship):
    individual = championship.categories.get(kind="individual")
    # A fixed birth date: on 29 February, today's date in 1990 does not exist.
    member = MemberData(name="Kari", email="kari@example.org", birth_date=date(1990, 1, 1))
    with pytest.raises(RuntimeError), transaction.atomic():
        services.entry_register(category=individual, members=[member], enforce_deadline=False)
        raise RuntimeError("the change fails after the registration")
    assert not Entry.objects.exists()
    assert not OutgoingMail.objects.exists()


def test_the_mail_is_written_in_the_entrants_language(championship):
    entry = factories.entry(
        championship.categories.get(kind="individual"),
        contact_email="kari@example.org",
        language="nb",
    )
    services.entry_rotate_manage_link(entry=entry)
    row = OutgoingMail.objects.get()
    assert (row.kind, row.reference, row.championship) == ("new_link", entry.pk, championship)
    assert "lenke" in row.body.lower()


# Back-off and giving up -----------------------------------------------------------------------


def test_a_failing_mail_is_retried_with_back_off_then_failed(championship, mail_down):
    factories.entry(championship.categories.get(kind="individual"), contact_email="k@example.org")
    entry = Entry.objects.get()
    services.entry_rotate_manage_link(entry=entry)
    now = timezone.now()
    waits = []
    for _ in range(outbox.MAX_ATTEMPTS):
        row = outbox.send_one(now=now)
        assert row is not None
        if row.next_attempt_at is not None:
            waits.append(row.next_attempt_at - now)
            assert outbox.send_one(now=now) is None, "not due again before its wait"
            now = row.next_attempt_at
    assert [wait.total_seconds() / 60 for wait in waits] == [1, 5, 15, 60, 180, 360, 720]
    row.refresh_from_db()
    assert (row.state, row.attempts, row.next_attempt_at) == (
        State.FAILED,
        outbox.MAX_ATTEMPTS,
        None,
    )
    assert outbox.send_one(now=now + timedelta(days=30)) is None, "a failed mail waits for a hand"


def test_the_smtp_connection_has_a_short_timeout():
    """A mail server that hangs holds the outbox's sender for seconds per mail, not minutes."""
    connection = get_connection("django.core.mail.backends.smtp.EmailBackend")
    assert 0 < connection.timeout <= 15


# The organiser's new private link ---------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_new_private_link_with_the_mail_server_down_is_shown_to_the_organiser(
    english, championship, organiser, mail_down
):
    """Committed for real: the mail is tried before the organiser's answer is written."""
    entry = factories.entry(
        championship.categories.get(kind="individual"), contact_email="kari@example.org"
    )
    english.force_login(organiser)
    response = english.post(
        f"/{championship.slug}/manage/entries/{entry.pk}/new-link/", follow=True
    )
    assert response.status_code == 200
    entry.refresh_from_db()
    link = f"http://testserver/{championship.slug}/entries/{entry.manage_token}/"
    assert link in response.text
    assert "It could not be sent by e-mail: pass it on yourself." in response.text
    row = OutgoingMail.objects.get(kind="new_link")
    assert row.failing and outbox.PRIVATE_LINK in row.body


@pytest.mark.django_db(transaction=True)
def test_a_new_private_link_sent_by_e_mail_is_also_shown(english, championship, organiser):
    entry = factories.entry(
        championship.categories.get(kind="individual"), contact_email="kari@example.org"
    )
    english.force_login(organiser)
    response = english.post(
        f"/{championship.slug}/manage/entries/{entry.pk}/new-link/", follow=True
    )
    entry.refresh_from_db()
    assert f"/{championship.slug}/entries/{entry.manage_token}/" in response.text
    assert "on its way by e-mail" in response.text
    (message,) = mail.outbox
    assert entry.manage_token in message.body


# The control room -----------------------------------------------------------------------------


@pytest.fixture
def failed_mail(championship, mail_down, django_capture_on_commit_callbacks):
    individual = championship.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    entry = factories.entry(individual, contact_email="kari@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_rotate_manage_link(entry=entry)
    return OutgoingMail.objects.get()


def test_the_control_room_warns_of_failing_mail(english, championship, organiser, failed_mail):
    english.force_login(organiser)
    page = english.get(f"/{championship.slug}/manage/")
    assert "1 e-mail could not be sent." in page.text
    assert f"/{championship.slug}/manage/mail/?show=failing" in page.text


def test_the_control_room_is_quiet_when_mail_goes(english, championship, organiser):
    english.force_login(organiser)
    page = english.get(f"/{championship.slug}/manage/")
    assert "could not be sent" not in page.text


def test_the_mail_page_lists_the_failure_and_sends_it_again(
    english, championship, organiser, failed_mail, settings
):
    english.force_login(organiser)
    url = f"/{championship.slug}/manage/mail/"
    page = english.get(url)
    assert page.status_code == 200
    assert "kari@example.org" in page.text
    assert failed_mail.subject in page.text
    assert "SMTPServerDisconnected" in page.text
    assert "Not sent yet" in page.text
    assert "Send again" in page.text

    settings.EMAIL_BACKEND = WORKING
    response = english.post(f"{url}{failed_mail.pk}/retry/", follow=True)
    assert response.status_code == 200
    assert "The e-mail to kari@example.org is sent." in response.text
    (message,) = mail.outbox
    assert message.to == ["kari@example.org"]
    failed_mail.refresh_from_db()
    assert failed_mail.state == State.SENT
    assert "Send again" not in response.text
    # Sent once: neither the page nor the command sends it again.
    again = english.post(f"{url}{failed_mail.pk}/retry/", follow=True)
    assert "This e-mail is not waiting to be sent." in again.text
    later(60 * 24)
    call_command("send_mail_outbox")
    assert len(mail.outbox) == 1


def test_send_again_with_the_server_still_down_tells_the_error(
    english, championship, organiser, failed_mail
):
    english.force_login(organiser)
    response = english.post(
        f"/{championship.slug}/manage/mail/{failed_mail.pk}/retry/", follow=True
    )
    assert "could not be sent: SMTPServerDisconnected" in response.text
    failed_mail.refresh_from_db()
    assert (failed_mail.state, failed_mail.attempts) == (State.QUEUED, 2)
    assert mail.outbox == []


def test_a_mail_that_gave_up_can_be_sent_again(
    english, championship, organiser, failed_mail, settings
):
    OutgoingMail.objects.filter(pk=failed_mail.pk).update(
        state=State.FAILED, attempts=outbox.MAX_ATTEMPTS, next_attempt_at=None
    )
    english.force_login(organiser)
    assert "Failed" in english.get(f"/{championship.slug}/manage/mail/?show=failing").text
    settings.EMAIL_BACKEND = WORKING
    english.post(f"/{championship.slug}/manage/mail/{failed_mail.pk}/retry/")
    failed_mail.refresh_from_db()
    assert failed_mail.state == State.SENT
    assert len(mail.outbox) == 1


def test_only_the_championships_organisers_see_and_resend_its_mail(
    client, championship, failed_mail
):
    other = factories.championship(slug="other-2099")
    stranger = factories.role(other, Role.ORGANISER, username="stranger")
    judge = factories.role(championship, Role.JUDGE, username="judy")
    url = f"/{championship.slug}/manage/mail/"
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(judge)
    assert client.get(url).status_code == 403
    assert client.post(f"{url}{failed_mail.pk}/retry/").status_code == 403
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    # Another championship's mail is not found through one's own.
    assert client.post(f"/{other.slug}/manage/mail/{failed_mail.pk}/retry/").status_code == 404
    assert "kari@example.org" not in client.get(f"/{other.slug}/manage/mail/").text
    failed_mail.refresh_from_db()
    assert failed_mail.attempts == 1


def test_the_mail_page_refuses_a_get_on_send_again_and_a_bad_page(
    client, championship, organiser, failed_mail
):
    client.force_login(organiser)
    url = f"/{championship.slug}/manage/mail/"
    assert client.get(f"{url}{failed_mail.pk}/retry/").status_code == 405
    assert client.get(f"{url}?page=zzz&show=<script>").status_code == 200
    assert client.post(f"{url}999999/retry/").status_code == 404


# Staff sign-in links ----------------------------------------------------------------------------


def test_a_sign_in_mail_keeps_no_working_link_in_the_database(
    championship, organiser, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://puzzle.example.org"
    settings.EMAIL_BACKEND = FAILING
    with django_capture_on_commit_callbacks(execute=True):
        link = staff_links.link_create(
            championship=championship,
            name="Jo Judge",
            email="jo@example.org",
            role=Role.JUDGE,
            by=organiser,
        )
    token = staff_links.sign_in_token(link)
    row = OutgoingMail.objects.get()
    assert row.failing and token not in row.body and token not in row.subject
    settings.EMAIL_BACKEND = WORKING
    later(1)
    call_command("send_mail_outbox")
    (message,) = mail.outbox
    assert f"https://puzzle.example.org/s/{token}/" in message.body
    assert outbox.SECRET not in message.body


def test_a_sign_in_mail_for_a_link_revoked_meanwhile_is_cancelled(
    championship, organiser, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://puzzle.example.org"
    settings.EMAIL_BACKEND = FAILING
    with django_capture_on_commit_callbacks(execute=True):
        link = staff_links.link_create(
            championship=championship,
            name="Jo Judge",
            email="jo@example.org",
            role=Role.JUDGE,
            by=organiser,
        )
    staff_links.link_revoke(link=link, by=organiser)
    settings.EMAIL_BACKEND = WORKING
    later(1)
    call_command("send_mail_outbox")
    assert mail.outbox == []
    assert OutgoingMail.objects.get().state == State.CANCELLED
