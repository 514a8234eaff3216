"""sm's guests under per-heat advancement, through the ranking service (RULES.md, "Advancement").

"Kvalificering till nästkommande omgång för internationella deltagare utom tävlan sker
genom att de deltagare som har en bättre tid än sista kvalificerade svensk går vidare
till final": with a number per heat, a guest advances only if better than the last Swede
qualified from its own heat.
"""

import pytest

from championship.models import Round
from results.models import Result
from results.services import standings_recompute
from tests import factories

pytestmark = pytest.mark.django_db


def minutes(value):
    return value * 60 * 1000


def test_sm_guests_advance_only_past_the_last_swede_qualified_from_their_own_heat():
    sm = factories.championship(slug="pussel-sm", ruleset="sm")
    individual = sm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    Round.objects.filter(pk=prelim.pk).update(
        advance=Round.Advance.PER_HEAT, advance_count=2, advance_best_remaining=0
    )
    prelim.refresh_from_db()
    heats = {"A": factories.heat(prelim, key="a"), "B": factories.heat(prelim, key="b")}
    entries = {}

    def puzzler(name, citizenship, heat, finished_in):
        person = factories.person(sm, name=name, citizenship=[citizenship])
        entries[name] = factories.entry(individual, members=[person], name=name)
        Result.objects.create(
            round=prelim,
            heat=heats[heat],
            entry=entries[name],
            status="finished",
            time_ms=minutes(finished_in),
        )

    # Heat A: the two best Swedes advance (20:00 and 22:00); the 25:00 Swede does not.
    puzzler("Astrid", "SE", "A", 20)
    puzzler("Bertil", "SE", "A", 22)
    puzzler("Cecilia", "SE", "A", 25)
    puzzler("Ola", "NO", "A", 19)  # better than heat A's last qualifier
    puzzler("Kari", "NO", "A", 22)  # equal to it
    puzzler("Mette", "DK", "A", 30)  # behind the 25:00 Swede who stays
    # Heat B is slower: its two best Swedes advance with 40:00 and 50:00.
    puzzler("David", "SE", "B", 40)
    puzzler("Elsa", "SE", "B", 50)
    puzzler("Fredrik", "SE", "B", 55)
    puzzler("Jens", "DK", "B", 45)  # better than heat B's last qualifier
    puzzler("Nora", "NO", "B", 52)  # behind it

    standings_recompute(round_=prelim)

    results = {r.entry.name: r for r in Result.objects.filter(round=prelim).select_related("entry")}
    assert {name for name, r in results.items() if not r.official} == {
        "Ola",
        "Kari",
        "Mette",
        "Jens",
        "Nora",
    }
    assert {name for name, r in results.items() if r.qualified} == {
        "Astrid",
        "Bertil",
        "David",
        "Elsa",
        "Ola",
        "Jens",
    }
