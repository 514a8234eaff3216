"""Payment: the organiser's instructions to entrants, status at check-in, the unpaid count."""

from datetime import UTC, date, datetime

import pytest
from django.core import mail

from championship.models import Category, Championship, ChampionshipRole
from registration import payment, references, services, validation
from registration.models import Entry
from tests import factories
from tests.championship.test_admin import admin_url, change_form_data
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

ORGANISER = ChampionshipRole.Role.ORGANISER
INSTRUCTIONS = "Vipps {fee} til 123 45.\nMerk betalingen med {reference}."


@pytest.fixture
def rm(db):
    """A rogaland championship open for registration (fees 200, 300, 400 NOK), with instructions."""
    championship = factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    Championship.objects.filter(pk=championship.pk).update(payment_instructions=INSTRUCTIONS)
    championship.refresh_from_db()
    return championship


def register(championship, key="individual", name="Kari Nordmann", email="kari@example.org"):
    category = championship.categories.get(key=key)
    members = [
        validation.MemberData(name, email, date(1980, 1, 1), region="Rogaland"),
        validation.MemberData("Ola", "ola@example.org", date(1981, 1, 1), region="Rogaland"),
    ][: category.min_members]
    return services.entry_register(category=category, members=members, send_mail=False)


def manage_page(client, entry):
    return client.get(f"/{entry.category.championship.slug}/entries/{entry.manage_token}/").text


def test_the_entrants_page_shows_how_to_pay_with_the_reference_while_unpaid(client, rm):
    entry = register(rm)
    # A Norwegian championship's entry gets a KID (modulus 10) made of its id.
    assert entry.payment_reference == references.make("kid10", entry.pk)
    assert references.is_valid("kid10", entry.payment_reference)
    text = manage_page(client, entry)
    assert "How to pay" in text
    assert f"Vipps 200 NOK til 123 45.<br>Merk betalingen med {entry.payment_reference}." in text
    assert (
        f'<dt>Payment reference</dt><dd><strong class="payment-reference">'
        f"{entry.payment_reference}</strong>" in text
    )
    # A reference the organiser gave the entry wins over its id.
    Entry.objects.filter(pk=entry.pk).update(payment_reference="KID 4711")
    assert "Merk betalingen med KID 4711." in manage_page(client, entry)


@pytest.mark.parametrize("status", ["paid", "waived", "refunded"])
def test_no_instructions_once_paid_or_waived(client, rm, status):
    entry = register(rm)
    services.entry_set_payment(entry=entry, status=status)
    text = manage_page(client, entry)
    assert "How to pay" not in text and "123 45" not in text


