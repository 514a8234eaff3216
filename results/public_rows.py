"""A round's results as the public sees them: read as plain values, kept per content.

Every new version of a busy round's standings reads its rows again: one capture
changes one row's result and many rows' places. Each row is read as one tuple
of plain values (two written-out queries, ``queries.public_rows``); what it shows besides
its ranking (the entry and its members, the heat and table, the result) is made
into a row once per content and kept in this process, so a new version makes
anew only the rows whose content changed, and puts each row's ranking (place,
official place, qualified, prize) into it. The same content also keeps the
row's JSON text, so the API's whole-round answer is joined from kept pieces
(``rows_json``) rather than encoded anew for every version.
"""

from __future__ import annotations

import json
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple

from django.urls import reverse

from championship.models import Round
from championship.scoring import SHOWN_FIELDS
from core.l10n import format_duration
from core.process_cache import Store
from registration.models import name_may_be_published
from results import queries
from results.models import Result

# What a public row reads of each result, with its entry, heat and table
# (``queries.public_rows``): first what it shows besides its ranking (its content), then
# its ranking, which many rows change with every new version.
CONTENT_COLUMNS = (
    "pk",
    "entry_id",
    "entry__ref",
    "entry__name",
    "entry__publish_consent",
    "entry__represents",
    "heat__key",
    *SHOWN_FIELDS,
    "official",
    "table_number",
)
RANKING_COLUMNS = ("place", "official_place", "qualified", "qualified_by", "prize")
COLUMNS = (*CONTENT_COLUMNS, *RANKING_COLUMNS)
CONTENT = len(CONTENT_COLUMNS)
ENTRY_ID = CONTENT_COLUMNS.index("entry_id")
# A row's fields, in their order (as the API has always given them): ``row_of`` and the
# JSON text of ``_content`` write them so.
FIELDS = (
    "entry",
    "heat",
    "table",
    "time",
    "missing_found",
    "missing_lost",
    "adjacent_missing",
    "last_piece_time",
    "pieces_placed",
    "incorrect",
    "status",
    "place",
    "official_place",
    "official",
    "outcome",
    "final_seconds",
    "penalty_seconds",
    "counted_pieces",
    "qualified",
    "qualified_by",
    "prize",
    "pieces_per_minute",
)


class Content(NamedTuple):
    """What a row shows besides its ranking, as a row's fields and as JSON text."""

    head: dict
    middle: dict
    pace: float | None
    # The row's JSON text, with ``%b`` for each value of its ranking.
    json: bytes


# Each row's content by its puzzle size and puzzler's page, its values and its entry's members.
# About 2.7 kB each with its key (22 MB when full); enough for every row of a round of 1,600
# and thousands of captures' new rows, and for the other rounds running meanwhile.
_kept: Store[Content] = Store("results.public_rows", size=8_192)


Ranking = tuple  # (place, official place, qualified, qualified by, prize), as stored


def ranked_contents(round_: Round, heat: str | None = None) -> list[tuple[Content, Ranking]]:
    """Return each of a round's (or a heat's) results as its content and ranking, in order.

    The order is the standing order: by place, the places still to come last.
    Two queries, whatever the round's size; a row's content is made only if it
    is not kept already.
    """
    values, member_rows = queries.public_rows(round_.pk, heat, COLUMNS)
    # (entry id, name, consents, puzzler's ref), in the entry's order.
    members = {entry_id: tuple(rows) for entry_id, rows in groupby(member_rows, itemgetter(0))}
    page = reverse("puzzler", kwargs={"ref": "REF"})
    made = (round_.total_pieces, page)
    found = []
    fresh = {}
    for value in values:
        shown = (value[:CONTENT], members.get(value[ENTRY_ID], ()))
        key = (made, shown)
        content = _kept.get(key)
        if content is None:
            content = fresh[key] = _content(*shown, *made)
        found.append((content, value[CONTENT:]))
    if fresh:
        _kept.put_many(fresh)
    return found


def public_rows(round_: Round, heat: str | None = None) -> list[dict]:
    """Return a round's (or one heat's) results as the public sees them, in standing order.

    Names only with consent to publication, which is each member's: the members
    list names those who consented; the entry's own name (often made of its
    members' names) only when all did (``Entry.name_published``). Each row is a
    new dict; the entry's dict in it is shared with the versions before, and is
    not to be changed.
    """
    return [row_of(content, ranking) for content, ranking in ranked_contents(round_, heat)]


