"""Who sits where in each heat, for everyone, once the round's seating is published."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from championship.permissions import get_championship
from control.views.common import SEATING, round_or_404, round_seating

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
