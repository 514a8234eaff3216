"""Read a round's standings: for the API, the interchange export and the live pages."""

from __future__ import annotations

import time
from datetime import date
from functools import partial

from django.core.cache import cache
from django.db import connection
from django.db.models import Prefetch

from championship import bounds, sql
from championship.l10n import format_duration
from championship.models import Category, Championship, Heat, Round, Seat
from registration.models import Person
from results.models import Result
from results.public_rows import pace, public_rows, rows_json
from results.services import entry_is_official, standings_ensure


def result_fields(result: Result) -> dict:
    """Return a result as in the interchange format: the inputs, then the computed fields."""
    return {
        "entry": result.entry.ref,
        "time": format_duration(result.time_ms),
        "missing_found": result.missing_found,
        "missing_lost": result.missing_lost,
        "adjacent_missing": result.adjacent_missing,
        "last_piece_time": format_duration(result.last_piece_ms),
        "pieces_placed": result.pieces_placed,
        "incorrect": result.incorrect,
        "status": result.status,
        "place": result.place,
        "official_place": result.official_place,
        "official": result.official,
        "outcome": result.outcome or None,
        "final_seconds": result.final_seconds,
        "penalty_seconds": result.penalty_ms // 1000,
        "counted_pieces": result.counted_pieces,
        "qualified": result.qualified,
        "prize": result.prize,
    }


def standings_queryset(round_: Round):
    """Return a round's results in standing order, with entries, members and heats."""
    return (
        Result.objects.filter(round=round_)
        # The round's category in the same query: its pieces give each completed pace.
        .select_related("entry", "heat", "round__category")
        .prefetch_related(
            Prefetch(
                "entry__members",
                queryset=Person.objects.select_related("puzzler").order_by("memberships__position"),
            )
        )
        .order_by("place", "official_place", "entry__registered_at", "entry__id")
    )


def pieces_per_minute(pieces: int, result: Result) -> float | None:
    """Return a completed result's pace: the puzzle's pieces per minute of its final time.

    One decimal; ``None`` unless the puzzle was completed (a count is no pace).
    """
    return pace(pieces, result.outcome, result.final_seconds)


def people(entry) -> list[dict]:
    """Return the entry's members who consented to publication, with their puzzler's page.

    Prefetch ``members`` with their ``puzzler`` for lists.
    """
    return [
        {"name": member.name, "url": member.puzzler.get_absolute_url()}
        for member in entry.consenting_members()
    ]


def heats_of(round_: Round) -> list[Heat]:
    """Return the round's heats in their order: written out, as every new version reads them."""
    return sql.many(Heat, 't.round_id = %s ORDER BY t."order", t.key', [round_.pk])


# How long a request waits for another one that is building the same cached value.
BUILD_WAIT = 2.0
# How long a version's standings and fragments stay cached. Every capture makes a new
# version and the old ones are not asked for again, so they must not pile up in Redis
# (a busy day renders tens of thousands); a round that does not change is built again
# once in this time.
VERSION_TTL = 10 * 60


def _builds_window(name: str) -> str:
    return f"{name}:builds:{int(time.time())}"


def _count_build(name: str) -> None:
    """Count a build of ``name`` in the current second."""
    window = _builds_window(name)
    if not cache.add(window, 1, timeout=5):
        try:
            cache.incr(window)
        except ValueError:  # the window expired in between
            cache.add(window, 1, timeout=5)


def cached_once(
    key: str,
    build,
    *,
    timeout: int = VERSION_TTL,
    lock: str | None = None,
    latest: str | None = None,
    per_second: int | None = None,
):
    """Return the cached value of ``key``, building it in one request when many ask at once.

    After a capture every poller asks for the new version together: one builds
    it while the others wait briefly for the cache, and build it themselves only
    if that takes too long. A cache that does not answer (Redis down) is not
    waited for: the value is built at once.

    ``lock`` names what is built one at a time (by default ``key`` itself). With
    ``latest``, every value built is also stored there, and a request that finds
    a build running is answered at once with that latest value rather than
    waiting: under a stream of captures, one request at a time renders the newest
    version of a live page, and the others serve the one before (stale by at most
    one build; the next poll brings the new one). The value then needs to carry
    what identifies it (its ETag, say). With ``per_second`` as well, at most that
    many builds of ``lock`` start in a second while a latest value is there to
    serve: a quiet round shows a capture in the very next poll, a round under a
    stream of captures is rendered a few times a second, not once per capture.
    """
    value = cache.get(key)
    if value is not None:
        return value
    stale = cache.get(latest) if latest is not None else None
    name = lock or key
    if stale is not None and _budget_spent(name, per_second):
        return stale
    building = f"{name}:building"
    started = cache.add(building, 1, timeout=10)
    if started is None:  # django-redis, ignoring its errors: the cache is not there
        return build()
    if started:
        if per_second is not None:
            _count_build(name)
        try:
            value = build()
            cache.set(key, value, timeout=timeout)
            if latest is not None:
                cache.set(latest, value, timeout=timeout)
            return value
        finally:
            cache.delete(building)
    if stale is not None:
        return stale
    waited = 0.0
    while True:
        value = cache.get(key)
        if value is None and latest is not None:
            value = cache.get(latest)
        if value is not None:
            return value
        if waited >= BUILD_WAIT:
            return build()
        time.sleep(0.05)
        waited += 0.05


