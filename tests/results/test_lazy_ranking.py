"""The lazy ranking (``standings_ensure``) against the full one (``standings_compute``).

After every capture, whatever it changed, the places, official places,
qualifications and prizes the lazy ranking stores are those that deriving and
ranking the whole round anew gives — although it reads only the results that
may hold a place, and reuses the rows of those that did not change.
"""

import random

import pytest
from django.db.models import F
from django.utils import timezone

from championship.models import Round, Seat
from championship.scoring import OUTCOME_FIELDS, outcome_derive
from registration.models import Entry
from results.models import Result
from results.services import (
    results_for_ranking,
    standings_compute,
    standings_ensure,
    standings_recompute,
)
from tests import factories

pytestmark = pytest.mark.django_db

SIZE = 14
STEPS = 40
# The countries the entries represent, in turn, where the round gives country places:
# the neutral flag counts as one, an entry without a country takes none.
COUNTRIES = ("NO", "SE", "NO", "DK", "neutral", "", "SE")


def _round(championship, *, stage, advance):
    category = championship.categories.get(kind="individual")
    round_ = category.rounds.get()
    Round.objects.filter(pk=round_.pk).update(stage=stage, **advance)
    round_.refresh_from_db()
    heats = [factories.heat(round_, key=key) for key in ("a", "b")]
    for index in range(SIZE):
        # Every third a guest: unofficial under rogaland (not from the region).
        region = "Vestland" if index % 3 == 2 else "Rogaland"
        person = factories.person(championship, region=region)
        entry = factories.entry(
            category,
            members=[person],
            publish_consent=True,
            represents=COUNTRIES[index % len(COUNTRIES)],
        )
        heat = heats[index % 2]
        Seat.objects.create(heat=heat, table=factories.table(championship), entry=entry)
        Result.objects.create(round=round_, heat=heat, entry=entry, status="pending")
    standings_recompute(round_=round_)
    return round_


# What a judge's capture may leave a result as; equal times and counts come often.
def _inputs(rng: random.Random) -> dict:
    clear = {"time_ms": None, "pieces_placed": None, "missing_found": 0, "missing_lost": 0}
    choice = rng.choice(["pending", "finished", "finished", "finished", "unfinished", "dns", "dsq"])
    if choice == "finished":
        minutes = rng.choice([20, 21, 21, 22, 23, 24])
        return {**clear, "status": "finished", "time_ms": minutes * 60_000 + rng.choice([0, 400])}
    if choice == "unfinished":
        return {**clear, "status": "unfinished", "pieces_placed": rng.choice([300, 300, 420])}
    return {**clear, "status": choice}


def _capture(round_: Round, result: Result, inputs: dict) -> None:
    """Change one result the way a capture does: its inputs and outcome, the round's version."""
    for name, value in inputs.items():
        setattr(result, name, value)
    outcome_derive(
        result,
        round_.championship.rules,
        round_.total_pieces,
        limit_ms=round_.time_limit_ms,
        called_ms=result.heat.time_called_ms,
    )
    # Only what a capture writes: the places are the ranking's.
    result.save(update_fields=[*inputs, *OUTCOME_FIELDS])
    Round.objects.filter(pk=round_.pk).update(version=F("version") + 1)


RANKING = ("place", "official_place", "qualified", "qualified_by", "prize")


def _stored(round_: Round) -> dict:
    return {
        pk: (place, official_place, bool(qualified), qualified_by, prize)
        for pk, place, official_place, qualified, qualified_by, prize in Result.objects.filter(
            round=round_
        ).values_list("pk", *RANKING)
    }


def _ranked_anew(round_: Round) -> dict:
    fresh = Round.objects.select_related("category__championship").get(pk=round_.pk)
    return {
        result.pk: (
            result.place,
            result.official_place,
            bool(result.qualified),
            result.qualified_by,
            result.prize,
        )
        for result in standings_compute(fresh, results_for_ranking(fresh))
    }


@pytest.mark.parametrize(
    ("stage", "state", "advance"),
    [
        (Round.Stage.PRELIM, Round.State.RUNNING, {"advance": "overall", "advance_count": 4}),
        (
            Round.Stage.PRELIM,
            Round.State.RUNNING,
            {"advance": "per_heat", "advance_count": 2, "advance_best_remaining": 2},
        ),
        # Country places: the first two countries' best, then by classification up to 5.
        (
            Round.Stage.PRELIM,
            Round.State.RUNNING,
            {
                "advance": "country",
                "advance_count": 5,
                "advance_country_places": 2,
                "advance_country_requires_completion": True,
            },
        ),
        # A final whose time is up: prizes are given.
        (Round.Stage.FINAL, Round.State.CLOSED, {"advance": "none"}),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lazy_ranking_stores_what_ranking_the_whole_round_anew_gives(
    championship, stage, state, advance, seed
):
    rng = random.Random(seed)
    round_ = _round(championship, stage=stage, advance=advance)
    Round.objects.filter(pk=round_.pk).update(state=state)
    results = list(Result.objects.filter(round=round_).select_related("entry"))
    placed_seen = set()
    for step in range(STEPS):
        chosen = rng.choice(results)
        if step % 9 == 8:
            # An entry withdrawn, or back again: its result is kept, never ranked.
            withdrawn = chosen.entry.status != Entry.Status.WITHDRAWN
            Entry.objects.filter(pk=chosen.entry_id).update(
                status=Entry.Status.WITHDRAWN if withdrawn else Entry.Status.CONFIRMED,
                withdrawn_at=timezone.now() if withdrawn else None,
            )
            chosen.entry.status = Entry.Status.WITHDRAWN if withdrawn else Entry.Status.CONFIRMED
            Round.objects.filter(pk=round_.pk).update(version=F("version") + 1)
        else:
            _capture(round_, chosen, _inputs(rng))
        round_.refresh_from_db()
        assert standings_ensure(round_) is True
        stored = _stored(round_)
        assert stored == _ranked_anew(round_), f"step {step}"
        placed_seen |= {pk for pk, (place, *_rest) in stored.items() if place is not None}
    # The sequence did what it is for: results placed, then some of them no longer.
    assert placed_seen and len(placed_seen) > len(
        [pk for pk, (place, *_rest) in _stored(round_).items() if place is not None]
    )


def test_a_country_round_stores_each_qualifiers_route(championship):
    advance = {
        "advance": "country",
        "advance_count": 5,
        "advance_country_places": 2,
        "advance_country_requires_completion": True,
    }
    round_ = _round(championship, stage=Round.Stage.PRELIM, advance=advance)
    # Entry n finishes in 20 + n minutes: the first two countries by place are Norway
    # (entry 0) and Sweden (entry 1); the rest go by classification.
    results = list(Result.objects.filter(round=round_).select_related("entry").order_by("pk"))
    for index, result in enumerate(results):
        inputs = {"status": "finished", "time_ms": (20 + index) * 60_000, "pieces_placed": None}
        inputs |= {"missing_found": 0, "missing_lost": 0}
        _capture(round_, result, inputs)
    round_.refresh_from_db()
    standings_ensure(round_)
    qualified = list(
        Result.objects.filter(round=round_, qualified=True)
        .order_by("place")
        .values_list("place", "entry__represents", "qualified_by")
    )
    assert qualified == [
        (1, "NO", "country"),
        (2, "SE", "country"),
        (3, "NO", "classification"),
        (4, "DK", "classification"),
        (5, "neutral", "classification"),
    ]
    assert _stored(round_) == _ranked_anew(round_)
