"""Derive a round's standings from its stored results, in one call and a fixed number of queries."""

from __future__ import annotations

import logging
import threading

from django.db import connection, transaction
from django.db.models import F, Prefetch, Q

from championship import sql
from championship.models import Round, Seat
from championship.rules import advancement, eligibility, ranking, timing
from registration.models import Entry, Person
from results import queries
from results.models import JUDGED_FIELDS, Result, RoundRanking

logger = logging.getLogger(__name__)

# What the rules make of one result's inputs (a capture derives them for its entry).
OUTCOME_FIELDS = ["outcome", "penalty_ms", "final_ms", "counted_pieces"]
# What ranking the whole round gives each result.
RANK_FIELDS = ["place", "official_place", "qualified", "prize"]
DERIVED_FIELDS = [*OUTCOME_FIELDS, "official", *RANK_FIELDS]
# What the public results show of a result besides its ranking (results.selectors.public_rows
# reads these): a capture that changes none of them gives spectators no new version.
SHOWN_FIELDS = (
    *(name for name in JUDGED_FIELDS if name not in ("confirmed_at", "count_state")),
    *OUTCOME_FIELDS,
)


def entry_is_official(entry: Entry, rules, kind: str) -> bool:
    """Return whether ``entry`` (with its members prefetched) is official under ``rules``."""
    members = [person.rules_member() for person in entry.members.all()]
    return eligibility.officiality(kind, members, rules).official


def attempt_of(result: Result) -> timing.Attempt:
    """Return the judges' inputs of a stored result as the rules read them."""
    return timing.Attempt(
        status=result.status,
        time_ms=result.time_ms,
        missing_found=result.missing_found,
        missing_lost=result.missing_lost,
        adjacent_missing=result.adjacent_missing,
        last_piece_ms=result.last_piece_ms,
        pieces_placed=result.pieces_placed,
        incorrect=result.incorrect,
    )


def advance_of(round_: Round) -> advancement.Advance | None:
    """Return the round's advancement settings for the rules, or ``None``."""
    if round_.advance == Round.Advance.OVERALL:
        return advancement.Advance(overall=round_.advance_count)
    if round_.advance == Round.Advance.PER_HEAT:
        return advancement.Advance(
            per_heat=round_.advance_count, best_remaining=round_.advance_best_remaining or 0
        )
    return None


def stored_outcome(result: Result) -> timing.Outcome:
    """Return the outcome stored with a result, as the rules read it."""
    return timing.Outcome(
        result.outcome or timing.PENDING,
        final_ms=result.final_ms,
        penalty_ms=result.penalty_ms,
        counted_pieces=result.counted_pieces,
    )


def outcome_derive(
    result: Result, rules, pieces: int, *, limit_ms: int, called_ms: int | None
) -> timing.Outcome:
    """Set a result's outcome, penalty, final time and counted pieces from its inputs.

    ``limit_ms`` is the round's time limit (``Round.time_limit_ms``), ``called_ms``
    when time was called in the result's heat (``Heat.time_called_ms``): "TIME"
    after either is not a completion. Raise ``timing.AttemptError`` for inputs
    that cannot be true. An entry that is a walk-over (``Entry.walkover_at``) is
    disqualified, whatever its inputs.
    """
    decided = timing.outcome(
        attempt_of(result), rules, pieces, time_limit_ms=limit_ms, time_called_ms=called_ms
    )
    if result.entry.walkover_at is not None:
        # A walk-over is a disqualification, in every round of the category (sm): listed
        # without a place, whatever was recorded.
        decided = timing.Outcome(timing.DSQ)
    result.outcome = "" if decided.kind == timing.PENDING else decided.kind
    result.penalty_ms = decided.penalty_ms
    result.final_ms = decided.final_ms
    result.counted_pieces = decided.counted_pieces
    return decided


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
    total = round_.category.pieces
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
    for pk, (place, official_place, qualified, prize) in placed.items():
        result = by_pk[pk]
        result.place = place
        result.official_place = official_place
        result.qualified = qualified
        result.prize = prize
        ranked.append(result)
    return ranked


