"""The pages in a real browser: the language switcher, the organiser's login, a phone."""

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(capsys):
    call_command("demo")
    output = capsys.readouterr().out
    return {
        line.split("'")[1]: line.rsplit(" ", 1)[1]
        for line in output.splitlines()
        if "password:" in line
    }


def test_the_language_switcher_changes_the_language(page, live_server, demo):
    page.goto(f"{live_server.url}/demo/")
    assert page.locator("html").get_attribute("lang") == "nb"  # the championship's language
    # Choosing a language switches at once (the button is for pages without JavaScript).
    with page.expect_navigation():
        page.select_option("#language-select", "sv")
    page.wait_for_url(f"{live_server.url}/demo/")
    assert page.locator("html").get_attribute("lang") == "sv"
    assert page.locator("#categories-heading").inner_text() == "Kategorier"


def test_an_organiser_logs_in_and_reaches_the_control_room(page, live_server, demo):
    page.goto(f"{live_server.url}/demo/manage/")
    assert "/accounts/login/" in page.url
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", demo["organiser"])
    page.locator("form button[type=submit].primary").click()
    page.wait_for_url(f"{live_server.url}/demo/manage/")
    assert page.locator("h1").inner_text() in {"Control room", "Kontrollrom"}


def test_the_championship_page_fits_a_phone(phone, live_server, demo):
    phone.goto(f"{live_server.url}/demo/")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    assert phone.locator("h1").is_visible()
