"""LAN mode, honestly: on plain http a browser gives no service worker and no camera.

``make run HOST=0.0.0.0`` serves phones at this machine's address on the local network
(``http://192.168.1.23:8000/``). A browser treats ``http://localhost`` and
``http://127.0.0.1`` as secure, but not such an address: there the judge's page cannot
be reloaded without network (no service worker) and the check-in desk gets no camera.
The pages say so, in the page's language, and what still works keeps working: the
judge's taps are queued on the phone, the desk searches by name.

The application is served here as in LAN mode, on every address of this machine, and
the browser opens it at this machine's address on the network: a genuinely insecure
context, nothing in the page overridden.
"""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from championship.models import ChampionshipRole, Seat
from control import rounds
from core.lan import lan_address
from judging.models import Capture
from tests import factories
from tests.browser.conftest import CHROMIUM, CONTEXT, FLAGS, PHONE, log_in
from tests.browser.screens import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AREA = "lan"
OFFLINE_RELOAD = (
    "Offline reload needs https: do not reload this page while the network is down. "
    "Your taps are still kept on this phone and sent when the network returns."
)
NO_CAMERA = (
    "The camera needs https, and this page is plain http: search by name or e-mail above instead."
)
PERMISSION = "The camera could not be opened. Allow it in the browser, or search by name."
QUEUED = "waiting for network — kept on this phone"


def translated(message: str, language: str) -> str:
    with translation.override(language):
        return gettext(message)


@pytest.fixture(scope="module")
def lan_server(django_db_setup, django_db_blocker):
    """The application on every address of this machine, reached at its address on the network."""
    address = lan_address()
    assert address, "this machine has no address on a network: LAN mode cannot be tried"
    server = LiveServer("0.0.0.0")
    yield SimpleNamespace(url=f"http://{address}:{server.thread.port}", address=address)
    server.stop()


