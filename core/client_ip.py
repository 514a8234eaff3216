"""The address of the client a request came from, as far as the deployment can vouch for it.

Each proxy that passes a request on appends the address it got the request from
to ``X-Forwarded-For``. Behind ``TRUSTED_PROXY_COUNT`` proxies, the client is
the address the outermost trusted proxy appended: the count-th from the end.
Whatever stands before it was written by the client (or by proxies nobody
vouches for) and is never used. With no trusted proxy, the client is the
connection's own address, ``REMOTE_ADDR``.

Login lock-outs (django-axes), the throttles of public forms
(``core.throttle``) and the API all take the address from here.
"""

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """Return the address of the client of ``request``, or None when the server gives none."""
    remote = request.META.get("REMOTE_ADDR") or None
    count = settings.TRUSTED_PROXY_COUNT
    if not count:
        return remote
    header = request.META.get("HTTP_X_FORWARDED_FOR", "")
    forwarded = [part.strip() for part in header.split(",") if part.strip()]
    if not forwarded:
        # Not through the proxy (a health check straight to the app server).
        return remote
    # Fewer addresses than proxies: the request skipped a proxy, and the first
    # address is the furthest any of them saw.
    candidate = forwarded[-min(count, len(forwarded))]
    return normal(candidate) or remote


def normal(text: str) -> str | None:
    """Return ``text`` as an address in its usual spelling, or None if it is not an address.

    An IPv4 address written as IPv6 (``::ffff:203.0.113.5``) is the IPv4 address.
    """
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        if address.scope_id:
            return None
    return str(address)
