"""WJPC country places: the rule case by case, on the 2024 results, and its properties."""

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from championship.rules.advancement import QUALIFYING, AdvancementError
from championship.rules.country_places import (
    CLASSIFICATION,
    COUNTRY,
    CountryPlaces,
    Replacement,
    after_withdrawals,
    qualifiers_by_country,
    replacement,
)
from championship.rules.ranking import rank, rank_key
from championship.rules.timing import COMPLETED, DNS, DSQ, INVALID, PENDING
from tests.depth import examples
from tests.rules.advancement_rows import standings
from tests.rules.wjpc2024 import ROUNDS, ranked

C, R = COUNTRY, CLASSIFICATION


def table(*rows):
    """Rows of (entry, result, country): results as ``advancement_rows.standings`` reads them.

    A country of ``None`` leaves the entry out of the countries (it has none).
    """
    ranked_rows = standings(*((entry, result, None, True) for entry, result, _ in rows))
    return ranked_rows, {entry: country for entry, _, country in rows if country is not None}


def chosen(rows, **params):
    """Return the qualifiers of ``rows`` (``table``) with their routes, in standing order."""
    ranked_rows, country_of = table(*rows)
    return list(qualifiers_by_country(ranked_rows, country_of, CountryPlaces(**params)).items())


# Country places first, then the classification ------------------------------------------

GERMANS_FIRST = [
    ("a1", 100, "DE"),
    ("a2", 110, "DE"),
    ("a3", 120, "DE"),
    ("b1", 130, "FR"),
    ("c1", 140, "IT"),
    ("d1", 150, "ES"),
]


def test_country_places_go_in_order_of_place_and_k_limits_them():
    # The first two countries by place (Germany, France) take their places; the rest of
    # the four places go by classification. Italy and Spain have none left.
    assert chosen(GERMANS_FIRST, places=4, country_places=2, requires_completion=False) == [
        ("a1", C),
        ("a2", R),
        ("a3", R),
        ("b1", C),
    ]
    assert chosen(GERMANS_FIRST, places=4, country_places=3, requires_completion=False) == [
        ("a1", C),
        ("a2", R),
        ("b1", C),
        ("c1", C),
    ]


def test_every_country_then_the_rest():
    assert chosen(GERMANS_FIRST, places=6, country_places=None, requires_completion=False) == [
        ("a1", C),
        ("a2", R),
        ("a3", R),
        ("b1", C),
        ("c1", C),
        ("d1", C),
    ]


def test_no_country_places_is_the_classification():
    assert chosen(GERMANS_FIRST, places=3, country_places=0, requires_completion=False) == [
        ("a1", R),
        ("a2", R),
        ("a3", R),
    ]


@pytest.mark.parametrize("country_places", [2, 5, None])
def test_country_places_beyond_t_are_given_out_of_the_t_places(country_places):
    """K ≥ T: the first T country places, and no place by classification."""
    assert chosen(
        GERMANS_FIRST, places=2, country_places=country_places, requires_completion=False
    ) == [("a1", C), ("b1", C)]


PAIRS_OF_COUNTRIES = [
    ("a1", 100, "DE"),
    ("a2", 110, "DE"),
    ("a3", 120, "DE"),
    ("a4", 130, "DE"),
    ("b1", 140, "FR"),
    ("b2", 150, "FR"),
    ("b3", 160, "FR"),
    ("c1", 170, "IT"),
]


def test_two_per_country():
    """2022: the best two of each country, then the rest."""
    assert chosen(
        PAIRS_OF_COUNTRIES, places=6, country_places=None, requires_completion=False, per_country=2
    ) == [("a1", C), ("a2", C), ("a3", R), ("b1", C), ("b2", C), ("c1", C)]


def test_two_per_country_counts_the_k_places_in_entries_by_place():
    assert chosen(
        PAIRS_OF_COUNTRIES, places=6, country_places=3, requires_completion=False, per_country=2
    ) == [("a1", C), ("a2", C), ("a3", R), ("a4", R), ("b1", C), ("b2", R)]


