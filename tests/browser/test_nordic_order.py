"""Nordic alphabetical order where people read it: the country menus of the registration form
on a phone, in Swedish, and the check-in desk's list on a laptop, in Norwegian.

Screenshots (``SCREENSHOTS=/tmp/shots``): ``registration/order-1-country-menu-sv``, the menu's
last options opened out; ``registration/order-2-checkin-nb``, the desk's list.
"""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import log_in
from tests.browser.screens import shot
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_swedish_country_menu_on_a_phone_ends_with_a_a_and_o(phone, live_server):
    factories.championship(
        slug=f"sm-{NEXT_YEAR}", ruleset="sm", starts_at=datetime(NEXT_YEAR, 5, 8, 8, tzinfo=UTC)
    )
    # No language chosen: the Swedish championship's form is in Swedish.
    phone.goto(f"{live_server.url}/sm-{NEXT_YEAR}/register/individual/")
    menu = phone.locator("#id_members-0-citizenship")
    expect(menu).to_be_visible()
    labels = menu.locator("option").all_text_contents()
    assert labels[0] == "—"
    countries = labels[1:]
    assert countries[:3] == ["Afghanistan", "Albanien", "Algeriet"]
    assert countries[-5:] == ["Zambia", "Zimbabwe", "Åland", "Österrike", "Östtimor"]
    # Where the code points had put them: Österrike between Oman and Pakistan, Västsahara
    # between Vanuatu and Venezuela.
    assert countries.index("Oman") + 1 == countries.index("Pakistan")
    assert countries.index("Vietnam") < countries.index("Västsahara") < countries.index("Zambia")
    assert labels == phone.locator("#id_members-0-country option").all_text_contents()
    phone.select_option("#id_members-0-citizenship", label="Österrike")
    assert menu.input_value() == "AT"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # A phone draws the open menu itself; opened out as a list, the end of it shows.
    menu.evaluate("(select) => { select.size = 8; select.scrollTop = select.scrollHeight; }")
    shot(phone, "order-1-country-menu-sv")


def test_the_checkin_desk_lists_names_in_norwegian_order_on_a_laptop(laptop, live_server):
    championship = factories.championship(
        slug="rm-desk", name="RM ved døra", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    individual = championship.categories.get(kind="individual")
    individual.capacity = None
    individual.save(update_fields=["capacity"])
    for name in ["Åse Ås", "Ærlig Hansen", "Øystein Berg", "Ola Nordmann", "Zakarias Lie"]:
        factories.entry(individual, name=name)
    factories.entry(individual, name="Anna Andersen")
    factories.role(championship, "organiser", username="desk")
    # The organiser reads the pages in Norwegian (the laptop's are English otherwise).
    laptop.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "nb", "url": live_server.url}]
    )
    checkin = f"{live_server.url}/{championship.slug}/manage/checkin/"
    log_in(laptop, live_server, "desk", checkin, language=None)
    names = laptop.locator("#checkin-results .entry-name")
    expect(names).to_have_text(
        ["Anna Andersen", "Ola Nordmann", "Zakarias Lie", "Ærlig Hansen", "Øystein Berg", "Åse Ås"]
    )
    shot(laptop, "order-2-checkin-nb")
    # A search keeps the order: the Ø and the Å of "ås" and "berg" both after Z.
    laptop.locator("#checkin-q").fill("s")
    expect(names.first).to_have_text("Anna Andersen")
    found = names.all_text_contents()
    assert found.index("Ærlig Hansen") < found.index("Åse Ås")