@pytest.fixture
def lan(lan_server, settings):
    """LAN mode's settings (``DEBUG=true``): this machine's address allowed, cookies over http."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, lan_server.address]
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.LANGUAGE_COOKIE_SECURE = False
    return lan_server


@pytest.fixture
def heat(db):
    """A rogaland heat (its language Norwegian) running for five minutes, one entry at table 1."""
    championship = factories.championship(slug="rm-lan", name="RM on the venue's network")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    table = factories.table(championship)
    entry = factories.entry(individual, name="Ingrid Hansen")
    started = factories.heat(round_)
    Seat.objects.create(heat=started, table=table, entry=entry)
    started = rounds.heat_start(heat=started)
    started.started_at = timezone.now() - timedelta(minutes=5)
    started.save()
    factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    factories.role(championship, ChampionshipRole.Role.ORGANISER, username="desk")
    return SimpleNamespace(championship=championship, table=table, entry=entry)


@pytest.fixture
def lan_phone(chromium):
    """A phone (390x844) of the shared browser."""
    page = chromium.new_page()
    page.set_viewport_size(PHONE)
    page.set_default_timeout(10_000)
    yield page
    page.close()


def speak(page, server, language):
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": server.url}]
    )


def test_on_plain_http_the_judges_page_says_offline_reload_needs_https_and_keeps_the_taps(
    lan_phone, lan, heat
):
    phone = lan_phone
    speak(phone, lan, "en")
    log_in(phone, lan, "judy", heat.table.get_absolute_url(), language=None)
    assert phone.evaluate("window.isSecureContext") is False
    assert phone.evaluate("'serviceWorker' in navigator") is False
    note = phone.locator("[data-insecure-note]")
    expect(note).to_be_visible()
    expect(note).to_have_text(OFFLINE_RELOAD)
    expect(phone.locator("[data-clock-state]")).to_contain_text("±")  # the page runs
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "judge-http-en", area=AREA)

    # What the notice promises: a tap with the network down waits on the phone, and is
    # sent when the network returns, service worker or not.
    state = phone.locator("[data-save-state]")
    try:
        phone.context.set_offline(True)
        phone.get_by_role("button", name="TIME", exact=True).click()
        expect(state).to_have_text(QUEUED)
        expect(phone.locator("[data-queue-state]")).to_contain_text("1 capture waiting")
        assert not Capture.objects.exists()
    finally:
        phone.context.set_offline(False)
    expect(state).to_have_text("saved", timeout=20_000)
    assert Capture.objects.get().kind == "finish"
    expect(note).to_be_visible()


def test_on_plain_http_the_judges_page_says_it_in_the_championships_language(lan_phone, lan, heat):
    phone = lan_phone
    log_in(phone, lan, "judy", heat.table.get_absolute_url(), language=None)
    expect(phone.locator("html")).to_have_attribute("lang", "nb")
    expect(phone.locator("[data-step-panel=puzzling] .time-button")).to_have_text(
        translated("TIME", "nb")
    )
    note = phone.locator("[data-insecure-note]")
    expect(note).to_be_visible()
    expect(note).to_have_text(translated(OFFLINE_RELOAD, "nb"))
    shot(phone, "judge-http-nb", area=AREA)


def test_on_https_or_localhost_the_judges_page_shows_no_such_notice(phone, live_server, heat):
    speak(phone, live_server, "en")
    log_in(phone, live_server, "judy", heat.table.get_absolute_url(), language=None)
    assert phone.evaluate("window.isSecureContext") is True
    expect(phone.locator("[data-clock-state]")).to_contain_text("±")  # the page runs
    expect(phone.locator("[data-insecure-note]")).to_be_hidden()
    expect(phone.get_by_text("needs https")).to_be_hidden()


def test_on_plain_http_the_scanner_says_the_camera_needs_https_and_the_search_works(
    lan_phone, lan, heat
):
    phone = lan_phone
    speak(phone, lan, "en")
    checkin = f"/{heat.championship.slug}/manage/checkin/"
    log_in(phone, lan, "desk", checkin, language=None)
    assert phone.evaluate("navigator.mediaDevices === undefined") is True
    status = phone.locator("[data-scan-status]")
    expect(status).to_have_text(NO_CAMERA)
    # Nothing to press that cannot work, and no word of a permission.
    expect(phone.get_by_role("button", name="Scan a check-in code")).to_be_hidden()
    expect(phone.get_by_text("Allow it in the browser")).to_have_count(0)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "checkin-http-en", area=AREA)

    # The search it points at finds the entry, to check in with one tap.
    phone.locator("#checkin-q").fill("ingrid")
    results = phone.locator("#checkin-results")
    expect(results).to_contain_text("1 entry found for “ingrid”.")
    results.get_by_role("button", name="Check in").click()
    expect(results.locator(".checkin-row")).to_contain_text("Checked in at")
    heat.entry.refresh_from_db()
    assert heat.entry.checked_in_at is not None


def test_on_plain_http_the_scanner_says_it_in_the_users_language(lan_phone, lan, heat):
    phone = lan_phone
    speak(phone, lan, "sv")
    log_in(phone, lan, "desk", f"/{heat.championship.slug}/manage/checkin/", language=None)
    expect(phone.locator("html")).to_have_attribute("lang", "sv")
    expect(phone.locator("h1")).to_have_text(translated("Check-in", "sv"))
    expect(phone.locator("[data-scan-status]")).to_have_text(translated(NO_CAMERA, "sv"))
    expect(phone.locator("[data-scan-start]")).to_be_hidden()
    shot(phone, "checkin-http-sv", area=AREA)


def test_on_localhost_a_refused_camera_is_still_called_a_permission(playwright, live_server, heat):
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[*FLAGS, "--use-fake-device-for-media-stream", "--deny-permission-prompts"],
    )
    try:
        desk = browser.new_context(viewport=PHONE, **CONTEXT)  # the camera's permission not given
        page = desk.new_page()
        page.set_default_timeout(10_000)
        speak(page, live_server, "en")
        log_in(
            page, live_server, "desk", f"/{heat.championship.slug}/manage/checkin/", language=None
        )
        assert page.evaluate("window.isSecureContext") is True
        refusal = "navigator.mediaDevices.getUserMedia({video: true}).then(() => '', (e) => e.name)"
        assert page.evaluate(refusal) == "NotAllowedError"
        status = page.locator("[data-scan-status]")
        expect(status).to_have_text("")
        page.get_by_role("button", name="Scan a check-in code").click()
        expect(status).to_have_text(PERMISSION)
        expect(page.get_by_text("needs https")).to_have_count(0)
    finally:
        browser.close()
