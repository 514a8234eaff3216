"""The site's own address, for links that leave the screen: QR codes and e-mails.

A printed table card and a link in an e-mail are opened on another device, so
they need an absolute address. It is ``settings.SITE_URL`` when that is set (a
proxy that rewrites the host, mail queued by a command), and otherwise the
scheme and host of the request being answered, which ``ALLOWED_HOSTS`` has
already vetted; the outbox's sender, outside any request, finishes a mail on
the address it was queued at (``queued_at``). Otherwise, outside any request
and without ``SITE_URL`` there is no address to give: ``absolute_url`` refuses
rather than guess one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest

_current_request: ContextVar[HttpRequest | None] = ContextVar("current_request", default=None)
# The address a mail was queued at, while the outbox's sender finishes it outside any request.
_queued_at: ContextVar[str] = ContextVar("queued_at", default="")


class SiteURLUnknown(ImproperlyConfigured):
    """Neither ``SITE_URL`` nor a request gives the site's address."""


class CurrentRequestMiddleware:
    """Remember the request being answered, so code far from the view can build addresses.

    A service queues its e-mail after the request's transaction and knows
    nothing of the request; the address it needs is read from here.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _current_request.set(request)
        try:
            return self.get_response(request)
        finally:
            _current_request.reset(token)


def base_url(request: HttpRequest | None = None) -> str:
    """Return the site's address without a trailing slash, or "" when it is unknown.

    ``SITE_URL`` first; then ``request``, or the request being answered; then
    the address the mail being sent was queued at (``queued_at``).
    """
    if settings.SITE_URL:
        return settings.SITE_URL.rstrip("/")
    request = request or _current_request.get()
    if request is None:
        return _queued_at.get()
    return f"{request.scheme}://{request.get_host()}"


@contextmanager
def queued_at(address: str) -> Iterator[None]:
    """Build addresses on ``address``, the one a mail was queued at, outside any request."""
    token = _queued_at.set(address.rstrip("/"))
    try:
        yield
    finally:
        _queued_at.reset(token)


def absolute_url(path: str, *, request: HttpRequest | None = None) -> str:
    """Return the absolute address of ``path`` on this site.

    Raise ``SiteURLUnknown`` outside a request when ``SITE_URL`` is not set.
    """
    base = base_url(request)
    if not base:
        raise SiteURLUnknown(
            f"No address for {path}: set SITE_URL to the site's address "
            "(e.g. https://puzzle.example.org) to build links outside a request."
        )
    return base + path
