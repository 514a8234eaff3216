"""WJPC country places, case by case (the 2024 results, the properties: test_country_places_*)."""

import pytest

from championship.rules.advancement import AdvancementError
from championship.rules.country_places import (
    CLASSIFICATION,
    COUNTRY,
    CountryPlaces,
    Replacement,
    after_withdrawals,
    qualifiers_by_country,
    replacement,
)
from championship.rules.timing import DNS, DSQ, INVALID, PENDING
from tests.rules.advancement_rows import standings

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
