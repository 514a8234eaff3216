"""Every member of a pair or team with an address gets the mails about the entry.

Members who share an address get one mail between them; a member without an
address gets none. The member who registered reads the language they registered
in, the others the championship's; every mail carries the entry's one private link.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from championship.models import OutgoingMail
from registration import notifications
from registration.models import Entry
from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.test_views import management, member_data

pytestmark = pytest.mark.django_db

# The first words of every mail about an entry, in the languages of these tests.
HELLO = {"en": "Hello {name},", "nb": "Hei {name}!"}
IN_A_DAY = timedelta(days=1)

# Each kind of mail about an entry: what queues it, the entry's state then, and whether
# the mail carries the private link.
KINDS = {
    "registered": (notifications.queue_registered, {}, True),
    "waiting list": (notifications.queue_registered, {"status": "waitlisted"}, True),
    "promoted": (notifications.queue_promoted, {}, True),
    "offer": (
        notifications.queue_offered,
        {"status": "offered", "offer_expires_at": "in a day"},
        True,
    ),
    "offer lapsed": (
        notifications.queue_offer_lapsed,
        {"status": "withdrawn", "withdrawn_at": "now", "lapsed": "offer"},
        True,
    ),
    "payment reminder": (
        notifications.queue_payment_reminder,
        {"payment_due_at": "in a day"},
        True,
    ),
    "payment lapsed": (
        notifications.queue_payment_lapsed,
        {"status": "withdrawn", "withdrawn_at": "now", "lapsed": "unpaid"},
        True,
    ),
    "withdrawn": (
        notifications.queue_withdrawn,
        {"status": "withdrawn", "withdrawn_at": "now"},
        False,
    ),
}


@pytest.fixture
def rm(settings):
    """A Norwegian championship next year, its links at the site's address."""
    settings.SITE_URL = "https://puzzle.example.org"
    return factories.championship(slug=f"rm-{NEXT_YEAR}-mail", starts_at=factories.START)


def when(value):
    now = timezone.now()
    return {"now": now, "in a day": now + IN_A_DAY}.get(value, value)


def make_entry(championship, kind: str, addresses: list[str], *, language: str, state: dict):
    """An entry of ``kind`` whose members have ``addresses`` ("" for none), in that order."""
    category = championship.categories.get(kind=kind)
    members = [
        factories.person(championship, name=f"Medlem {n + 1}", email=address)
        for n, address in enumerate(addresses)
    ]
    return factories.entry(
        category,
        members=members,
        name=f"{kind.title()} Nordmann",
        contact_email=addresses[0],
        language=language,
        **{field: when(value) for field, value in state.items()},
    )


def queued(queue, entry, capture, *, language: str = "nb") -> list:
    """Queue a mail about ``entry``; return the mails sent about it (not an address's link).

    A member who did not register reads the championship's language (``language``);
    the member who registered, the entry's.
    """
    with capture(execute=True):
        queue(entry.pk)
    greetings = {HELLO[code].format(name=entry.name) for code in (language, entry.language)}
    return [m for m in mail.outbox if any(m.body.startswith(hello) for hello in greetings)]


def private_link(entry: Entry) -> str:
    return notifications.manage_url(entry, base_url="https://puzzle.example.org")


@pytest.mark.parametrize("kind", KINDS)
def test_each_member_of_a_pair_gets_the_mail_with_the_same_private_link(
    rm, kind, django_capture_on_commit_callbacks
):
    queue, state, has_link = KINDS[kind]
    pair = make_entry(
        rm, "pair", ["ola@example.org", "kari@example.org"], language="nb", state=state
    )
    sent = queued(queue, pair, django_capture_on_commit_callbacks)
    assert sorted(message.to for message in sent) == [["kari@example.org"], ["ola@example.org"]]
    # The same mail: the subject, the words, the one private link. The contact's alone
    # may end with the link that confirms their address (the others get theirs apart).
    ola, kari = sorted(sent, key=lambda message: message.to != ["ola@example.org"])
    assert ola.subject == kari.subject
    assert ola.body.startswith(kari.body.rstrip())
    assert "/address/" not in kari.body
    for message in sent:
        assert message.body.startswith(HELLO["nb"].format(name=pair.name))
        assert (private_link(pair) in message.body) is has_link


