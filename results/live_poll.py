"""The live poll: one query, one ETag and one 304 for every page that polls a round.

A round has a version that changes whenever its results change. A polled answer
(a round's table or its projector board, in a language, of a heat; the API's
standings) is named by an ETag made of the round's id and version and, for a
page's fragment, the language, the fragment and the heat; a poll that sends it
back while the version is unchanged is answered ``304 Not Modified`` after one
query (``poll_state``). Every poll is answered by ``answer_poll``: the middleware
(``results.middleware``, before sessions and the rest, with what needs no
rendering), the results views (``results.views``) and the API's results endpoint
(``api.views.results``). Each says which answer it asks for (``Polled``), in
which language, and how a new version is rendered; a new version is rendered by
one request at a time, a few times a second at most (``cached_once``).
"""

from __future__ import annotations

import gzip
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.utils.http import parse_etags
from django.utils.translation import gettext as _

from championship.models import Round
from results import queries

# How often a live answer (a round's table or board, in a language, of a heat; the API's
# standings) may be rendered anew in a second while captures stream in; polls in between
# get the newest rendered version. Bounds the work of a busy round whatever the capture
# rate, while a few changes in a second (two judges, two servers) all show in the very
# next poll.
LIVE_RENDERS_PER_SECOND = 4
# A third of the CPU of gzip's default level (6) for a body 15 % larger: a version is
# compressed once, but a busy round makes several a second.
GZIP_LEVEL = 3
# As Django's GZipMiddleware reads Accept-Encoding.
ACCEPTS_GZIP = re.compile(r"\bgzip\b")
# What a heat's key can be (a slug); anything else is no heat, and is never queried.
HEAT_KEY = re.compile(r"[-a-zA-Z0-9_]{1,30}")
HTML = "text/html; charset=utf-8"
# How long a request waits for another one that is building the same cached value.
BUILD_WAIT = 2.0
# How long a version's standings and fragments stay cached. Every capture makes a new
# version and the old ones are not asked for again, so they must not pile up in Redis
# (a busy day renders tens of thousands); a round that does not change is built again
# once in this time.
VERSION_TTL = 10 * 60


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
    row = queries.poll_state(championship_slug, round_key, heat_key_or_404(heat))
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
    """Return the cache name of a live fragment's versions (``answer_poll``)."""
    return f"fragment:v3:{pk}:{language}:{fragment}:{heat}"


# The API's standings: one answer for every language and heat.
API_STANDINGS = "api"


class Polled(NamedTuple):
    """Which of a round's live answers a poll asks for: a page's fragment of a heat, or the API's.

    ``fragment`` is "table" (the results page), "board" (the projector) or
    ``API_STANDINGS``; ``heat`` is a heat's key, "" for all.
    """

    fragment: str
    heat: str = ""

    def etag(self, pk: int, version: int, language: str) -> str:
        """Return the ETag of the answer at the round's ``version``, in ``language``."""
        if self.fragment == API_STANDINGS:
            return f'"{pk}-{version}"'
        return poll_etag(pk, version, language, self.fragment, self.heat)

    def name(self, pk: int, language: str) -> str:
        """Return the cache name of the answer's versions, in ``language``."""
        if self.fragment == API_STANDINGS:
            return f"api-standings:v2:{pk}"
        return fragment_name(pk, language, self.fragment, self.heat)


def answer_poll(
    request,
    championship_slug: str,
    round_key: str,
    polled: Polled,
    *,
    language: Callable[[str], str | None] | None = None,
    render: Callable[[Round, str], str | bytes | HttpResponseBase] | None = None,
    content_type: str = HTML,
    kept: bool = True,
) -> HttpResponseBase | None:
    """Answer a poll of ``polled``: 304 after one query while it is unchanged, else its version.

    The round's state is read once (``poll_state``; raise 404 for an unknown
    round or heat). ``language(championship_language)`` gives the language of
    the answer, or ``None`` when this caller cannot tell (the poll is not
    answered: ``None``); without it, the championship's. A poll whose
    ``If-None-Match`` names the current version, or the version served, is
    answered 304.

    ``render(round_, etag)`` renders the answer of the round (read with its
    category and championship) and the ETag of its version. It runs at most once
    per version, whatever the number of pollers and app servers, and one at a
    time: a poll that comes while the new version is being rendered, or once
    this second's renders are spent, gets the version before it, with its own
    ETag (or 304 if it has that one already). The version is kept gzipped and
    answered as ``content_type``. Without ``render``, only what needs no
    rendering is answered, and ``None`` says a version must be rendered. With
    ``kept`` false, ``render`` returns the response itself, rendered for this
    poll and not kept (the browsable API).

    Every answer has the poll's headers (``with_poll_headers``).
    """
    pk, version, championship_language = poll_state(championship_slug, round_key, polled.heat)
    chosen = championship_language if language is None else language(championship_language)
    if chosen is None:
        return None
    etag = polled.etag(pk, version, chosen)
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    if etag_matches(header, etag):
        return with_poll_headers(not_modified(), etag)
    if not kept:
        round_, etag = _round_rendered(championship_slug, round_key, polled, chosen)
        return with_poll_headers(render(round_, etag), etag)
    name = polled.name(pk, chosen)
    if render is None:
        served = cached_without_building(
            f"{name}:{version}",
            lock=name,
            latest=f"{name}:latest",
            per_second=LIVE_RENDERS_PER_SECOND,
        )
        if served is None:
            return None
    else:

        def build() -> Version:
            round_, etag = _round_rendered(championship_slug, round_key, polled, chosen)
            return Version.of(etag, render(round_, etag))

        served = cached_once(
            f"{name}:{version}",
            build,
            lock=name,
            latest=f"{name}:latest",
            per_second=LIVE_RENDERS_PER_SECOND,
        )
    if etag_matches(header, served.etag):
        return with_poll_headers(not_modified(), served.etag)
    return with_poll_headers(served.answer(request, content_type), served.etag)


