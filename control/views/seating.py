"""Who sits where in each heat, for everyone, once the round's seating is published.

On the website (``seating``) and on the venue's projector (``seating_screen``,
where the venue screen's "seating" sends it, ``results.venue``).
"""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from championship.permissions import get_championship
from control.views.common import SEATING, SEATING_SCREEN, round_or_404, round_seating

# Public seating --------------------------------------------------------------------------------


@require_GET
def seating(request, championship_slug, round_key):
    """Show who sits where in each heat of a round, once its seating is published."""
    championship = get_championship(request, championship_slug)
    round_ = round_or_404(championship, round_key)
    published = round_.seating_published_at is not None
    heats = round_seating(round_) if published else []
    return render(
        request,
        SEATING,
        {"round": round_, "published": published, "heats": heats},
    )


@require_GET
def seating_screen(request, championship_slug, round_key):
    """Show a round's seating on the projector: large table numbers and names, paged.

    The names are those of the public page (``control/_seat_name.html``): a name
    withheld there is withheld here.
    """
    championship = get_championship(request, championship_slug)
    round_ = round_or_404(championship, round_key)
    published = round_.seating_published_at is not None
    heats = round_seating(round_) if published else []
    return render(
        request,
        SEATING_SCREEN,
        {
            "championship": championship,
            "round": round_,
            "published": published,
            "heats": heats,
            # One row a seat, by heat, table and position, as on the public page.
            "seats": [(heat, seat) for heat in heats for seat in heat.seat_list],
            "several_heats": len(heats) > 1,
        },
    )
