"""The public results as a CSV table: a round's standings, or a category's final standings.

One row per entry, the columns of ``COLUMNS`` (after ``round`` for a category's). Names
only with consent, and no other personal data (as on the results pages).

words
    The column names and the words of the cells are in the active language (the
    championship's: the views ask for it): "Plassering", "Sluttid (sekunder)",
    "fullført", "ja", "offisielle". An English file keeps the names and words it
    always had (``place``, ``final_seconds``, ``completed``, ``yes``, ``official``).
heat
    As people call it, "Heat A" or the heat's name, not its key.
numbers
    Places, seconds and counts are numbers; ``pieces_per_minute`` has one decimal,
    written with the championship's decimal sign by ``core.csvfile``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import pgettext_lazy

from championship.models import Heat
from core import csvfile
from registration.csv_columns import represents_cell

COLUMNS = (
    "place",
    "official_place",
    "entry",
    "name",
    "members",
    "represents",
    "heat",
    "table",
    "outcome",
    "time",
    "penalty_seconds",
    "final_seconds",
    "counted_pieces",
    "official",
    "qualified",
    "qualified_by",
    "prize",
    "pieces_per_minute",
    "results",
)
HEADERS = {
    "round": pgettext_lazy("csv header", "round"),
    "place": pgettext_lazy("csv header", "place"),
    "official_place": pgettext_lazy("csv header", "official_place"),
    "entry": pgettext_lazy("csv header", "entry"),
    "name": pgettext_lazy("csv header", "name"),
    "members": pgettext_lazy("csv header", "members"),
    "represents": pgettext_lazy("csv header", "represents"),
    "heat": pgettext_lazy("csv header", "heat"),
    "table": pgettext_lazy("csv header", "table"),
    "outcome": pgettext_lazy("csv header", "outcome"),
    "time": pgettext_lazy("csv header", "time"),
    "penalty_seconds": pgettext_lazy("csv header", "penalty_seconds"),
    "final_seconds": pgettext_lazy("csv header", "final_seconds"),
    "counted_pieces": pgettext_lazy("csv header", "counted_pieces"),
    "official": pgettext_lazy("csv header", "official"),
    "qualified": pgettext_lazy("csv header", "qualified"),
    "qualified_by": pgettext_lazy("csv header", "qualified_by"),
    "prize": pgettext_lazy("csv header", "prize"),
    "pieces_per_minute": pgettext_lazy("csv header", "pieces_per_minute"),
    "results": pgettext_lazy("csv header", "results"),
}
OUTCOME_WORDS = {
    "completed": pgettext_lazy("csv value", "completed"),
    "unfinished": pgettext_lazy("csv value", "unfinished"),
    "invalid": pgettext_lazy("csv value", "invalid"),
    "dns": pgettext_lazy("csv value", "dns"),
    "dsq": pgettext_lazy("csv value", "dsq"),
}
QUALIFIED_BY_WORDS = {
    "country": pgettext_lazy("csv value", "country"),
    "classification": pgettext_lazy("csv value", "classification"),
}
# Whether a row's round is signed off: its results are official, else provisional.
OFFICIAL_RESULTS = pgettext_lazy("csv value results", "official")
PROVISIONAL_RESULTS = pgettext_lazy("csv value results", "provisional")


def _word(words: dict, value) -> str:
    """Return a value's word in the active language: "" for none, an unknown one as it is."""
    if not value:
        return ""
    return str(words[value]) if value in words else str(value)


def heat_labels(**filters) -> dict[tuple[str, str], str]:
    """Return the label ("Heat A", or the name) of the heats ``filters`` select, by keys.

    Keyed by the heat's round's key and its own.
    """
    heats = Heat.objects.filter(**filters).select_related("round")
    return {(heat.round.key, heat.key): heat.label for heat in heats}


def table(
    rows: list[dict],
    *,
    round_key: Callable[[dict], str],
    heats: dict[tuple[str, str], str],
    official: Callable[[dict], bool],
    with_round: bool = False,
) -> list[list]:
    """Return the header and a row of cells per result row, in the active language.

    ``round_key(row)``: the key of the row's round (for its heat's label);
    ``official(row)``: whether the row's round is signed off. ``with_round``: a
    first column with the round's name (``round_name`` of a category's rows).
    """
    columns = (["round"] if with_round else []) + list(COLUMNS)
    lines = [[str(HEADERS[column]) for column in columns]]
    for row in rows:
        values = {
            **row,
            "round": row.get("round_name", ""),
            "entry": row["entry"]["id"],
            "name": row["entry"]["name"] or "",
            "members": "; ".join(row["entry"]["members"]),
            "represents": represents_cell(row["entry"]["represents"] or ""),
            "heat": heats.get((round_key(row), row["heat"]), row["heat"]),
            "outcome": _word(OUTCOME_WORDS, row["outcome"]),
            "official": csvfile.yes_no(row["official"]),
            "qualified": csvfile.yes_no(row["qualified"]),
            "qualified_by": _word(QUALIFIED_BY_WORDS, row["qualified_by"]),
            # Each row says whether its round's results are official or still provisional.
            "results": str(OFFICIAL_RESULTS if official(row) else PROVISIONAL_RESULTS),
        }
        lines.append([values.get(column) for column in columns])
    return lines
