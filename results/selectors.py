"""Read a round's standings: for the API, the interchange export and the live pages."""

from __future__ import annotations

import time
from datetime import date

from django.core.cache import cache
from django.db import connection
from django.db.models import Prefetch
from django.db.models.functions import Coalesce
from django.urls import reverse

from championship import bounds, sql
from championship.l10n import format_duration
from championship.models import Heat, Round, Seat, Table
from registration.models import Entry, EntryMember, Person, Puzzler, name_may_be_published
from results.models import Result
from results.services import SHOWN_FIELDS, entry_is_official, standings_ensure


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


def pace(pieces: int, outcome: str, final_seconds: int | None) -> float | None:
    """Return ``pieces_per_minute`` of an outcome and final time read as plain values."""
    if outcome != Result.Outcome.COMPLETED or not final_seconds:
        return None
    return round(pieces * 60 / final_seconds, 1)


def people(entry) -> list[dict]:
    """Return the entry's members who consented to publication, with their puzzler's page.

    Prefetch ``members`` with their ``puzzler`` for lists.
    """
    return [
        {"name": member.name, "url": member.puzzler.get_absolute_url()}
        for member in entry.consenting_members()
    ]


# What a public row reads of each result, with its entry, heat and table: the names of
# ``_public_row_of``'s values, in the order of ``_rows_sql``'s columns.
ROW_COLUMNS = (
    "pk",
    "entry_id",
    "entry__ref",
    "entry__name",
    "entry__publish_consent",
    "heat__key",
    *SHOWN_FIELDS,
    "place",
    "official_place",
    "official",
    "qualified",
    "prize",
    "table_number",
)


def _tables() -> dict[str, str]:
    """Return the quoted table names the public rows' queries read."""
    return {
        "result": sql.table(Result),
        "entry": sql.table(Entry),
        "heat": sql.table(Heat),
        "seat": sql.table(Seat),
        "table": sql.table(Table),
        "member": sql.table(EntryMember),
        "person": sql.table(Person),
        "puzzler": sql.table(Puzzler),
    }


def _rows_sql(heat: bool) -> tuple[str, str]:
    """Return the queries of a round's (or a heat's) public rows and of their entries' members.

    Written out: building them with the ORM costs as much CPU as running them,
    and they run for every new version of a busy heat's standings. The results
    come in the model's order but for places still to come (``public_rows`` puts
    those last, whatever the database does with nulls).
    """
    names = _tables()
    in_heat = " AND h.key = %s" if heat else ""
    shown = ", ".join(f"r.{connection.ops.quote_name(name)}" for name in SHOWN_FIELDS)
    rows = (
        f"SELECT r.id, r.entry_id, e.ref, e.name, e.publish_consent, h.key, {shown},"
        " r.place, r.official_place, r.official, r.qualified, r.prize, t.number"
        " FROM {result} r JOIN {entry} e ON e.id = r.entry_id"
        " JOIN {heat} h ON h.id = r.heat_id"
        # An entry has one seat in a round.
        " LEFT JOIN {seat} s ON s.round_id = r.round_id AND s.entry_id = r.entry_id"
        " LEFT JOIN {table} t ON t.id = s.table_id"
        f" WHERE r.round_id = %s{in_heat}"
        " ORDER BY r.place, r.official_place, e.registered_at, e.id"
    ).format(**names)
    members = (
        "SELECT m.entry_id, p.name, p.publish_consent, z.ref"
        " FROM {member} m JOIN {person} p ON p.id = m.person_id"
        " LEFT JOIN {puzzler} z ON z.id = p.puzzler_id"
        " WHERE m.entry_id IN (SELECT r.entry_id FROM {result} r JOIN {heat} h ON h.id = r.heat_id"
        f" WHERE r.round_id = %s{in_heat})"
        " ORDER BY m.entry_id, m.position"
    ).format(**names)
    return rows, members


def heats_of(round_: Round) -> list[Heat]:
    """Return the round's heats in their order: written out, as every new version reads them."""
    return sql.many(Heat, 't.round_id = %s ORDER BY t."order", t.key', [round_.pk])


