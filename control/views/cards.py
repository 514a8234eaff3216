"""Printable table cards: one per seated table per heat, with the table's QR code."""

from __future__ import annotations

from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from championship import cards
from championship.permissions import organiser_required
from control.views.common import CARD_SIZES, CARDS, round_or_404, round_seating

# Table cards -----------------------------------------------------------------------------------


@require_GET
@organiser_required
def table_cards(request, championship, round_key):
    """Show the round's printable table cards: one per seated table per heat.

    The cards are read at the venue, so they speak the championship's language
    (the template renders them in it too); the toolbar above them speaks the
    organiser's.
    """
    round_ = round_or_404(championship, round_key)
    size = request.GET.get("size", "a4")
    if size not in CARD_SIZES:
        size = "a4"
    with translation.override(championship.language):
        heats = round_seating(round_)
        codes: dict[int, str] = {}
        card_list = []
        for heat in heats:
            for table, seats in heat.tables:
                if table.pk not in codes:
                    codes[table.pk] = cards.qr_svg(
                        cards.table_url(table),
                        label=_("QR code of table %(number)s") % {"number": table.number},
                    )
                card_list.append(
                    {"heat": heat, "table": table, "seats": seats, "qr": codes[table.pk]}
                )
    return render(
        request,
        CARDS,
        {"round": round_, "heats": heats, "cards": card_list, "size": size, "sizes": CARD_SIZES},
    )