@pytest.mark.parametrize("kind", KINDS)
def test_a_team_sharing_an_address_gets_one_mail_there_and_none_without_one(
    rm, kind, django_capture_on_commit_callbacks
):
    queue, state, has_link = KINDS[kind]
    addresses = ["anna@example.org", "", "Anna@Example.org", "dag@example.org"]
    team = make_entry(rm, "team", addresses, language="nb", state=state)
    sent = queued(queue, team, django_capture_on_commit_callbacks)
    assert sorted(message.to for message in sent) == [["anna@example.org"], ["dag@example.org"]]
    for message in sent:
        assert message.body.startswith(HELLO["nb"].format(name=team.name))
        assert (private_link(team) in message.body) is has_link


def test_the_member_who_registered_reads_their_language_the_others_the_championships(
    rm, django_capture_on_commit_callbacks
):
    pair = make_entry(rm, "pair", ["ola@example.org", "kari@example.org"], language="en", state={})
    sent = queued(notifications.queue_promoted, pair, django_capture_on_commit_callbacks)
    by_address = {message.to[0]: message for message in sent}
    assert by_address["ola@example.org"].body.startswith(HELLO["en"].format(name=pair.name))
    assert by_address["kari@example.org"].body.startswith(HELLO["nb"].format(name=pair.name))
    assert private_link(pair) in by_address["kari@example.org"].body


def test_an_entry_without_any_address_gets_no_mail_and_nothing_fails(
    rm, django_capture_on_commit_callbacks
):
    team = make_entry(rm, "team", ["", "", ""], language="nb", state={})
    assert notifications.recipients(team) == []
    assert queued(notifications.queue_promoted, team, django_capture_on_commit_callbacks) == []


def test_a_pair_registered_on_the_form_is_confirmed_to_both_members(
    client, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = ""
    championship = factories.championship(
        slug=f"pairs-{NEXT_YEAR}-mail",
        starts_at=factories.START.replace(year=NEXT_YEAR),
    )
    data = management(2)
    for index, (name, email) in enumerate(
        (("Ola Nordmann", "ola@example.org"), ("Kari Nordmann", "kari@example.org"))
    ):
        data.update(member_data(index, name=name, email=email, publish_consent="on"))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/{championship.slug}/register/pair/", data)
    assert response.status_code == 302
    entry = Entry.objects.get(category__championship=championship)
    confirmations = [
        m for m in mail.outbox if m.body.startswith(HELLO["nb"].format(name=entry.name))
    ]
    assert sorted(message.to for message in confirmations) == [
        ["kari@example.org"],
        ["ola@example.org"],
    ]
    # Both carry the check-in code for the door, and the one private link.
    for message in confirmations:
        assert [name for name, _content, _type in message.attachments] == ["check-in.png"]
        assert f"/{championship.slug}/entries/{entry.manage_token}/" in message.body


def test_the_entrants_page_warns_only_of_a_failing_mail_to_the_contact(client, rm):
    """The page names the contact's address: a mail to another member failing is not it."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    pair = make_entry(rm, "pair", ["ola@example.org", "kari@example.org"], language="en", state={})
    page = f"/{rm.slug}/entries/{pair.manage_token}/"
    failing = {"state": "failed", "attempts": 8, "last_error": "SMTPServerDisconnected"}
    failing.update(kind="promoted", subject="Plass", body="Hei")
    notice = "could not be sent yet"
    OutgoingMail.objects.create(reference=pair.pk, to="kari@example.org", **failing)
    assert notice not in client.get(page).text
    OutgoingMail.objects.create(reference=pair.pk, to="OLA@example.org", **failing)
    assert "The e-mail to ola@example.org could not be sent yet" in client.get(page).text
