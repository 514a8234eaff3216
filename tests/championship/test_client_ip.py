"""The client's address behind the proxy, and lock-outs a stranger cannot turn on others."""

import pytest
from django.test import RequestFactory, override_settings
from rest_framework.throttling import SimpleRateThrottle

from config import env
from core.client_ip import client_ip
from tests import factories
from tests.config.test_settings import run_manage

PROXY = "10.0.0.2"
STRANGER = "203.0.113.5"
KARI = "198.51.100.7"


def request_from(remote=PROXY, forwarded=None):
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **meta)


# Reading the address ------------------------------------------------------------------------------


@override_settings(TRUSTED_PROXY_COUNT=0)
def test_without_a_trusted_proxy_the_forwarded_header_is_ignored():
    assert client_ip(request_from(KARI, forwarded=STRANGER)) == KARI


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_one_proxy_the_client_is_the_address_the_proxy_appended():
    assert client_ip(request_from(forwarded=STRANGER)) == STRANGER


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_a_prefix_the_client_wrote_is_never_taken():
    # The stranger sent "X-Forwarded-For: <Kari's address>"; nginx appended the real one.
    assert client_ip(request_from(forwarded=f"{KARI}, {STRANGER}")) == STRANGER
    assert client_ip(request_from(forwarded=f"not-an-address,{KARI} ,{STRANGER}")) == STRANGER


@override_settings(TRUSTED_PROXY_COUNT=2)
def test_behind_two_proxies_the_client_is_the_second_address_from_the_end():
    assert client_ip(request_from(forwarded=f"{KARI}, {STRANGER}, 10.0.0.1")) == STRANGER


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_a_request_that_did_not_come_through_the_proxy_is_its_connections():
    assert client_ip(request_from("10.0.0.9")) == "10.0.0.9"
    assert client_ip(request_from("10.0.0.9", forwarded=" , ")) == "10.0.0.9"


@override_settings(TRUSTED_PROXY_COUNT=1)
@pytest.mark.parametrize(
    "garbage", ["unknown", "203.0.113.5:4711", "203.0.113.5\x00", "fe80::1%eth0"]
)
def test_a_forwarded_value_that_is_not_an_address_falls_back_to_the_connections(garbage):
    assert client_ip(request_from(forwarded=garbage)) == PROXY


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_addresses_are_written_one_way():
    assert client_ip(request_from(forwarded="::ffff:203.0.113.5")) == STRANGER
    assert client_ip(request_from(forwarded="2001:DB8:0:0::1")) == "2001:db8::1"


@pytest.mark.parametrize("count", [0, 1, 2])
@pytest.mark.parametrize(
    "forwarded", [None, STRANGER, f"{KARI}, {STRANGER}", f"{KARI}, {STRANGER}, 10.0.0.1"]
)
def test_drf_throttles_count_the_same_client(count, forwarded, settings):
    from rest_framework.settings import api_settings

    settings.TRUSTED_PROXY_COUNT = count
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": count}
    api_settings.reload()
    try:
        request = request_from(forwarded=forwarded)
        assert SimpleRateThrottle.get_ident(None, request) == client_ip(request)
    finally:
        api_settings.reload()


def test_the_settings_give_drf_the_same_number_of_proxies():
    from django.conf import settings

    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == settings.TRUSTED_PROXY_COUNT


# The environment ----------------------------------------------------------------------------------


def test_trusted_proxy_count_is_zero_unless_set():
    assert env.trusted_proxy_count({}) == 0
    assert env.trusted_proxy_count({"TRUSTED_PROXY_COUNT": "1"}) == 1


@pytest.mark.parametrize("value", ["-1", "one", "1.5"])
def test_a_malformed_trusted_proxy_count_stops_the_start(value):
    with pytest.raises(env.ConfigurationError, match="TRUSTED_PROXY_COUNT"):
        env.trusted_proxy_count({"TRUSTED_PROXY_COUNT": value})


def test_the_settings_read_the_proxy_count_and_the_limits_from_the_environment():
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings as s; "
        "print(s.TRUSTED_PROXY_COUNT, s.REST_FRAMEWORK['NUM_PROXIES'], s.THROTTLE_ENABLED, "
        "s.THROTTLE_RATES['registration'], s.THROTTLE_RATES['sign-in'])",
        DEBUG="true",
        TRUSTED_PROXY_COUNT="1",
        THROTTLE_ENABLED="false",
        THROTTLE_REGISTRATION="60/m,600/h",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "1", "False", "['60/m',", "'600/h']", "['60/m']"]


def test_a_malformed_limit_in_the_environment_stops_the_start():
    result = run_manage("check", DEBUG="true", THROTTLE_PASSWORD_RESET="5 an hour")
    assert result.returncode != 0
    assert "THROTTLE_PASSWORD_RESET must be rates such as 30/m,300/h" in result.stderr


# Login lock-outs behind the proxy -----------------------------------------------------------------

AXES = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]


def login(client, address, password, forwarded_prefix=""):
    return client.post(
        "/accounts/login/",
        {"username": "kari", "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=f"{forwarded_prefix}{address}",
    )


@pytest.mark.django_db
@override_settings(AUTHENTICATION_BACKENDS=AXES, AXES_FAILURE_LIMIT=10, TRUSTED_PROXY_COUNT=1)
def test_a_strangers_failed_logins_behind_the_proxy_do_not_lock_the_organiser_out(client):
    factories.user(username="kari")
    for _ in range(12):
        login(client, STRANGER, "wrong")

    from_home = login(client, KARI, "a-long-password-1")
    assert from_home.status_code == 302

    client.logout()
    from_stranger = login(client, STRANGER, "a-long-password-1")
    assert from_stranger.status_code == 429
    assert "Too many attempts" in from_stranger.text


@pytest.mark.django_db
@override_settings(AUTHENTICATION_BACKENDS=AXES, AXES_FAILURE_LIMIT=3, TRUSTED_PROXY_COUNT=1)
def test_a_stranger_cannot_lock_the_organiser_out_by_forging_her_address(client):
    factories.user(username="kari")
    for _ in range(5):
        login(client, STRANGER, "wrong", forwarded_prefix=f"{KARI}, ")

    assert login(client, KARI, "a-long-password-1").status_code == 302


@pytest.mark.django_db
@override_settings(AUTHENTICATION_BACKENDS=AXES, AXES_FAILURE_LIMIT=3, TRUSTED_PROXY_COUNT=1)
def test_the_lock_out_is_logged_with_the_clients_address(client, caplog):
    factories.user(username="kari")
    with caplog.at_level("WARNING"):
        for _ in range(3):
            login(client, STRANGER, "wrong")
    assert any(
        record.name == "core.throttle"
        and record.getMessage()
        == f"Locked out logins from client {STRANGER} at login after repeated failures."
        for record in caplog.records
    )


@pytest.mark.django_db
@override_settings(AUTHENTICATION_BACKENDS=AXES)
@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_a_username_longer_than_any_is_refused_like_a_wrong_one(client, path):
    from axes.models import AccessAttempt

    response = client.post(path, {"username": "k" * 300, "password": "wrong"})
    assert response.status_code == 200  # the form again, with its message
    assert "_auth_user_id" not in client.session
    (attempt,) = AccessAttempt.objects.all()
    assert attempt.username == "k" * 255  # as long as its column holds (PostgreSQL refused more)
