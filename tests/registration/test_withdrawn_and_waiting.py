"""A withdrawn entry owes nothing, a waiting one holds no place, and the scanner says which.

On the entrant's page, the organiser's entries and the check-in desk: a withdrawn
entry that did not pay shows nothing to pay (one that paid shows it paid); the
withdraw box of a waiting entry says it leaves the waiting list; a scanned code of
an entry that cannot be checked in says why.
"""

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from championship.models import ChampionshipRole
from registration import checkin
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

GIVES_THE_PLACE = "Yes, withdraw this entry. The place goes to the first on the waiting list."
LEAVES_THE_LIST = "Yes, withdraw this entry. It leaves the waiting list."


@pytest.fixture
def future(db):
    """A Norwegian championship next year; its individual fee is 200 kr."""
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


@pytest.fixture
def individual(future):
    return future.categories.get(kind="individual")


def withdrawn(category, **kwargs):
    return factories.entry(
        category, status="withdrawn", withdrawn_at=timezone.now(), fee=200, **kwargs
    )


def entry_page(client, entry) -> str:
    championship = entry.category.championship
    return client.get(
        reverse("results:entry_page", args=[championship.slug, entry.manage_token])
    ).text


def fee_line(page: str) -> str:
    start = page.index("<dt>Fee</dt>")
    return page[start : page.index("</dd>", start)]


# The entrant's page ------------------------------------------------------------------------------


def test_a_withdrawn_entry_that_did_not_pay_shows_nothing_to_pay(client, individual):
    entry = withdrawn(individual)
    fee = fee_line(entry_page(client, entry))
    assert "Nothing to pay" in fee
    assert "Unpaid" not in fee and "200" not in fee


def test_a_withdrawn_entry_that_paid_shows_it_paid(client, individual):
    entry = withdrawn(individual, payment_status="paid")
    fee = fee_line(entry_page(client, entry))
    assert "Paid" in fee and "200" in fee
    assert "Nothing to pay" not in fee


def test_a_confirmed_entry_still_shows_its_fee_unpaid(client, individual):
    entry = factories.entry(individual, fee=200)
    fee = fee_line(entry_page(client, entry))
    assert "Unpaid" in fee and "200" in fee


def test_a_waiting_entrys_withdraw_box_says_it_leaves_the_waiting_list(client, individual):
    page = entry_page(client, factories.entry(individual, status="waitlisted"))
    assert LEAVES_THE_LIST in page
    assert GIVES_THE_PLACE not in page


@pytest.mark.parametrize("status", ["confirmed", "offered"])
def test_an_entry_holding_a_place_says_the_place_goes_to_the_waiting_list(
    client, individual, status
):
    expires = timezone.now() + timedelta(days=1) if status == "offered" else None
    entry = factories.entry(individual, status=status, offer_expires_at=expires)
    page = entry_page(client, entry)
    assert GIVES_THE_PLACE in page
    assert LEAVES_THE_LIST not in page


# The organiser's pages ---------------------------------------------------------------------------


@pytest.fixture
def organiser(client, future):
    client.force_login(factories.role(future, ChampionshipRole.Role.ORGANISER))
    return client


def row_of(page: str, entry) -> str:
    start = page.index(f'id="entry-{entry.pk}"')
    return page[start : page.index("</tr>", start)]


def test_the_entries_list_shows_nothing_to_pay_for_a_withdrawn_entry(organiser, future, individual):
    gone = withdrawn(individual, name="Gone Unpaid")
    paid = withdrawn(individual, name="Gone Paid", payment_status="paid")
    owing = factories.entry(individual, name="Still Owing", fee=200)
    page = organiser.get(f"/{future.slug}/manage/entries/?category=individual").text
    assert "Nothing to pay" in row_of(page, gone) and "200" not in row_of(page, gone)
    assert "Paid" in row_of(page, paid) and "200" in row_of(page, paid)
    assert "Unpaid" in row_of(page, owing) and "200" in row_of(page, owing)


SCANNED = {
    "withdrawn": "Found: this entry is withdrawn and cannot be checked in.",
    "waitlisted": "Found: this entry is on the waiting list and cannot be checked in.",
    "offered": "Found: this entry is offered a place and cannot be checked in until it accepts.",
}


@pytest.mark.parametrize("status", SCANNED)
def test_a_scanned_entry_that_cannot_be_checked_in_says_why(organiser, future, individual, status):
    entry = factories.entry(
        individual,
        status=status,
        fee=200,
        withdrawn_at=timezone.now() if status == "withdrawn" else None,
        offer_expires_at=timezone.now() + timedelta(days=1) if status == "offered" else None,
    )
    scanned = organiser.get(checkin.checkin_path(entry) + "?scanned=1").text
    assert SCANNED[status] in scanned
    assert "Found: check the entry in below." not in scanned
    assert ">Check in</button>" not in scanned
    assert "Unpaid" not in scanned
    # Opened by a phone's camera app, the whole page says it above the entry.
    page = organiser.get(checkin.checkin_path(entry)).text
    assert page.index(SCANNED[status]) < page.index(f'id="checkin-{entry.pk}"')


def test_a_scanned_entry_to_check_in_says_so_and_once_checked_in_says_when(
    organiser, future, individual
):
    entry = factories.entry(individual, fee=200)
    scanned = organiser.get(checkin.checkin_path(entry) + "?scanned=1").text
    assert "Found: check the entry in below." in scanned and ">Check in</button>" in scanned
    at = datetime(NEXT_YEAR, 3, 14, 8, 41, tzinfo=UTC)  # 09:41 in Oslo
    entry.checked_in_at = at
    entry.save(update_fields=["checked_in_at"])
    scanned = organiser.get(checkin.checkin_path(entry) + "?scanned=1").text
    assert "Found: already checked in at 09:41." in scanned
    assert "Found: check the entry in below." not in scanned
