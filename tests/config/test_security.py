"""Login is rate-limited; production answers carry the security headers."""

import pytest
from django.test import override_settings

from tests import factories

pytestmark = pytest.mark.django_db

AXES = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]


@override_settings(AUTHENTICATION_BACKENDS=AXES, AXES_FAILURE_LIMIT=3)
def test_repeated_failed_logins_lock_the_account_out_for_that_address(client):
    factories.user(username="dommer")
    for _ in range(3):
        response = client.post("/accounts/login/", {"username": "dommer", "password": "wrong"})
    response = client.post(
        "/accounts/login/", {"username": "dommer", "password": "a-long-password-1"}
    )
    assert response.status_code == 429
    assert "Too many attempts" in response.text


@override_settings(AUTHENTICATION_BACKENDS=AXES, AXES_FAILURE_LIMIT=3)
def test_another_judge_at_the_same_address_can_still_log_in(client):
    factories.user(username="dommer")
    factories.user(username="kollega")
    for _ in range(4):
        client.post("/accounts/login/", {"username": "dommer", "password": "wrong"})
    response = client.post(
        "/accounts/login/", {"username": "kollega", "password": "a-long-password-1"}
    )
    assert response.status_code == 302


def test_pages_carry_a_content_security_policy(client):
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_production_cookies_are_secure_and_hsts_is_on():
    from django.conf import settings

    assert settings.SESSION_COOKIE_SECURE and settings.CSRF_COOKIE_SECURE
    assert settings.SECURE_HSTS_SECONDS >= 31536000
