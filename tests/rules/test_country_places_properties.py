"""WJPC country places: properties of the rule, against an implementation read from the rulebook."""

from hypothesis import given, settings
from hypothesis import strategies as st

from championship.rules.advancement import QUALIFYING
from championship.rules.country_places import (
    CLASSIFICATION,
    COUNTRY,
    CountryPlaces,
    after_withdrawals,
    qualifiers_by_country,
    replacement,
)
from championship.rules.ranking import rank_key
from championship.rules.timing import COMPLETED, DNS, DSQ, INVALID, PENDING
from tests.depth import examples
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
