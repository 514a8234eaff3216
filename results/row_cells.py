"""The rows of a live results table and of the projector's board, rendered for each version.

A new version of a round's standings changes a few rows' times and many rows'
places. Each row's opening and places are written here; the rest of it (the
entry, its result, its heat and table) is rendered by a template from
``ROW_KEY``'s fields and kept in this process, so a new version of a 180-row
table renders only the rows whose content changed. ``ROW_KEY`` and
``ENTRY_KEY`` name every field of a row that the cell templates read (a test
holds the templates to them).
"""

from __future__ import annotations

from operator import itemgetter

from django.template.loader import get_template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from core.process_cache import Store

# The row's fields the cell templates (``CELL_TEMPLATES``) read, besides the entry's.
ROW_KEY = (
    "official",
    "qualified",
    "qualified_by",
    "prize",
    "outcome",
    "final_seconds",
    "penalty_seconds",
    "pieces_per_minute",
    "counted_pieces",
    "waiting",
    "status",
    "heat",
    "table",
)
ENTRY_KEY = ("name", "members", "people", "represents")
# What ``_key`` reads of each row besides its entry, heat and qualification, and of each person.
_OTHER = tuple(name for name in ROW_KEY if name not in ("qualified", "qualified_by"))
_PERSON = itemgetter("name", "url")
CELL_TEMPLATES = {
    "round": "results/_round_row.html",
    "board": "results/_board_row.html",
}
# About a megabyte for every thousand rows; enough for every heat of a round of 1,600
# in two languages and both views.
_cells: Store[SafeString] = Store("results.row_cells", size=16_384)


def _key(view: str, row: dict, decided: bool, language: str) -> tuple:
    entry = row["entry"]
    heat = row.get("in_heat")
    return (
        view,
        language,
        decided,
        entry.get("name"),
        tuple(entry.get("members") or ()),
        tuple(map(_PERSON, entry.get("people") or ())),
        entry.get("represents"),
        # The heat's label is its name, or "Heat A" in the language of the key.
        (heat.key, heat.name) if heat is not None else None,
        # A "Q" shows only once qualification is decided: until then a new finisher
        # moving qualifications about renders no row anew.
        bool(decided and row.get("qualified")),
        row.get("qualified_by") if decided else None,
        *map(row.get, _OTHER),
    )


def row_cells(view: str, row: dict, decided: bool, language: str | None = None) -> SafeString:
    """Return a row's cells for ``view`` ("round" or "board") in the active language."""
    key = _key(view, row, bool(decided), language or get_language())
    return _cells.get_or_make(key, lambda: _render(view, row, decided))


def _render(view: str, row: dict, decided: bool) -> SafeString:
    # The template escapes what it shows.
    return mark_safe(get_template(CELL_TEMPLATES[view]).render({"row": row, "decided": decided}))


def _place(value) -> str:
    return str(value) if value else "–"


def _classes(row: dict) -> str:
    return f"outcome-{row.get('outcome') or 'pending'}"


def table_rows(rows: list[dict], *, decided: bool, show_official: bool) -> SafeString:
    """Return the ``<tr>`` rows of a results table (``results/round.html``)."""
    decided, language = bool(decided), get_language()
    lines = []
    for row in rows:
        classes = _classes(row)
        if row.get("waiting"):
            classes += " waiting-row"
        if row.get("qualified") and decided:
            classes += " qualified"
        if not row.get("official"):
            classes += " unofficial"
        official = (
            f'<td class="num official-place">{row.get("official_place") or ""}</td>'
            if show_official
            else ""
        )
        lines.append(
            f'<tr class="{classes}"><td class="num place">{_place(row.get("place"))}</td>'
            f"{official}{row_cells('round', row, decided, language)}</tr>"
        )
    return mark_safe("\n".join(lines))


def board_rows(
    rows: list[dict], *, decided: bool, show_official: bool, recent: list[str]
) -> SafeString:
    """Return the ``<li>`` rows of the projector's leaderboard (``results/screen.html``)."""
    title = escape(gettext("Official place"))
    decided, language = bool(decided), get_language()
    recent = set(recent)
    lines = []
    for row in rows:
        classes = _classes(row)
        if row.get("waiting"):
            classes += " waiting-row"
        if row["entry"]["id"] in recent:
            classes += " recent"
        if not row.get("official"):
            classes += " unofficial"
        official = (
            f'<span class="official-place" title="{title}">{row.get("official_place") or ""}</span>'
            if show_official
            else ""
        )
        table = row.get("table")
        lines.append(
            f'<li class="row {classes}" data-entry="{escape(row["entry"]["id"])}">'
            f'<span class="place">{_place(row.get("place"))}</span>{official}'
            f"{row_cells('board', row, decided, language)}"
            f'<span class="table">{"" if table is None else table}</span></li>'
        )
    return mark_safe("\n".join(lines))
