"""The login page tells a judge who scanned a table's card before their badge: scan the badge."""

from urllib.parse import quote

import pytest
from django.conf import settings
from django.urls import reverse

from championship.services import tables_create
from tests import factories

pytestmark = pytest.mark.django_db

HINT = {
    "nb": "Skann navneskiltet ditt først",
    "sv": "Skanna din namnskylt först",
    "da": "Scan dit navneskilt først",
    "en": "Scan your badge first",
}
ASK = {
    "nb": "Spør overdommeren.",
    "sv": "Fråga huvuddomaren.",
    "da": "Spørg overdommeren.",
    "en": "Ask the head judge.",
}


def table_of(ruleset: str, name: str):
    championship = factories.championship(ruleset=ruleset, name=name)
    tables_create(championship=championship, count=3)
    return championship.tables.get(number=2)


@pytest.mark.parametrize(("ruleset", "language"), [("rogaland", "nb"), ("sm", "sv"), ("dm", "da")])
def test_a_table_scanned_without_a_session_leads_to_a_badge_hint_in_the_championships_language(
    client, ruleset, language
):
    table = table_of(ruleset, "Mesterskapet 2099")
    scanned = client.get(table.get_absolute_url())
    assert scanned.status_code == 302
    page = client.get(scanned["Location"])
    assert page.status_code == 200
    text = page.content.decode()
    assert f'<html lang="{language}">' in text
    assert HINT[language] in text and ASK[language] in text
    # The table and its championship, above the form that stays for organisers.
    assert "Bord 2 · Mesterskapet 2099" in text
    assert text.index(HINT[language]) < text.index('name="password"')


def test_the_language_a_visitor_chose_wins_over_the_championships(client):
    table = table_of("sm", "Pussel-SM 2099")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(f"{reverse('login')}?next={table.get_absolute_url()}")
    assert HINT["en"] in page.text and "Table 2 · Pussel-SM 2099" in page.text


def test_a_failed_password_keeps_the_hint(client):
    table = table_of("dm", "DM 2099")
    page = client.post(
        reverse("login"),
        {"username": "nobody", "password": "wrong", "next": table.get_absolute_url()},
    )
    assert page.status_code == 200
    assert HINT["da"] in page.text and "DM 2099" in page.text


def test_an_unknown_or_replaced_table_token_gets_the_hint_alone(client):
    table = table_of("sm", "Pussel-SM 2099")
    old = table.get_absolute_url()
    table.token = "replaced-" + table.token[:20]
    table.save()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for next_url in (old, "/t/not-a-token/", "/t/%00/", quote("/t/a\x00b/"), f"/t/{'x' * 300}/"):
        page = client.get(f"{reverse('login')}?next={next_url}")
        assert page.status_code == 200, next_url[:50]
        assert HINT["en"] in page.text, next_url[:50]
        assert "Pussel-SM 2099" not in page.text, next_url[:50]
    # Longer than Django accepts as a redirect at all: the plain login.
    page = client.get(f"{reverse('login')}?next=/t/{'x' * 10_000}/")
    assert page.status_code == 200 and "<h1>Log in</h1>" in page.text


def test_other_next_addresses_get_the_plain_login(client):
    table = table_of("rogaland", "RM 2099")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for next_url in (
        "/",
        f"/{table.championship.slug}/manage/",
        f"/t/{table.token}/state/",
        # Another host: Django drops it, and with it the table.
        quote(f"https://elsewhere.example{table.get_absolute_url()}", safe=""),
        "x" * 10_000,
        "",
    ):
        page = client.get(f"{reverse('login')}?next={next_url}")
        assert page.status_code == 200, next_url[:50]
        assert "<h1>Log in</h1>" in page.text, next_url[:50]
        assert HINT["en"] not in page.text and "RM 2099" not in page.text, next_url[:50]
