"""The IANA time zones this server knows, read once per process."""

from __future__ import annotations

import functools
import zoneinfo


@functools.cache
def known_zones() -> frozenset[str]:
    """Return the names of the installed IANA time zones (``zoneinfo.available_timezones``).

    Reading them walks every file of the zone database (about 17 ms, on every
    championship validated, form shown or document imported); they change only
    with an upgrade of the database, which a restart of the server takes up.
    """
    return frozenset(zoneinfo.available_timezones())
