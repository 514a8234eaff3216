"""Written-out SQL of the results: statements the ORM builds more slowly than they run.

Each statement says why the ORM is not enough and what writing it out gained, as
measured. Tables and columns come from the models (``core.queries.table``,
each field's ``column`` and ``db_type``), and each statement is written once per
database vendor (and shape), not for every request.

The gains were measured on 2026-12-02 (PostgreSQL 15, the benchmark's round of
1,620 results in nine heats, 360 of them in): the ORM's query and the written-out
one called in turn, 20 rounds of about 0.4 s, the median CPU a call of each
round; the figures are the medians of the rounds, with their interquartile range
(the machine's speed moved by up to half between rounds). A statement is written
out only where the gain is more than twice that spread.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from django.db import connection
from django.db.models import Model

from championship.models import Category, Championship, Heat, Round, Seat, Table
from championship.rules import ranking
from core import queries as sql
from registration.models import Entry, EntryMember, Person, Puzzler
from results.models import Result, RoundRanking


def _column(model: type[Model], name: str) -> str:
    """Return the quoted column of ``model``'s field ``name`` (or attname; "pk": its key)."""
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    return connection.ops.quote_name(field.column)


# The live poll.


def poll_state(championship_slug: str, round_key: str, heat: str) -> tuple | None:
    """Return a round's id and version, its championship's language and whether it has ``heat``.

    ``None`` if the championship has no such round; ``heat`` "" is never found.

    Why not the ORM: every poll of a live page or of the API's results runs this,
    and an unchanged poll is nothing else: the ORM's building of the query (a
    join and an ``EXISTS``) costs more CPU than PostgreSQL's answering it.
    Measured: 0.16 ms of CPU a call against 1.33 ms (spread 0.06 and 0.24 ms).
    """
    with connection.cursor() as cursor:
        cursor.execute(_poll_state(connection.vendor), [heat, championship_slug, round_key])
        return cursor.fetchone()


@functools.cache
def _poll_state(vendor: str) -> str:
    r_id, h_round, h_key = _column(Round, "pk"), _column(Heat, "round"), _column(Heat, "key")
    return (
        f"SELECT r.{r_id}, r.{_column(Round, 'version')},"
        f" c.{_column(Championship, 'language')},"
        f" EXISTS (SELECT 1 FROM {sql.table(Heat)} h"
        f" WHERE h.{h_round} = r.{r_id} AND h.{h_key} = %s)"
        f" FROM {sql.table(Round)} r"
        f" JOIN {sql.table(Championship)} c"
        f" ON c.{_column(Championship, 'pk')} = r.{_column(Round, 'championship')}"
        f" WHERE c.{_column(Championship, 'slug')} = %s AND r.{_column(Round, 'key')} = %s"
    )


# A live page's round.


def round_for_request(championship_slug: str, round_key: str) -> Round | None:
    """Return a round with its category and championship, in one query (or ``None``).

    Why not the ORM: every new version of a live page (and of the API's answer)
    reads it, and the ORM's building of the query and of its three instances cost
    a fifth of a fragment's render. Measured: 0.38 ms of CPU a call against 1.81
    ms (spread 0.07 and 0.20 ms).
    """
    with connection.cursor() as cursor:
        cursor.execute(_round_for_request(connection.vendor), [championship_slug, round_key])
        row = cursor.fetchone()
    if row is None:
        return None
    (round_, category, championship), _rest = sql.split(row, Round, Category, Championship)
    round_.category = category
    round_.championship = category.championship = championship
    return round_


@functools.cache
def _round_for_request(vendor: str) -> str:
    return (
        f"SELECT {sql.select_list(Round, 'r')}, {sql.select_list(Category, 'c')},"
        f" {sql.select_list(Championship, 'h')}"
        f" FROM {sql.table(Round)} r JOIN {sql.table(Category)} c"
        f" ON c.{_column(Category, 'pk')} = r.{_column(Round, 'category')}"
        # A round's championship is its category's (``Round.save``).
        f" JOIN {sql.table(Championship)} h"
        f" ON h.{_column(Championship, 'pk')} = r.{_column(Round, 'championship')}"
        f" WHERE h.{_column(Championship, 'slug')} = %s AND r.{_column(Round, 'key')} = %s"
    )


