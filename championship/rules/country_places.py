"""Country places: who goes on from a WJPC group, and who replaces a qualifier who does not start.

Terms, as in the world championship's published rules (WJPC, "country places
first, then by classification"):

places
    T, the places that go on from a group (or a semifinal). They count the
    country places.
country
    The country an entry represents (for a pair or a team, its declaration).
    The neutral flag ("International Puzzlers") counts as a country like any
    other. An entry without a country takes no country place; it can still
    qualify by classification.
country places
    K, how many places are given to countries first (``None``: every
    country). Each country's best-placed entry, or its best ``per_country``
    entries (2022: the best two), are put in order of place, and the first K
    of them take a country place.
completion
    Where a country place needs a completed puzzle, only entries that
    completed it are considered for the country places: the country's best
    finisher. Every finisher is placed before every entry that did not finish,
    so this is the country's best entry whenever it has a finisher; a country
    none of whose entries completed the puzzle gets no country place (its
    entries can still qualify by classification).
classification
    The rest of the T places, in order of place, among the entries not yet
    qualified.
route
    How a qualifier went on: ``"country"`` or ``"classification"``.
qualifier
    An entry that goes on. Only a valid result can qualify: a completed
    puzzle, or counted pieces. Invalid attempts, entries still puzzling or
    still to be counted (pending), did not start and disqualified never
    qualify, by either route.
tie
    Equal results share a place and are never split (no tie-break).
2025 reading
    ``only_countries_without_qualifier``: first the T best by classification,
    then the best of each country that has no qualifier yet, in order of
    place, up to K more (K on top of T).
replacement
    A qualifier who does not start the next round is withdrawn by the
    organiser; the program offers who takes the place, by the same rule.

Decisions (the published rules do not speak of them):

- A tie never costs anyone a place: entries tied for a place all go on, and
  those beyond the number of places come on top.
- Ties at the last country place: every other country whose best entry is
  tied with the K-th country place gets a country place too, on top of K and
  of T (it takes no place by classification). An entry tied with it whose
  country already holds its place gains nothing by the tie; it competes by
  classification like everyone else.
- Ties within a country: entries of one country tied for its best place (or
  for its ``per_country``-th best) share it. They count as one country place
  (of K, and of T) and all take one, the others on top; the country then
  holds more than ``per_country`` country places, all at one result.
- The country places are counted in entries, in order of place: with
  ``per_country`` 2 and K 10, the first ten of the countries' best two, so a
  country's second may come before another country's first.
- Ties at the last place by classification: everyone tied with the last
  qualifier goes on, on top of T.
- K at least T: the places are T, and the country places are given out of
  them: the first T country places (and their ties) are given, and no place
  is left by classification. ``country_places`` ``None`` ("every country") is
  read the same way: every country, as far as T reaches. In the 2025 reading
  K is on top of T and nothing is capped.
- The country places are chosen before the classification: an entry that
  would have qualified by classification anyway still takes its country's
  place, and the place it frees goes by classification.

Replacement of a qualifier who does not start (observed in 2024: a country
place passed to the next entrant of the same country, New Zealand; where the
country had nobody left, the place went to the next by classification, Egypt):

- The withdrawn one qualified by country: the country's place passes to its
  next-best entry that can take a country place (a completed puzzle, where
  completion is needed) and does not hold one yet. If that entry is not yet
  qualified, it takes the place by country. If it qualified already by
  classification, it now holds the country's place instead (it is promoted),
  and the place it held goes by classification: a country's best withdrawing
  never lets a compatriot far down the standings pass better entries while
  the country's next best is already in.
- The country has nobody left, or the withdrawn one qualified by
  classification: the best entry not yet qualified takes the place by
  classification.
- Ties at a replacement: everyone tied for the place goes on, by the same
  route (the tie rule, as at the last place). ``replacement`` returns them
  all, in standing order.
- Every withdrawal frees a place, also that of a qualifier who went on by a
  tie on top of T. The withdrawn, and everyone withdrawn before, are never
  offered a place again; a replacement who withdraws is replaced in turn.
- In the 2025 reading a withdrawn qualifier's country does not gain a country
  place it did not have: the country places were given once, after the
  classification.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from championship.rules.advancement import QUALIFYING, AdvancementError
from championship.rules.ranking import Standing, rank_key
from championship.rules.timing import COMPLETED

COUNTRY = "country"
CLASSIFICATION = "classification"
ROUTES = (COUNTRY, CLASSIFICATION)
ALL = "all"

_KEYS = {
    "places",
    "country_places",
    "country_place_requires_completion",
    "per_country",
    "only_countries_without_qualifier",
}
_REQUIRED = ("places", "country_places", "country_place_requires_completion")


@dataclass(frozen=True)
class CountryPlaces:
    """How many go on from a group: ``places`` T, of which ``country_places`` K go to countries."""

    places: int
    country_places: int | None
    requires_completion: bool
    per_country: int = 1
    only_countries_without_qualifier: bool = False

    def __post_init__(self):
        for field, least in (("places", 1), ("country_places", 0), ("per_country", 1)):
            value = getattr(self, field)
            if field == "country_places" and value is None:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise AdvancementError(
                    field, "invalid", f"must be a whole number ≥ {least}, not {value!r}"
                )
        # Named as in the interchange format.
        for field, value in (
            ("country_place_requires_completion", self.requires_completion),
            ("only_countries_without_qualifier", self.only_countries_without_qualifier),
        ):
            if not isinstance(value, bool):
                raise AdvancementError(field, "invalid", f"must be true or false, not {value!r}")

    @classmethod
    def from_dict(cls, data: Mapping) -> CountryPlaces:
        """Read the interchange format's ``{"places": 60, "country_places": 30, ...}``.

        ``country_places`` is a whole number or ``"all"`` (every country).
        """
        unknown = set(data) - _KEYS
        if unknown:
            name = sorted(unknown)[0]
            raise AdvancementError(name, "unknown", f'unknown setting "{name}"')
        for name in _REQUIRED:
            if name not in data:
                raise AdvancementError(name, "missing", f'give "{name}"')
        country_places = data["country_places"]
        if country_places == ALL:
            country_places = None
        elif country_places is None or isinstance(country_places, str):
            raise AdvancementError(
                "country_places",
                "invalid",
                f'must be a whole number ≥ 0 or "all", not {country_places!r}',
            )
        return cls(
            places=data["places"],
            country_places=country_places,
            requires_completion=data["country_place_requires_completion"],
            per_country=data.get("per_country", 1),
            only_countries_without_qualifier=data.get("only_countries_without_qualifier", False),
        )

    def to_dict(self) -> dict:
        """Write the interchange format, leaving out the settings at their defaults."""
        data = {
            "places": self.places,
            "country_places": ALL if self.country_places is None else self.country_places,
            "country_place_requires_completion": self.requires_completion,
        }
        if self.per_country != 1:
            data["per_country"] = self.per_country
        if self.only_countries_without_qualifier:
            data["only_countries_without_qualifier"] = True
        return data


class Replacement(NamedTuple):
    """Who takes a withdrawn qualifier's place, and by which route.

    ``entries``: in standing order; more than one when tied for the place, none
    when nobody is left (``route`` is then ``None``). ``promoted``: qualifiers
    by classification who now hold the withdrawn one's country place (their
    route becomes ``"country"``); the place they held is the one ``entries``
    take.
    """

    entries: tuple[Hashable, ...]
    route: str | None
    promoted: tuple[Hashable, ...] = ()


def _best(candidates: Sequence[Standing], count: int | None) -> list[Standing]:
    """Return the ``count`` best of ``candidates`` (in order) and all tied with the last.

    ``None``: all of them.
    """
    if count is None:
        return list(candidates)
    if count <= 0 or not candidates:
        return []
    chosen = list(candidates[:count])
    last = rank_key(chosen[-1].outcome)
    for standing in candidates[count:]:
        if rank_key(standing.outcome) != last:
            break
        chosen.append(standing)
    return chosen


def _country(country_of: Mapping[Hashable, str], entry: Hashable) -> str | None:
    """Return the country ``entry`` represents, or ``None`` when it has none."""
    country = country_of.get(entry)
    return country or None


def _can_take_country_place(standing: Standing, params: CountryPlaces) -> bool:
    """Whether ``standing``'s result can take a country place: valid, and completed if needed."""
    if params.requires_completion:
        return standing.outcome.kind == COMPLETED
    return standing.outcome.kind in QUALIFYING