# A completed puzzle --------------------------------------------------------------------

NO_FRENCH_FINISHER = [
    ("a1", 100, "DE"),
    ("a2", 110, "DE"),
    ("a3", 120, "DE"),
    ("b1", ("pieces", 500), "FR"),  # every piece, but "TIME" after the limit
    ("b2", ("pieces", 490), "FR"),
]


def test_without_a_finisher_a_country_gets_no_country_place():
    assert chosen(NO_FRENCH_FINISHER, places=3, country_places=2, requires_completion=True) == [
        ("a1", C),
        ("a2", R),
        ("a3", R),
    ]
    # Without the condition France's best, unfinished, takes France's place.
    assert chosen(NO_FRENCH_FINISHER, places=3, country_places=2, requires_completion=False) == [
        ("a1", C),
        ("a2", R),
        ("b1", C),
    ]


def test_without_a_finisher_a_country_can_still_qualify_by_classification():
    assert chosen(NO_FRENCH_FINISHER, places=4, country_places=2, requires_completion=True) == [
        ("a1", C),
        ("a2", R),
        ("a3", R),
        ("b1", R),
    ]


def test_the_countrys_best_finisher_takes_its_place():
    rows = [*NO_FRENCH_FINISHER, ("b3", 300, "FR")]
    assert chosen(rows, places=3, country_places=2, requires_completion=True) == [
        ("a1", C),
        ("a2", R),
        ("b3", C),
    ]


# Ties ----------------------------------------------------------------------------------


def test_everyone_tied_at_the_last_place_by_classification_goes_on():
    rows = [
        ("a1", 100, "DE"),
        ("a2", 110, "DE"),
        ("a3", 120, "DE"),
        ("a4", 120, "DE"),
        ("a5", 130, "DE"),
    ]
    assert chosen(rows, places=3, country_places=1, requires_completion=True) == [
        ("a1", C),
        ("a2", R),
        ("a3", R),
        ("a4", R),
    ]


def test_countries_tied_at_the_last_country_place_all_get_one_on_top():
    """France and Italy are tied at the second country place: both go on, on top of T.

    A German tied with them gains nothing: Germany holds its place already.
    """
    rows = [
        ("a1", 100, "DE"),
        ("a2", 110, "DE"),
        ("a3", 120, "DE"),
        ("a4", 125, "DE"),
        ("b1", 200, "FR"),
        ("c1", 200, "IT"),
        ("a5", 200, "DE"),
        ("d1", 300, "ES"),
    ]
    assert chosen(rows, places=4, country_places=2, requires_completion=True) == [
        ("a1", C),
        ("a2", R),
        ("a3", R),
        ("b1", C),
        ("c1", C),
    ]


def test_compatriots_tied_for_their_countrys_place_share_it():
    """Two Germans tied for Germany's best: one country place, both take it, one on top."""
    rows = [
        ("a1", 100, "DE"),
        ("a2", 100, "DE"),
        ("b1", 110, "FR"),
        ("c1", 120, "IT"),
        ("a3", 130, "DE"),
        ("d1", 140, "ES"),
    ]
    assert chosen(rows, places=3, country_places=2, requires_completion=True) == [
        ("a1", C),
        ("a2", C),
        ("b1", C),
        ("c1", R),
    ]


# Countries -----------------------------------------------------------------------------

NEUTRALS = [
    ("a1", 100, "DE"),
    ("a2", 110, "DE"),
    ("n1", 200, "neutral"),
    ("n2", 210, "neutral"),
    ("b1", 300, "FR"),
]


def test_the_neutral_flag_counts_as_a_country():
    assert chosen(NEUTRALS, places=3, country_places=2, requires_completion=True) == [
        ("a1", C),
        ("a2", R),
        ("n1", C),
    ]