# A round's public rows.

# The tables of a public row's values, by the name of the result's relation to them.
_PUBLIC_ALIASES = {"entry": "e", "heat": "h"}


def public_rows(
    round_id: int, heat: str | None, columns: tuple[str, ...]
) -> tuple[list[tuple], list[tuple]]:
    """Return a round's (or a heat's) results as rows of ``columns``, and their entries' members.

    ``columns`` are named as ``values_list`` names them: a field of the result
    (``"pk"``, ``"entry_id"``, ``"place"``), of its entry or heat (``"entry__ref"``,
    ``"heat__key"``), or ``"table_number"``, the number of the entry's table in
    the round (``None`` if not seated). The results come in standing order: the
    model's, with the places still to come last on every database. The members
    are ``(entry id, name, consents, puzzler's ref)``, by entry, in its order.

    Why not the ORM: building the two queries cost as much CPU as running them,
    and they run for every new version of a busy heat's standings. Measured: a
    heat of 180, 0.79 ms of CPU against 4.13 ms (spread 0.26 and 1.13 ms); the
    whole round, 3.78 ms against 7.42 ms (spread 0.63 and 0.97 ms).
    """
    rows_sql, members_sql = _public_rows(connection.vendor, bool(heat), columns)
    params = [round_id, heat] if heat else [round_id]
    with connection.cursor() as cursor:
        cursor.execute(rows_sql, params)
        rows = cursor.fetchall()
        cursor.execute(members_sql, params)
        return rows, cursor.fetchall()


def _public_column(name: str) -> str:
    if name == "table_number":
        return f"t.{_column(Table, 'number')}"
    relation, _, field = name.rpartition("__")
    if relation:
        model = Result._meta.get_field(relation).related_model
        return f"{_PUBLIC_ALIASES[relation]}.{_column(model, field)}"
    return f"r.{_column(Result, name)}"


@functools.cache
def _public_rows(vendor: str, heat: bool, columns: tuple[str, ...]) -> tuple[str, str]:
    def result(name: str) -> str:
        return f"r.{_column(Result, name)}"

    e_id, h_id = f"e.{_column(Entry, 'pk')}", f"h.{_column(Heat, 'pk')}"
    in_heat = f" AND h.{_column(Heat, 'key')} = %s" if heat else ""
    selected = ", ".join(_public_column(name) for name in columns)
    rows = (
        f"SELECT {selected}"
        f" FROM {sql.table(Result)} r JOIN {sql.table(Entry)} e ON {e_id} = {result('entry')}"
        f" JOIN {sql.table(Heat)} h ON {h_id} = {result('heat')}"
        # An entry has one seat in a round.
        f" LEFT JOIN {sql.table(Seat)} s ON s.{_column(Seat, 'round')} = {result('round')}"
        f" AND s.{_column(Seat, 'entry')} = {result('entry')}"
        f" LEFT JOIN {sql.table(Table)} t ON t.{_column(Table, 'pk')} = s.{_column(Seat, 'table')}"
        f" WHERE {result('round')} = %s{in_heat}"
        f" ORDER BY {result('place')} IS NULL, {result('place')}, {result('official_place')},"
        f" e.{_column(Entry, 'registered_at')}, {e_id}"
    )
    m_entry = f"m.{_column(EntryMember, 'entry')}"
    members = (
        f"SELECT {m_entry}, p.{_column(Person, 'name')}, p.{_column(Person, 'publish_consent')},"
        f" z.{_column(Puzzler, 'ref')}"
        f" FROM {sql.table(EntryMember)} m"
        f" JOIN {sql.table(Person)} p"
        f" ON p.{_column(Person, 'pk')} = m.{_column(EntryMember, 'person')}"
        f" LEFT JOIN {sql.table(Puzzler)} z"
        f" ON z.{_column(Puzzler, 'pk')} = p.{_column(Person, 'puzzler')}"
        f" WHERE {m_entry} IN (SELECT {result('entry')} FROM {sql.table(Result)} r"
        f" JOIN {sql.table(Heat)} h ON {h_id} = {result('heat')}"
        f" WHERE {result('round')} = %s{in_heat})"
        f" ORDER BY {m_entry}, m.{_column(EntryMember, 'position')}"
    )
    return rows, members


