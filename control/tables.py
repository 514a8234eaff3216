"""Where a heat's entries sit: the ordinary tables in seating order, guests at reserved ones.

The tables a heat's entries take follow the seating order (``control.rounds``):
the best seed at the first table; unofficial entries (guests) at the tables the
organiser reserved for them, up to the rules' ``reserved_guest_tables_max``, and
otherwise in their position; tables shared only when every table is taken.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import ngettext

from championship.models import Table
from registration.models import Entry


def allocate_tables(
    entries: Sequence[Entry],
    tables: Sequence[Table],
    *,
    official: dict[int, bool],
    may_share: bool,
    guest_tables_max: int,
) -> list[tuple[Entry, Table, int]]:
    """Return where each entry of a heat sits, (entry, table, position): the best seed at table 1.

    ``entries`` are in seating order (seeding: the placement in the previous
    round, or the prior ranking in a first round). Where tables are reserved for
    guests, the guests (unofficial entries) sit there, the best seeded first, at
    up to ``guest_tables_max`` of them. Every other entry, guests who find no
    reserved table and all guests where none is reserved included, takes the
    ordinary tables in seating order: an unofficial second sits at the second
    table. When the ordinary tables run short, the last entries in seating order
    take the tables reserved for guests that no guest took (then the tables
    marked reserved beyond the maximum), so the best seeds stay at the ordinary
    tables, in order. Entrants share tables (positions 1 and 2) only when every
    table is taken and sharing is allowed, and only as many ordinary tables as
    needed are shared: the best seeds keep a table of their own. Refused only
    when every table and every allowed shared seat is taken.
    """
    ordinary = [t for t in tables if not t.reserved_for_guests]
    marked = [t for t in tables if t.reserved_for_guests]
    reserved, spare = marked[:guest_tables_max], marked[guest_tables_max:]
    guests = [e for e in entries if not official.get(e.pk, True)]
    # The best seeded guests sit at the reserved tables; everyone else keeps the seating order.
    at_reserved = guests[: len(reserved)]
    away = {e.pk for e in at_reserved}
    queue = [e for e in entries if e.pk not in away]
    # The reserved tables no guest took are there for anyone when the ordinary run short.
    free = reserved[len(at_reserved) :] + spare
    shareable = [t for t in ordinary if t.seats >= 2] if may_share else []
    shared_needed = max(0, len(queue) - len(ordinary) - len(free))
    if shared_needed > len(shareable):
        raise ValidationError(
            ngettext(
                "Not enough tables: %(entries)s entries need more than the %(tables)s table.",
                "Not enough tables: %(entries)s entries need more than the %(tables)s tables.",
                len(tables),
            )
            % {"entries": len(entries), "tables": len(tables)}
        )
    # The last shareable tables are the shared ones, so the best seeds sit alone.
    shared = {t.pk for t in shareable[len(shareable) - shared_needed :]} if shared_needed else set()
    places: list[tuple[Table, int]] = []
    for table in ordinary:
        places.append((table, 1))
        if table.pk in shared:
            places.append((table, 2))
    places += [(table, 1) for table in free]
    # There are at least as many places as entries (checked above); the rest stay empty.
    allocation = [
        (entry, table, position)
        for entry, (table, position) in zip(queue, places[: len(queue)], strict=True)
    ]
    allocation += [(entry, table, 1) for entry, table in zip(at_reserved, reserved, strict=False)]
    return allocation
