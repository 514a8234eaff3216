"""The live poll: one small query, one ETag and one 304 for every page that polls a round.

A round has a version that changes whenever its results change. A polled
fragment (a round's table or its projector board, in a language, of a heat) is
named by an ETag made of the round's id and version, the language, the fragment
and the heat; a poll that sends it back while the version is unchanged is
answered ``304 Not Modified`` after one query (``poll_state``). The middleware
(``results.middleware``, before sessions and the rest) and the views
(``results.views``) answer through these functions, and the API's results
endpoint compares ETags with ``etag_matches`` too.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass

from django.db import connection
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags
from django.utils.translation import gettext as _

# The one query of an unchanged poll, written out: building it with the ORM costs
# more than running it.
POLL_STATE = (
    "SELECT r.id, r.version, c.language,"
    " EXISTS (SELECT 1 FROM championship_heat h WHERE h.round_id = r.id AND h.key = %s)"
    " FROM championship_round r"
    " JOIN championship_championship c ON c.id = r.championship_id"
    " WHERE c.slug = %s AND r.key = %s"
)
# How often a live fragment (a round's table or board, in a language, of a heat) may be
# rendered anew in a second while captures stream in; polls in between get the newest
# rendered version. Bounds the work of a busy round whatever the capture rate, while a
# few changes in a second (two judges, two servers) all show in the very next poll.
LIVE_RENDERS_PER_SECOND = 4
# A third of the CPU of gzip's default level (6) for a body 15 % larger: a version is
# compressed once, but a busy round makes several a second.
GZIP_LEVEL = 3
# As Django's GZipMiddleware reads Accept-Encoding.
ACCEPTS_GZIP = re.compile(r"\bgzip\b")
# What a heat's key can be (a slug); anything else is no heat, and is never queried.
HEAT_KEY = re.compile(r"[-a-zA-Z0-9_]{1,30}")


class UnknownHeat(Http404):
    """The page was asked for a heat the round does not have (answered 404, with the reason)."""


def no_such_heat() -> UnknownHeat:
    return UnknownHeat(_("There is no such heat in this round."))


def heat_key_or_404(heat: str) -> str:
    """Return ``heat`` if it can be a heat's key, or "" (all heats); raise 404 if it cannot.

    The key goes into an ETag header, a cache key and a query: a NUL, a line break
    or any other character no key has is refused before it reaches them.
    """
    if heat and not HEAT_KEY.fullmatch(heat):
        raise no_such_heat()
    return heat


def poll_state(championship_slug: str, round_key: str, heat: str = "") -> tuple[int, int, str]:
    """Return the round's id and version and the championship's language: one small query.

    Raise 404 for an unknown round, and for a ``heat`` the round does not have.
    """
    with connection.cursor() as cursor:
        cursor.execute(POLL_STATE, [heat_key_or_404(heat), championship_slug, round_key])
        row = cursor.fetchone()
    if row is None:
        raise Http404(_("There is no such round."))
    pk, version, language, heat_found = row
    if heat and not heat_found:
        raise no_such_heat()
    return pk, version, language


def poll_etag(pk: int, version: int, language: str, fragment: str, heat: str) -> str:
    """Return the ETag of a polled fragment: the round's version, in a language, of a heat."""
    return '"' + "-".join([str(pk), str(version), language, fragment, heat]) + '"'


def fragment_name(pk: int, language: str, fragment: str, heat: str) -> str:
    """Return the cache name of a live fragment's versions (``results.views._conditional``)."""
    return f"fragment:v3:{pk}:{language}:{fragment}:{heat}"


def etag_matches(header: str, etag: str) -> bool:
    """Return whether an ``If-None-Match`` header matches ``etag`` (weak comparison, or ``*``)."""
    if not header:
        return False
    tags = parse_etags(header)
    return "*" in tags or header.strip() == "*" or etag in (tag.removeprefix("W/") for tag in tags)


def with_poll_headers(response, etag: str):
    """Give a poll's answer its ETag, and keep every cache asking again (``no-cache``).

    A gzipped answer's ETag is weak: the same version, another encoding of it.
    """
    gzipped = response.get("Content-Encoding") == "gzip"
    response["ETag"] = f"W/{etag}" if gzipped and not etag.startswith("W/") else etag
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Cookie, Accept-Language, HX-Request, Accept-Encoding"
    return response


def compress(body: bytes) -> bytes:
    """Return ``body`` gzipped as a version is kept (the same bytes for the same body)."""
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


@dataclass(frozen=True)
class Version:
    """A polled version as it is kept in the cache: its ETag and its body, gzipped.

    Compressed once when the version is built, not for every poller who fetches it,
    and kept compressed: a 180-row fragment of 170 kB is about 12 kB, which is what
    each poll after a change reads from the cache and, for every browser, sends.
    """

    etag: str
    gzipped: bytes

    @classmethod
    def of(cls, etag: str, body: str | bytes) -> Version:
        return cls(etag, compress(body.encode() if isinstance(body, str) else body))

    @property
    def body(self) -> bytes:
        return gzip.decompress(self.gzipped)

    def answer(self, request, content_type: str = "text/html; charset=utf-8") -> HttpResponse:
        """Return the version for ``request``: gzipped if its client accepts it."""
        if ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
            response = HttpResponse(self.gzipped, content_type=content_type)
            response["Content-Encoding"] = "gzip"
            return response
        return HttpResponse(self.body, content_type=content_type)


def not_modified():
    """Return an empty ``304 Not Modified``; ``with_poll_headers`` gives it its headers."""
    return HttpResponseNotModified()