def test_no_instructions_on_the_waiting_list_for_a_free_entry_or_without_a_text(client, rm):
    individual = rm.categories.get(key="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    register(rm, name="First", email="first@example.org")
    waiting = register(rm, name="Second", email="second@example.org")
    assert waiting.status == "waitlisted"
    text = manage_page(client, waiting)
    assert "How to pay" not in text
    assert "to pay once the entry is confirmed" in text
    # Offered a place: not "Unpaid" yet, but to pay once accepted.
    Entry.objects.filter(pk=waiting.pk).update(
        status=Entry.Status.OFFERED, offer_expires_at=datetime(NEXT_YEAR, 3, 1, tzinfo=UTC)
    )
    offered = manage_page(client, waiting)
    assert "to pay once you accept the place" in offered
    assert '<span class="payment-unpaid">' not in offered
    Entry.objects.filter(pk=waiting.pk).update(
        status=Entry.Status.WAITLISTED, offer_expires_at=None
    )
    Category.objects.filter(pk=individual.pk).update(fee=0)
    Category.objects.filter(pk=individual.pk).update(capacity=None)
    free = register(rm, name="Free", email="free@example.org")
    assert "How to pay" not in manage_page(client, free)
    pair = register(rm, "pair", name="Par", email="par@example.org")
    assert "How to pay" in manage_page(client, pair)
    Championship.objects.filter(pk=rm.pk).update(payment_instructions="  ")
    assert "How to pay" not in manage_page(client, pair)


def test_the_text_keeps_other_braces_and_is_escaped(client, rm):
    Championship.objects.filter(pk=rm.pk).update(
        payment_instructions="<b>Bank</b> {konto} {reference}"
    )
    entry = register(rm)
    assert payment.instructions(entry).text == f"<b>Bank</b> {{konto}} {entry.payment_reference}"
    assert f"&lt;b&gt;Bank&lt;/b&gt; {{konto}} {entry.payment_reference}" in manage_page(
        client, entry
    )


def test_the_confirmation_email_carries_the_instructions(
    client, rm, django_capture_on_commit_callbacks
):
    data = {
        "members-TOTAL_FORMS": "1",
        "members-INITIAL_FORMS": "0",
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "1000",
        "members-0-name": "Kari Nordmann",
        "members-0-email": "kari@example.org",
        "members-0-birth_date": "1980-01-01",
        "members-0-region": "Rogaland",
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/{rm.slug}/register/individual/", data)
    assert response.status_code == 302
    entry = Entry.objects.get()
    (message,) = mail.outbox
    assert (
        f"How to pay:\nVipps 200 NOK til 123 45.\nMerk betalingen med {entry.payment_reference}."
        in (message.body)
    )
    assert f"Payment reference: {entry.payment_reference}" in message.body
    # The page the entrant lands on says it too.
    assert "How to pay" in client.get(response.url).text


def test_the_waiting_list_email_has_no_instructions_and_the_promotion_email_has(
    rm, django_capture_on_commit_callbacks
):
    individual = rm.categories.get(key="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    first = register(rm, name="First", email="first@example.org")
    category = rm.categories.get(key="individual")
    with django_capture_on_commit_callbacks(execute=True):
        waiting = services.entry_register(
            category=category,
            members=[validation.MemberData("Second", "second@example.org", date(1980, 1, 1))],
        )
    (waitlisted,) = mail.outbox
    assert "waiting list" in waitlisted.body and "How to pay" not in waitlisted.body
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_withdraw(entry=first)
    promoted = next(m for m in mail.outbox if m.to == ["second@example.org"] and m != waitlisted)
    assert "now confirmed" in promoted.body
    assert f"Merk betalingen med {waiting.payment_reference}." in promoted.body


def test_the_checkin_list_shows_each_entrys_payment(client, rm):
    individual = rm.categories.get(key="individual")
    statuses = {"Ulla Ubetalt": "unpaid", "Pia Betalt": "paid", "Frida Fri": "waived"}
    for name, status in statuses.items():
        factories.entry(individual, name=name, fee=200, payment_status=status)
    factories.entry(
        individual,
        name="Rolf Refundert",
        fee=200,
        payment_status="refunded",
        status="withdrawn",
        withdrawn_at=datetime(NEXT_YEAR, 1, 1, tzinfo=UTC),
    )
    client.force_login(factories.role(rm, ORGANISER))
    text = client.get(f"/{rm.slug}/manage/checkin/").text

    def row(name):
        start = text.index(name)
        return text[start : text.index("</li>", start)]

    assert '<strong class="payment payment-unpaid">Unpaid: 200 NOK</strong>' in row("Ulla Ubetalt")
    assert '<span class="payment payment-paid">Paid</span>' in row("Pia Betalt")
    assert '<span class="payment payment-waived">Waived</span>' in row("Frida Fri")
    assert "Withdrawn" in row("Rolf Refundert") and "Unpaid" not in row("Rolf Refundert")


def test_the_unpaid_counts_count_confirmed_entries_only(client, rm):
    individual = rm.categories.get(key="individual")
    factories.entry(individual, name="Owes", fee=200)
    factories.entry(individual, name="Paid", fee=200, payment_status="paid")
    factories.entry(individual, name="Waits", fee=200, status="waitlisted")
    factories.entry(
        individual,
        name="Gone",
        fee=200,
        status="withdrawn",
        withdrawn_at=datetime(NEXT_YEAR, 1, 1, tzinfo=UTC),
    )
    client.force_login(factories.role(rm, ORGANISER))
    room = client.get(f"/{rm.slug}/manage/")
    (counted,) = [c for c in room.context["categories"] if c.key == "individual"]
    assert (counted.confirmed_count, counted.waitlisted_count, counted.unpaid_count) == (2, 1, 1)
    entries = client.get(f"/{rm.slug}/manage/entries/?category=individual")
    assert entries.context["listing"].counts["payment"]["unpaid"] == 1
    assert "Unpaid <strong>1</strong>" in entries.text
    unpaid = client.get(f"/{rm.slug}/manage/entries/?category=individual&payment=unpaid")
    assert [row.entry.name for row in unpaid.context["listing"].rows] == ["Owes"]


def test_the_admin_edits_the_instructions_under_money_and_language(admin_client, rm):
    url = admin_url(Championship, "change", rm.pk)
    page = admin_client.get(url)
    fieldsets = {str(fieldset.name): list(fieldset) for fieldset in page.context["adminform"]}
    fields = [field.field.name for line in fieldsets["Money and language"] for field in line]
    assert "payment_instructions" in fields
    assert "{reference}" in page.text  # the help text says how to use the placeholder
    data = change_form_data(page)
    data["payment_instructions"] = "Bankgiro 123-4567, märk {reference}"
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    rm.refresh_from_db()
    assert rm.payment_instructions == "Bankgiro 123-4567, märk {reference}"
