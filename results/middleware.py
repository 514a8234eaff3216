"""Answer a live-results poll before the rest of the request is set up, when nothing is to build.

Thousands of spectators poll the live results every few seconds. This
middleware, placed right after the security and static-file middleware,
answers a poll without sessions, CSRF, messages or URL resolution whenever
that takes no rendering: ``304 Not Modified`` after one small query when the
round is unchanged, and otherwise the version already rendered (the one asked
for, or the one before while the new one is being rendered or the round's
renders for this second are spent). Any other request, and a poll that has to
render a new version, goes on to the view, which answers the same way (both
through ``results.live_poll``).
"""

import re

from django.conf import settings
from django.http import Http404

from results.live_poll import (
    LIVE_RENDERS_PER_SECOND,
    etag_matches,
    fragment_name,
    not_modified,
    poll_etag,
    poll_state,
    with_poll_headers,
)
from results.selectors import cached_without_building

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
                response = self.answer(request, match, request.META.get("HTTP_IF_NONE_MATCH", ""))
                if response is not None:
                    return response
        return self.get_response(request)

    def answer(self, request, match, header):
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
        fragment = FRAGMENTS[match["page"]]
        etag = poll_etag(pk, version, language, fragment, heat)
        if etag_matches(header, etag):
            return with_poll_headers(not_modified(), etag)
        name = fragment_name(pk, language, fragment, heat)
        kept = cached_without_building(
            f"{name}:{version}",
            lock=name,
            latest=f"{name}:latest",
            per_second=LIVE_RENDERS_PER_SECOND,
        )
        if kept is None:
            return None  # the view renders the new version
        if etag_matches(header, kept.etag):
            return with_poll_headers(not_modified(), kept.etag)
        return with_poll_headers(kept.answer(request), kept.etag)
