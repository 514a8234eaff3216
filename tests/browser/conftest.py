"""Headless Chromium for the browser tests, driven by Playwright's sync API.

The browser is Debian's Chromium (never a downloaded build). Without it the tests
skip on a developer's machine and fail in CI.
"""

import os
import shutil
import tempfile

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from tests.browser.judge_modules import FAKES, ORIGIN, STATIC, serve_from
from tests.conftest import IN_CI, clock_shift

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Every page the tests open asks for less motion, as a phone set so does: the pages' endless
# animations (the live mark's ring, the projector's clock bar) would have Chromium draw them
# 60 times a second for as long as the page is open, most of the browser's work in a run
# (test_the_live_mark_is_a_calm_green shows the ring to those who did not ask).
CONTEXT = {"reduced_motion": "reduce"}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
# What tests.factories.user gives every user; an account a test sets up takes it too.
PASSWORD = "a-long-password-1"
# Under TEST_CLOCK_AT (tests/conftest.py) the pages' Date reads the moved clock too, as
# on a phone whose clock agrees with the server's; timers and performance.now() run on.
MOVED_DATE = """(() => {
  const shift = %d;
  const RealDate = Date;
  function MovedDate(...args) {
    if (!new.target) return new MovedDate().toString();
    return args.length ? new RealDate(...args) : new RealDate(RealDate.now() + shift);
  }
  MovedDate.prototype = RealDate.prototype;
  MovedDate.now = () => RealDate.now() + shift;
  MovedDate.parse = RealDate.parse;
  MovedDate.UTC = RealDate.UTC;
  globalThis.Date = MovedDate;
})();"""


@pytest.fixture(scope="session")
def playwright():
    """Playwright's sync API, once per session (it cannot be started twice in a thread)."""
    if not os.path.exists(CHROMIUM):
        message = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)."
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def chromium(playwright):
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=FLAGS, **CONTEXT
        )
        shift_ms = round(clock_shift().total_seconds() * 1000)
        if shift_ms:
            context.add_init_script(MOVED_DATE % shift_ms)
        yield context
        context.close()


@pytest.fixture(autouse=True)
def _pages_of_one_test(request):
    """Each test starts with no cookies and leaves no page behind.

    The browser is shared by the tests of a worker. A page a test opened and left open
    keeps polling; its next request, made without the cookies the next test cleared,
    would be handed a new CSRF cookie and make the next test's forms fail.
    """
    if "chromium" not in request.fixturenames:
        yield
        return
    chromium = request.getfixturevalue("chromium")
    kept = set(chromium.pages)  # the browser's first page, a module's page
    chromium.clear_cookies()
    yield
    for opened in chromium.pages:
        if opened not in kept:
            opened.close()


@pytest.fixture
def page(chromium, live_server):
    """A fresh page at desktop size."""
    page = chromium.new_page()
    page.set_default_timeout(10_000)
    yield page
    page.close()


@pytest.fixture(scope="session")
def second_browser(playwright):
    """A second browser of the worker, whose pages each take a context of their own.

    A context ends with its test, and with it what the test set on it (a faked clock, a
    camera's permission, cookies): one browser started once serves every such test.
    """
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
    yield browser
    browser.close()


@pytest.fixture
def clock_page(second_browser, live_server):
    """A fresh page in a context of its own, for a test that fakes the page's clock.

    Playwright's clock belongs to the browser context: installed on a page of the
    shared context, it would stay for every later test of the worker (their pages an
    hour behind, taps refused as before the start).
    """
    context = second_browser.new_context(**CONTEXT)
    shift_ms = round(clock_shift().total_seconds() * 1000)
    if shift_ms:
        context.add_init_script(MOVED_DATE % shift_ms)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def phone(page):
    page.set_viewport_size(PHONE)
    return page


def english(page, live_server):
    """Read the live server's pages in English (the language cookie), whatever the event's."""
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )


@pytest.fixture
def laptop(page, live_server):
    """A fresh page at a laptop's size (1366x768), in English: an organiser's screen."""
    page.set_viewport_size(LAPTOP)
    english(page, live_server)
    return page


def sign_in(page, live_server, user, *, language="en") -> None:
    """Give the page's browser ``user``'s session (a user or a username).

    The session is the one the login form would give, without the form's two page
    loads: a test starts signed in unless signing in is what it is about (the login
    form in test_pages and test_the_day, a badge in test_staff_links). ``language``:
    the language chosen (the cookie), or ``None`` to leave the choice as it is.
    """
    if isinstance(user, str):
        user = get_user_model().objects.get(username=user)
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    cookies = [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    if language:
        cookies.append(
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}
        )
    page.context.add_cookies(cookies)


def log_in(page, live_server, user, path="/", *, language="en"):
    """Open ``path`` (or a whole URL of the live server) signed in as ``user`` (sign_in)."""
    sign_in(page, live_server, user, language=language)
    page.goto(path if path.startswith("http") else f"{live_server.url}{path}")


def forget_the_phone(page, live_server):
    """Start from an empty queue: the tests of a worker share the browser's profile.

    The page leaves the site first, so that nothing it still writes outlives the clearing.
    """
    page.goto("about:blank")
    session = page.context.new_cdp_session(page)
    try:
        session.send(
            "Storage.clearDataForOrigin",
            {"origin": live_server.url, "storageTypes": "local_storage"},
        )
    finally:
        session.detach()


@pytest.fixture(scope="module")
def modules_page(chromium):
    """A page of the made-up origin with the judge's modules and their fakes (judge_modules.py)."""
    page = chromium.new_page()
    page.route(f"{ORIGIN}/**", serve_from(STATIC))
    page.goto(f"{ORIGIN}/")
    page.add_script_tag(content=FAKES)
    yield page
    page.close()
