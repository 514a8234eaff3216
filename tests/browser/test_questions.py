"""The organiser's own questions in a browser: set up on a laptop, answered on a phone."""

import pytest
from playwright.sync_api import expect

from championship.models import ChampionshipRole
from registration.models import Entry, Question
from tests import factories
from tests.browser.conftest import log_in
from tests.browser.test_judging import english
from tests.browser.test_judging import shot as judging_shot
from tests.browser.test_registration import fill_member, sm  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}


def test_questions_set_up_then_answered_on_a_phone(chromium, live_server, sm):  # noqa: F811
    factories.role(sm, ChampionshipRole.Role.ORGANISER, username="orga")
    chromium.clear_cookies()
    laptop = chromium.new_page()
    laptop.set_viewport_size(LAPTOP)
    english(laptop, live_server)
    questions = f"/{sm.slug}/manage/questions/"
    log_in(laptop, live_server, "orga", f"{live_server.url}{questions}", language=None)
    laptop.fill("#id_new-text", "T-shirt size")
    laptop.select_option("#id_new-kind", "choice")
    laptop.fill("#id_new-choices_text", "S\nM\nL")
    laptop.check("#id_new-required")
    laptop.get_by_role("button", name="Add the question").click()
    expect(laptop.locator("main")).to_contain_text("The question is added.")
    laptop.fill("#id_new-text", "First championship?")
    laptop.select_option("#id_new-kind", "yes_no")
    laptop.get_by_role("button", name="Add the question").click()
    expect(laptop.locator("details.question")).to_have_count(2)
    judging_shot(laptop, "questions-1-organiser")

    phone = chromium.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    english(phone, live_server)
    phone.goto(f"{live_server.url}/{sm.slug}/register/individual/")
    fill_member(
        phone,
        0,
        name="Kari Svensson",
        email="kari@example.org",
        birth="1990-01-01",
        citizenship="SE",
    )
    phone.get_by_role("button", name="Register").click()
    # The required question is not answered: the form says so and keeps what was typed.
    expect(phone.locator(".field.invalid")).to_contain_text("T-shirt size")
    phone.get_by_label("M", exact=True).check()
    phone.get_by_label("Yes", exact=True).check()
    judging_shot(phone, "questions-2-phone-form")
    phone.get_by_role("button", name="Register").click()
    expect(phone.locator("main")).to_contain_text("Your entry is confirmed.")
    phone.wait_for_load_state("load")  # measured with the styles applied, not before
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shirt = Question.objects.get(text="T-shirt size")
    first = Question.objects.get(text="First championship?")
    entry = Entry.objects.get()
    assert entry.answers == {shirt.ref: "M", first.ref: True}
