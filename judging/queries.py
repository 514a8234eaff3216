"""Written-out SQL of a judge's capture: statements the ORM builds more slowly than they run.

Every capture runs them, under the round's lock, so they are on the path of
every tap. Each says why the ORM is not enough and what writing it out gained,
as measured. Tables and columns come from the models (``core.queries``,
each field's ``column``); each statement is written once per database vendor
and way of naming the round or the entry.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection

from championship.models import Category, Championship, ChampionshipRole, Heat, Round, Seat
from core import queries as sql
from judging.models import Capture
from registration.models import Entry
from results.models import Result

# How a capture names its round and its entry: the field whose value it gives. The API
# names them by their keys (what the phone sends); the table page and the services' other
# callers by their ids.
ROUND_BY_KEY, ROUND_BY_ID = "key", "id"
ENTRY_BY_REF, ENTRY_BY_ID = "ref", "id"


def _column(model, name: str) -> str:
    """Return the quoted column of ``model``'s field ``name``."""
    return connection.ops.quote_name(model._meta.get_field(name).column)


@dataclass(frozen=True)
class UnderLock:
    """What a capture reads of its entry under the round's lock (``under_lock``)."""

    category: Category  # the round's
    entry: Entry | None  # None: no such entry in the round's category
    seat: Seat | None  # with its heat; None: the entry is not seated in the round
    result: Result | None  # the entry's result in the round, None before it has one
    earlier: int | None  # a capture already stored with this capture's id (a retry)
    captured: bool  # whether the entry has a capture in the round yet


def round_lock_and_move_on(championship: Championship, by: str, key) -> Round | None:
    """Lock the round's row and move its versions on, in one statement; return it as locked.

    The round is the championship's whose field ``by`` (``ROUND_BY_KEY``,
    ``ROUND_BY_ID``) is ``key``; ``None`` if it has none. Every capture that
    stores something changes the round's captures version (the judges' pages
    follow it) and nearly every one its results version, so the lock and the
    change are one ``UPDATE … RETURNING``; a capture that stores nothing (a
    replay, a refusal) rolls back its transaction, and the versions with it.

    Why not the ORM: ``QuerySet.update`` returns no row, so the ORM takes two
    statements (the update, then the round read under its lock), and building
    them costs more than running them. Measured on PostgreSQL (2026-12-02,
    five paired runs of 16 to 30 alternated rounds of 80 captures): 0.5 to
    0.9 ms a capture written out, 1.8 to 2.8 ms with the ORM, slower in every
    round; the gain, 1.3 to 1.9 ms, was more than twice the interquartile
    spread of the rounds' medians in three runs of five, more than twice their
    whole range in one (the shared machine's speed moved by half between
    rounds). As ``QuerySet.update``, it sends no signal.
    """
    with connection.cursor() as cursor:
        cursor.execute(_round_lock_statement(connection.vendor, by), [championship.pk, key])
        row = cursor.fetchone()
    if row is None:
        return None
    locked = sql.instance(Round, row)
    locked.championship = championship
    return locked


@functools.cache
def _round_lock_statement(vendor: str, by: str) -> str:
    """Return the round's ``UPDATE … RETURNING`` (``round_lock_and_move_on``) for ``vendor``."""
    table = sql.table(Round)
    version, captures_version = _column(Round, "version"), _column(Round, "captures_version")
    return (
        f"UPDATE {table}"
        f" SET {version} = {version} + 1, {captures_version} = {captures_version} + 1"
        f" WHERE {_column(Round, 'championship')} = %s AND {_column(Round, by)} = %s"
        f" RETURNING {sql.select_list(Round, table)}"
    )


def under_lock(round_: Round, by: str, entry_key, client_id) -> UnderLock:
    """Return the round's category, the entry named in it, its seat, heat and result.

    Read under the round's lock, in one query, with whether a capture with
    ``client_id`` is stored already (a retry may race the first attempt) and
    whether the entry has any capture in the round yet (if not, its result is
    derived from this one alone). ``by`` names the entry's field whose value is
    ``entry_key`` (``ENTRY_BY_REF``, ``ENTRY_BY_ID``).

    Why not the ORM: the same reads take it two queries at best (the seat with
    its heat, its entry and category and the two captures' subqueries; then the
    result), and building them costs more than running them. Measured on
    PostgreSQL (2026-12-02, the runs of ``round_lock_and_move_on``): 0.7 to
    0.9 ms a capture written out, 3.3 to 4.5 ms with the ORM, slower in every
    round; the gain, 2.6 to 3.6 ms, was more than twice the interquartile
    spread of the rounds' medians in four runs of five, more than twice their
    whole range in one.
    """
    client = Capture._meta.get_field("client_id").get_db_prep_value(client_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            _under_lock_statement(connection.vendor, by),
            [client, round_.pk, entry_key, round_.pk, round_.pk, round_.category_id],
        )
        row = cursor.fetchone()
    (category, entry, seat, heat, result), (earlier, captured) = sql.split(
        row, Category, Entry, Seat, Heat, Result
    )
    if entry is not None:
        entry.category = category
    if seat is not None:
        seat.heat = heat
    return UnderLock(
        category=category,
        entry=entry,
        seat=seat,
        result=result,
        earlier=earlier,
        captured=bool(captured),
    )


