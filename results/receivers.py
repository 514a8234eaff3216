"""What the results app does when registration changes: officiality follows the members now."""

from __future__ import annotations

from championship.models import Round
from results.services import standings_recompute


def rerank_entries_rounds(sender, *, entries, **kwargs) -> None:
    """Re-rank every round in which one of ``entries`` has a result (``members_changed``).

    Each entry's officiality is worked out again from its members, and with it the
    official places, prizes and qualification of the whole round. Runs inside the
    transaction that changed the members.
    """
    rounds = (
        Round.objects.filter(results__entry__in=[entry.pk for entry in entries])
        .distinct()
        .order_by("pk")
    )
    for round_ in rounds:
        standings_recompute(round_=round_)
