"""Written-out SQL of the results: statements the ORM builds more slowly than they run.

Each statement says why the ORM is not enough and what writing it out gained, as
measured. Tables and columns come from the models (``championship.sql.table``,
each field's ``column`` and ``db_type``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from django.db import connection

from championship import sql
from results.models import Result


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
                _update_from_arrays(tuple(fields)),
                [list(column) for column in zip(*rows, strict=True)],
            )
        else:
            cursor.executemany(
                _update_by_id(tuple(fields)), [[*values, pk] for pk, *values in rows]
            )


@functools.cache
def _update_from_arrays(fields: tuple[str, ...]) -> str:
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
def _update_by_id(fields: tuple[str, ...]) -> str:
    """Return the ``UPDATE`` of ``fields`` of one result, its id last."""
    quote = connection.ops.quote_name
    columns = [quote(Result._meta.get_field(name).column) for name in fields]
    return (
        f"UPDATE {sql.table(Result)} SET {', '.join(f'{column} = %s' for column in columns)}"
        f" WHERE {quote(Result._meta.pk.column)} = %s"
    )
