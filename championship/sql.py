"""Model instances read and written by written-out queries, for the few paths too hot for the ORM.

Building a query with the ORM costs about a millisecond of CPU, often more than
running it; a judge's capture reads its seat, heat and result under the round's
lock in one written-out query instead. ``select_list`` writes a model's columns
for such a query, in the order of its concrete fields, and ``instance`` makes the
model instance from its part of a row with the conversions the ORM would apply
(SQLite gives date-times as text and booleans as 0 or 1; PostgreSQL gives JSON
as text). The columns come from the models, so a new field is read with the rest.
``insert`` and ``update`` write an instance as ``save()`` does (without its
signals, and without a model's own ``save``): each value through its field's
``pre_save`` and ``get_db_prep_save``; ``insert_and_update`` writes both at
once, in one statement on PostgreSQL.
"""

from __future__ import annotations

from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.db.models import Model

_plans: dict[tuple[str, type[Model]], tuple[list, list[str], int]] = {}
# Written once per database, model and table alias: the hot paths write them for every request.
_select_lists: dict[tuple[str, type[Model], str], str] = {}


def select_list(model: type[Model], alias: str) -> str:
    """Return the columns of ``model``'s concrete fields, of the table named ``alias``."""
    key = (connection.vendor, model, alias)
    found = _select_lists.get(key)
    if found is None:
        quote = connection.ops.quote_name
        found = _select_lists[key] = ", ".join(
            f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields
        )
    return found


def width(model: type[Model]) -> int:
    """Return how many columns ``select_list`` writes for ``model``."""
    return len(model._meta.concrete_fields)


def instance(model: type[Model], values) -> Model:
    """Return the ``model`` instance of ``values``, a row's ``select_list`` part, as the ORM would.

    The instance is as one read by a query: saved, of the default database.
    """
    db = connections[DEFAULT_DB_ALIAS]
    converters, attnames, _pk = _read_plan(model, db)
    converted = []
    for (column, functions), value in zip(converters, values, strict=True):
        for function in functions:
            value = function(value, column, db)
        converted.append(value)
    return model.from_db(DEFAULT_DB_ALIAS, attnames, converted)


def _read_plan(model: type[Model], db) -> tuple[list, list[str], int]:
    """Return how ``model``'s rows are read, once per database vendor and model.

    Each concrete field's column and the converters the ORM applies to its
    values; the fields' attnames; the place of the primary key.
    """
    key = (db.vendor, model)
    found = _plans.get(key)
    if found is None:
        converters = []
        for field in model._meta.concrete_fields:
            column = field.get_col(model._meta.db_table)
            functions = db.ops.get_db_converters(column) + column.get_db_converters(db)
            converters.append((column, functions))
        attnames = [field.attname for field in model._meta.concrete_fields]
        found = _plans[key] = (
            converters,
            attnames,
            attnames.index(model._meta.pk.attname),
        )
    return found


def table(model: type[Model]) -> str:
    """Return ``model``'s table name, quoted for a query."""
    return connection.ops.quote_name(model._meta.db_table)


def _select(model: type[Model], where: str) -> str:
    return f"SELECT {select_list(model, 't')} FROM {table(model)} t WHERE {where}"


def get(model: type[Model], where: str, params: list) -> Model | None:
    """Return the ``model`` instance whose row (table alias ``t``) meets ``where``, or ``None``.

    ``where`` must single out one row at most (a unique key).
    """
    with connection.cursor() as cursor:
        cursor.execute(_select(model, where), params)
        row = cursor.fetchone()
    return None if row is None else instance(model, row)


def many(model: type[Model], where: str, params: list) -> list[Model]:
    """Return the ``model`` instances whose rows (table alias ``t``) meet ``where``, in order."""
    with connection.cursor() as cursor:
        cursor.execute(_select(model, where), params)
        return [instance(model, row) for row in cursor.fetchall()]


def split(row, *models: type[Model]) -> tuple[list[Model | None], tuple]:
    """Return the instances of ``models`` in ``row`` (their ``select_list`` parts, in turn).

    A model whose primary key is null (a left join that found nothing) gives
    ``None``. The columns after theirs come back as they are.
    """
    instances, start = [], 0
    for model in models:
        size = width(model)
        values = row[start : start + size]
        pk = _read_plan(model, connection)[2]
        instances.append(None if values[pk] is None else instance(model, values))
        start += size
    return instances, tuple(row[start:])


