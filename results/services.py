"""Derive a round's standings from its stored results, in one call and a fixed number of queries."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F, Prefetch, Q

from championship.models import Round, Seat
from championship.rules import advancement, country_places, ranking, timing
from championship.rules.advancement import AdvancementError
from championship.scoring import (
    DERIVED_FIELDS,
    RANK_FIELDS,
    advance_of,
    entry_is_official,
    outcome_derive,
    stored_outcome,
)
from registration.models import Entry, Person
from results import queries, ranking_reuse
from results.models import QualifierWithdrawal, Result, RoundRanking

logger = logging.getLogger(__name__)


def standings_compute(
    round_: Round,
    results: list[Result],
) -> list[Result]:
    """Set the derived fields of ``results`` (all of ``round_``'s) by the rules; return them ranked.

    Nothing is written. Each entry's officiality is worked out from its members
    (who need to be prefetched) and each outcome from its inputs. A withdrawn
    entry's result keeps its outcome but is never ranked: no place, no official
    place, no prize, not qualified; it comes last.
    """
    championship = round_.category.championship
    rules = championship.rules
    kind = round_.category.kind
    total = round_.total_pieces
    limit = round_.time_limit_ms
    by_pk = {result.pk: result for result in results}
    rows = []
    for result in results:
        result.official = entry_is_official(result.entry, rules, kind)
        try:
            decided = outcome_derive(
                result, rules, total, limit_ms=limit, called_ms=result.heat.time_called_ms
            )
        except timing.AttemptError as error:
            # Inputs stored before a rule tightened: keep what they came to then,
            # rather than fail every page that shows the round.
            logger.warning("Result %s kept as stored: %s", result.pk, error)
            decided = stored_outcome(result)
        rows.append(
            ranking.Ranked(result.pk, decided, official=result.official, heat=result.heat_id)
        )
    withdrawn = {result.pk for result in results if _withdrawn(result)}
    placed = rank_outcomes(round_, rows, withdrawn)
    ranked = []
    for pk, (place, official_place, qualified, qualified_by, prize) in placed.items():
        result = by_pk[pk]
        result.place = place
        result.official_place = official_place
        result.qualified = qualified
        result.qualified_by = qualified_by
        result.prize = prize
        ranked.append(result)
    return ranked


def rank_outcomes(
    round_: Round,
    rows: list[ranking.Ranked],
    withdrawn: set,
    kept: ranking_reuse.Kept | None = None,
) -> dict:
    """Rank a round's outcomes: each entry's place, official place, qualification and prize.

    Return ``(place, official_place, qualified, qualified_by, prize)`` by
    ``Ranked.entry`` (a result's pk), in standing order: the ranked entries first,
    then the withdrawn ones (never ranked: no place, no official place, no prize,
    not qualified). ``qualified_by`` is ``"country"`` or ``"classification"`` in a
    round with country places, else empty. ``kept``: what ranking the round's previous version kept
    (``results.ranking_reuse``).
    """
    rules = round_.category.championship.rules
    kinds = ranking.ranked_kinds(invalid_placed=rules.invalid_attempts_placed)
    unwithdrawn = [row for row in rows if row.entry not in withdrawn] if withdrawn else rows
    standings = (
        kept.rank(unwithdrawn, placed=kinds)
        if kept is not None
        else ranking.rank(unwithdrawn, placed=kinds)
    )
    # Prizes are given once time is up in the final (rogaland: "right after time is up").
    if round_.stage == Round.Stage.FINAL and round_.state in (
        Round.State.CLOSED,
        Round.State.PUBLISHED,
    ):
        standings = ranking.award_prizes(
            standings, prize_places=rules.prize_places, title=rules.title_to_best_official
        )
    routes = qualifiers_of(round_, standings, rules)
    placed = {
        standing.entry: (
            standing.place,
            standing.official_place,
            standing.entry in routes,
            routes.get(standing.entry, ""),
            standing.prize,
        )
        for standing in standings
    }
    if withdrawn:
        for row in rows:
            if row.entry in withdrawn:
                placed[row.entry] = (None, None, False, "", None)
    return placed


def qualifiers_of(round_: Round, standings: list[ranking.Standing], rules) -> dict:
    """Return the qualifiers of a round's ``standings`` (by result pk), each with its route.

    The route is ``"country"`` or ``"classification"`` where the round gives
    country places (``championship.rules.country_places``), else empty. The
    qualifiers the organiser withdrew from the next round (``QualifierWithdrawal``)
    are then replaced in the order they were withdrawn, by
    ``country_places.after_withdrawals``: by the country-place rule in a round
    with country places, else by the best not yet qualified, by classification.
    """
    if round_.advance == Round.Advance.NONE:
        return {}
    withdrawn = withdrawals_of(round_)
    if round_.advance == Round.Advance.COUNTRY:
        countries = countries_of(round_)
        params = round_.country_places_settings()
        routes = country_places.qualifiers_by_country(standings, countries, params)
        return _after_withdrawals(standings, countries, params, routes, withdrawn)
    advance = advance_of(round_)
    if advance is None:
        return {}
    unofficial_if_better = rules.unofficial_advance_only_if_better
    qualified = advancement.qualifiers(
        standings, advance, unofficial_only_if_better=unofficial_if_better
    )
    if not withdrawn:
        return dict.fromkeys(qualified, "")
    # A place given up goes to the best not yet qualified; where guests advance only
    # when better than the last official qualifier (sm), to an official entry.
    candidates = [
        s for s in standings if s.entry in qualified or s.official or not unofficial_if_better
    ]
    routes = _after_withdrawals(
        candidates,
        {},
        BY_CLASSIFICATION,
        dict.fromkeys((s.entry for s in candidates if s.entry in qualified), CLASSIFICATION),
        withdrawn,
    )
    return dict.fromkeys(routes, "")


# A replacement by classification alone, as in a round without country places.
BY_CLASSIFICATION = country_places.CountryPlaces(
    places=1, country_places=0, requires_completion=False
)
CLASSIFICATION = country_places.CLASSIFICATION


def withdrawals_of(round_: Round) -> list[int]:
    """Return the results of the qualifiers withdrawn from the next round, in withdrawal order."""
    return list(
        QualifierWithdrawal.objects.filter(result__round=round_)
        .order_by("withdrawn_at", "pk")
        .values_list("result_id", flat=True)
    )


def _after_withdrawals(standings, countries, params, routes: dict, withdrawn: list) -> dict:
    """Return ``routes`` once each of ``withdrawn`` is replaced (``after_withdrawals``).

    A withdrawal whose entry is no longer a qualifier when its turn comes (its
    result was corrected below the cut) replaces nobody; the entry is still
    never offered a place.
    """
    if not withdrawn:
        return routes
    applied: list = []
    for entry in withdrawn:
        try:
            country_places.after_withdrawals(
                standings, countries, params, routes, [*applied, entry]
            )
        except AdvancementError:
            continue
        applied.append(entry)
    skipped = set(withdrawn) - set(applied)
    kept = [s for s in standings if s.entry not in skipped]
    return country_places.after_withdrawals(
        kept, countries, params, {e: r for e, r in routes.items() if e not in skipped}, applied
    )


def countries_of(round_: Round) -> dict[int, str]:
    """Return the country each result's entry represents, by result pk (empty: none)."""
    return dict(
        Result.objects.filter(round=round_)
        .exclude(entry__represents="")
        .values_list("pk", "entry__represents")
    )


def _withdrawn(result: Result) -> bool:
    """Return whether a result's entry is withdrawn."""
    return result.entry.status == Entry.Status.WITHDRAWN


def results_for_ranking(round_: Round) -> list[Result]:
    """Return the round's results with entries, heats and members, in a fixed number of queries."""
    return list(
        Result.objects.filter(round=round_)
        .select_related("entry", "heat")
        .prefetch_related(
            Prefetch("entry__members", queryset=Person.objects.order_by("memberships__position"))
        )
    )


def _derived(result: Result) -> tuple:
    return tuple(getattr(result, name) for name in DERIVED_FIELDS)


def lock_ranking(round_id: int) -> int:
    """Lock (creating it if need be) the row that serialises the rankings of a round.

    Return the version of the round it last ranked. Whoever holds the round's
    row as well takes this one after it (see ``round_lock``).
    """
    found = queries.ranked_version(round_id, lock=True)
    if found is None:
        RoundRanking.objects.bulk_create([RoundRanking(round_id=round_id)], ignore_conflicts=True)
        found = queries.ranked_version(round_id, lock=True)
    return found


def _mark_ranked(round_id: int, version: int) -> None:
    """Record that a round's stored places reflect its ``version`` (under ``lock_ranking``)."""
    # Written out, past save() and its signals: no receiver listens to a ranking's save.
    queries.mark_ranked(round_id, version)


def round_lock(round_: Round) -> Round:
    """Lock a round's row, then its ranking, before changing any of its results.

    Captures take the round's row only, a ranking on reading takes the ranking
    only; a service that may write several results and rank them takes both, in
    this order, before it writes one, so that it never holds a result a ranking
    is waiting for while it waits for that ranking.
    """
    locked = (
        Round.objects.select_for_update(of=("self",))
        .select_related("category__championship")
        .get(pk=round_.pk)
    )
    lock_ranking(locked.pk)
    return locked


def round_recompute(round_: Round) -> None:
    """Rank the round's results anew (which also changes its version)."""
    if Result.objects.filter(round=round_).exists():
        standings_recompute(round_=round_)
    else:
        Round.objects.filter(pk=round_.pk).update(version=F("version") + 1)


def _store(ranked: list[Result], before: dict[int, tuple], fields: list[str]) -> None:
    """Write ``fields`` of the results whose derived fields changed since ``before``.

    After an import that is every result of the round, in one statement
    (``queries.results_update``).
    """
    # Written out, past save() and its signals: no receiver listens to a result's save.
    queries.results_update(
        fields,
        [
            (result.pk, *(getattr(result, name) for name in fields))
            for result in ranked
            if _derived(result) != before[result.pk]
        ],
    )


@transaction.atomic
def standings_recompute(*, round_: Round) -> list[Result]:
    """Derive every result of a round anew, rank them, store what changed, bump the version.

    Call after a change that is not a single entry's capture: a heat started or
    closed, a later start, advancement settings, an import. Each entry's outcome
    and officiality are worked out again from its inputs and members. The round's
    row is locked (no capture interleaves), then its ranking lock (no lazy ranking
    interleaves); only the results whose derived fields changed are written.
    """
    round_ = (
        Round.objects.select_for_update(of=("self",))
        .select_related("category__championship")
        .get(pk=round_.pk)
    )
    lock_ranking(round_.pk)
    results = results_for_ranking(round_)
    before = {result.pk: _derived(result) for result in results}
    ranked = standings_compute(round_, results)
    _store(ranked, before, DERIVED_FIELDS)
    # The round's row is locked: its version read above is still the current one.
    version = round_.version + 1
    Round.objects.filter(pk=round_.pk).update(version=version)
    _mark_ranked(round_.pk, version)
    return ranked


def standings_ensure(round_: Round) -> bool:
    """Rank a round's results if captures came in since its last ranking; return whether it did.

    A judge's capture derives only its entry's outcome and moves the round's
    version on. Whatever reads places, official places, qualification or prizes
    calls this first: the first reader after a capture ranks the round (from the
    stored outcomes, without reading members), every other finds it ranked. The
    ranking takes the round's ranking lock, not the round's row, so captures
    keep coming in meanwhile; it writes only the ranking fields, which no capture
    writes, and marks the version it read before the results, so a capture it
    did not see leaves the round to be ranked again.
    """
    if _ranked(round_.pk):
        return False
    with transaction.atomic():
        ranked_version = lock_ranking(round_.pk)
        # Read after the lock: another ranking may have just done the work. Its category
        # and championship are those read with ``round_`` for the request.
        locked = queries.round_by_id(round_.pk)
        if locked is None:
            raise Round.DoesNotExist
        locked.category = round_.category
        version = locked.version
        if ranked_version >= version:
            return False
        _rank_stored(locked)
        _mark_ranked(locked.pk, version)
    return True


# How many of a stored row's first values are the result's inputs (``_stored_rows``); the
# next says whether its entry is withdrawn, the last four are its ranking as stored.
INPUTS = len(queries.STORED_INPUTS)


def _stored_rows(round_id: int) -> list[tuple]:
    """Return the stored outcome and ranking of the results the ranking may place.

    One row of plain values per result (``queries.stored_outcomes``), ordered by
    the stored places.
    """
    return queries.stored_outcomes(round_id)


def _ranking_row(inputs: tuple) -> ranking.Ranked:
    """Return the ranking's row of a stored result's inputs (``queries.STORED_INPUTS``)."""
    pk, heat_id, outcome, final_ms, penalty_ms, counted_pieces, official = inputs
    return ranking.Ranked(
        pk,
        timing.Outcome(
            outcome or timing.PENDING,
            final_ms=final_ms,
            penalty_ms=penalty_ms,
            counted_pieces=counted_pieces,
        ),
        official=bool(official),
        heat=heat_id,
    )


def _rank_stored(round_: Round) -> None:
    """Rank a round from its stored outcomes; write the places, qualifications, prizes that moved.

    Reads one row of plain values per result, not model instances, and reuses the
    rows of the results no capture changed since: this runs for every new version
    of a busy round's standings.
    """
    stored = _stored_rows(round_.pk)
    # The rows of the results whose inputs did not change are those of the last ranking.
    kept = ranking_reuse.kept_of(round_.pk)
    rows = kept.rows_of([values[:INPUTS] for values in stored], _ranking_row)
    withdrawn = {values[0] for values in stored if values[INPUTS]}
    placed = rank_outcomes(round_, rows, withdrawn, kept)
    # A stored row ends with its (place, official place, qualified, qualified by, prize): as the
    # ranking gives them (SQLite's 0 and 1 are equal to False and True).
    changed = [
        (values[0], *placed[values[0]])
        for values in stored
        if values[INPUTS + 1 :] != placed[values[0]]
    ]
    if changed:
        _write_places(changed)


def _write_places(changed: list[tuple]) -> None:
    """Write ``(pk, *RANK_FIELDS)`` of the results whose ranking moved.

    A finish near the top moves the places of everyone behind it: up to the whole
    round, in one statement (``queries.results_update``).
    """
    # Written out, past save() and its signals: no receiver listens to a result's save.
    queries.results_update(RANK_FIELDS, changed)


# A round whose stored places reflect its current version (one never ranked has no row).
RANKED = Q(ranking__version__gte=F("version"))


def _ranked(round_id: int) -> bool:
    """Return whether a round's stored places reflect its current version (``RANKED``)."""
    return queries.is_ranked(round_id)


def standings_ensure_all(rounds) -> int:
    """Rank every round of the queryset ``rounds`` whose standings are behind; return how many."""
    behind = rounds.exclude(RANKED)
    count = 0
    for round_ in behind.only("pk"):
        count += standings_ensure(round_)
    return count


def results_missing(round_: Round) -> int:
    """Return how many seated entries of a round have no final result yet."""
    seated = Seat.objects.filter(round=round_).count()
    done = (
        Result.objects.filter(round=round_)
        .exclude(status=Result.Status.PENDING)
        .filter(outcome__gt="")
        .count()
    )
    return max(seated - done, 0)
