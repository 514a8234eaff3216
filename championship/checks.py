"""System checks of the deployment (``manage.py check --deploy``).

Registered by the championship app's ``ready()``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core import checks

LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})


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
