"""The rulebook's values read from, and written to, stored objects: results, entries, rounds.

The rulebook (``championship.rules``) works on plain values; a stored result
keeps them as attributes named as the rulebook names them. These adapters read
those attributes of whatever object they are given (a ``results.models.Result``,
a ``registration.models.Entry``, a ``championship.models.Round``, or anything
with the same attributes) and import neither: the results and the entries are
above this package. Each says which attributes it reads and which it sets.

The names of a result's fields are kept here, with the values they hold: what
the judges' captures set (``JUDGED_FIELDS``, the fields of
``championship.rules.captures.Judged``), what the rules make of one result
(``OUTCOME_FIELDS``), what ranking the round gives it (``RANK_FIELDS``) and what
the public results show (``SHOWN_FIELDS``).
"""

from __future__ import annotations

from dataclasses import fields

from championship.models import Round
from championship.rules import advancement, captures, eligibility, timing

# The inputs of a result, as the judges' captures set them (``judging.services``): the
# fields of ``captures.Judged``, in its order.
JUDGED_FIELDS = tuple(field.name for field in fields(captures.Judged))
# What the rules make of one result's inputs (a capture derives them for its entry).
OUTCOME_FIELDS = ["outcome", "penalty_ms", "final_ms", "counted_pieces"]
# What ranking the whole round gives each result.
RANK_FIELDS = ["place", "official_place", "qualified", "qualified_by", "prize"]
DERIVED_FIELDS = [*OUTCOME_FIELDS, "official", *RANK_FIELDS]
# What the public results show of a result besides its ranking (``results.public_rows``
# reads these): a capture that changes none of them gives spectators no new version.
SHOWN_FIELDS = (
    *(name for name in JUDGED_FIELDS if name not in ("confirmed_at", "count_state")),
    *OUTCOME_FIELDS,
)


def entry_is_official(entry, rules, kind: str) -> bool:
    """Return whether ``entry`` is official under ``rules`` in a category of ``kind``.

    Reads ``entry.members.all()`` (prefetched, in their order), and of each member
    ``rules_member()``: what the rules know of a person (``eligibility.Member``).
    """
    members = [person.rules_member() for person in entry.members.all()]
    return eligibility.officiality(kind, members, rules).official


def attempt_of(result) -> timing.Attempt:
    """Return the judges' inputs of a stored result as the rules read them.

    Reads the result's ``JUDGED_FIELDS`` but its confirmation and count state
    (which the rules do not read).
    """
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


def advance_of(round_) -> advancement.Advance | None:
    """Return the round's advancement settings for the rules, or ``None``.

    Reads ``advance`` (a ``Round.Advance``), ``advance_count`` and
    ``advance_best_remaining``. Country places are not an ``Advance``: see
    ``Round.country_places_settings``.
    """
    if round_.advance == Round.Advance.OVERALL:
        return advancement.Advance(overall=round_.advance_count)
    if round_.advance == Round.Advance.PER_HEAT:
        return advancement.Advance(
            per_heat=round_.advance_count, best_remaining=round_.advance_best_remaining or 0
        )
    return None


def stored_outcome(result) -> timing.Outcome:
    """Return the outcome stored with a result, as the rules read it.

    Reads the result's ``OUTCOME_FIELDS`` (an empty ``outcome``: still pending).
    """
    return timing.Outcome(
        result.outcome or timing.PENDING,
        final_ms=result.final_ms,
        penalty_ms=result.penalty_ms,
        counted_pieces=result.counted_pieces,
    )


def outcome_derive(
    result, rules, pieces: int, *, limit_ms: int, called_ms: int | None
) -> timing.Outcome:
    """Set a result's outcome, penalty, final time and counted pieces from its inputs.

    ``limit_ms`` is the round's time limit (``Round.time_limit_ms``), ``called_ms``
    when time was called in the result's heat (``Heat.time_called_ms``): "TIME"
    after either is not a completion. Raise ``timing.AttemptError`` for inputs
    that cannot be true. An entry that is a walk-over (``Entry.walkover_at``) is
    disqualified, whatever its inputs.

    Reads what ``attempt_of`` reads and ``entry.walkover_at``; sets the result's
    ``OUTCOME_FIELDS`` (``outcome`` empty while pending).
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