def row_of(content: Content, ranking: Ranking) -> dict:
    """Return a row's fields: its content with its ranking, in ``FIELDS``' order."""
    place, official_place, qualified, qualified_by, prize = ranking
    return {
        **content.head,
        "place": place,
        "official_place": official_place,
        **content.middle,
        # SQLite gives a boolean as 0 or 1.
        "qualified": bool(qualified),
        "qualified_by": qualified_by or None,
        "prize": prize,
        "pieces_per_minute": content.pace,
    }


def rows_json(round_: Round) -> bytes:
    """Return the JSON text of a round's public rows: a list, as ``public_rows`` gives it.

    Encoded as the API encodes (compact, UTF-8, U+2028 and U+2029 escaped): a
    row's JSON is its kept content's, with its ranking put in.
    """
    return b"[" + b",".join(_row_json(*item) for item in ranked_contents(round_)) + b"]"


def _row_json(content: Content, ranking: Ranking) -> bytes:
    place, official_place, qualified, qualified_by, prize = ranking
    return content.json % (
        b"null" if place is None else b"%d" % place,
        b"null" if official_place is None else b"%d" % official_place,
        b"true" if qualified else b"false",
        b'"%b"' % qualified_by.encode() if qualified_by else b"null",
        b"null" if prize is None else b"%d" % prize,
    )


def encode(value) -> bytes:
    """Return ``value`` as JSON text as the API's renderer writes it (``JSONRenderer``)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    # As Django REST framework does: these two end a line in JavaScript.
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()


def _content(value: tuple, members: tuple, pieces: int, page: str) -> Content:
    """Return the content of a result read as values (see ``ranked_contents``).

    ``members`` are its entry's (entry id, name, consents, puzzler's ref);
    ``pieces`` are the puzzle's, for the pace; ``page`` is a puzzler's page, its
    ref "REF". The booleans are made so: SQLite gives 0 or 1.
    """
    named = dict(zip(CONTENT_COLUMNS, value, strict=True))
    before, _ref, after = page.partition("REF")
    consenting = [
        (name, f"{before}{ref}{after}") for _id, name, consents, ref in members if consents
    ]
    published = name_may_be_published(
        bool(named["entry__publish_consent"]), [bool(member[2]) for member in members]
    )
    final_ms = named["final_ms"]
    final_seconds = None if final_ms is None else final_ms // 1000
    head = {
        "entry": {
            "id": named["entry__ref"],
            "name": named["entry__name"] if published else None,
            "members": [name for name, _url in consenting],
            "people": [{"name": name, "url": url} for name, url in consenting],
            # The country goes with the name: with a small country, it would name the entrant.
            "represents": (named["entry__represents"] or None) if published else None,
        },
        "heat": named["heat__key"],
        "table": named["table_number"],
        "time": format_duration(named["time_ms"]),
        "missing_found": named["missing_found"],
        "missing_lost": named["missing_lost"],
        "adjacent_missing": named["adjacent_missing"],
        "last_piece_time": format_duration(named["last_piece_ms"]),
        "pieces_placed": named["pieces_placed"],
        "incorrect": bool(named["incorrect"]),
        "status": named["status"],
    }
    middle = {
        "official": bool(named["official"]),
        "outcome": named["outcome"] or None,
        "final_seconds": final_seconds,
        "penalty_seconds": named["penalty_ms"] // 1000,
        "counted_pieces": named["counted_pieces"],
    }
    per_minute = pace(pieces, named["outcome"], final_seconds)
    # The row's JSON, with a %b for each field of its ranking (and any % of its own doubled).
    text = b"".join(
        (
            encode(head)[:-1].replace(b"%", b"%%"),
            b',"place":%b,"official_place":%b,',
            encode(middle)[1:-1].replace(b"%", b"%%"),
            b',"qualified":%b,"qualified_by":%b,"prize":%b,"pieces_per_minute":',
            encode(per_minute),
            b"}",
        )
    )
    return Content(head, middle, per_minute, text)


def pace(pieces: int, outcome: str, final_seconds: int | None) -> float | None:
    """Return a completed result's pace, its outcome and final time read as plain values.

    The puzzle's pieces per minute of its final time, to one decimal; ``None``
    unless the puzzle was completed (a count is no pace).
    """
    if outcome != Result.Outcome.COMPLETED or not final_seconds:
        return None
    return round(pieces * 60 / final_seconds, 1)