def test_entries_without_a_country_take_no_country_place_but_can_qualify_by_classification():
    rows = [
        ("x1", 100, None),
        ("y1", 105, ""),
        ("a1", 110, "DE"),
        ("b1", 300, "FR"),
    ]
    assert chosen(rows, places=3, country_places=2, requires_completion=True) == [
        ("x1", R),
        ("a1", C),
        ("b1", C),
    ]
    assert chosen(rows, places=4, country_places=2, requires_completion=True) == [
        ("x1", R),
        ("y1", R),
        ("a1", C),
        ("b1", C),
    ]


@pytest.mark.parametrize("requires_completion", [True, False])
def test_invalid_pending_not_started_and_disqualified_never_qualify(requires_completion):
    rows = [
        ("a1", 100, "DE"),
        ("e1", INVALID, "ES"),
        ("i1", PENDING, "IT"),
        ("p1", DNS, "PT"),
        ("n1", DSQ, "NL"),
        ("a2", ("pieces", 10), "DE"),
    ]
    assert chosen(
        rows, places=10, country_places=None, requires_completion=requires_completion
    ) == [("a1", C), ("a2", R)]


# 2025: countries without a qualifier ---------------------------------------------------

FOR_2025 = [
    ("a1", 100, "DE"),
    ("a2", 110, "DE"),
    ("b1", 120, "FR"),
    ("c1", 200, "IT"),
    ("c2", 210, "IT"),
    ("d1", 300, "ES"),
    ("e1", 400, "PT"),
]


def test_2025_first_t_by_classification_then_countries_without_a_qualifier():
    params = dict(requires_completion=True, only_countries_without_qualifier=True)
    assert chosen(FOR_2025, places=2, country_places=2, **params) == [
        ("a1", R),
        ("a2", R),
        ("b1", C),
        ("c1", C),
    ]
    # France qualified by classification: the country places go to Italy and Spain.
    assert chosen(FOR_2025, places=3, country_places=2, **params) == [
        ("a1", R),
        ("a2", R),
        ("b1", R),
        ("c1", C),
        ("d1", C),
    ]
    assert chosen(FOR_2025, places=3, country_places=None, **params) == [
        ("a1", R),
        ("a2", R),
        ("b1", R),
        ("c1", C),
        ("d1", C),
        ("e1", C),
    ]


# Interchange ---------------------------------------------------------------------------


def test_interchange_spelling():
    data = {"places": 90, "country_places": "all", "country_place_requires_completion": True}
    params = CountryPlaces.from_dict(data)
    assert params == CountryPlaces(90, None, True)
    assert params.to_dict() == data
    full = {
        "places": 85,
        "country_places": 15,
        "country_place_requires_completion": False,
        "per_country": 2,
        "only_countries_without_qualifier": True,
    }
    assert CountryPlaces.from_dict(full).to_dict() == full


BASE = {"places": 60, "country_places": 30, "country_place_requires_completion": True}


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [
        ({"places": 0}, "places", "invalid"),
        ({"places": True}, "places", "invalid"),
        ({"places": "60"}, "places", "invalid"),
        ({"country_places": -1}, "country_places", "invalid"),
        ({"country_places": "some"}, "country_places", "invalid"),
        ({"country_places": None}, "country_places", "invalid"),
        ({"per_country": 0}, "per_country", "invalid"),
        (
            {"country_place_requires_completion": "yes"},
            "country_place_requires_completion",
            "invalid",
        ),
        ({"only_countries_without_qualifier": 1}, "only_countries_without_qualifier", "invalid"),
        ({"best_remaining": 2}, "best_remaining", "unknown"),
        ({"places": None}, "places", "missing"),
        (
            {"country_place_requires_completion": None},
            "country_place_requires_completion",
            "missing",
        ),
    ],
)
def test_bad_settings_are_refused(change, field, code):
    """A setting given as ``None`` here is left out."""
    data = {key: value for key, value in {**BASE, **change}.items() if value is not None}
    if change == {"country_places": None}:
        data["country_places"] = None
    with pytest.raises(AdvancementError) as raised:
        CountryPlaces.from_dict(data)
    assert (raised.value.field, raised.value.code) == (field, code)


