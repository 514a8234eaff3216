"""Registration details on a phone: the deadline, the required birth date, a live check that
agrees with the submit, consent per member, how to pay, and payment at the check-in desk."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from playwright.sync_api import expect

from championship.models import Championship, ChampionshipRole
from registration import references
from registration.models import Entry, Person
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.screens import shot
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user


@pytest.fixture
def sm(db):
    championship = factories.championship(
        slug=f"sm-{NEXT_YEAR}",
        ruleset="sm",
        name=f"Pussel-SM {NEXT_YEAR}",
        starts_at=datetime(NEXT_YEAR, 5, 8, 8, tzinfo=UTC),
    )
    Championship.objects.filter(pk=championship.pk).update(
        registration_deadline=datetime(NEXT_YEAR, 4, 30, 21, 59, tzinfo=UTC),
        payment_instructions="Swisha {fee} till 123 456 78 90 och märk betalningen {reference}.",
    )
    championship.categories.filter(kind="pair").update(fee=150)
    return championship


@pytest.fixture
def english(phone, live_server):
    phone.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    return phone


def test_the_championship_page_shows_each_categorys_deadline_on_a_phone(phone, live_server, sm):
    phone.goto(f"{live_server.url}/sm-{NEXT_YEAR}/")  # no language chosen: Swedish
    deadlines = phone.locator(".registration-deadline")
    expect(deadlines).to_have_count(3)
    expect(deadlines.first).to_have_text(f"30 april {NEXT_YEAR} kl. 23:59")
    shot(phone, "championship-deadlines-sv")


def test_a_12_year_old_hears_the_refusal_before_submitting(english, live_server, sm):
    page = english
    page.goto(f"{live_server.url}/sm-{NEXT_YEAR}/register/individual/")
    expect(page.locator("label[for=id_members-0-birth_date]")).to_have_text("Birth date *")
    box = page.locator("#officiality")
    page.fill("#id_members-0-name", "Lilla Lisa")
    page.fill("#id_members-0-email", "lisa@example.se")
    page.select_option("#id_members-0-citizenship", "SE")
    expect(box).to_contain_text("The entry will be official.")
    page.fill("#id_members-0-birth_date", f"{NEXT_YEAR - 12}-01-01")  # 12 on the day
    page.locator("#id_members-0-birth_date").dispatch_event("change")
    expect(box).to_contain_text("As filled in, the entry will be refused:")
    expect(box).to_contain_text("Lilla Lisa: Too young for this category (12 on the day")
    expect(box).not_to_contain_text("will be official")
    shot(page, "register-individual-refused-390")
    page.get_by_role("button", name="Register").click()
    birth_date = page.locator(".field.invalid:has(#id_members-0-birth_date)")
    expect(birth_date.locator(".errors")).to_have_text(
        "Too young for this category (12 on the day of the championship)."
    )
    # The age limit is said once, in the help text; the error says the entrant's own age.
    expect(birth_date.locator(".help")).to_have_text(
        "The minimum age in this category is 14 on the day of the championship."
    )
    expect(page.get_by_text("The minimum age in this category is 14")).to_have_count(1)
    shot(page, "register-individual-refused-submitted-390")
    assert not Entry.objects.exists()


def test_each_member_of_a_pair_consents_for_themself_and_is_told_how_to_pay(
    english, live_server, sm
):
    page = english
    page.goto(f"{live_server.url}/sm-{NEXT_YEAR}/register/pair/")
    consents = page.locator("input[type=checkbox][name$=publish_consent]")
    expect(consents).to_have_count(2)
    page.fill("#id_members-0-name", "Åsa Öberg")
    page.fill("#id_members-0-email", "asa@example.se")
    page.fill("#id_members-0-birth_date", f"{NEXT_YEAR - 39}-05-06")
    page.fill("#id_members-0-city", "Malmö")
    page.select_option("#id_members-0-citizenship", "SE")
    page.check("#id_members-0-publish_consent")
    page.fill("#id_members-1-name", "Hemliga Hanna")
    page.fill("#id_members-1-birth_date", f"{NEXT_YEAR - 37}-07-08")
    page.select_option("#id_members-1-citizenship", "SE")
    expect(page.locator("#officiality")).to_contain_text("The entry will be official.")
    shot(page, "register-pair-consent-390")
    page.get_by_role("button", name="Register").click()
    page.wait_for_url(f"{live_server.url}/sm-{NEXT_YEAR}/entries/**")
    entry = Entry.objects.get()
    # A Swedish championship's reference: an OCR number the bankgiro checks.
    ocr = entry.payment_reference
    assert ocr == references.make("ocr", entry.pk)
    how = page.locator(".payment-instructions")
    expect(how).to_contain_text(f"Swisha 150 SEK till 123 456 78 90 och märk betalningen {ocr}.")
    expect(how.locator(".payment-reference")).to_have_text(ocr)
    shot(page, "entry-how-to-pay-390")
    assert dict(Person.objects.values_list("name", "publish_consent")) == {
        "Åsa Öberg": True,
        "Hemliga Hanna": False,
    }
    page.goto(f"{live_server.url}/sm-{NEXT_YEAR}/")
    entries = page.locator(".entry-list").nth(1)
    entries.locator("summary").click()
    expect(entries.locator("li").first).to_contain_text("Åsa Öberg")
    expect(entries.locator("li").first).not_to_contain_text("Hemliga")
    expect(entries.locator("li").first).to_contain_text("Name withheld")
    shot(page, "entry-list-one-member-consents-390")


def test_the_checkin_desk_sees_who_has_not_paid(english, live_server, sm):
    page = english
    pair = sm.categories.get(kind="pair")
    for name, status in (("Ulla & Ulf", "unpaid"), ("Pia & Per", "paid"), ("Fia & Fred", "waived")):
        factories.entry(pair, name=name, fee=150, payment_status=status)
    factories.role(sm, ChampionshipRole.Role.ORGANISER, username="kari")
    path = f"/sm-{NEXT_YEAR}/manage/checkin/"
    log_in(page, live_server, "kari", f"{live_server.url}{path}", language=None)
    unpaid = page.locator(".checkin-row", has_text="Ulla & Ulf").locator(".payment-unpaid")
    expect(unpaid).to_have_text("Unpaid: 150 SEK")
    expect(page.locator(".checkin-row", has_text="Pia & Per")).to_contain_text("Paid")
    expect(page.locator(".checkin-row", has_text="Fia & Fred")).to_contain_text("Waived")
    shot(page, "checkin-payment-390")
