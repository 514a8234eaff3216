"""The document's name and versions, the bounds of its values, and the error an import raises."""

from __future__ import annotations

import re
from decimal import Decimal

from results.models import Result

FORMAT = "speedpuzzling-championship"
VERSION = 2
# Versions the import reads. Version 1 said only whether missing pieces were adjacent
# (``adjacent_missing`` true or false); version 2 says how many of the lost pieces were.
READS = (1, 2)

# Upper bounds of the database columns, so that a document cannot overflow them.
SMALL_MAX = 32767
INTEGER_MAX = 2147483647
BIG_MAX = 9223372036854775807
FEE_MAX = Decimal("999999.99")

SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")
# A QR token as ``new_token`` makes them (22 characters of URL-safe base64: 128 bits),
# or longer; a shorter one could be guessed.
TOKEN_MIN_LENGTH = 22
TOKEN_MAX_LENGTH = 64
TOKEN = re.compile(rf"^[-a-zA-Z0-9_]{{{TOKEN_MIN_LENGTH},{TOKEN_MAX_LENGTH}}}$")
COUNTRY = re.compile(r"^[A-Za-z]{2}$")

CATEGORY_MEMBERS = {"individual": "an individual entry", "pair": "a pair", "team": "a team"}
RESULT_STATUSES = tuple(Result.Status.values)
# The rules' names for a result's inputs, and the document's.
ATTEMPT_FIELDS = {
    "time_ms": "time",
    "last_piece_ms": "last_piece_time",
    "pieces_remaining": "pieces_placed",
}

_MISSING = object()


class InterchangeError(ValueError):
    """A document that cannot be imported: where (``path``) and why (``message``)."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message
