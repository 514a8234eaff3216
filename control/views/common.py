"""What the control room's screens share: templates, a round's seating as shown, refusals."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext_lazy

from championship.errors import RoundStateError
from championship.models import Championship, Heat, Round, Seat, Table
from championship.rules.seating import SeatingError
from championship.scoring import entry_is_official
from core import actions

CONTROL = "control/round.html"
TABLES = "control/tables.html"
ROTATE = "control/table_rotate.html"
RANKING = "control/ranking.html"
CARDS = "control/cards.html"
SEATING = "control/seating.html"
SEATING_SCREEN = "control/seating_screen.html"
START_CONFIRM = "control/start_confirm.html"
REPORT = "control/round_report.html"

SESSION_SEATING = "control.views.seating"
SESSION_RANKING = "control.views.ranking"
CARD_SIZES = ("a4", "a5")

# Reading ---------------------------------------------------------------------------------------


def round_or_404(championship: Championship, key: str) -> Round:
    round_ = get_object_or_404(
        Round.objects.select_related("category"), championship=championship, key=key
    )
    round_.category.championship = championship
    round_.championship = championship
    return round_


def round_seating(round_: Round, *, with_official: bool = False) -> list[Heat]:
    """Return a round's heats in order, each with its seats and its tables.

    Each heat gets ``seat_list`` (by table number and position) and
    ``tables`` (a list of ``(table, seats)``); each seat gets ``letter`` (A or B
    where the table is shared in the heat, else empty) and, with
    ``with_official``, ``official``.
    """
    heats = list(round_.heats.order_by("order", "key"))
    seats = (
        Seat.objects.filter(round=round_)
        .select_related("table", "entry")
        .prefetch_related("entry__members")
        .order_by("heat__order", "table__number", "position")
    )
    rules, kind = round_.championship.rules, round_.category.kind
    by_heat: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        if with_official:
            seat.official = entry_is_official(seat.entry, rules, kind)
        by_heat[seat.heat_id].append(seat)
    for heat in heats:
        heat.round = round_
        heat.seat_list = by_heat[heat.pk]
        tables: dict[int, tuple[Table, list[Seat]]] = {}
        for seat in heat.seat_list:
            tables.setdefault(seat.table_id, (seat.table, []))[1].append(seat)
        heat.tables = list(tables.values())
        for _table, at_table in heat.tables:
            shared = len(at_table) > 1 or at_table[0].position > 1
            for seat in at_table:
                seat.letter = seat.position_letter if shared else ""
    return heats


# Messages --------------------------------------------------------------------------------------

SEATING_ERRORS = {
    "no_previous_place": gettext_lazy(
        "An entry has no place in the previous round: its results must be complete first."
    ),
    "at_least_one": gettext_lazy("A round needs at least one heat."),
}


def error_message(error: Exception) -> str:
    """Return what to tell the organiser about a refused action (``core.actions.run``'s ``say``)."""
    if isinstance(error, SeatingError):
        return str(SEATING_ERRORS.get(error.code, error.message))
    return actions.refusal_text(error)


REFUSALS = (ValidationError, RoundStateError, SeatingError)


def local_time(moment: datetime) -> str:
    return time_format(timezone.localtime(moment), "H:i:s")
