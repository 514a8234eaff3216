"""What a checked document will write: the championship's tables, entries, rounds and heats."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass
class _Table:
    path: str
    number: int
    label: str
    seats: int
    token: str | None
    reserved_for_guests: bool = False
    group: str = ""


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
    # Version 3: the qualifiers withdrawn from the next round: entry, when, the result's path.
    withdrawals: list[tuple[str, datetime, str]] = field(default_factory=list)


@dataclass
class _Round:
    fields: dict
    heats: list[_Heat] = field(default_factory=list)
    path: str = ""
    # The key of the round its qualifiers go to (``advance.into``); None: the next one.
    into: str | None = None

    def complete(self) -> bool:
        """Return whether every heat started and every entry of the round has a result."""
        heats = self.heats
        if not heats or not all(heat.started_at for heat in heats):
            return False
        decided = {
            ref
            for heat in heats
            for ref, fields in heat.results
            if fields.get("status", "pending") != "pending"
        }
        seated = {ref for heat in heats for _number, ref, _position, _start in heat.seats}
        results = {ref for heat in heats for ref, _fields in heat.results}
        return bool(decided) and decided == (seated | results)

    def over(self) -> bool:
        """Return whether the round is over: complete, or time is up in every heat."""
        return self.complete() or bool(self.heats and all(h.ended_at for h in self.heats))


@dataclass
class _Competition:
    path: str
    fields: dict
    entries: list[_Entry] = field(default_factory=list)
    rounds: list[_Round] = field(default_factory=list)


@dataclass
class _Question:
    """One of the organiser's questions (unsaved), and the competition keys that ask it."""

    question: Any
    categories: list[str]


@dataclass
class _Plan:
    championship: dict
    tables: list[_Table]
    persons: list[dict]
    competitions: list[_Competition]
    questions: list[_Question] = field(default_factory=list)
