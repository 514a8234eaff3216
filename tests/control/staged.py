"""A category run in stages for the tests of groups and withdrawals: rounds, entries, results."""

from datetime import UTC, datetime, timedelta

from championship.models import Round
from championship.services import tables_create
from control import rounds
from results.models import Result
from results.services import standings_recompute
from tests import factories

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def staged(championship, layout, *, tables=40):
    """Replace the individual category's rounds by ``layout``; return its rounds by key.

    ``layout``: ``(key, stage, into)`` in order; ``into`` the key of the round fed
    (``None``: the next round).
    """
    category = championship.categories.get(kind="individual")
    category.capacity = None
    category.save()
    category.rounds.all().delete()
    made = {}
    for order, (key, stage, _into) in enumerate(layout, start=1):
        made[key] = Round.objects.create(
            category=category, key=f"individual-{key}", name=key, stage=stage, order=order
        )
    for key, _stage, into in layout:
        if into is not None:
            made[key].into = made[into]
            made[key].save()
    tables_create(championship=championship, count=tables)
    return made


def entrants(championship, count, *, countries=(), prior=False):
    """Create ``count`` official individual entries, registered in turn; return them."""
    category = championship.categories.get(kind="individual")
    made = []
    for index in range(count):
        person = factories.person(championship, region="Rogaland")
        made.append(
            factories.entry(
                category,
                members=[person],
                registered_at=T0 + timedelta(minutes=index),
                represents=countries[index] if index < len(countries) else "",
                prior_ranking=index + 1 if prior else None,
            )
        )
    return made


def advance(round_, kind, count, **settings):
    """Set how entries advance from ``round_`` (written out: no recompute)."""
    Round.objects.filter(pk=round_.pk).update(advance=kind, advance_count=count, **settings)
    round_.refresh_from_db()
    return round_


def run(round_, minutes_of: dict):
    """Start and close a seated round, then record each entry's finish in minutes."""
    rounds.round_start(round_=round_)
    rounds.round_close(round_=round_)
    factories.ran_earlier(round_)
    for result in Result.objects.filter(round=round_):
        result.status, result.time_ms = "finished", minutes_of[result.entry_id] * 60_000
        result.save()
    standings_recompute(round_=round_)
    round_.refresh_from_db()
    return round_


def qualified(round_) -> dict:
    """Return the qualifiers of ``round_``: entry pk → route."""
    return dict(
        Result.objects.filter(round=round_, qualified=True).values_list("entry", "qualified_by")
    )
