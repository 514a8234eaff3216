"""Public POSTs are counted per client: past a limit, 429 with Retry-After, and nothing changes."""

import logging
import types
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.test import Client, override_settings

from championship import staff_links
from championship.models import ChampionshipRole, OutgoingMail
from config import env
from registration.models import Entry
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"
VENUE = "203.0.113.5"
ELSEWHERE = "198.51.100.7"
NOW = 1_900_000_000.0
LIMITS = {
    "registration": ["3/m", "5/h"],
    "registration-check": ["4/m"],
    "password-reset": ["2/h"],
    "entry-manage": ["3/m"],
    "sign-in": ["2/m"],
}
throttled = override_settings(THROTTLE_ENABLED=True, THROTTLE_RATES=LIMITS)


class Clock:
    """The clock the counters read, fixed so that no window ends in the middle of a test."""

    def __init__(self):
        self.now = NOW

    def time(self):
        return self.now


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    fixed = Clock()
    monkeypatch.setattr("django_ratelimit.core.time", types.SimpleNamespace(time=fixed.time))
    return fixed


def browser(address=VENUE, forwarded=None):
    """A browser in English at ``address``, or behind the proxy with ``forwarded``."""
    extra = {"REMOTE_ADDR": address}
    if forwarded is not None:
        extra = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": forwarded}
    client = Client(**extra)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def future(db):
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


def registration(number):
    prefix = "members-0-"
    return {
        "members-TOTAL_FORMS": "1",
        "members-INITIAL_FORMS": "0",
        f"{prefix}name": f"Puzzler {number}",
        f"{prefix}email": f"puzzler{number}@example.org",
        f"{prefix}birth_date": "1990-05-01",
        f"{prefix}city": "Stavanger",
        f"{prefix}country": "NO",
        f"{prefix}citizenship": "NO",
        f"{prefix}region": "Rogaland",
    }


def register(client, championship, number):
    return client.post(f"/{championship.slug}/register/individual/", registration(number))


def register_by_api(client, championship, number):
    member = {
        "name": f"Api Puzzler {number}",
        "email": f"api{number}@example.org",
        "birth_date": "1990-01-01",
        "region": "Rogaland",
    }
    return client.post(
        f"/api/v1/championships/{championship.slug}/categories/individual/entries/",
        {"members": [member]},
        content_type="application/json",
    )


# Registration -------------------------------------------------------------------------------------


@throttled
def test_the_registration_past_the_limit_is_429_and_registers_nothing(future):
    venue = browser()
    for number in range(3):
        assert register(venue, future, number).status_code == 302
    response = register(venue, future, 3)
    assert response.status_code == 429
    assert Entry.objects.count() == 3
    assert "Too many requests" in response.text
    assert "Nothing was saved: try again in" in response.text
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert response["Content-Type"].startswith("text/html")


@throttled
def test_another_client_still_registers_while_one_is_throttled(future):
    venue = browser()
    for number in range(4):
        register(venue, future, number)
    assert register(browser(ELSEWHERE), future, 10).status_code == 302
    assert Entry.objects.count() == 4


@throttled
def test_the_client_registers_again_once_the_window_has_passed(future, clock):
    venue = browser()
    for number in range(4):
        register(venue, future, number)
    wait = int(register(venue, future, 4).headers["Retry-After"])
    clock.now += wait - 1
    assert register(venue, future, 5).status_code == 429
    clock.now += 1
    assert register(venue, future, 6).status_code == 302


@throttled
def test_the_hourly_limit_holds_across_minutes(future, clock):
    venue = browser()
    for number in range(5):
        assert register(venue, future, number).status_code == 302
        clock.now += 61
    response = register(venue, future, 5)
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) > 60
    assert "minutes" in response.text
    assert Entry.objects.count() == 5


@throttled
def test_reading_the_registration_page_is_never_counted(future):
    venue = browser()
    for _ in range(10):
        assert venue.get(f"/{future.slug}/register/individual/").status_code == 200
    assert register(venue, future, 0).status_code == 302


def test_without_the_throttle_a_client_registers_as_often_as_it_likes(future):
    venue = browser()
    for number in range(6):
        assert register(venue, future, number).status_code == 302


@throttled
def test_the_live_check_has_a_limit_of_its_own(future):
    venue = browser()
    check = f"/{future.slug}/register/individual/check/"
    answers = [venue.post(check, registration(0), HTTP_HX_REQUEST="true") for _ in range(5)]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 200, 429]
    assert register(venue, future, 0).status_code == 302


# Behind the proxy ---------------------------------------------------------------------------------


@throttled
@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_the_proxy_each_forwarded_client_is_counted_apart(future):
    venue = browser(forwarded=VENUE)
    for number in range(3):
        assert register(venue, future, number).status_code == 302
    assert register(venue, future, 3).status_code == 429
    assert register(browser(forwarded=ELSEWHERE), future, 4).status_code == 302
    assert Entry.objects.count() == 4


@throttled
@override_settings(TRUSTED_PROXY_COUNT=1)
def test_a_forged_forwarded_prefix_does_not_make_a_new_client(future):
    for number in range(3):
        forged = browser(forwarded=f"192.0.2.{number}, {VENUE}")
        assert register(forged, future, number).status_code == 302
    forged = browser(forwarded=f"192.0.2.99, {VENUE}")
    assert register(forged, future, 3).status_code == 429
    assert Entry.objects.count() == 3


@throttled
def test_without_a_trusted_proxy_everyone_behind_it_is_one_client(future):
    for number in range(3):
        assert register(browser(forwarded=f"192.0.2.{number}"), future, number).status_code == 302
    assert register(browser(forwarded="192.0.2.99"), future, 3).status_code == 429


