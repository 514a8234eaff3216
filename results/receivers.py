"""What the results app does when registration changes or asks: officiality follows the
members now, and the entrant's page shows the entry's results."""

from __future__ import annotations

from django.db.models import Q

from championship.models import Round
from results.models import Result
from results.services import standings_ensure_all, standings_recompute


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


def entry_page_results(sender, *, entry, **kwargs) -> list[Result]:
    """Answer the entrant's private page (``registration.signals.entry_page_results``).

    The entry's results once confirmed by the entrant, or decided without a time
    (did not start, disqualified), in round order, with their places up to date.
    """
    standings_ensure_all(Round.objects.filter(results__entry=entry))
    return list(
        Result.objects.filter(entry=entry)
        .filter(Q(confirmed_at__isnull=False) | Q(status__in=["dns", "dsq"]))
        .select_related("round")
        .order_by("round__order")
    )