def _budget_spent(name: str, per_second: int | None) -> bool:
    """Return whether ``per_second`` builds of ``name`` started in the current second."""
    return per_second is not None and (cache.get(_builds_window(name)) or 0) >= per_second


def cached_without_building(key: str, *, lock: str, latest: str, per_second: int):
    """Return what ``cached_once`` would answer at once without building, or ``None``.

    That is the cached value of ``key``; else the latest value when a new one is
    being built or may not be built in this second. ``None`` means the caller
    should build (through ``cached_once``). A cache that does not answer gives
    ``None``.
    """
    value = cache.get(key)
    if value is not None:
        return value
    stale = cache.get(latest)
    if stale is None:
        return None
    if _budget_spent(lock, per_second) or cache.get(f"{lock}:building"):
        return stale
    return None


def round_standings(round_: Round, heat: str | None = None) -> dict:
    """Return the public standings of a round (or of one of its heats), cached per version.

    As ``standings`` gives them; a cached copy is reused until the round's
    version changes.
    """
    key = f"standings:v3:{round_.pk}:{round_.version}:{heat or ''}"
    return cached_once(key, partial(standings, round_, heat))


def standings(round_: Round, heat: str | None = None) -> dict:
    """Return the public standings of a round (or of one of its heats), read afresh.

    Places are those of the whole round either way; one heat's rows are read on
    their own, so a heat's page of a round of 1,600 entries stays cheap. The
    round is ranked first if captures came in since its last ranking. What is
    built once per version (a live page's fragment, the API's answer) reads
    this rather than ``round_standings``: its rows are made from what this
    process keeps (``results.public_rows``) faster than a cached copy is read.
    """
    standings_ensure(round_)
    return {**standings_head(round_), "rows": public_rows(round_, heat)}


def standings_head(round_: Round) -> dict:
    """Return what the standings say of the round besides its rows (``standings``)."""
    return {
        "round": round_.key,
        "version": round_.version,
        "state": round_.state,
        # Provisional until signed off (control.official); corrected after, with reasons.
        "official": round_.is_official,
        "official_at": round_.official_at,
        "corrections": [
            {"at": item["at"], "reason": item["reason"]} for item in round_.corrections
        ],
    }


def standings_rows_json(round_: Round) -> bytes:
    """Return the JSON text of a whole round's rows (``results.public_rows.rows_json``), ranked."""
    standings_ensure(round_)
    return rows_json(round_)


