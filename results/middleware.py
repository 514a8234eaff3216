"""Answer an unchanged live-results poll before the rest of the request is set up.

Thousands of spectators poll the live results every few seconds, and nearly
every poll finds the round unchanged. This middleware, placed right after the
security and static-file middleware, answers those polls ``304 Not Modified``
after one small query, without sessions, CSRF, messages or URL resolution. Any
other request, and any poll of a changed round, goes on to the view, which
answers the same way (both through ``results.live_poll``).
"""

import re

from django.conf import settings
from django.http import Http404

from results.live_poll import etag_matches, not_modified, poll_etag, poll_state, with_poll_headers

POLLED = re.compile(
    r"^/(?P<slug>[-a-zA-Z0-9_]+)/(?P<page>results|screen)/(?P<round>[-a-zA-Z0-9_]+)/$"
)
FRAGMENTS = {"results": "table", "screen": "board"}
LANGUAGES = {code for code, _name in settings.LANGUAGES}


class UnchangedPollMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        header = request.META.get("HTTP_IF_NONE_MATCH")
        if header and request.method == "GET" and "HTTP_HX_REQUEST" in request.META:
            match = POLLED.match(request.path_info)
            if match:
                response = self.unchanged(request, match, header)
                if response is not None:
                    return response
        return self.get_response(request)

    def unchanged(self, request, match, header):
        heat = request.GET.get("heat", "")
        try:
            pk, version, championship_language = poll_state(match["slug"], match["round"], heat)
        except Http404:
            return None  # an unknown round or heat: the view says so
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen is None:
            language = championship_language
        elif chosen in LANGUAGES:
            language = chosen
        else:
            return None  # let the view work out the language
        etag = poll_etag(pk, version, language, FRAGMENTS[match["page"]], heat)
        if not etag_matches(header, etag):
            return None
        return with_poll_headers(not_modified(), etag)