@throttled
def test_an_ipv6_client_is_counted_by_its_network(future):
    for number in range(3):
        client = browser(f"2001:db8:1:2::{number + 1}")
        assert register(client, future, number).status_code == 302
    assert register(browser("2001:db8:1:2::ff"), future, 3).status_code == 429
    assert register(browser("2001:db8:1:3::1"), future, 4).status_code == 302


# The API ------------------------------------------------------------------------------------------


@throttled
def test_the_registration_api_past_the_limit_is_a_json_429(future):
    venue = browser()
    for number in range(3):
        assert register_by_api(venue, future, number).status_code == 201
    response = register_by_api(venue, future, 3)
    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    assert response.json()["detail"].startswith("Too many requests from your address")
    assert int(response.headers["Retry-After"]) >= 1
    assert Entry.objects.count() == 3


@throttled
def test_the_form_and_the_api_count_against_one_limit(future):
    venue = browser()
    for number in range(2):
        assert register(venue, future, number).status_code == 302
    assert register_by_api(venue, future, 2).status_code == 201
    assert register_by_api(venue, future, 3).status_code == 429


@throttled
def test_reading_the_api_is_never_counted(future):
    venue = browser()
    for _ in range(10):
        assert venue.get(f"/api/v1/championships/{future.slug}/").status_code == 200


# Password reset, the manage link, sign-in links ---------------------------------------------------


@throttled
def test_password_reset_is_limited_per_client(mailoutbox, django_capture_on_commit_callbacks):
    factories.user(username="kari", email="kari@example.org")
    venue = browser()
    with django_capture_on_commit_callbacks(execute=True):
        answers = [
            venue.post("/accounts/password_reset/", {"email": "kari@example.org"}) for _ in range(3)
        ]
    assert [answer.status_code for answer in answers] == [302, 302, 429]
    assert OutgoingMail.objects.filter(kind=OutgoingMail.Kind.PASSWORD_RESET).count() == 2


@throttled
def test_the_manage_links_actions_are_limited_and_change_nothing_past_the_limit(future):
    entry = factories.entry(future.categories.get(kind="individual"), status="confirmed")
    venue = browser()
    manage = f"/{future.slug}/entries/{entry.manage_token}/"
    for _ in range(3):
        assert venue.post(f"{manage}withdraw/", {}).status_code == 302
    response = venue.post(f"{manage}withdraw/", {"confirm": "yes"})
    assert response.status_code == 429
    entry.refresh_from_db()
    assert entry.status == "confirmed"
    assert venue.get(manage).status_code == 200
    assert venue.post(manage, {}).status_code == 429


@throttled
def test_sign_in_links_are_limited_even_when_opened(future):
    link = staff_links.link_create(
        championship=future, name="Kari", role=ChampionshipRole.Role.JUDGE, by=None
    )
    path = staff_links.sign_in_path(link)
    venue = browser()
    assert venue.get(path).status_code == 200  # the page with the button
    assert venue.get("/s/not-a-token/").status_code == 404
    response = venue.post(path)  # the button
    assert response.status_code == 429
    assert "_auth_user_id" not in venue.session


# Watching, and a failing cache --------------------------------------------------------------------


@throttled
def test_a_throttled_client_is_logged_with_its_address_and_the_url_name(future, caplog):
    venue = browser()
    for number in range(3):
        register(venue, future, number)
    with caplog.at_level(logging.WARNING, logger="core.throttle"):
        register(venue, future, 3)
    (record,) = [r for r in caplog.records if r.name == "core.throttle"]
    assert record.levelno == logging.WARNING
    assert f"client {VENUE} at registration:register" in record.getMessage()


@throttled
@override_settings(
    CACHES={
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.25,
                "SOCKET_TIMEOUT": 0.25,
            },
        }
    }
)
def test_with_the_cache_down_registration_goes_on_unthrottled(future):
    venue = browser()
    for number in range(5):
        assert register(venue, future, number).status_code == 302
    assert Entry.objects.count() == 5


# The settings -------------------------------------------------------------------------------------


def test_every_throttled_view_has_limits_in_the_settings():
    assert set(settings.THROTTLE_VIEWS.values()) == set(settings.THROTTLE_RATES)
    assert all(settings.THROTTLE_RATES.values())


def test_the_limits_are_read_from_the_environment():
    assert env.env_rates({}, "THROTTLE_SIGN_IN", ["30/m"]) == ["30/m"]
    assert env.env_rates({"THROTTLE_SIGN_IN": "10/m, 100/10h"}, "THROTTLE_SIGN_IN", []) == [
        "10/m",
        "100/10h",
    ]
    assert env.env_rates({"THROTTLE_SIGN_IN": ""}, "THROTTLE_SIGN_IN", ["30/m"]) == []


@pytest.mark.parametrize("value", ["30", "30/minute", "0/m", "-1/m", "30/m;300/h", "m/30"])
def test_a_malformed_limit_stops_the_start(value):
    with pytest.raises(env.ConfigurationError, match="THROTTLE_SIGN_IN"):
        env.env_rates({"THROTTLE_SIGN_IN": value}, "THROTTLE_SIGN_IN", [])


def test_every_throttled_view_is_a_url_name_the_site_has():
    """A renamed URL would silently escape its limits."""
    from django.urls import get_resolver

    def names(resolver, namespace=""):
        for name in resolver.reverse_dict:
            if isinstance(name, str):
                yield namespace + name
        for space, (_prefix, sub) in resolver.namespace_dict.items():
            yield from names(sub, f"{namespace}{space}:")

    known = set(names(get_resolver()))
    assert set(settings.THROTTLE_VIEWS) <= known, set(settings.THROTTLE_VIEWS) - known
