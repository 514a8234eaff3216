"""Find the championship of a ``/<championship_slug>/…`` request once; use its zone and language."""

import zoneinfo

from django.conf import settings
from django.http import Http404
from django.utils import timezone, translation

from championship.models import Championship
from championship.permissions import sees_draft


class ChampionshipMiddleware:
    """Set ``request.championship`` and activate its time zone and default language.

    The language the visitor chose with the switcher (its cookie) wins over the
    championship's; without a choice, a Swedish championship speaks Swedish.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.championship = None
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request, view_func, view_args, view_kwargs):
        slug = view_kwargs.get("championship_slug")
        if not slug or getattr(view_func, "finds_own_championship", False):
            return None
        if "api" in request.resolver_match.namespaces:
            # The API answers in the language its caller asks for (api/views/base.py).
            return None
        championship = Championship.objects.filter(slug=slug).first()
        if championship is not None:
            activate(request, championship)
        return None


def finds_own_championship(view):
    """Mark a view that reads its championship itself, so the middleware does not.

    The polled live results must answer an unchanged poll with one query; such a
    view calls ``activate`` once it has the championship (or answers without it).
    """
    view.finds_own_championship = True
    return view


def activate(request, championship: Championship) -> None:
    """Use a championship for a request: its time zone, and its language unless one was chosen.

    The middleware calls this for every ``/<championship_slug>/`` view, except those
    marked ``finds_own_championship``, which call it themselves.

    A draft's public pages are for its staff: anyone else is answered 404. The
    organiser's pages (which send a visitor to log in) and the pages opened by a
    private link (an entrant's, an address's) are not public pages.
    """
    if championship.draft and not _private(request) and not sees_draft(request.user, championship):
        raise Http404
    request.championship = championship
    try:
        timezone.activate(zoneinfo.ZoneInfo(championship.timezone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.deactivate()
    if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
        translation.activate(championship.language)
        request.LANGUAGE_CODE = championship.language


def page_language(request, championship: Championship) -> str:
    """Return the language this visitor reads the championship's pages in.

    Their own choice (the switcher's cookie), else the championship's: a message
    queued for the next page is written in it, not in the page it was made on.
    """
    if settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
        return translation.get_language()
    return championship.language


def _private(request) -> bool:
    """Return whether the request is for an organiser's page or a page of a private link."""
    match = request.resolver_match
    return match is not None and ("manage" in match.namespaces or "token" in match.kwargs)