# The ranking.

# What the ranking of the stored outcomes reads of each result: its inputs, whether its
# entry is withdrawn, then its ranking as stored (``stored_outcomes``).
STORED_INPUTS = (
    "pk",
    "heat_id",
    "outcome",
    "final_ms",
    "penalty_ms",
    "counted_pieces",
    "official",
)
STORED_RANKING = ("place", "official_place", "qualified", "qualified_by", "prize")


def stored_outcomes(round_id: int) -> list[tuple]:
    """Return the stored outcome and ranking of the results of a round the ranking may place.

    Each row is the result's ``STORED_INPUTS``, whether its entry is withdrawn,
    and its ``STORED_RANKING``; ordered by the stored places, which the new ones
    mostly keep (sorting rows already in order is one pass). A result that is not
    ranked (still puzzling, did not start, disqualified) and holds no place,
    qualification or prize is left out: the ranking gives it none and passes it
    by (``ranking.rank``, ``advancement.qualifiers``, ``ranking.award_prizes``),
    so reading it changes nothing. During a heat most of a round is still
    puzzling: a round of 1,600 with 400 finished reads 400 rows.

    Why not the ORM: it runs for every new version of a busy round, and the ORM's
    building of the query (an ``OR`` of five conditions, a join and an
    annotation) cost more than running it. Measured: 0.42 ms of CPU a call
    against 1.80 ms (spread 0.09 and 0.37 ms).
    """
    with connection.cursor() as cursor:
        cursor.execute(
            _stored_outcomes(connection.vendor),
            [Entry.Status.WITHDRAWN, round_id, *sorted(ranking.RANKED)],
        )
        return cursor.fetchall()


@functools.cache
def _stored_outcomes(vendor: str) -> str:
    def result(name: str) -> str:
        return f"r.{_column(Result, name)}"

    place = result("place")
    marks = ", ".join(["%s"] * len(ranking.RANKED))
    return (
        f"SELECT {', '.join(result(name) for name in STORED_INPUTS)},"
        f" e.{_column(Entry, 'status')} = %s,"
        f" {', '.join(result(name) for name in STORED_RANKING)}"
        f" FROM {sql.table(Result)} r"
        f" JOIN {sql.table(Entry)} e ON e.{_column(Entry, 'pk')} = {result('entry')}"
        f" WHERE {result('round')} = %s AND ({result('outcome')} IN ({marks})"
        f" OR {place} IS NOT NULL OR {result('official_place')} IS NOT NULL"
        f" OR {result('qualified')} OR {result('prize')} IS NOT NULL)"
        f" ORDER BY {place} NULLS LAST, {result('pk')}"
    )


def ranked_version(round_id: int, *, lock: bool = False) -> int | None:
    """Return the version of a round its stored places reflect (``None``: never ranked).

    With ``lock``, its ranking's row is locked (``FOR UPDATE``) until the
    transaction ends: the ranking lock (``results.services.lock_ranking``).

    Why not the ORM: every reader of a new version runs it, and the ORM's
    building of the query cost more than running it. Measured, locking: 0.13 ms
    of CPU a call against 0.39 ms (spread 0.02 and 0.10 ms).
    """
    with connection.cursor() as cursor:
        cursor.execute(_ranked_version(connection.vendor, lock), [round_id])
        row = cursor.fetchone()
    return None if row is None else row[0]


@functools.cache
def _ranked_version(vendor: str, lock: bool) -> str:
    locking = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    return (
        f"SELECT {_column(RoundRanking, 'version')} FROM {sql.table(RoundRanking)}"
        f" WHERE {_column(RoundRanking, 'round')} = %s{locking}"
    )


def mark_ranked(round_id: int, version: int) -> None:
    """Record that a round's stored places reflect its ``version`` (under its ranking lock).

    Why not the ORM: it runs for every new version of a busy round, and building
    an ``UPDATE`` with the ORM cost more than running it. Measured: 0.13 ms of
    CPU a call against 0.32 ms (spread 0.02 and 0.05 ms).
    """
    with connection.cursor() as cursor:
        cursor.execute(_mark_ranked(connection.vendor), [version, round_id])