@functools.cache
def _under_lock_statement(vendor: str, by: str) -> str:
    """Return the capture's read under the round's lock (``under_lock``) for ``vendor``."""
    pk = _column(Category, "id")
    capture_round, capture_entry = _column(Capture, "round"), _column(Capture, "entry")
    entry_pk = f"e.{_column(Entry, 'id')}"
    captures = sql.table(Capture)
    return (
        f"SELECT {sql.select_list(Category, 'c')}, {sql.select_list(Entry, 'e')},"
        f" {sql.select_list(Seat, 's')}, {sql.select_list(Heat, 'h')},"
        f" {sql.select_list(Result, 'r')},"
        f" (SELECT k.{_column(Capture, 'id')} FROM {captures} k"
        f" WHERE k.{_column(Capture, 'client_id')} = %s),"
        f" EXISTS (SELECT 1 FROM {captures} k"
        f" WHERE k.{capture_round} = %s AND k.{capture_entry} = {entry_pk})"
        f" FROM {sql.table(Category)} c"
        f" LEFT JOIN {sql.table(Entry)} e ON e.{_column(Entry, 'category')} = c.{pk}"
        f" AND e.{_column(Entry, by)} = %s"
        f" LEFT JOIN {sql.table(Seat)} s ON s.{_column(Seat, 'round')} = %s"
        f" AND s.{_column(Seat, 'entry')} = {entry_pk}"
        f" LEFT JOIN {sql.table(Heat)} h ON h.{_column(Heat, 'id')} = s.{_column(Seat, 'heat')}"
        # An entry has one result in a round.
        f" LEFT JOIN {sql.table(Result)} r ON r.{_column(Result, 'round')} = %s"
        f" AND r.{_column(Result, 'entry')} = {entry_pk}"
        f" WHERE c.{pk} = %s"
    )


# Who sends a capture.


def championship_with_roles(slug: str, user_id: int) -> tuple[Championship, frozenset] | None:
    """Return the championship of ``slug`` and the roles user ``user_id`` holds in it; ``None``.

    A phone signed in with a session sends its captures so (``api.authentication``).

    Why not the ORM: the championship and the roles are two queries with the ORM,
    each built anew for every capture. Measured (2026-12-02, PostgreSQL 15, 20
    rounds alternated, three runs): 0.29 to 0.32 ms of CPU a call against 1.01 to 1.19
    ms (interquartile spread of the rounds 0.22 to 0.35 ms); faster in every round.
    """
    query = _championship_with_roles(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(query, [user_id, slug])
        rows = cursor.fetchall()
    if not rows:
        return None
    (championship,), _role = sql.split(rows[0], Championship)
    return championship, frozenset(row[-1] for row in rows if row[-1])


@functools.cache
def _championship_with_roles(vendor: str) -> str:
    role = ChampionshipRole
    return (
        f"SELECT {sql.select_list(Championship, 'ch')}, ro.{_column(role, 'role')}"
        f" FROM {sql.table(Championship)} ch"
        # The user's roles in this championship (a row each).
        f" LEFT JOIN {sql.table(role)} ro"
        f" ON ro.{_column(role, 'championship')} = ch.{_pk(Championship)}"
        f" AND ro.{_column(role, 'user')} = %s"
        f" WHERE ch.{_column(Championship, 'slug')} = %s"
    )


@dataclass(frozen=True)
class Caller:
    """A championship read with the token a request names, the token's user and their roles."""

    championship: Championship
    token: object | None  # the token's model instance; None: no such token
    user: object | None  # the token's user
    roles: frozenset


def championship_with_token(slug: str, key: str, token_model) -> Caller | None:
    """Return the championship of ``slug`` with the token ``key``, its user and their roles.

    ``token_model``: the token's model (``TokenAuthentication.get_model``). ``None``
    if there is no such championship. A phone with an API token sends its
    captures so; DRF's ``TokenAuthentication`` then reads nothing more
    (``api.authentication``).

    Why not the ORM: the championship, the token with its user, and the roles are
    three queries with the ORM and DRF, each built anew for every capture.
    Measured (2026-12-02, PostgreSQL 15, 20 rounds alternated, three runs):
    0.43 to 0.47 ms of CPU a call against 1.99 to 2.19 ms (interquartile spread of the
    rounds 0.20 to 0.49 ms); faster in every round.
    """
    user_model = get_user_model()
    with connection.cursor() as cursor:
        cursor.execute(_championship_with_token(connection.vendor, token_model), [key, slug])
        rows = cursor.fetchall()
    if not rows:
        return None
    (championship, token, user), _role = sql.split(rows[0], Championship, token_model, user_model)
    if token is None:
        return Caller(championship, None, None, frozenset())
    token.user = user
    return Caller(championship, token, user, frozenset(row[-1] for row in rows if row[-1]))


@functools.cache
def _championship_with_token(vendor: str, token_model) -> str:
    user_model, role = get_user_model(), ChampionshipRole
    return (
        f"SELECT {sql.select_list(Championship, 'ch')}, {sql.select_list(token_model, 't')},"
        f" {sql.select_list(user_model, 'u')}, ro.{_column(role, 'role')}"
        f" FROM {sql.table(Championship)} ch"
        # The token, its user and the user's roles in this championship (a row each).
        f" LEFT JOIN {sql.table(token_model)} t ON t.{_pk(token_model)} = %s"
        f" LEFT JOIN {sql.table(user_model)} u ON u.{_pk(user_model)}"
        f" = t.{_column(token_model, 'user')}"
        f" LEFT JOIN {sql.table(role)} ro"
        f" ON ro.{_column(role, 'championship')} = ch.{_pk(Championship)}"
        f" AND ro.{_column(role, 'user')} = u.{_pk(user_model)}"
        f" WHERE ch.{_column(Championship, 'slug')} = %s"
    )


def _pk(model) -> str:
    return connection.ops.quote_name(model._meta.pk.column)
