"""Model instances read by written-out queries, for the few paths too hot for the ORM.

Building a query with the ORM costs about a millisecond of CPU, often more than
running it; a judge's capture reads its seat, heat and result under the round's
lock in one written-out query instead. ``select_list`` writes a model's columns
for such a query, in the order of its concrete fields, and ``instance`` makes the
model instance from its part of a row with the conversions the ORM would apply
(SQLite gives date-times as text and booleans as 0 or 1; PostgreSQL gives JSON
as text). The columns come from the models, so a new field is read with the rest.
The statements themselves live in the apps' ``queries.py`` (``judging.queries``,
``results.queries``). Model instances are written by the ORM (``save()``,
``bulk_create``); only many results' derived fields at once are written out
(``results.queries.results_update``), and the callers say so.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

from core.process_cache import Store

# Made once per database vendor and model (and table alias): the hot paths use them for every
# request. A few dozen at most; the size is only the stores' one policy.
_plans: Store[tuple[list, list[str], int]] = Store("core.sql.plans", size=256)
_select_lists: Store[str] = Store("core.sql.select_lists", size=256)


def select_list(model: type[Model], alias: str) -> str:
    """Return the columns of ``model``'s concrete fields, of the table named ``alias``."""
    key = (connection.vendor, model, alias)
    found = _select_lists.get(key)
    if found is None:
        quote = connection.ops.quote_name
        columns = (f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields)
        found = _select_lists.put(key, ", ".join(columns))
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
        found = _plans.put(key, (converters, attnames, attnames.index(model._meta.pk.attname)))
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