# A qualifier who does not start --------------------------------------------------------

KIWIS = [
    ("a1", 100, "DE"),
    ("a2", 110, "DE"),
    ("a3", 120, "DE"),
    ("a4", 130, "DE"),
    ("z1", 200, "NZ"),
    ("b1", 250, "FR"),
    ("z2", 300, "NZ"),
    ("b2", ("pieces", 480), "FR"),
    ("z3", ("pieces", 470), "NZ"),
]
KIWI_PLACES = CountryPlaces(places=4, country_places=3, requires_completion=True)


def kiwis():
    """Return the standings, countries and qualifiers of ``KIWIS``."""
    ranked_rows, country_of = table(*KIWIS)
    qualified = qualifiers_by_country(ranked_rows, country_of, KIWI_PLACES)
    assert qualified == {"a1": C, "a2": R, "z1": C, "b1": C}
    return ranked_rows, country_of, qualified


def test_a_country_place_passes_to_the_next_of_that_country():
    """New Zealand, 2024: the next New Zealander takes the place, by country."""
    ranked_rows, country_of, qualified = kiwis()
    assert replacement(ranked_rows, country_of, KIWI_PLACES, qualified, "z1") == Replacement(
        ("z2",), C
    )
    assert after_withdrawals(ranked_rows, country_of, KIWI_PLACES, qualified, ["z1"]) == {
        "a1": C,
        "a2": R,
        "b1": C,
        "z2": C,
    }


def test_a_country_with_nobody_left_passes_its_place_on_by_classification():
    """Egypt, 2024: France's only finisher withdraws; France's other entry did not finish."""
    ranked_rows, country_of, qualified = kiwis()
    assert replacement(ranked_rows, country_of, KIWI_PLACES, qualified, "b1") == Replacement(
        ("a3",), R
    )
    # Where a country place needs no completed puzzle, the unfinished Frenchman takes it.
    params = CountryPlaces(places=4, country_places=3, requires_completion=False)
    assert replacement(ranked_rows, country_of, params, qualified, "b1") == Replacement(("b2",), C)


def test_a_classification_qualifier_is_replaced_by_classification():
    ranked_rows, country_of, qualified = kiwis()
    assert replacement(ranked_rows, country_of, KIWI_PLACES, qualified, "a2") == Replacement(
        ("a3",), R
    )


def test_a_compatriot_already_in_takes_the_country_place_and_frees_a_place_by_classification():
    """Germany's best withdraws while Germany's second is in by classification."""
    ranked_rows, country_of, qualified = kiwis()
    assert replacement(ranked_rows, country_of, KIWI_PLACES, qualified, "a1") == Replacement(
        ("a3",), R, ("a2",)
    )
    assert after_withdrawals(ranked_rows, country_of, KIWI_PLACES, qualified, ["a1"]) == {
        "a2": C,
        "a3": R,
        "z1": C,
        "b1": C,
    }


def test_with_two_per_country_the_place_passes_to_the_next_without_one():
    """2022: the country's second keeps its own place; the third takes the one freed."""
    ranked_rows, country_of = table(*PAIRS_OF_COUNTRIES)
    params = CountryPlaces(places=5, country_places=None, requires_completion=True, per_country=2)
    qualified = qualifiers_by_country(ranked_rows, country_of, params)
    assert qualified == {"a1": C, "a2": C, "b1": C, "b2": C, "c1": C}
    assert replacement(ranked_rows, country_of, params, qualified, "a1") == Replacement(("a3",), C)


