"""Answer a live-results poll before the rest of the request is set up, when nothing is to build.

Thousands of spectators poll the live results every few seconds. This
middleware, placed right after the security and static-file middleware,
answers a poll without sessions, CSRF, messages or URL resolution whenever
that takes no rendering: ``304 Not Modified`` after one small query when the
round is unchanged, and otherwise the version already rendered (the one asked
for, or the one before while the new one is being rendered or the round's
renders for this second are spent). Any other request, and a poll that has to
render a new version, goes on to the view, which answers the same way (both
through ``results.live_poll.answer_poll``).
"""

import re

from django.conf import settings
from django.http import Http404

from results.live_poll import Polled, answer_poll

POLLED = re.compile(
    r"^/(?P<slug>[-a-zA-Z0-9_]+)/(?P<page>results|screen)/(?P<round>[-a-zA-Z0-9_]+)/$"
)
FRAGMENTS = {"results": "table", "screen": "board"}
LANGUAGES = {code for code, _name in settings.LANGUAGES}


class UnchangedPollMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET" and "HTTP_HX_REQUEST" in request.META:
            match = POLLED.match(request.path_info)
            if match:
                response = self.answer(request, match)
                if response is not None:
                    return response
        return self.get_response(request)

    def answer(self, request, match):
        """Answer the poll if that takes no rendering; ``None`` leaves it to the view."""
        polled = Polled(FRAGMENTS[match["page"]], request.GET.get("heat", ""))
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)

        def language(championship_language: str) -> str | None:
            if chosen is None:
                return championship_language
            # Any other choice: the view works out the language.
            return chosen if chosen in LANGUAGES else None

        try:
            return answer_poll(request, match["slug"], match["round"], polled, language=language)
        except Http404:
            return None  # an unknown round or heat: the view says so
