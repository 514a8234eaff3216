"""A visitor asks for an organiser account on a phone; an administrator approves it on a laptop;
the mailed link signs the new organiser in, and they reach "New championship".

With SCREENSHOTS set, the form (phone) and the page of requests (laptop) are written under
``$SCREENSHOTS/organisers/``.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import expect

from championship.models import Championship
from control import organiser_requests
from control.models import OrganiserRequest
from tests.browser.conftest import LAPTOP, PASSWORD, english, log_in
from tests.browser.screens import shot
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AREA = "organisers"


@pytest.mark.long
def test_a_visitor_asks_an_administrator_approves_and_the_mailed_link_signs_them_in(
    phone, live_server
):
    page = phone
    get_user_model().objects.create_superuser("root", "boss@example.org", PASSWORD)

    # A visitor, on a phone: the home page leads to the form.
    english(page, live_server)
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Ask for an organiser account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ask for an organiser account")
    page.get_by_label("Your name").fill("Kari Nordmann")
    page.get_by_label("E-mail").fill("kari@example.org")
    page.get_by_label("Club or association (optional)").fill("Stavanger puslelag")
    page.get_by_label("The championship you plan").fill(
        "Rogalandsmesterskapet in March at Stavanger library, about 60 puzzlers, rogaland rules."
    )
    # The honeypot is out of sight and out of reach of the keyboard.
    trap = page.locator("input[name=website]")
    expect(trap).not_to_be_in_viewport()
    expect(trap).to_have_attribute("tabindex", "-1")
    shot(page, "request-phone", area=AREA)
    page.get_by_role("button", name="Send the request").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Thank you: your request is sent")
    shot(page, "request-sent-phone", area=AREA)
    assert OrganiserRequest.objects.get().status == "pending"
    (notice,) = mail.outbox
    assert notice.to == ["boss@example.org"] and "/organisers/requests/" in notice.body

    # Another request, through the API's service, waits too.
    organiser_requests.organiser_request_create(
        name="Per Hansen", email="per@example.org", message="A championship.", language="da"
    )

    # The administrator, on a laptop, approves the first and refuses the other.
    page.context.clear_cookies()
    page.set_viewport_size(LAPTOP)
    log_in(page, live_server, "root")
    page.goto(f"{live_server.url}/organisers/requests/")
    card = page.locator(".organiser-request-card", has_text="Kari Nordmann")
    expect(card).to_contain_text("Stavanger puslelag")
    expect(card).to_contain_text("about 60 puzzlers")
    other = page.locator(".organiser-request-card", has_text="Per Hansen")
    other.get_by_text("Refuse…").click()
    other.get_by_label("Reason (optional, sent to the person)").fill("We host Rogaland only.")
    shot(page, "requests-laptop", area=AREA)
    card.get_by_role("button", name="Approve Kari Nordmann").click()
    expect(page.locator(".messages")).to_contain_text(
        "Approved: Kari Nordmann may now create championships, and is told at kari@example.org."
    )
    other.get_by_text("Refuse…").click()
    other.get_by_label("Reason (optional, sent to the person)").fill("We host Rogaland only.")
    other.get_by_role("button", name="Refuse Per Hansen").click()
    expect(page.locator(".messages")).to_contain_text("Refused: Per Hansen is told")
    decided = page.locator("table.organiser-decided")
    expect(decided).to_contain_text("Approved")
    expect(decided).to_contain_text("We host Rogaland only.")
    shot(page, "requests-decided-laptop", area=AREA)
    (refusal,) = [m for m in mail.outbox if m.to == ["per@example.org"]]
    assert refusal.body.startswith("Hej Per Hansen")  # Danish, the request's language

    # The mail holds the link; opened in the organiser's own browser it asks, then signs in.
    (approval,) = [m for m in mail.outbox if m.to == ["kari@example.org"]]
    link = re.search(r"http\S+/organisers/sign-in/\S+/", approval.body).group(0)
    assert link.startswith(live_server.url)
    page.context.clear_cookies()
    english(page, live_server)
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in as Kari Nordmann?")
    shot(page, "sign-in-asks-laptop", area=AREA)
    page.get_by_role("button", name="Sign in as Kari Nordmann").click()
    page.wait_for_url(f"{live_server.url}/new/")
    expect(page.get_by_role("heading", level=1)).to_have_text("New championship")
    expect(page.get_by_role("button", name="Log out (Kari Nordmann)")).to_be_visible()
    shot(page, "new-championship-laptop", area=AREA)

    # Her championship starts as a draft; the checklist says what registration still needs.
    page.get_by_label("Rogalandsmesterskapet (rogaland)").check()
    expect(page.locator("#setup-team")).to_be_visible()
    page.fill("#id_name", "Rogalandsmesterskapet 2027")
    page.fill("input[name=slug]", "rm-2027")
    page.fill("input[name=starts_at]", f"{NEXT_YEAR}-03-14T10:00")
    page.get_by_role("button", name="Create the championship").click()
    checklist = page.locator(".draft-checklist")
    expect(checklist.locator("[data-item=payment_instructions]")).to_have_class(
        re.compile("missing")
    )
    page.get_by_role("button", name="Open registration").click()
    expect(page.locator(".message.error")).to_contain_text(
        "Registration cannot open yet: Payment instructions."
    )
    shot(page, "draft-checklist-laptop", area=AREA)
    assert Championship.objects.get(slug="rm-2027").draft
    page.get_by_role("link", name="Edit championship").click()
    page.get_by_label("Payment instructions").fill("Vipps {fee} to 123 45, marked {reference}.")
    page.locator("section", has=page.locator("#edit-championship-heading")).get_by_role(
        "button", name="Save", exact=True
    ).click()
    page.goto(f"{live_server.url}/rm-2027/manage/")
    expect(checklist.locator("[data-item=payment_instructions]")).to_have_class(re.compile("done"))
    page.get_by_role("button", name="Open registration").click()
    expect(page.locator(".message.success")).to_contain_text("Registration is open")
    assert not Championship.objects.get(slug="rm-2027").draft
    page.goto(f"{live_server.url}/rm-2027/register/individual/")
    expect(page.get_by_role("button", name="Register")).to_be_visible()

    # The link worked once.
    page.context.clear_cookies()
    english(page, live_server)
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("This sign-in link does not work")
    expect(page.locator("main")).to_contain_text("It has been used already")
    # The log-in page sends a new link to an account without a password.
    page.goto(f"{live_server.url}/accounts/login/")
    shot(page, "login-laptop", area=AREA)
    page.get_by_label("Your e-mail address").fill("kari@example.org")
    page.get_by_role("button", name="Send me a sign-in link").click()
    expect(page.locator("main")).to_contain_text("a sign-in link is on its way to it")
    shot(page, "link-sent-laptop", area=AREA)
    assert len([m for m in mail.outbox if m.to == ["kari@example.org"]]) == 2