def rank_outcomes(
    round_: Round, rows: list[ranking.Ranked], withdrawn: set, kept: ranking.Kept | None = None
) -> dict:
    """Rank a round's outcomes: each entry's place, official place, qualification and prize.

    Return them by ``Ranked.entry``, in standing order: the ranked entries first,
    then the withdrawn ones (never ranked: no place, no official place, no prize,
    not qualified). ``kept``: what ranking the round's previous version kept
    (``ranking.rank``).
    """
    rules = round_.category.championship.rules
    standings = ranking.rank(
        [row for row in rows if row.entry not in withdrawn] if withdrawn else rows,
        kept,
        placed=ranking.ranked_kinds(invalid_placed=rules.invalid_attempts_placed),
    )
    # Prizes are given once time is up in the final (rogaland: "right after time is up").
    if round_.stage == Round.Stage.FINAL and round_.state in (
        Round.State.CLOSED,
        Round.State.PUBLISHED,
    ):
        standings = ranking.award_prizes(
            standings, prize_places=rules.prize_places, title=rules.title_to_best_official
        )
    advance = advance_of(round_)
    qualified = (
        advancement.qualifiers(
            standings, advance, unofficial_only_if_better=rules.unofficial_advance_only_if_better
        )
        if advance is not None
        else set()
    )
    placed = {
        standing.entry: (
            standing.place,
            standing.official_place,
            standing.entry in qualified,
            standing.prize,
        )
        for standing in standings
    }
    if withdrawn:
        for row in rows:
            if row.entry in withdrawn:
                placed[row.entry] = (None, None, False, None)
    return placed


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
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    query = "SELECT version FROM {ranking} WHERE round_id = %s" + lock
    found = _ranking_sql(query, [round_id])
    if found is None:
        RoundRanking.objects.bulk_create([RoundRanking(round_id=round_id)], ignore_conflicts=True)
        found = _ranking_sql(query, [round_id])
    return found[0]


def _mark_ranked(round_id: int, version: int) -> None:
    """Record that a round's stored places reflect its ``version`` (under ``lock_ranking``)."""
    _ranking_sql("UPDATE {ranking} SET version = %s WHERE round_id = %s", [version, round_id])


