"""System checks of the deployment (``manage.py check --deploy``).

Registered by the championship app's ``ready()``.
"""

from __future__ import annotations

import ipaddress
import os
import shlex
from collections.abc import Mapping
from urllib.parse import urlsplit

from django.conf import settings
from django.core import checks

LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})
# Hosts a server bound to listens on every interface of the machine.
EVERY_INTERFACE = frozenset({"", "0.0.0.0", "::"})


TAG = "championship"


def site_url_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """Warn when printed table cards and e-mails may carry an address that leads nowhere."""
    if not settings.SITE_URL:
        return [
            checks.Warning(
                "SITE_URL is not set: table QR codes and links in e-mails are built from the "
                "host each request comes in at, and e-mails sent from commands carry no "
                "site address.",
                hint="Set SITE_URL to the public address of the site, e.g. "
                "https://puzzle.example.org (see docs/deploy.md).",
                id="championship.W001",
            )
        ]
    host = urlsplit(settings.SITE_URL).hostname or ""
    if host in LOOPBACK_HOSTS or host.startswith("127."):
        return [
            checks.Warning(
                f"SITE_URL points at this machine ({settings.SITE_URL}): no phone can open "
                "the table QR codes or the links in e-mails.",
                hint="Set SITE_URL to the address people reach the site at.",
                id="championship.W002",
            )
        ]
    return []


def development_file_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """Say where DEBUG comes from when the development file `make run` writes is here."""
    if not settings.DEBUG or not settings.DEVELOPMENT_FILE.exists():
        return []
    return [
        checks.Warning(
            f"DEBUG is on, and {settings.DEVELOPMENT_FILE} is here: the development settings "
            "`make run` writes, which manage.py reads where the environment sets none.",
            hint=f"A server must not have it: delete {settings.DEVELOPMENT_FILE.name}, and set "
            "DEBUG=false in the environment (docs/configuration.md).",
            id="championship.W004",
        )
    ]


def gunicorn_binds(environ: Mapping[str, str]) -> list[str]:
    """Return the addresses ``GUNICORN_CMD_ARGS`` in ``environ`` binds gunicorn to.

    ``-b ADDRESS``, ``-bADDRESS``, ``--bind ADDRESS``, ``--bind=ADDRESS`` (and the
    abbreviations of ``--bind`` gunicorn accepts), as gunicorn reads them.
    """
    try:
        words = iter(shlex.split(environ.get("GUNICORN_CMD_ARGS", "")))
    except ValueError:  # unbalanced quotes: gunicorn itself would not start
        return []
    binds = []
    for word in words:
        option, equals, value = word.partition("=")
        if option == "-b" or (len(option) >= 4 and "--bind".startswith(option)):
            binds.append(value if equals else next(words, ""))
        elif word.startswith("-b") and not word.startswith("--"):
            binds.append(word[2:])
    return binds


def reachable_from_anywhere(bind: str) -> bool:
    """Return whether gunicorn bound to ``bind`` takes connections from any network.

    True for every interface (``0.0.0.0``, ``::``, no host) and for a public
    address. A unix socket, a loopback address, ``localhost`` or an inherited
    socket (``fd://``) is reached from this machine only. A private address
    (``10.0.0.11``) is reached from its network, and only a firewall tells whether
    from the proxy alone; a host name is not looked up: neither is judged here.
    """
    if bind.startswith(("unix:", "fd://")):
        return False
    netloc = bind.removeprefix("tcp://")
    host = netloc[1:].partition("]")[0] if netloc.startswith("[") else netloc.partition(":")[0]
    if host in EVERY_INTERFACE:
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_global


def proxy_bind_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """Warn when the proxy's X-Forwarded-For is trusted but clients can bypass the proxy.

    ``check --deploy`` runs in a process of its own, not in gunicorn: all it can
    know of gunicorn's bind is gunicorn's own variable ``GUNICORN_CMD_ARGS``, when
    the check runs with the app servers' environment. A ``--bind`` on gunicorn's
    command line or in its configuration file, and the firewall, are out of sight.
    """
    if not settings.TRUSTED_PROXY_COUNT:
        return []
    exposed = [bind for bind in gunicorn_binds(os.environ) if reachable_from_anywhere(bind)]
    if not exposed:
        return []
    return [
        checks.Warning(
            f"TRUSTED_PROXY_COUNT is {settings.TRUSTED_PROXY_COUNT}, but GUNICORN_CMD_ARGS "
            f"binds gunicorn to {', '.join(exposed)}, where clients can reach it without "
            "the proxy. Such a client chooses its own address with X-Forwarded-For, and "
            "escapes the login lock-out and the limits of public forms.",
            hint="Bind gunicorn where only the proxy reaches it: a unix socket "
            "(--bind unix:/run/championship/gunicorn.sock) or 127.0.0.1 beside the proxy, "
            "or a private address that a firewall opens to the proxy alone (see "
            "docs/deploy.md). This check reads only GUNICORN_CMD_ARGS: it cannot see a "
            "--bind on gunicorn's command line or in its configuration file, nor a firewall.",
            id="championship.W003",
        )
    ]