def insert(obj: Model) -> None:
    """Insert ``obj`` as ``obj.save()`` inserts a new row, and set its primary key.

    Every concrete field is written (an auto-incremented key only if it is set),
    each value as the ORM prepares it (``pre_save``: the instants of ``auto_now``
    and ``auto_now_add``; ``get_db_prep_save``: JSON, UUIDs, time zones). No
    signal is sent.
    """
    run(insertion(obj))


class Insertion(NamedTuple):
    """An instance's ``INSERT``, its values prepared (``insertion``), not yet run."""

    obj: Model
    query: str
    values: list
    key: str | None  # the quoted column of a key the database generates


def insertion(obj: Model) -> Insertion:
    """Return the insert of ``obj``, its values prepared now, as ``insert`` would write them.

    The fields' ``pre_save`` runs now: an ``auto_now_add`` instant is set on
    ``obj`` before the row is written (``run``, ``insert_and_update``).
    """
    meta = obj._meta
    generated = meta.auto_field is not None and obj.pk is None
    fields = [
        field
        for field in meta.local_concrete_fields
        if not (generated and field is meta.auto_field)
    ]
    values = [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    query = f"INSERT INTO {table(type(obj))} ({columns}) VALUES ({marks})"
    if generated:
        query = f"{query} RETURNING {quote(meta.auto_field.column)}"
    return Insertion(obj, query, values, quote(meta.auto_field.column) if generated else None)


def run(insert: Insertion) -> None:
    """Write the row of ``insert``; set its instance's generated key."""
    with connection.cursor() as cursor:
        cursor.execute(insert.query, insert.values)
        _inserted(insert, cursor.fetchone()[0] if insert.key else None)


def update(obj: Model, names: list[str]) -> None:
    """Write the fields ``names`` of ``obj``, as ``obj.save(update_fields=names)`` does.

    A field with ``auto_now`` among them gets the instant now, as ``save()`` gives
    it. Raise ``DatabaseError`` if the row is not there, as ``save()`` does.
    """
    query, values = _update_statement(obj, names)
    with connection.cursor() as cursor:
        cursor.execute(query, values)
        if cursor.rowcount != 1:
            raise DatabaseError(NOT_UPDATED)


def insert_and_update(insert: Insertion, changed: Model, names: list[str]) -> None:
    """Write the row of ``insert`` (``run``), then ``names`` of ``changed`` as ``update`` does.

    On PostgreSQL in one statement (the insert in a ``WITH``, whose key the
    update returns): one round trip fewer, on the path of every judge's tap.
    Raise ``DatabaseError`` if ``changed``'s row is not there; the insert is
    then left for the transaction to roll back.
    """
    if connection.vendor != "postgresql":
        run(insert)
        update(changed, names)
        return
    updating, values = _update_statement(changed, names)
    returned = f"(SELECT {insert.key} FROM inserted)" if insert.key else "1"
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH inserted AS ({insert.query}) {updating} RETURNING {returned}",
            [*insert.values, *values],
        )
        row = cursor.fetchone()
    if row is None:
        raise DatabaseError(NOT_UPDATED)
    _inserted(insert, row[0] if insert.key else None)


NOT_UPDATED = "Save with update_fields did not affect any rows."


def _inserted(insert: Insertion, key) -> None:
    """Mark the instance of ``insert`` as saved, with the key the database generated."""
    obj = insert.obj
    if insert.key:
        setattr(obj, obj._meta.auto_field.attname, key)
    obj._state.adding = False
    obj._state.db = connection.alias


def _update_statement(obj: Model, names: list[str]) -> tuple[str, list]:
    """Return the ``UPDATE`` of ``obj``'s fields ``names`` by its primary key, and its values."""
    meta = obj._meta
    fields = [meta.get_field(name) for name in names]
    values = [field.get_db_prep_save(field.pre_save(obj, False), connection) for field in fields]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    return (
        f"UPDATE {table(type(obj))} SET {assignments} WHERE {quote(meta.pk.column)} = %s",
        [*values, meta.pk.get_db_prep_value(obj.pk, connection)],
    )
