"""What the results app does when registration changes: officiality follows the members now."""

from __future__ import annotations

from championship.models import Round
from results.services import standings_recompute


def rerank_entries_rounds(sender, *, entries, **kwargs) -> None:
    """Re-rank every round in which one of ``entries`` has a result (registration's signals).

    Each entry's officiality is worked out again from its members (``members_changed``),
    or a withdrawn entry loses its place (``entry_withdrawn``), and with it the
    places, prizes and qualification of the whole round. Runs inside the
    transaction of the change.
    """
    rounds = (
        Round.objects.filter(results__entry__in=[entry.pk for entry in entries])
        .distinct()
        .order_by("pk")
    )
    for round_ in rounds:
        standings_recompute(round_=round_)