def _ranking_sql(query: str, params: list) -> tuple | None:
    """Run ``query`` on the rounds' ``{round}`` and rankings' ``{ranking}`` tables; return a row.

    The ranking's own queries are written out, as ``POLL_STATE`` is: building them
    with the ORM costs more than running them, for every new version of a round.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            query.format(round=sql.table(Round), ranking=sql.table(RoundRanking)), params
        )
        return cursor.fetchone() if cursor.description else None


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
        locked = sql.get(Round, "t.id = %s", [round_.pk])
        if locked is None:
            raise Round.DoesNotExist
        locked.category = round_.category
        version = locked.version
        if ranked_version >= version:
            return False
        _rank_stored(locked)
        _mark_ranked(locked.pk, version)
    return True


# What ranking the stored outcomes reads of each result (its inputs: the first seven),
# and the places it may change; written out, since building it with the ORM costs more
# than running it. Ordered by the stored places, which the new ones mostly keep: sorting
# rows already in order is one pass.
#
# A result that is not ranked (still puzzling, did not start, disqualified) and holds no
# place, qualification or prize is left out: the ranking gives it none and passes it by
# (``ranking.rank``, ``advancement.qualifiers``, ``ranking.award_prizes``), so reading it
# changes nothing. During a heat most of a round is still puzzling: a round of 1,600 with
# 400 finished reads 400 rows.
STORED = (
    "SELECT r.id, r.heat_id, r.outcome, r.final_ms, r.penalty_ms, r.counted_pieces, r.official,"
    " e.status = %s, r.place, r.official_place, r.qualified, r.prize"
    " FROM {result} r JOIN {entry} e ON e.id = r.entry_id"
    " WHERE r.round_id = %s AND (r.outcome IN (%s, %s, %s) OR r.place IS NOT NULL"
    " OR r.official_place IS NOT NULL OR r.qualified OR r.prize IS NOT NULL)"
    " ORDER BY r.place NULLS LAST, r.id"
)
INPUTS = 7

# What the last ranking of each round in this process kept: each result's ranking row, by
# the inputs it was built from (a new version changes a few results of a round of 1,600;
# building every row anew was half a ranking's CPU), and its standings (``ranking.Kept``:
# the next ranking begins where its rows first differ).
_kept: dict[int, tuple[dict[tuple, ranking.Ranked], ranking.Kept]] = {}
_kept_lock = threading.Lock()
# Enough for the rounds running at once in the largest championship.
MAX_ROUNDS_KEPT = 32


def _stored_rows(round_id: int) -> list[tuple]:
    """Return the stored outcome and ranking of the results the ranking may place (``STORED``)."""
    query = STORED.format(result=sql.table(Result), entry=sql.table(Entry))
    with connection.cursor() as cursor:
        cursor.execute(query, [Entry.Status.WITHDRAWN, round_id, *sorted(ranking.RANKED)])
        return cursor.fetchall()


def _ranking_rows(round_id: int, stored: list[tuple]) -> tuple[list[ranking.Ranked], ranking.Kept]:
    """Return the ranking's rows of ``stored``, and what the round's last ranking kept.

    The rows of the results whose inputs did not change are those of the last ranking.
    """
    kept_rows, kept_standings = _kept.get(round_id) or ({}, ranking.Kept())
    fresh = {}
    for values in stored:
        inputs = values[:INPUTS]
        row = kept_rows.get(inputs)
        if row is None:
            pk, heat_id, outcome, final_ms, penalty_ms, counted_pieces, official = inputs
            row = ranking.Ranked(
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
        fresh[inputs] = row
    with _kept_lock:
        if round_id not in _kept and len(_kept) >= MAX_ROUNDS_KEPT:
            del _kept[next(iter(_kept))]
        _kept[round_id] = (fresh, kept_standings)
    return list(fresh.values()), kept_standings


def _rank_stored(round_: Round) -> None:
    """Rank a round from its stored outcomes; write the places, qualifications, prizes that moved.

    Reads one row of plain values per result, not model instances, and reuses the
    rows of the results no capture changed since: this runs for every new version
    of a busy round's standings.
    """
    stored = _stored_rows(round_.pk)
    rows, kept = _ranking_rows(round_.pk, stored)
    withdrawn = {values[0] for values in stored if values[INPUTS]}
    placed = rank_outcomes(round_, rows, withdrawn, kept)
    # A stored row ends with its (place, official place, qualified, prize): compared as the
    # ranking gives them (SQLite's 0 and 1 are equal to False and True).
    changed = [
        (values[0], *placed[values[0]])
        for values in stored
        if values[INPUTS + 1 :] != placed[values[0]]
    ]
    if changed:
        _write_places(changed)


def _write_places(changed: list[tuple]) -> None:
    """Write ``(pk, place, official_place, qualified, prize)`` of the results whose ranking moved.

    A finish near the top moves the places of everyone behind it: up to the whole
    round, in one statement (``queries.results_update``).
    """
    queries.results_update(RANK_FIELDS, changed)


# A round whose stored places reflect its current version (one never ranked has no row).
RANKED = Q(ranking__version__gte=F("version"))


def _ranked(round_id: int) -> bool:
    """Return whether a round's stored places reflect its current version (``RANKED``)."""
    query = (
        "SELECT 1 FROM {round} r JOIN {ranking} k ON k.round_id = r.id"
        " WHERE r.id = %s AND k.version >= r.version"
    )
    return _ranking_sql(query, [round_id]) is not None


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
