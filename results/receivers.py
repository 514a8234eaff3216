"""What the results app does when registration changes or asks: officiality follows the
members now, and the entrant's page shows the entry's results."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from championship.models import ChampionshipRole, Round
from championship.permissions import has_role
from results.models import Result
from results.services import standings_recompute


def rerank_entries_rounds(sender, *, entries, **kwargs) -> None:
    """Re-rank every round in which one of ``entries`` has a result (registration's signals).

    Each entry's officiality is worked out again from its members (``members_changed``),
    or a withdrawn entry loses its place (``entry_withdrawn``), and with it the
    places, prizes and qualification of the whole round. A round in which one of
    them is only seated (its heat has not started: the live pages list it as
    waiting, by name) gets a new version. Runs inside the transaction of the change.
    """
    pks = [entry.pk for entry in entries]
    rounds = list(Round.objects.filter(results__entry__in=pks).distinct().order_by("pk"))
    for round_ in rounds:
        standings_recompute(round_=round_)
    waiting = Round.objects.filter(seats__entry__in=pks).exclude(pk__in=[r.pk for r in rounds])
    Round.objects.filter(pk__in=list(waiting.values_list("pk", flat=True))).update(
        version=F("version") + 1
    )


def walkover_rerank(sender, *, entries, reason, by=None, undo=False, **kwargs) -> None:
    """Rank anew every round in which a walked-over entry has a result (``entry_walkover``).

    A walk-over is a disqualification: the entry keeps its recorded results but is
    listed without a place, and the places, official places, prizes and
    qualification of the others follow. On an entry that already has a result
    (a time, a count, a no-show or a disqualification) only a head judge marks
    it, or takes it back; ``by`` ``None`` is the system's own (check-in left the
    entry out). An official round lists the change with its reason, as a head
    judge's correction is listed.
    """
    pks = [entry.pk for entry in entries]
    recorded = Result.objects.filter(entry__in=pks).exclude(status=Result.Status.PENDING)
    if by is not None and recorded.exists():
        championship = entries[0].category.championship
        if not has_role(by, championship, ChampionshipRole.Role.HEAD_JUDGE):
            raise ValidationError(
                _("This entry has a result: only a head judge can disqualify it, with a reason.")
            )
    now = timezone.now().isoformat()
    for round_ in Round.objects.filter(results__entry__in=pks).distinct().order_by("pk"):
        standings_recompute(round_=round_)
        if round_.state == Round.State.PUBLISHED:
            if undo:
                why = _("Walk-over taken back")
            else:
                why = _("Walk-over (disqualified): %(reason)s") % {"reason": reason}
            round_.corrections = [
                *round_.corrections,
                *({"at": now, "entry": pk, "reason": why} for pk in pks),
            ]
            round_.save(update_fields=["corrections"])