def test_withdrawals_in_turn_never_bring_back_a_withdrawn_entry():
    ranked_rows, country_of, qualified = kiwis()
    assert after_withdrawals(ranked_rows, country_of, KIWI_PLACES, qualified, ["z1", "z2"]) == {
        "a1": C,
        "a2": R,
        "a3": R,
        "b1": C,
    }
    assert replacement(
        ranked_rows, country_of, KIWI_PLACES, {**qualified, "z2": C}, "z2", absent=["z1"]
    ) == Replacement(("a3",), R)
    with pytest.raises(AdvancementError) as raised:
        after_withdrawals(ranked_rows, country_of, KIWI_PLACES, qualified, ["z1", "z1"])
    assert (raised.value.field, raised.value.code) == ("withdrawn", "not_qualified")


def test_everyone_tied_for_a_replacement_place_goes_on():
    rows = [
        ("a1", 100, "DE"),
        ("b1", 110, "FR"),
        ("a2", 120, "DE"),
        ("c1", 120, "IT"),
        ("b2", 130, "FR"),
        ("b3", 130, "FR"),
    ]
    ranked_rows, country_of = table(*rows)
    params = CountryPlaces(places=2, country_places=2, requires_completion=True)
    qualified = qualifiers_by_country(ranked_rows, country_of, params)
    assert qualified == {"a1": C, "b1": C}
    # Germany's next and an Italian tie for the place by classification.
    assert replacement(ranked_rows, country_of, params, qualified, "a1") == Replacement(("a2",), C)
    assert replacement(ranked_rows, country_of, params, {"a1": R, "b1": C}, "a1") == Replacement(
        ("a2", "c1"), R
    )
    # Two Frenchmen tie for France's place.
    assert replacement(ranked_rows, country_of, params, qualified, "b1") == Replacement(
        ("b2", "b3"), C
    )


def test_when_nobody_is_left_nobody_takes_the_place():
    ranked_rows, country_of = table(("a1", 100, "DE"), ("b1", DNS, "FR"))
    params = CountryPlaces(places=2, country_places=None, requires_completion=True)
    qualified = qualifiers_by_country(ranked_rows, country_of, params)
    assert replacement(ranked_rows, country_of, params, qualified, "a1") == Replacement((), None)
    with pytest.raises(AdvancementError):
        replacement(ranked_rows, country_of, params, qualified, "b1")


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


# Properties ----------------------------------------------------------------------------

any_results = st.one_of(
    st.integers(60, 66),
    st.tuples(st.just("pieces"), st.integers(440, 443)),
    st.sampled_from([INVALID, PENDING, DNS, DSQ]),
)
countries = st.sampled_from(["DE", "FR", "IT", "NZ", "neutral", "", None])
round_rows = st.lists(st.tuples(any_results, countries), max_size=25)


def numbered(rows):
    """Return the ``table`` of ``rows`` of (result, country), the entries numbered in order."""
    return table(*((index, result, land) for index, (result, land) in enumerate(rows)))


rounds = round_rows.map(numbered)
all_params = st.builds(
    CountryPlaces,
    places=st.integers(1, 8),
    country_places=st.none() | st.integers(0, 8),
    requires_completion=st.booleans(),
    per_country=st.integers(1, 3),
    only_countries_without_qualifier=st.booleans(),
)


def can_take_a_country_place(standing, country_of, params):
    return bool(country_of.get(standing.entry)) and (
        standing.outcome.kind == COMPLETED
        if params.requires_completion
        else standing.outcome.kind in QUALIFYING
    )


def within(keys, count):
    """Return the key of the ``count``-th of ``keys`` (sorted), or of the last; ``None`` if none."""
    if not keys or (count is not None and count <= 0):
        return None
    return sorted(keys)[len(keys) - 1 if count is None else min(count, len(keys)) - 1]