def _country_places(
    candidates: Sequence[Standing],
    country_of: Mapping[Hashable, str],
    params: CountryPlaces,
    count: int | None,
    *,
    skip_countries: Collection[str] = (),
) -> tuple[list[Standing], int]:
    """Return the entries of ``candidates`` (in order) that take a country place, in order.

    ``count``: the country places to give (``None``: every country's). Also
    return how many of the places the chosen entries fill; the others, tied,
    are on top. Entries without a country, those that cannot take a country
    place, and those of ``skip_countries`` are left out.
    """
    by_country: dict[str, list[Standing]] = {}
    for standing in candidates:
        country = _country(country_of, standing.entry)
        if (
            country is not None
            and country not in skip_countries
            and _can_take_country_place(standing, params)
        ):
            by_country.setdefault(country, []).append(standing)
    # Each country's best ``per_country`` fill places; compatriots tied with the last of
    # them share its place, on top, and go on when it does.
    counted: set[int] = set()
    tied_with: dict[int, list[Standing]] = {}
    for members in by_country.values():
        best = _best(members, params.per_country)
        filling = best[: params.per_country]
        counted.update(id(standing) for standing in filling)
        tied_with[id(filling[-1])] = best[params.per_country :]
    in_order = [standing for standing in candidates if id(standing) in counted]
    chosen = {id(standing) for standing in _best(in_order, count)}
    for key in list(chosen):
        chosen.update(id(standing) for standing in tied_with.get(key, ()))
    filled = len(in_order) if count is None else min(count, len(in_order))
    return [standing for standing in candidates if id(standing) in chosen], filled


