"""The process's own caches: what a hot path keeps between requests, in one kind of store.

Django's cache (Redis) is shared by the application servers and holds what every
process may reuse: a round's rendered versions and standings. A few things are
cheaper to keep in the process itself, because they are Python objects that would
cost more to pickle than to make: a public row's content (``results.public_rows``),
a row's rendered cells (``results.row_cells``), what the last ranking of a round
made (``results.ranking_reuse``). Each is a ``Store``: a dictionary of a bounded
number of entries that is emptied when it is full and filled again. Nothing in a
store is ever the only copy: a value missing is made again from the database.

Every store is registered here by its name; ``forget_all`` empties them all (the
tests, between one test and the next, where ids are reused).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")

_stores: dict[str, Store] = {}


class Store(Generic[V]):
    """A bounded dictionary of one process, safe to use from several threads.

    The size policy is the same for every store: once ``size`` entries are kept,
    the next one empties the store first. Reads take no lock (a dictionary read is
    atomic); writes take the store's lock.
    """

    def __init__(self, name: str, size: int):
        if name in _stores:
            raise ValueError(f"A process cache named {name!r} exists already.")
        self.name = name
        self.size = size
        self._values: dict[Hashable, V] = {}
        self._lock = threading.Lock()
        _stores[name] = self

    def get(self, key: Hashable) -> V | None:
        """Return the value kept for ``key``, or ``None``."""
        return self._values.get(key)

    def put(self, key: Hashable, value: V) -> V:
        """Keep ``value`` for ``key``; return it."""
        with self._lock:
            if key not in self._values and len(self._values) >= self.size:
                self._values.clear()
            self._values[key] = value
        return value

    def put_many(self, values: dict[Hashable, V]) -> None:
        """Keep every value of ``values`` (emptying the store first if they would overfill it)."""
        with self._lock:
            if len(self._values) + len(values) > self.size:
                self._values.clear()
            self._values.update(values)

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        """Return the value kept for ``key``, made (and kept) if there is none."""
        value = self._values.get(key)
        if value is None:
            value = self.put(key, make())
        return value

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)


def forget_all() -> None:
    """Empty every store of the process."""
    for store in _stores.values():
        store.clear()
