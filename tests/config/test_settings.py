"""Settings come from the environment: the database, the cache, e-mail, the secret."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config import env
from tests.paths import ROOT

BASE = Path("/srv/app")


def test_without_database_url_an_sqlite_file_in_the_project_is_used():
    db = env.database_config({}, BASE)
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == str(BASE / "db.sqlite3")


def test_database_url_selects_postgresql():
    db = env.database_config(
        {"DATABASE_URL": "postgres://puzzle:secret@db.internal:5433/championship"}, BASE
    )
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["HOST"], db["PORT"], db["NAME"]) == ("db.internal", 5433, "championship")
    assert (db["USER"], db["PASSWORD"]) == ("puzzle", "secret")
    assert db["CONN_HEALTH_CHECKS"] is True
    assert db["CONN_MAX_AGE"] == 600


def test_postgresql_prepares_statements_from_their_second_run():
    db = env.database_config({"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/x"}, BASE)
    assert db["OPTIONS"] == {"server_side_binding": True, "prepare_threshold": 2}


@pytest.mark.parametrize(
    ("value", "options"),
    [
        ("off", {}),
        ("OFF", {}),
        ("0", {"server_side_binding": True, "prepare_threshold": 0}),
        ("5", {"server_side_binding": True, "prepare_threshold": 5}),
    ],
)
def test_prepared_statements_can_be_turned_off_for_a_pooler(value, options):
    db = env.database_config(
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/x", "DB_PREPARE_THRESHOLD": value},
        BASE,
    )
    assert db["OPTIONS"] == options


@pytest.mark.parametrize("value", ["-1", "soon"])
def test_a_bad_prepare_threshold_is_a_clear_error(value):
    with pytest.raises(env.ConfigurationError, match="DB_PREPARE_THRESHOLD"):
        env.database_config(
            {"DATABASE_URL": "postgres://x@h:5432/x", "DB_PREPARE_THRESHOLD": value}, BASE
        )


def test_sqlite_has_no_prepared_statement_options():
    db = env.database_config({"DB_PREPARE_THRESHOLD": "5"}, BASE)
    assert "server_side_binding" not in db["OPTIONS"]


def test_conn_max_age_can_be_set():
    db = env.database_config(
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/x", "CONN_MAX_AGE": "0"}, BASE
    )
    assert db["CONN_MAX_AGE"] == 0


def test_a_malformed_database_url_is_a_clear_error():
    with pytest.raises(env.ConfigurationError, match="DATABASE_URL"):
        env.database_config({"DATABASE_URL": "nosuchdb://x"}, BASE)


def test_without_redis_url_the_cache_is_local_memory():
    assert env.cache_config({})["BACKEND"].endswith("LocMemCache")


def test_redis_url_selects_the_redis_cache_which_tolerates_redis_being_down():
    cache = env.cache_config({"REDIS_URL": "redis://127.0.0.1:6379/2"})
    assert cache["BACKEND"] == "django_redis.cache.RedisCache"
    assert cache["LOCATION"] == "redis://127.0.0.1:6379/2"
    assert cache["OPTIONS"]["IGNORE_EXCEPTIONS"] is True


def test_a_redis_url_of_another_scheme_is_refused():
    with pytest.raises(env.ConfigurationError, match="REDIS_URL"):
        env.cache_config({"REDIS_URL": "http://127.0.0.1:6379"})


def test_email_goes_to_the_console_by_default_and_to_smtp_with_a_host():
    assert env.email_config({})["EMAIL_BACKEND"].endswith("console.EmailBackend")
    smtp = env.email_config({"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "2525"})
    assert smtp["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
    assert (smtp["EMAIL_HOST"], smtp["EMAIL_PORT"], smtp["EMAIL_USE_TLS"]) == (
        "smtp.example.org",
        2525,
        True,
    )


@pytest.mark.parametrize(
    ("word", "value"), [("true", True), ("1", True), ("off", False), ("", False)]
)
def test_booleans_are_read_from_words(word, value):
    assert env.env_bool({"DEBUG": word}, "DEBUG", not value) is value


def test_a_boolean_that_is_no_boolean_is_refused():
    with pytest.raises(env.ConfigurationError, match="DEBUG"):
        env.env_bool({"DEBUG": "maybe"}, "DEBUG", False)


def test_lists_are_comma_separated():
    assert env.env_list({"ALLOWED_HOSTS": "a.example, b.example,,"}, "ALLOWED_HOSTS", []) == [
        "a.example",
        "b.example",
    ]


def test_the_secret_key_is_required_without_debug():
    with pytest.raises(env.ConfigurationError, match="SECRET_KEY"):
        env.secret_key({}, debug=False)
    assert env.secret_key({}, debug=True)
    assert env.secret_key({"SECRET_KEY": "s3cret"}, debug=False) == "s3cret"


def run_manage(*args, **env):
    # The browser tests allow sync database calls under an event loop; a server must not.
    dropped = {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environ = {k: v for k, v in os.environ.items() if k not in dropped}
    environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    environ.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_application_refuses_to_start_without_a_secret_when_debug_is_off():
    result = run_manage("check", DEBUG="false")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_deploy_check_is_clean_with_a_real_secret():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY="kq8s7Jd9-a-real-looking-secret-key-for-the-deploy-check-9f8e7d6c5b4a",
        ALLOWED_HOSTS="puzzle.example.org",
        SITE_URL="https://puzzle.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_settings_read_the_environment():
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'], "
        "s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS, s.USE_TZ, [c for c, _ in s.LANGUAGES])",
        DEBUG="true",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/unused",
        REDIS_URL="redis://127.0.0.1:6379/0",
        ALLOWED_HOSTS="a.example",
        CSRF_TRUSTED_ORIGINS="https://a.example",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "django_redis.cache.RedisCache",
        "['a.example']",
        "['https://a.example']",
        "True",
        "['en',",
        "'nb',",
        "'sv',",
        "'da']",
    ]


def test_the_wsgi_application_imports_every_view_as_the_worker_starts():
    # Else a worker's first request pays for the imports: after a restart, a judge's capture.
    dropped = {"DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}
    environ = {k: v for k, v in os.environ.items() if k not in dropped}
    environ.update(DEBUG="true", DATABASE_URL="")
    code = (
        "import sys, config.wsgi; "
        "print(' '.join(name for name in ('api.views.captures', 'results.views', "
        "'judging.views') if name in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["api.views.captures", "results.views", "judging.views"]