def public_rows(round_: Round, heat: str | None = None) -> list[dict]:
    """Return a round's (or one heat's) results as the public sees them, in standing order.

    Names only with consent to publication, which is each member's: the members
    list names those who consented; the entry's own name (often made of its
    members' names) only when all did (``Entry.name_published``). Read as plain
    values in two queries (results with their entries, heats and tables; their
    members) rather than as model instances: a new version of a round's standings
    is read after every capture of a busy heat.
    """
    rows_sql, members_sql = _rows_sql(bool(heat))
    params = [round_.pk, heat] if heat else [round_.pk]
    page = reverse("puzzler", kwargs={"ref": "REF"})
    before, _ref, after = page.partition("REF")
    members: dict[int, list] = {}
    with connection.cursor() as cursor:
        cursor.execute(rows_sql, params)
        values = [dict(zip(ROW_COLUMNS, row, strict=True)) for row in cursor.fetchall()]
        cursor.execute(members_sql, params)
        for entry_id, name, consents, puzzler in cursor.fetchall():
            members.setdefault(entry_id, []).append((name, consents, f"{before}{puzzler}{after}"))
    pieces = round_.category.pieces
    rows = [_public_row_of(value, members.get(value["entry_id"], []), pieces) for value in values]
    return sorted(rows, key=lambda row: (row["place"] is None, row["place"] or 0))


def _public_row_of(value: dict, members: list[tuple[str, bool, str]], pieces: int) -> dict:
    """Return a public row of a result read as values (see ``public_rows``).

    ``pieces`` are the puzzle's, for the pace. The booleans are made so: SQLite
    gives 0 or 1.
    """
    consenting = [(name, url) for name, consents, url in members if consents]
    published = name_may_be_published(
        value["entry__publish_consent"], [consents for _n, consents, _u in members]
    )
    final_ms = value["final_ms"]
    final_seconds = None if final_ms is None else final_ms // 1000
    return {
        "entry": {
            "id": value["entry__ref"],
            "name": value["entry__name"] if published else None,
            "members": [name for name, _url in consenting],
            "people": [{"name": name, "url": url} for name, url in consenting],
        },
        "heat": value["heat__key"],
        "table": value["table_number"],
        "time": format_duration(value["time_ms"]),
        "missing_found": value["missing_found"],
        "missing_lost": value["missing_lost"],
        "adjacent_missing": value["adjacent_missing"],
        "last_piece_time": format_duration(value["last_piece_ms"]),
        "pieces_placed": value["pieces_placed"],
        "incorrect": bool(value["incorrect"]),
        "status": value["status"],
        "place": value["place"],
        "official_place": value["official_place"],
        "official": bool(value["official"]),
        "outcome": value["outcome"] or None,
        "final_seconds": final_seconds,
        "penalty_seconds": value["penalty_ms"] // 1000,
        "counted_pieces": value["counted_pieces"],
        "qualified": bool(value["qualified"]),
        "prize": value["prize"],
        "pieces_per_minute": pace(pieces, value["outcome"], final_seconds),
    }


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

    Places are those of the whole round either way; one heat's rows are read on
    their own, so a heat's page of a round of 1,600 entries stays cheap. A cached
    copy is reused until the round's version changes; the first build of a new
    version ranks the round if captures came in since its last ranking.
    """
    key = f"standings:v3:{round_.pk}:{round_.version}:{heat or ''}"

    def build():
        standings_ensure(round_)
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
            "rows": public_rows(round_, heat),
        }

    return cached_once(key, build)


def round_for_request(championship_slug: str, round_key: str) -> Round | None:
    """Return a round with its category and championship, in one query (or ``None``)."""
    return (
        Round.objects.select_related("category__championship")
        .filter(championship__slug=championship_slug, key=round_key)
        .first()
    )


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


def round_date(round_: Round) -> date:
    """Return the day of a round, in the championship's time zone: its first start, else planned.

    A round that has neither started nor a planned start is on the championship's date.
    """
    championship = round_.category.championship
    first = (
        round_.heats.exclude(started_at__isnull=True, scheduled_start__isnull=True)
        .annotate(start=Coalesce("started_at", "scheduled_start"))
        .order_by("start")
        .values_list("start", flat=True)
        .first()
    )
    if first is None:
        return championship.local_date
    # Read past the model, so a start stored near the calendar's end is made safe here.
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
