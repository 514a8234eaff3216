"""Count what strangers post, per client, and answer 429 past the limits.

The forms anyone can post to without an account (registration and its live
check, password reset, an entry's private manage link, a staff member's sign-in
link) and the registration API are counted per client address
(``core.client_ip``) in the shared cache, with django-ratelimit's
counters. Each view counts against a group of limits,
``settings.THROTTLE_RATES[group]``, such as 30 a minute and 300 an hour: the
registration form and the registration API share one, so a client registers at
the same pace whichever it uses.

A request past a limit is answered 429 with ``Retry-After`` before its view
runs, so it changes nothing: a small page in the visitor's language, or the
API's JSON error. Reading is never counted, with one exception: opening a sign-in
link tells whether it works, so it is counted whatever the method.
A failing cache lets requests through (``RATELIMIT_FAIL_OPEN``).

Logins have their own limit, per user name and address (django-axes); a
lock-out is logged here alike, with the client's address and the URL name.
"""

import ipaddress
import logging
import math

from axes.signals import user_locked_out
from django.conf import settings
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from core.client_ip import client_ip

log = logging.getLogger(__name__)

# Groups whose reading tells a guesser something, and so is counted too.
EVERY_METHOD = frozenset({"sign-in"})
READING = frozenset({"GET", "HEAD", "OPTIONS"})


class ThrottleMiddleware:
    """Answer 429 to a client past the limits of the view it asks for.

    Placed after the middleware that activates the championship's language, so
    that the answer speaks it.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not settings.THROTTLE_ENABLED or request.resolver_match is None:
            return None
        view_name = request.resolver_match.view_name
        group = settings.THROTTLE_VIEWS.get(view_name)
        if group is None or (request.method in READING and group not in EVERY_METHOD):
            return None
        wait = seconds_to_wait(request, group)
        if wait is None:
            return None
        log.warning(
            "Throttled client %s at %s (limits %s): retry after %d s.",
            client_ip(request),
            view_name,
            group,
            wait,
        )
        return too_many_requests(request, wait)


def client_key(request: HttpRequest) -> str:
    """Return what a client is counted by: its address, or its /64 network for IPv6.

    One IPv6 subscriber holds a whole /64 and could otherwise count afresh from
    each of its addresses.
    """
    address = client_ip(request)
    if address is None:
        return "unknown"
    try:
        network = ipaddress.ip_network(address)
    except ValueError:  # a server's own notion of REMOTE_ADDR, such as a socket's path
        return address
    if network.version == 6:
        network = network.supernet(new_prefix=64)
    return str(network)


def seconds_to_wait(request: HttpRequest, group: str) -> int | None:
    """Return how long the client must wait if ``request`` would exceed a limit of ``group``.

    Otherwise count the request against every limit and return None. A refused
    request is not counted, so a client that waits as long as it is told finds
    the way open.
    """
    key = client_key(request)
    rates = settings.THROTTLE_RATES.get(group, ())

    def usage(rate, increment):
        return get_usage(
            request, group=group, key=lambda _group, _request: key, rate=rate, increment=increment
        )

    waits = []
    for rate in rates:
        current = usage(rate, increment=False)
        # This request would be one too many (or the cache failed and fails closed).
        if current is not None and current["count"] >= current["limit"]:
            # A window's last second still belongs to it.
            waits.append(max(current["time_left"] + 1, 1))
    if waits:
        return max(waits)
    for rate in rates:
        usage(rate, increment=True)
    return None


def too_many_requests(request: HttpRequest, wait: int) -> HttpResponse:
    """Return the 429 answer: JSON under the API, a small page elsewhere."""
    if wait < 60:
        wait_words = ngettext("%(count)d second", "%(count)d seconds", wait) % {"count": wait}
    else:
        minutes = math.ceil(wait / 60)
        wait_words = ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    message = _(
        "Too many requests from your address in a short time. Nothing was saved: "
        "try again in %(wait)s."
    ) % {"wait": wait_words}
    if "api" in request.resolver_match.namespaces:
        response = JsonResponse({"detail": message}, status=429)
    else:
        response = render(request, "429.html", {"message": message}, status=429)
    response.headers["Retry-After"] = str(wait)
    return response


# Connected when the middleware is loaded, before any request is answered.
@receiver(user_locked_out, dispatch_uid="core.throttle.log_lock_out")
def log_lock_out(sender, request, ip_address=None, **kwargs):
    """Log a login refused for repeated failures, with the client's address and the URL name.

    django-axes logs the user name and address masked; the address is what shows
    a stranger at work or a venue's network locked out.
    """
    match = getattr(request, "resolver_match", None)
    log.warning(
        "Locked out logins from client %s at %s after repeated failures.",
        ip_address,
        match.view_name if match else getattr(request, "path", "?"),
    )


# The length of django-axes' username column.
AXES_USERNAME_MAX_LENGTH = 255


def axes_username(request, credentials=None) -> str | None:
    """Return the username a login attempt is recorded under, as django-axes reads it.

    Cut to the length django-axes can store: no account has a longer username (at
    most 150 characters), so nothing is lost, and the attempt is refused as usual.
    """
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    if credentials:
        username = credentials.get(field)
    else:
        username = getattr(request, "data", request.POST).get(field)
    return username[:AXES_USERNAME_MAX_LENGTH] if isinstance(username, str) else username
