"""The document's name and versions, the bounds of its values, and the error an import raises."""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

from championship import payees

FORMAT = "speedpuzzling-championship"
VERSION = 4
# Versions the import reads. Version 1 said only whether missing pieces were adjacent
# (``adjacent_missing`` true or false); version 2 says how many of the lost pieces were,
# and added fields a version-1 document does not carry (the schema's ``$defs/version-1``);
# version 3 added a round's pieces, puzzles and country places, the round it feeds, an
# entry's country and a result's route, which documents of versions 1 and 2 do not carry
# (``$defs/version-2``, ``$defs/version-3-in-1``): what they say means what it meant;
# version 4 added where entrants pay (``PAYEE_FIELDS``), which earlier documents do not
# carry (``$defs/version-4-in-1`` to ``-in-3``): without them a championship has none.
# The schema (docs/interchange.schema.json) lists the same; a test holds them together.
# The import refuses a field it does not know, and a version it does not read: a release
# that adds a field raises VERSION.
READS = (1, 2, 3, 4)

# Upper bounds of the database columns, so that a document cannot overflow them.
SMALL_MAX = 32767
INTEGER_MAX = 2147483647
FEE_MAX = Decimal("999999.99")

SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")

CATEGORY_MEMBERS = {"individual": "an individual entry", "pair": "a pair", "team": "a team"}
# The rules' names for a result's inputs, and the document's.
ATTEMPT_FIELDS = {
    "time_ms": "time",
    "last_piece_ms": "last_piece_time",
    "pieces_remaining": "pieces_placed",
}

_MISSING = object()


def _line(path: str, message: str) -> str:
    return f"{path}: {message}" if path else message


class InterchangeError(ValueError):
    """A document that cannot be imported: where (``path``) and why (``message``).

    ``problems`` holds every problem found, as ``(path, message)``, the first being
    ``path`` and ``message``: the schema's check reports a few at once (``more``),
    the checks of references and meaning one. Its text is one line per problem.
    """

    def __init__(self, path: str, message: str, *, more: Iterable[tuple[str, str]] = ()):
        self.path = path
        self.message = message
        self.problems = ((path, message), *more)
        super().__init__("\n".join(_line(*problem) for problem in self.problems))


# Where entrants pay, and the form of their references (``championship.payees``): version 4.
PAYEE_FIELDS = payees.SETTINGS

# Which e-mails entrants get (``control.notifications``): each true unless the document says.
MAIL_FLAGS = ("mail_seating", "mail_advanced", "mail_results")
