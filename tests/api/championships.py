"""The championships API's tests' material: the URL of a round's results, a finished round."""

from __future__ import annotations

from datetime import date

from championship.models import Round, Seat
from results.models import Result
from results.services import standings_recompute
from tests import factories


def results_url(championship, round_key: str) -> str:
    return f"/api/v1/championships/{championship.slug}/rounds/{round_key}/results/"


def finished_round(championship, count: int, *, consent: bool = True) -> Round:
    """Return the individual final with ``count`` seated, finished entries, standings computed."""
    category = championship.categories.get(kind="individual")
    round_ = category.rounds.get()
    heat = factories.heat(round_, started_at=factories.START, state="running")
    for number in range(1, count + 1):
        member = factories.person(
            championship, name=f"Solver {number}", birth_date=date(1990, 5, 17)
        )
        entry = factories.entry(category, members=[member], publish_consent=consent)
        table = factories.table(championship, number=number)
        Seat.objects.create(heat=heat, table=table, entry=entry)
        Result.objects.create(
            round=round_,
            heat=heat,
            entry=entry,
            status=Result.Status.FINISHED,
            time_ms=(3600 + number * 7) * 1000,
        )
    standings_recompute(round_=round_)
    round_.refresh_from_db()
    return round_
