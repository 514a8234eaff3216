"""Middleware of the site as a whole, whatever championship a request is about."""

import re


class NorwegianMiddleware:
    """Read Norwegian in a browser's Accept-Language as bokmål, the language the site has.

    Browsers in Norway send ``no``, ``nn`` or ``no-NO``; Django knows only the
    exact code and would answer in English. Placed before ``LocaleMiddleware``.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        header = request.META.get("HTTP_ACCEPT_LANGUAGE")
        if header:
            request.META["HTTP_ACCEPT_LANGUAGE"] = bokmal(header)
        return self.get_response(request)


NORWEGIAN = re.compile(r"^(?:no|nn)(?=$|[-_])", re.IGNORECASE)


def bokmal(header: str) -> str:
    """Return an Accept-Language header with ``no`` and ``nn`` (and their regions) as ``nb``."""
    parts = []
    for part in header.split(","):
        tag, semicolon, weight = part.strip().partition(";")
        parts.append(NORWEGIAN.sub("nb", tag) + semicolon + weight)
    return ",".join(parts)