def round_for_request(championship_slug: str, round_key: str) -> Round | None:
    """Return a round with its category and championship, in one query (or ``None``).

    Written out (``championship.sql``): every new version of a live page reads it,
    and the ORM's building of the query cost a fifth of a fragment's render.
    """
    query = (
        f"SELECT {sql.select_list(Round, 'r')}, {sql.select_list(Category, 'c')},"
        f" {sql.select_list(Championship, 'h')}"
        f" FROM {sql.table(Round)} r JOIN {sql.table(Category)} c ON c.id = r.category_id"
        # A round's championship is its category's (``Round.save``).
        f" JOIN {sql.table(Championship)} h ON h.id = r.championship_id"
        " WHERE h.slug = %s AND r.key = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [championship_slug, round_key])
        row = cursor.fetchone()
    if row is None:
        return None
    (round_, category, championship), _rest = sql.split(row, Round, Category, Championship)
    round_.category = category
    round_.championship = category.championship = championship
    return round_


def recent_finishers(rows: list[dict], count: int = 5) -> list[str]:
    """Return the entry ids of the last ``count`` completed entries, by final time."""
    done = [row for row in rows if row["outcome"] == "completed"]
    done.sort(key=lambda row: row["final_seconds"], reverse=True)
    return [row["entry"]["id"] for row in done[:count]]


def clock_heat(round_: Round) -> Heat | None:
    """Return the heat whose clock the projector shows: the first running, else the last started."""
    heats = list(round_.heats.filter(started_at__isnull=False).order_by("order", "key"))
    running = [heat for heat in heats if heat.ended_at is None]
    if running:
        return running[0]
    return max(heats, key=lambda heat: heat.started_at, default=None)


def clock_state(round_: Round) -> dict:
    """Return what the projector's clock needs: the heat's start and time-up, the limit, the motif.

    Part of the polled board, so that a screen opened before the start shows
    the clock running (and the motif revealed) once the heat starts.
    """
    heat = clock_heat(round_)
    category = round_.category
    motif = ""
    if heat is not None and category.puzzle_motif:
        motif = ": ".join(part for part in (category.puzzle_brand, category.puzzle_motif) if part)
    # Milliseconds, as the judges' clocks count: the screen agrees with them to the second.
    return {
        "started_ms": int(heat.started_at.timestamp() * 1000) if heat is not None else None,
        "ended_ms": (
            int(heat.ended_at.timestamp() * 1000) if heat is not None and heat.ended_at else None
        ),
        "limit_seconds": round_.effective_time_limit_minutes * 60,
        "motif": motif,
    }


def round_date(round_: Round, heats: list[Heat] | None = None) -> date:
    """Return the day of a round, in the championship's time zone: its first start, else planned.

    A round that has neither started nor a planned start is on the championship's date.
    ``heats`` are the round's, if they have been read already (``heats_of``).
    """
    championship = round_.category.championship
    if heats is None:
        heats = heats_of(round_)
    # Each heat's start, else its planned start: read through the model, which makes a
    # moment stored near the calendar's end safe.
    starts = (heat.started_at or heat.scheduled_start for heat in heats)
    first = min((start for start in starts if start is not None), default=None)
    if first is None:
        return championship.local_date
    return bounds.local_day(first, championship.tzinfo)


def waiting_rows(round_: Round, heat: str | None = None) -> list[dict]:
    """Return the entries seated in heats that have not started, as rows that wait.

    An entry has a result only once its heat starts; until then it is listed as
    waiting, not left out. Only once the seating is public: before, nobody sees
    heats and tables. Names only with consent to publication, as in the standings.
    """
    if round_.seating_published_at is None:
        return []
    seats = (
        Seat.objects.filter(round=round_, heat__started_at__isnull=True)
        .exclude(entry__results__round=round_)
        .select_related("entry", "heat", "table")
        .prefetch_related(
            Prefetch(
                "entry__members",
                queryset=Person.objects.select_related("puzzler").order_by("memberships__position"),
            )
        )
        .order_by("heat__order", "heat__key", "table__number", "position")
    )
    if heat:
        seats = seats.filter(heat__key=heat)
    rules = round_.category.championship.rules
    kind = round_.category.kind
    rows = []
    for seat in seats:
        entry = seat.entry
        published = entry.publish_consent
        rows.append(
            {
                "entry": {
                    "id": entry.ref,
                    "name": entry.name if published else None,
                    "members": [m.name for m in entry.members.all()] if published else [],
                    "people": people(entry) if published else [],
                },
                "heat": seat.heat.key,
                "table": seat.table.number,
                "place": None,
                "official_place": None,
                "official": entry_is_official(entry, rules, kind),
                "outcome": None,
                "qualified": False,
                "prize": None,
                "waiting": True,
            }
        )
    return rows


def category_standings(category) -> list[dict]:
    """Return a category's final standings: the last round's, then the others by their best round.

    Each row is a public row of the round in which the entry got furthest, with
    ``round`` added.
    """
    rounds = list(Round.objects.filter(category=category).order_by("-order"))
    seen: set[str] = set()
    combined = []
    for round_ in rounds:
        standings = round_standings(round_)
        for row in standings["rows"]:
            if row["entry"]["id"] in seen:
                continue
            seen.add(row["entry"]["id"])
            combined.append({**row, "round": round_.key, "round_name": round_.display_name})
    return combined
