"""Read a JSON request body within bounds: how large it is, and how deeply it nests.

Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` guards ``request.body`` and forms, but a
parser that reads the request as a stream is not bound by it; and Python's JSON
decoder recurses once per level of nesting, so a body of a few hundred
kilobytes of ``[`` ends in ``RecursionError``. Every JSON body the application
reads goes through ``read_body`` and ``load_json``, as ``JSONParser`` does
(DRF's default parser, see ``REST_FRAMEWORK`` in the settings):

size
    A body larger than ``settings.JSON_BODY_MAX_BYTES`` (1 MiB unless set) is
    refused with 413 before it is read when its ``Content-Length`` says so, and
    after reading one byte more than the limit otherwise. A view that takes
    larger documents (the interchange import) says so with its
    ``json_body_max_bytes`` attribute.
depth
    Arrays and objects nested more than ``JSON_MAX_DEPTH`` levels are refused with
    400 before the document is decoded: the depth is counted on the bytes, with
    the strings left out.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import parsers
from rest_framework.exceptions import APIException, ParseError

from core import jsonbounds

JSON_BODY_MAX_BYTES = 1024 * 1024
JSON_MAX_DEPTH = jsonbounds.MAX_DEPTH


class BodyTooLarge(APIException):
    """The request's body is larger than the endpoint reads (answered 413)."""

    status_code = 413
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "body_too_large"


def body_limit(view=None) -> int:
    """Return the largest body, in bytes, that ``view`` reads (the setting unless it says)."""
    limit = getattr(view, "json_body_max_bytes", None)
    if limit is None:
        limit = getattr(settings, "JSON_BODY_MAX_BYTES", JSON_BODY_MAX_BYTES)
    return limit


def too_large(limit: int) -> BodyTooLarge:
    return BodyTooLarge(
        _("The request body is too large: at most %(size)s.") % {"size": filesizeformat(limit)}
    )


def read_body(stream, meta, *, limit: int) -> bytes:
    """Return the body of a request from ``stream``, reading at most ``limit + 1`` bytes.

    Raise ``BodyTooLarge`` when ``Content-Length`` announces more than ``limit``
    (nothing is read) or the body turns out longer.
    """
    announced = meta.get("CONTENT_LENGTH") or meta.get("HTTP_CONTENT_LENGTH")
    if announced:
        try:
            length = int(announced)
        except (TypeError, ValueError):
            raise ParseError(_("The Content-Length header is not a number.")) from None
        if length > limit:
            raise too_large(limit)
    if stream is None:
        return b""
    body = stream.read(limit + 1)
    if len(body) > limit:
        raise too_large(limit)
    return body


def check_body_depth(body: bytes, *, limit: int = JSON_MAX_DEPTH) -> None:
    """Raise ``ParseError`` when ``body`` nests more than ``limit`` levels."""
    if jsonbounds.deepest(body) > limit:
        raise ParseError(
            _("The JSON document nests too deeply: at most %(depth)s levels.") % {"depth": limit}
        )


def load_json(body: bytes, *, encoding: str = "utf-8", max_depth: int = JSON_MAX_DEPTH) -> Any:
    """Decode a JSON body after checking its depth; raise ``ParseError`` for anything else."""
    check_body_depth(body, limit=max_depth)
    try:
        text = body.decode(encoding)
        # NaN and Infinity are not JSON: refused as DRF's strict parser does.
        return json.loads(text, parse_constant=json_constant)
    except ValueError as error:  # not JSON, not the encoding, or a number too long
        raise ParseError(_("The body is not valid JSON: %(error)s") % {"error": error}) from None


def json_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser within the bounds: 413 when the body is too large, 400 when too deep."""

    def parse(self, stream, media_type=None, parser_context=None):
        context = parser_context or {}
        request = context.get("request")
        meta = request.META if request is not None else {}
        body = read_body(stream, meta, limit=body_limit(context.get("view")))
        data = load_json(body, encoding=context.get("encoding", settings.DEFAULT_CHARSET))
        # A lone surrogate can be neither stored nor written back in an answer (an error
        # that quotes it): refused here, unless the view names where it is itself.
        view = context.get("view")
        if not getattr(view, "checks_its_text", False) and jsonbounds.bad_text(
            data, surrogates_only=True
        ):
            raise ParseError(_("The body holds text that cannot be stored: an unpaired surrogate."))
        return data
