"""WJPC country places on the 2024 individual results: the real semifinal and final fields."""

from functools import cache

import pytest

from championship.rules.country_places import (
    CLASSIFICATION,
    COUNTRY,
    CountryPlaces,
    after_withdrawals,
    qualifiers_by_country,
    replacement,
)
from championship.rules.ranking import rank
from tests.rules.wjpc2024 import ROUNDS, ranked

C, R = COUNTRY, CLASSIFICATION


# The 2024 results ----------------------------------------------------------------------

GROUP_PLACES = CountryPlaces(places=60, country_places=30, requires_completion=True)
SEMIFINAL_PLACES = CountryPlaces(places=90, country_places=None, requires_completion=True)
FEEDS = {"S1": "ABC", "S2": "DEF"}
NEUTRAL = "International Puzzlers"


def country(name: str) -> str:
    """The country of a published row: the neutral flag is a country like any other."""
    return "neutral" if name == NEUTRAL else name


@cache
def published(competition: str, *, neutral_is_a_country: bool = True):
    """Return a 2024 round's standings and each entry's country; an entry is (name, country)."""
    rows = [row for _, row in ROUNDS[f"individual_{competition}"]]
    entries = [(row["name"], row["country"]) for row in rows]
    assert len(set(entries)) == len(entries)
    country_of = {
        entry: country(row["country"]) if neutral_is_a_country or row["country"] != NEUTRAL else ""
        for entry, row in zip(entries, rows, strict=True)
    }
    return rank(ranked(entry, row) for entry, row in zip(entries, rows, strict=True)), country_of


def field(competition: str) -> set:
    """Return the entries that started a 2024 round."""
    return set(published(competition)[1])


def group_qualifiers(params=GROUP_PLACES, **reading) -> dict:
    """Return every group's qualifiers, by group."""
    return {
        group: qualifiers_by_country(*published(group, **reading), params) for group in "ABCDEF"
    }


def test_the_groups_send_exactly_the_published_semifinal_field():
    by_group = group_qualifiers()
    semifinalists = field("S1") | field("S2")
    ours = set().union(*by_group.values())
    assert len(semifinalists) == 361
    assert ours == semifinalists, (sorted(ours - semifinalists), sorted(semifinalists - ours))
    assert {group: len(chosen) for group, chosen in by_group.items()} == {
        "A": 60,
        "B": 60,
        "C": 60,
        "D": 61,  # a tie at the last place by classification
        "E": 60,
        "F": 60,
    }


@pytest.mark.parametrize(("semifinal", "group"), [(s, g) for s, gs in FEEDS.items() for g in gs])
def test_each_group_feeds_its_semifinal(semifinal, group):
    assert set(group_qualifiers()[group]) <= field(semifinal)


@pytest.mark.parametrize(
    "reading",
    [
        {"params": CountryPlaces(places=60, country_places=30, requires_completion=False)},
        {"neutral_is_a_country": False},
    ],
    ids=["without-completion", "neutral-without-country"],
)
def test_the_results_are_read_with_completion_and_the_neutral_flag_as_a_country(reading):
    """Each reading is needed: without it the semifinal field comes out different."""
    ours = set().union(*group_qualifiers(**reading).values())
    assert ours != field("S1") | field("S2")


def semifinal_qualifiers() -> dict:
    """Return each semifinal's qualifiers, by semifinal."""
    return {s: qualifiers_by_country(*published(s), SEMIFINAL_PLACES) for s in FEEDS}


def test_the_semifinals_send_178_of_the_180_finalists_and_two_who_did_not_start():
    finalists = field("final")
    by_semifinal = semifinal_qualifiers()
    ours = set().union(*by_semifinal.values())
    assert len(finalists) == 180
    assert len(ours) == 180
    assert len(ours & finalists) == 178
    not_started = ours - finalists
    assert {entry[1] for entry in not_started} == {"New Zealand", "Egypt"}, not_started
    # Each held a country place.
    routes = {entry: route for chosen in by_semifinal.values() for entry, route in chosen.items()}
    assert {routes[entry] for entry in not_started} == {COUNTRY}, not_started


def test_replacing_the_two_who_did_not_start_gives_the_published_final():
    finalists = field("final")
    assert finalists <= field("S1") | field("S2")
    for semifinal, qualified in semifinal_qualifiers().items():
        ranked_rows, country_of = published(semifinal)
        not_started = sorted(set(qualified) - finalists)
        assert len(not_started) == 1
        (absent,) = not_started
        taken = replacement(ranked_rows, country_of, SEMIFINAL_PLACES, qualified, absent)
        if absent[1] == "New Zealand":
            # The country place passes to the next New Zealander.
            assert taken.route == COUNTRY, (absent, taken)
            assert [country_of[entry] for entry in taken.entries] == ["New Zealand"]
        else:
            # Egypt had nobody left: the place goes by classification.
            assert not [e for e, c in country_of.items() if c == "Egypt" and e != absent]
            assert taken.route == CLASSIFICATION, (absent, taken)
            assert len(taken.entries) == 1
        after = after_withdrawals(ranked_rows, country_of, SEMIFINAL_PLACES, qualified, [absent])
        assert set(after) == finalists & set(country_of), (semifinal, absent, taken)