def qualifiers_by_country(
    standings: Sequence[Standing], country_of: Mapping[Hashable, str], params: CountryPlaces
) -> dict[Hashable, str]:
    """Return the entries of ``standings`` (in standing order) that go on, each with its route.

    ``country_of`` gives each entry's country (entries missing from it, or with
    an empty country, have none). The result maps each qualifier, in standing
    order, to ``"country"`` or ``"classification"``.
    """
    eligible = [s for s in standings if s.outcome.kind in QUALIFYING]
    routes: dict[Hashable, str] = {}
    if params.only_countries_without_qualifier:
        # 2025: the T best by classification, then countries that have no qualifier yet.
        for standing in _best(eligible, params.places):
            routes[standing.entry] = CLASSIFICATION
        held = {_country(country_of, entry) for entry in routes}
        remaining = [s for s in eligible if s.entry not in routes]
        chosen, _filled = _country_places(
            remaining, country_of, params, params.country_places, skip_countries=held
        )
        for standing in chosen:
            routes[standing.entry] = COUNTRY
    else:
        # The country places come out of the T places: K beyond T acts as T.
        count = (
            params.places
            if params.country_places is None
            else min(params.country_places, params.places)
        )
        chosen, filled = _country_places(eligible, country_of, params, count)
        for standing in chosen:
            routes[standing.entry] = COUNTRY
        remaining = [s for s in eligible if s.entry not in routes]
        for standing in _best(remaining, params.places - filled):
            routes[standing.entry] = CLASSIFICATION
    return {s.entry: routes[s.entry] for s in eligible if s.entry in routes}


def replacement(
    standings: Sequence[Standing],
    country_of: Mapping[Hashable, str],
    params: CountryPlaces,
    qualified: Mapping[Hashable, str],
    withdrawn: Hashable,
    *,
    absent: Collection[Hashable] = (),
) -> Replacement:
    """Return who takes the place of ``withdrawn``, a qualifier who does not start.

    ``qualified``: the qualifiers and their routes, as ``qualifiers_by_country``
    returns them (with earlier replacements). ``absent``: entries withdrawn
    before, never offered a place. See the module's docstring for the rule.
    """
    route = qualified.get(withdrawn)
    if route not in ROUTES:
        raise AdvancementError("withdrawn", "not_qualified", f"{withdrawn!r} is not a qualifier")
    out = set(absent) | {withdrawn}
    eligible = [s for s in standings if s.outcome.kind in QUALIFYING and s.entry not in out]
    country = _country(country_of, withdrawn)
    promoted: tuple[Hashable, ...] = ()
    if route == COUNTRY and country is not None:
        # The country's place passes to its next best that does not hold one.
        compatriots = [
            s
            for s in eligible
            if _country(country_of, s.entry) == country
            and _can_take_country_place(s, params)
            and qualified.get(s.entry) != COUNTRY
        ]
        following = _best(compatriots, 1)
        newcomers = tuple(s.entry for s in following if s.entry not in qualified)
        promoted = tuple(s.entry for s in following if s.entry in qualified)
        if newcomers:
            return Replacement(newcomers, COUNTRY, promoted)
    # By classification: the best not yet qualified (and everyone tied with it).
    rest = [s for s in eligible if s.entry not in qualified]
    entries = tuple(s.entry for s in _best(rest, 1))
    return Replacement(entries, CLASSIFICATION if entries else None, promoted)


def after_withdrawals(
    standings: Sequence[Standing],
    country_of: Mapping[Hashable, str],
    params: CountryPlaces,
    qualified: Mapping[Hashable, str],
    withdrawn: Iterable[Hashable],
) -> dict[Hashable, str]:
    """Return the qualifiers and their routes once each of ``withdrawn`` is replaced, in turn.

    The withdrawals are applied in the order given (the order the organiser
    learns of them): a replacement may itself be withdrawn later. The result is
    in standing order.
    """
    routes = dict(qualified)
    gone: list[Hashable] = []
    for entry in withdrawn:
        if entry not in routes:
            raise AdvancementError("withdrawn", "not_qualified", f"{entry!r} is not a qualifier")
        taken = replacement(standings, country_of, params, routes, entry, absent=gone)
        del routes[entry]
        gone.append(entry)
        for promoted in taken.promoted:
            routes[promoted] = COUNTRY
        for newcomer in taken.entries:
            routes[newcomer] = taken.route
    return {s.entry: routes[s.entry] for s in standings if s.entry in routes}
