"""The one display format of a duration, as cases both implementations must agree on.

``core.l10n.format_duration`` (every page, CSV file and diploma) and
``ServerClock.duration`` in ``static/js/server_clock.js`` (the projector's clock,
the control room, the entrant's page, the judge's phone) write a duration as
``H:MM:SS``, truncated to the whole second. ``tests/core/test_durations.py`` runs
these cases against the Python function, ``tests/browser/test_durations_js.py``
against the browser's.
"""

from __future__ import annotations

# (milliseconds, what is shown, what the case is about)
FORMAT_CASES: tuple[tuple[int, str, str], ...] = (
    (0, "0:00:00", "nothing yet"),
    (999, "0:00:00", "a fraction of a second is no second"),
    (1_000, "0:00:01", "one second"),
    (42_017, "0:00:42", "under a minute: the hours and minutes are still shown"),
    (754_000, "0:12:34", "under an hour: the hours are still shown"),
    (3_599_999, "0:59:59", "59:59.999 is truncated, never rounded up to the hour"),
    (3_600_000, "1:00:00", "exactly one hour"),
    (3_723_456, "1:02:03", "over an hour, milliseconds truncated"),
    (5_400_000, "1:30:00", "a 90-minute limit (WJPC's preliminaries)"),
    (7_200_999, "2:00:00", "2:00:00.999 is at a 120-minute limit, as the rules rank it"),
    (36_000_000, "10:00:00", "ten hours: the hour is never padded or cut"),
    (86_400_000, "24:00:00", "the longest time a correction or an import may hold"),
)

# What the parsers read (text, milliseconds): what the format writes, and the published form.
PARSE_CASES: tuple[tuple[str, int], ...] = (
    *((text, ms // 1000 * 1000) for ms, text, _about in FORMAT_CASES),
    ("00:34:01", 2_041_000),  # WJPC 2024's published result lists pad the hour
    (" 0:12:34 ", 754_000),
)

# Texts that are no duration: M:SS, fractions, minutes or seconds past 59, nothing.
NOT_DURATIONS: tuple[str, ...] = (
    "",
    "12:34",
    "0:12:34.5",
    "1:02:03.456",
    "0:60:00",
    "0:00:60",
    "1:2:3",
    "-0:00:01",
    "one hour",
)
