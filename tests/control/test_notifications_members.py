"""The seat, the advance and the official result go to every member of a pair or team.

Members who share an address get one mail; a member without one gets none; every
mail carries the entry's one private link where it carries one.
"""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from championship.models import Round
from championship.services import tables_create
from control import rounds
from control.notifications import Audience, message_send
from registration import notifications as entry_mail
from tests import factories
from tests.control.test_rounds import finish_all

pytestmark = pytest.mark.django_db

SITE = "https://puzzle.example.org"
PAIR = ["ola@example.org", "kari@example.org"]
# One address twice (as people type it), and a member without one.
TEAM = ["anna@example.org", "", "Anna@Example.org", "dag@example.org"]
WRITTEN_TO = {"pair": [["kari@example.org"], ["ola@example.org"]]}
WRITTEN_TO["team"] = [["anna@example.org"], ["dag@example.org"]]


@pytest.fixture
def sm(settings):
    """A Swedish championship: in the pairs and the teams, the best of two go to the final.

    The entry with addresses registered first and is the faster; the other has none.
    """
    settings.SITE_URL = SITE
    championship = factories.championship(slug="sm-members", ruleset="sm", name="SM 2026")
    tables_create(championship=championship, count=8)
    entries = {}
    for kind, addresses in (("pair", PAIR), ("team", TEAM)):
        category = championship.categories.get(kind=kind)
        Round.objects.filter(category=category, key__endswith="prelim").update(
            advance="overall", advance_count=1
        )
        for number, emails in enumerate((addresses, [""] * len(addresses))):
            members = [
                factories.person(championship, email=email, citizenship=["SE"]) for email in emails
            ]
            made = factories.entry(
                category,
                members=members,
                contact_email=emails[0],
                language="sv",
                checked_in_at=timezone.now(),
                registered_at=championship.starts_at - timedelta(days=30 - number),
            )
            entries.setdefault(kind, made)
    return championship, entries


def told(entry) -> list:
    """Return the mails about ``entry`` sent so far, and forget every mail."""
    about = [m for m in mail.outbox if m.body.startswith(f"Hej {entry.name}!")]
    mail.outbox.clear()
    return about


def link(entry) -> str:
    return entry_mail.manage_url(entry, base_url=SITE)


@pytest.mark.parametrize("kind", ["pair", "team"])
def test_the_seat_the_result_and_the_advance_go_to_every_member_with_an_address(
    sm, kind, django_capture_on_commit_callbacks
):
    _championship, entries = sm
    entry = entries[kind]
    prelim, final = entry.category.rounds.order_by("order")
    rounds.round_seat(round_=prelim)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.seating_publish(round_=prelim)
    seating = told(entry)
    assert sorted(message.to for message in seating) == WRITTEN_TO[kind]
    table = prelim.seats.get(entry=entry).table.number
    for message in seating:
        assert f"Bord: {table}" in message.body and link(entry) in message.body

    rounds.round_start(round_=prelim)
    rounds.round_close(round_=prelim)
    finish_all(prelim)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_sign_off(round_=prelim, by=None)
    results = told(entry)
    assert sorted(message.to for message in results) == WRITTEN_TO[kind]
    for message in results:
        assert "officiella" in message.body and "0:40:00" in message.body

    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_advance(round_=prelim)
    assert final.seats.filter(entry=entry).exists()
    advanced = told(entry)
    assert sorted(message.to for message in advanced) == WRITTEN_TO[kind]
    for message in advanced:
        assert "vidare" in message.body and link(entry) in message.body


def test_the_organisers_message_goes_to_every_member_once(sm, django_capture_on_commit_callbacks):
    championship, entries = sm
    with django_capture_on_commit_callbacks(execute=True):
        sent = message_send(
            audience=Audience(championship=championship, category="team"),
            subject="Parkering",
            body="Parkera bakom hallen.",
        )
    assert sent == 1  # one entry is written to; the other has no address
    assert sorted(message.to for message in told(entries["team"])) == WRITTEN_TO["team"]
