"""What a checked document will write: the championship's tables, entries, rounds and heats."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class _Table:
    path: str
    number: int
    label: str
    seats: int
    token: str | None
    reserved_for_guests: bool = False


@dataclass
class _Entry:
    ref: str
    fields: dict
    members: list[str]


@dataclass
class _Heat:
    key: str
    started_at: datetime | None
    name: str = ""
    scheduled_at: datetime | None = None
    ended_at: datetime | None = None
    # table, entry, position, the entry's own later start
    seats: list[tuple[int, str, int, datetime | None]] = field(default_factory=list)
    results: list[tuple[str, dict]] = field(default_factory=list)  # entry, fields


@dataclass
class _Round:
    fields: dict
    heats: list[_Heat] = field(default_factory=list)


@dataclass
class _Competition:
    path: str
    fields: dict
    entries: list[_Entry] = field(default_factory=list)
    rounds: list[_Round] = field(default_factory=list)


@dataclass
class _Plan:
    championship: dict
    tables: list[_Table]
    persons: list[dict]
    competitions: list[_Competition]