def _round_rendered(
    championship_slug: str, round_key: str, polled: Polled, language: str
) -> tuple[Round, str]:
    """Return the round a new version is rendered from, and that version's ETag.

    Only a poll that renders needs the round itself (and its category and
    championship). The ETag is of the version read here, which the answer shows.
    """
    round_ = queries.round_for_request(championship_slug, round_key)
    if round_ is None:
        raise Http404(_("There is no such round."))
    return round_, polled.etag(round_.pk, round_.version, language)


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

    def answer(self, request, content_type: str = HTML) -> HttpResponse:
        """Return the version for ``request``: gzipped if its client accepts it."""
        if ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
            response = HttpResponse(self.gzipped, content_type=content_type)
            response["Content-Encoding"] = "gzip"
            return response
        return HttpResponse(self.body, content_type=content_type)


def not_modified():
    """Return an empty ``304 Not Modified``; ``with_poll_headers`` gives it its headers."""
    return HttpResponseNotModified()


# Building once: the render-once lock of a new version.


def _builds_window(name: str) -> str:
    return f"{name}:builds:{int(time.time())}"


def _count_build(name: str) -> None:
    """Count a build of ``name`` in the current second."""
    window = _builds_window(name)
    if not cache.add(window, 1, timeout=5):
        try:
            cache.incr(window)
        except ValueError:  # the window expired in between
            cache.add(window, 1, timeout=5)


def cached_once(
    key: str,
    build,
    *,
    timeout: int = VERSION_TTL,
    lock: str | None = None,
    latest: str | None = None,
    per_second: int | None = None,
):
    """Return the cached value of ``key``, building it in one request when many ask at once.

    After a capture every poller asks for the new version together: one builds
    it while the others wait briefly for the cache, and build it themselves only
    if that takes too long. A cache that does not answer (Redis down) is not
    waited for: the value is built at once.

    ``lock`` names what is built one at a time (by default ``key`` itself). With
    ``latest``, every value built is also stored there, and a request that finds
    a build running is answered at once with that latest value rather than
    waiting: under a stream of captures, one request at a time renders the newest
    version of a live page, and the others serve the one before (stale by at most
    one build; the next poll brings the new one). The value then needs to carry
    what identifies it (its ETag, say). With ``per_second`` as well, at most that
    many builds of ``lock`` start in a second while a latest value is there to
    serve: a quiet round shows a capture in the very next poll, a round under a
    stream of captures is rendered a few times a second, not once per capture.
    """
    value = cache.get(key)
    if value is not None:
        return value
    stale = cache.get(latest) if latest is not None else None
    name = lock or key
    if stale is not None and _budget_spent(name, per_second):
        return stale
    building = f"{name}:building"
    started = cache.add(building, 1, timeout=10)
    if started is None:  # django-redis, ignoring its errors: the cache is not there
        return build()
    if started:
        if per_second is not None:
            _count_build(name)
        try:
            value = build()
            cache.set(key, value, timeout=timeout)
            if latest is not None:
                cache.set(latest, value, timeout=timeout)
            return value
        finally:
            cache.delete(building)
    if stale is not None:
        return stale
    waited = 0.0
    while True:
        value = cache.get(key)
        if value is None and latest is not None:
            value = cache.get(latest)
        if value is not None:
            return value
        if waited >= BUILD_WAIT:
            return build()
        time.sleep(0.05)
        waited += 0.05


def _budget_spent(name: str, per_second: int | None) -> bool:
    """Return whether ``per_second`` builds of ``name`` started in the current second."""
    return per_second is not None and (cache.get(_builds_window(name)) or 0) >= per_second


def cached_without_building(key: str, *, lock: str, latest: str, per_second: int):
    """Return what ``cached_once`` would answer at once without building, or ``None``.

    That is the cached value of ``key``; else the latest value when a new one is
    being built or may not be built in this second. ``None`` means the caller
    should build (through ``cached_once``). A cache that does not answer gives
    ``None``.
    """
    value = cache.get(key)
    if value is not None:
        return value
    stale = cache.get(latest)
    if stale is None:
        return None
    if _budget_spent(lock, per_second) or cache.get(f"{lock}:building"):
        return stale
    return None
