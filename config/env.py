"""Read the deployment's configuration from the environment.

Every function takes the environment as a mapping, so that the parsing can be
tested without reloading the settings module.
"""

import os
import re
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path

import dj_database_url

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


class ConfigurationError(Exception):
    """A setting in the environment is missing or malformed."""


def env_bool(environ: Mapping[str, str], name: str, default: bool) -> bool:
    """Return the boolean in ``name``; refuse words that are neither true nor false."""
    if name not in environ:
        return default
    word = environ[name].strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ConfigurationError(f"{name} must be true or false, not {environ[name]!r}.")


def env_list(environ: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    """Return the comma-separated list in ``name``, without blanks."""
    if name not in environ:
        return list(default)
    return [item.strip() for item in environ[name].split(",") if item.strip()]


def allowed_hosts(
    environ: Mapping[str, str], debug: bool, lan_address: Callable[[], str | None]
) -> list[str]:
    """Return ``ALLOWED_HOSTS``: this machine's names by default, and in ``DEBUG`` its LAN address.

    A development server started on 0.0.0.0 is opened by phones on the local
    network at this machine's address; ``lan_address`` finds it. An explicit
    ``ALLOWED_HOSTS`` is taken as it is.
    """
    if "ALLOWED_HOSTS" in environ:
        return env_list(environ, "ALLOWED_HOSTS", [])
    hosts = ["localhost", "127.0.0.1", "[::1]"]
    if debug:
        address = lan_address()
        if address and address not in hosts:
            hosts.append(address)
    return hosts


def site_url(environ: Mapping[str, str]) -> str:
    """Return ``SITE_URL`` without a trailing slash, or "" when unset.

    Unset, links are built on the address each request came in at.
    """
    url = environ.get("SITE_URL", "").strip().rstrip("/")
    if not url:
        return ""
    scheme, _sep, rest = url.partition("://")
    if scheme not in {"http", "https"} or not rest or "/" in rest:
        raise ConfigurationError(
            f"SITE_URL must be the site's address such as https://puzzle.example.org "
            f"(scheme and host, no path), not {environ['SITE_URL']!r}."
        )
    return url


def env_int(environ: Mapping[str, str], name: str, default: int) -> int:
    """Return the integer in ``name``."""
    if name not in environ or not environ[name].strip():
        return default
    try:
        return int(environ[name])
    except ValueError:
        raise ConfigurationError(f"{name} must be a whole number, not {environ[name]!r}.") from None


def trusted_proxy_count(environ: Mapping[str, str]) -> int:
    """Return ``TRUSTED_PROXY_COUNT``: how many proxies in front append to ``X-Forwarded-For``."""
    count = env_int(environ, "TRUSTED_PROXY_COUNT", 0)
    if count < 0:
        raise ConfigurationError(f"TRUSTED_PROXY_COUNT must be 0 or more, not {count}.")
    return count


RATE = re.compile(r"^([1-9][0-9]*)/([1-9][0-9]*)?([smhd])$")


def env_rates(environ: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    """Return the rates in ``name``, such as ``30/m,300/h``: requests per second, minute, hour, day.

    A count may be followed by a number of periods (``100/10m``). An empty value
    sets no limit.
    """
    rates = env_list(environ, name, default)
    for rate in rates:
        if not RATE.match(rate):
            raise ConfigurationError(
                f"{name} must be rates such as 30/m,300/h (per s, m, h or d), "
                f"not {environ[name]!r}."
            )
    return rates


def database_config(environ: Mapping[str, str], base_dir: Path) -> dict:
    """Return the default database from ``DATABASE_URL``, or an SQLite file in the project."""
    url = environ.get("DATABASE_URL", "").strip()
    if not url:
        url = f"sqlite:///{base_dir / 'db.sqlite3'}"
    try:
        config = dj_database_url.parse(
            url, conn_max_age=env_int(environ, "CONN_MAX_AGE", CONN_MAX_AGE)
        )
    except ValueError as error:
        raise ConfigurationError(f"DATABASE_URL is not a database URL: {error}") from None
    if config["ENGINE"] == "django.db.backends.postgresql":
        config["CONN_HEALTH_CHECKS"] = True
        config["OPTIONS"] = prepared_statements(environ)
        config.setdefault("TEST", {})
    elif config["ENGINE"] == "django.db.backends.sqlite3":
        # Persistent connections to a file database gain nothing and hold locks.
        config["CONN_MAX_AGE"] = 0
        config["OPTIONS"] = dict(SQLITE_OPTIONS)
    return config


# SQLite written by several processes at once (`make run`: the server and its three workers).
# A transaction takes the write lock as it begins (IMMEDIATE): one that only read first and
# then wanted to write could not wait for the lock, and would fail at once with "database is
# locked". A writer waits up to 20 s for another's transaction to end (``timeout``). In WAL
# mode readers and the writer do not block each other; NORMAL is as safe as FULL there
# (a power cut may lose the last transactions, never corrupt the file) and syncs less often.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def prepared_statements(environ: Mapping[str, str]) -> dict:
    """Return the PostgreSQL options for prepared statements, as ``DB_PREPARE_THRESHOLD`` says.

    A statement run this often on a connection is prepared: PostgreSQL plans it
    once, not on every run (about a third of a judge's capture went into planning
    its four statements). That needs server-side parameters (``server_side_binding``),
    and prepared statements need a connection of their own: ``off`` turns both off,
    for a pooler that hands a connection to another client between transactions
    (PgBouncer's transaction mode before 1.21, or without ``max_prepared_statements``).
    """
    value = environ.get("DB_PREPARE_THRESHOLD", "").strip().lower()
    if value == "off":
        return {}
    threshold = env_int(environ, "DB_PREPARE_THRESHOLD", PREPARE_THRESHOLD)
    if threshold < 0:
        raise ConfigurationError("DB_PREPARE_THRESHOLD must be off or a number from 0 on.")
    return {"server_side_binding": True, "prepare_threshold": threshold}


# Seconds a connection is kept (health-checked before each request's first use): its
# prepared statements with it. A new connection's first captures plan their statements
# (PostgreSQL plans a prepared one five times before it keeps a generic plan).
CONN_MAX_AGE = 600

# Prepared from the second run on: a capture's statements run for every tap.
PREPARE_THRESHOLD = 2


def cache_config(environ: Mapping[str, str]) -> dict:
    """Return the default cache: Redis at ``REDIS_URL``, or local memory when unset."""
    url = environ.get("REDIS_URL", "").strip()
    if not url:
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "championship",
        }
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigurationError(
            f"REDIS_URL must start with redis://, rediss:// or unix://, not {url!r}."
        )
    return {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": environ.get("CACHE_KEY_PREFIX", "championship"),
        "OPTIONS": {
            # The cache is only a cache: with Redis down, pages are rendered uncached
            # instead of failing, and each attempt gives up quickly.
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": 0.25,
            "SOCKET_TIMEOUT": 0.25,
        },
    }


def email_config(environ: Mapping[str, str]) -> dict:
    """Return the e-mail settings: the console by default, SMTP when ``EMAIL_HOST`` is set."""
    host = environ.get("EMAIL_HOST", "").strip()
    backend = environ.get("EMAIL_BACKEND", "").strip()
    if not backend:
        backend = (
            "django.core.mail.backends.smtp.EmailBackend"
            if host
            else "django.core.mail.backends.console.EmailBackend"
        )
    return {
        "EMAIL_BACKEND": backend,
        "EMAIL_HOST": host or "localhost",
        "EMAIL_PORT": env_int(environ, "EMAIL_PORT", 587 if host else 25),
        "EMAIL_HOST_USER": environ.get("EMAIL_HOST_USER", ""),
        "EMAIL_HOST_PASSWORD": environ.get("EMAIL_HOST_PASSWORD", ""),
        "EMAIL_USE_TLS": env_bool(environ, "EMAIL_USE_TLS", bool(host)),
        "DEFAULT_FROM_EMAIL": environ.get("DEFAULT_FROM_EMAIL", "championship@localhost"),
    }


def secret_key(environ: Mapping[str, str], debug: bool) -> str:
    """Return ``SECRET_KEY``; only a debugging server may run without one."""
    key = environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    if debug:
        return "django-insecure-development-only-key-do-not-use-in-production"
    raise ConfigurationError("SECRET_KEY must be set when DEBUG is off.")


# The development settings of a checkout: written by `make run`, read by manage.py alone.
DEVELOPMENT_FILE = "development.env"

DEVELOPMENT_FILE_TEXT = """\
# The development settings of this checkout, written once by `make run` (not in git).
# manage.py reads them where the environment sets none, and only while DEBUG is on;
# gunicorn never reads this file. A server must not have it (docs/configuration.md).
DEBUG=true
SECRET_KEY={secret_key}
"""

VARIABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse_env_file(text: str, name: str) -> dict[str, str]:
    """Return the variables of an environment file: ``NAME=value`` lines and ``#`` comments.

    A value may be quoted; ``export`` before a name is allowed, as in a shell.
    """
    values = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        variable, equals, value = line.removeprefix("export ").partition("=")
        variable, value = variable.strip(), value.strip()
        if not equals or not VARIABLE.match(variable):
            raise ConfigurationError(f"{name}, line {number}: expected NAME=value, not {line!r}.")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[variable] = value
    return values


def development_settings(environ: Mapping[str, str], path: Path) -> dict[str, str]:
    """Return what the development file at ``path`` adds to ``environ``: the names it lacks.

    The file counts only while DEBUG is on (the environment's ``DEBUG``, or else the
    file's): a process whose environment turns DEBUG off takes nothing from it, not even
    a secret key. No file, nothing.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    values = parse_env_file(text, path.name)
    if not env_bool({**values, **environ}, "DEBUG", False):
        return {}
    return {variable: value for variable, value in values.items() if variable not in environ}


def development_file_write(path: Path | str) -> bool:
    """Write the development file at ``path`` unless there is one: DEBUG on, a new secret key.

    Return whether it was written. Only its owner may read it: the key signs sessions
    and private links.
    """
    text = DEVELOPMENT_FILE_TEXT.format(secret_key=secrets.token_urlsafe(50))
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
    return True