@functools.cache
def _mark_ranked(vendor: str) -> str:
    return (
        f"UPDATE {sql.table(RoundRanking)} SET {_column(RoundRanking, 'version')} = %s"
        f" WHERE {_column(RoundRanking, 'round')} = %s"
    )


def is_ranked(round_id: int) -> bool:
    """Return whether a round's stored places reflect its current version.

    As ``results.services.RANKED`` says it, for one round; a round never ranked
    has no ranking row, and is not.

    Why not the ORM: every reader of the standings runs it, ranked or not.
    Measured: 0.13 ms of CPU a call against 0.51 ms (spread 0.03 and 0.08 ms).
    """
    with connection.cursor() as cursor:
        cursor.execute(_is_ranked(connection.vendor), [round_id])
        return cursor.fetchone() is not None


@functools.cache
def _is_ranked(vendor: str) -> str:
    r_id, r_version = _column(Round, "pk"), _column(Round, "version")
    return (
        f"SELECT 1 FROM {sql.table(Round)} r JOIN {sql.table(RoundRanking)} k"
        f" ON k.{_column(RoundRanking, 'round')} = r.{r_id}"
        f" WHERE r.{r_id} = %s AND k.{_column(RoundRanking, 'version')} >= r.{r_version}"
    )


def round_by_id(round_id: int) -> Round | None:
    """Return the round of ``round_id`` (``None`` if there is none).

    Why not the ORM: a ranking reads it again under its lock, for every new
    version of a busy round. Measured: 0.25 ms of CPU a call against 1.04 ms
    (spread 0.04 and 0.12 ms).
    """
    return sql.get(Round, _round_by_id(connection.vendor), [round_id])


@functools.cache
def _round_by_id(vendor: str) -> str:
    return f"t.{_column(Round, 'pk')} = %s"


# Many results written at once.


def results_update(fields: Sequence[str], rows: Sequence[tuple]) -> None:
    """Set ``fields`` of many results: each row is ``(pk, *values)``, in ``fields``' order.

    The values are those the rules give (whole numbers, true or false, a text,
    ``None``), which the database takes as they are.

    Why not the ORM: ``QuerySet.bulk_update`` builds a ``CASE WHEN id = … THEN …``
    per field and row, and building it is Python work that grows with both: a new
    version of a round of 1,600 whose places all move cost more CPU in it than in
    the ranking, and ranking a freshly imported round of 10,000 results (nine
    fields) spent 45 s of the import's 95 s there (PostgreSQL 15, 2026-12-02).

    On PostgreSQL: one ``UPDATE … FROM unnest(…)`` with an array per field, about
    0.3 s for those 10,000 results. Elsewhere (SQLite, for development): the same
    ``UPDATE`` by id, once per row (``executemany``).
    """
    if not rows:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                _update_from_arrays(connection.vendor, tuple(fields)),
                [list(column) for column in zip(*rows, strict=True)],
            )
        else:
            cursor.executemany(
                _update_by_id(connection.vendor, tuple(fields)),
                [[*values, pk] for pk, *values in rows],
            )


@functools.cache
def _update_from_arrays(vendor: str, fields: tuple[str, ...]) -> str:
    """Return PostgreSQL's ``UPDATE`` of ``fields`` from one array per column, ids first."""
    quote = connection.ops.quote_name
    pk = Result._meta.pk
    model_fields = [Result._meta.get_field(name) for name in fields]
    columns = [quote(field.column) for field in model_fields]
    arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in [pk, *model_fields])
    return (
        f"UPDATE {sql.table(Result)} AS r"
        f" SET {', '.join(f'{column} = v.{column}' for column in columns)}"
        f" FROM unnest({arrays}) AS v({quote(pk.column)}, {', '.join(columns)})"
        f" WHERE r.{quote(pk.column)} = v.{quote(pk.column)}"
    )


@functools.cache
def _update_by_id(vendor: str, fields: tuple[str, ...]) -> str:
    """Return the ``UPDATE`` of ``fields`` of one result, its id last."""
    columns = [_column(Result, name) for name in fields]
    return (
        f"UPDATE {sql.table(Result)} SET {', '.join(f'{column} = %s' for column in columns)}"
        f" WHERE {_column(Result, 'pk')} = %s"
    )