def country_places_by_the_rulebook(candidates, country_of, params, count):
    """Return the entries that take a country place among ``candidates``, and the places filled.

    Worked out afresh from the rule's words and the module's decisions, by thresholds on keys.
    """
    by_country = {}
    for s in candidates:
        if can_take_a_country_place(s, country_of, params):
            by_country.setdefault(country_of[s.entry], []).append(s)
    holders, counted_keys = [], []
    for members in by_country.values():
        keys = sorted(rank_key(s.outcome) for s in members)
        counted_keys += keys[: params.per_country]
        last = keys[min(params.per_country, len(keys)) - 1]
        holders += [s for s in members if rank_key(s.outcome) <= last]
    cut = within(counted_keys, count)
    chosen = {s.entry for s in holders if cut is not None and rank_key(s.outcome) <= cut}
    filled = len(counted_keys) if count is None else min(count, len(counted_keys))
    return chosen, filled


def qualifiers_by_the_rulebook(table_, country_of, params):
    """Return the qualifiers by route, worked out afresh (see above)."""
    valid = [s for s in table_ if s.outcome.kind in QUALIFYING]
    if params.only_countries_without_qualifier:
        cut = within([rank_key(s.outcome) for s in valid], params.places)
        first = {s.entry for s in valid if rank_key(s.outcome) <= cut} if cut else set()
        held = {country_of.get(entry) for entry in first}
        rest = [s for s in valid if s.entry not in first and country_of.get(s.entry) not in held]
        by_country, _ = country_places_by_the_rulebook(
            rest, country_of, params, params.country_places
        )
        return by_country, first
    count = min(params.places, params.country_places or params.places)
    if params.country_places == 0:
        count = 0
    by_country, filled = country_places_by_the_rulebook(valid, country_of, params, count)
    rest = [s for s in valid if s.entry not in by_country]
    cut = within([rank_key(s.outcome) for s in rest], params.places - filled)
    by_classification = {s.entry for s in rest if cut is not None and rank_key(s.outcome) <= cut}
    return by_country, by_classification


@settings(max_examples=examples(deep=1000, quick=200))
@given(rounds, all_params)
def test_the_qualifiers_are_those_of_the_rulebook(round_, params):
    table_, country_of = round_
    chosen = qualifiers_by_country(table_, country_of, params)
    by_country, by_classification = qualifiers_by_the_rulebook(table_, country_of, params)
    assert {e for e, route in chosen.items() if route == COUNTRY} == by_country
    assert {e for e, route in chosen.items() if route == CLASSIFICATION} == by_classification
    # In standing order.
    assert list(chosen) == [s.entry for s in table_ if s.entry in chosen]


@given(rounds, all_params)
def test_qualifiers_have_valid_results_and_fill_the_places(round_, params):
    table_, country_of = round_
    chosen = qualifiers_by_country(table_, country_of, params)
    valid = [s for s in table_ if s.outcome.kind in QUALIFYING]
    assert all(s.outcome.kind in QUALIFYING for s in table_ if s.entry in chosen)
    assert len(chosen) >= min(params.places, len(valid))
    # No one is passed over by the classification: everyone at least as good as the
    # worst qualifier by classification qualifies.
    by_classification = [rank_key(s.outcome) for s in valid if chosen.get(s.entry) == R]
    if by_classification:
        worst = max(by_classification)
        assert all(s.entry in chosen for s in valid if rank_key(s.outcome) <= worst)


@given(rounds, all_params)
def test_country_places_go_to_each_countrys_best_in_order_and_only_ties_exceed_them(round_, params):
    table_, country_of = round_
    chosen = qualifiers_by_country(table_, country_of, params)
    holders = [s for s in table_ if chosen.get(s.entry) == C]
    for s in holders:
        assert can_take_a_country_place(s, country_of, params)
    per_country = {}
    for s in holders:
        per_country.setdefault(country_of[s.entry], []).append(rank_key(s.outcome))
    for keys in per_country.values():
        # Beyond ``per_country``, only those tied with the country's last.
        assert all(key == keys[params.per_country - 1] for key in keys[params.per_country :])
    if not holders:
        return
    worst = max(rank_key(s.outcome) for s in holders)
    better = {land: sum(1 for key in keys if key < worst) for land, keys in per_country.items()}
    filled = sum(min(params.per_country, n) for n in better.values())
    k = params.country_places
    if not params.only_countries_without_qualifier:
        k = params.places if k is None else min(k, params.places)
    assert k is None or filled < k
    # Every country whose best could take a place better than the last country place has one,
    # unless (2025) it had a qualifier by classification.
    for s in table_:
        if can_take_a_country_place(s, country_of, params) and rank_key(s.outcome) < worst:
            land = country_of[s.entry]
            assert land in per_country or any(
                country_of.get(entry) == land for entry, route in chosen.items() if route == R
            )


@given(round_rows, all_params, any_results, countries)
def test_a_worse_entry_taking_no_country_place_removes_no_qualifier(rows, params, result, land):
    """An entry worse than every other, that takes no country place, only ever adds itself."""
    before_table, before_countries = numbered(rows)
    after_table, after_countries = numbered([*rows, (result, land)])
    (newcomer,) = (s for s in after_table if s.entry == len(rows))
    worst = max((rank_key(s.outcome) for s in before_table), default=None)
    if worst is not None and rank_key(newcomer.outcome) < worst:
        return
    if can_take_a_country_place(newcomer, after_countries, params):
        places = [s for s in before_table if can_take_a_country_place(s, before_countries, params)]
        if sum(before_countries[s.entry] == land for s in places) < params.per_country:
            return
    before = qualifiers_by_country(before_table, before_countries, params)
    after = qualifiers_by_country(after_table, after_countries, params)
    assert {entry: route for entry, route in after.items() if entry != newcomer.entry} == before


@given(round_rows, all_params, st.data())
def test_a_replacement_fills_the_place_by_the_rule(rows, params, data):
    table_, country_of = numbered(rows)
    qualified = qualifiers_by_country(table_, country_of, params)
    if not qualified:
        return
    withdrawn = data.draw(st.sampled_from(sorted(qualified)))
    taken = replacement(table_, country_of, params, qualified, withdrawn)
    keys = {s.entry: rank_key(s.outcome) for s in table_}
    left = [
        s
        for s in table_
        if s.outcome.kind in QUALIFYING and s.entry not in qualified and s.entry != withdrawn
    ]
    # Someone takes the place whenever someone is left, and only those left.
    assert bool(taken.entries) == bool(left) or taken.route == COUNTRY
    assert set(taken.entries) <= {s.entry for s in left}
    assert set(taken.promoted) <= {e for e, route in qualified.items() if route == R}
    assert len({keys[entry] for entry in taken.entries}) <= 1
    land = country_of.get(withdrawn)
    if taken.route == COUNTRY:
        assert qualified[withdrawn] == COUNTRY
        for s in table_:
            if s.entry in taken.entries:
                assert country_of[s.entry] == land
                assert can_take_a_country_place(s, country_of, params)
    elif taken.entries:
        # The best left, and all tied with it.
        assert {s.entry for s in left if keys[s.entry] == min(keys[t.entry] for t in left)} == (
            set(taken.entries)
        )
    after = after_withdrawals(table_, country_of, params, qualified, [withdrawn])
    assert withdrawn not in after
    assert list(after) == [s.entry for s in table_ if s.entry in after]
    assert len(after) >= len(qualified) - (0 if left else 1)
    # A country that held a country place keeps one while it has an entry to take it.
    if qualified[withdrawn] == COUNTRY and any(
        country_of.get(s.entry) == land and can_take_a_country_place(s, country_of, params)
        for s in table_
        if s.entry != withdrawn and s.outcome.kind in QUALIFYING
    ):
        assert any(country_of.get(e) == land for e, route in after.items() if route == COUNTRY)
