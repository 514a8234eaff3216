"""Amounts, time zones and durations as a reader of the page's language says them.

money
    An amount with its currency: "200 kr" where the currency is the language's
    own (NOK in Norwegian, SEK in Swedish, DKK in Danish), else "200 NOK"; the
    decimals only when there are øre ("150,50 kr"), and thousands grouped as the
    language groups them ("1 500 kr" in Norwegian and Swedish, with a no-break
    space; "1.500 kr" in Danish; "1,500 NOK" in English).
zone name
    The championship's time zone as people say it ("Norwegian time") where the
    site knows one, else its IANA name ("Europe/Helsinki").
duration
    A time as ``H:MM:SS`` ("0:42:17"), truncated to the second: on result lists,
    the judge's phone, the API and the interchange format alike
    (``format_duration`` says why).
"""

import re
from decimal import Decimal

from django.template.defaultfilters import floatformat
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _

# The currency each language calls "kr".
KRONER = {"nb": "NOK", "sv": "SEK", "da": "DKK"}


def _language(language: str | None) -> str:
    return (language or get_language() or "en").split("-")[0]


def money(amount: Decimal | int | float | str, currency: str, language: str | None = None) -> str:
    """Return ``amount`` in ``currency`` as readers of ``language`` (else the active one) expect."""
    language = _language(language)
    with translation.override(language):
        number = floatformat(amount, "-2g")
    if KRONER.get(language) == currency:
        return f"{number} kr"
    return f"{number} {currency}"


def zone_name(zone: str) -> str:
    """Return a time zone as people say it: "Norwegian time", else the IANA name."""
    names = {
        "Europe/Oslo": _("Norwegian time"),
        "Europe/Stockholm": _("Swedish time"),
        "Europe/Copenhagen": _("Danish time"),
    }
    return names.get(zone, zone)


DURATION = re.compile(r"^(\d+):([0-5]\d):([0-5]\d)$")


def format_duration(ms: int | None) -> str | None:
    """Return a duration as ``H:MM:SS``, truncated to the second (``None`` stays ``None``).

    The one way a solving time, a time limit or a time behind is shown to people:
    3,723,456 ms is "1:02:03", 754,000 ms "0:12:34", 3,599,999 ms "0:59:59".

    Why this form:

    - The published results show every time with its hours, in whole seconds:
      all 1,283 times of WJPC 2024's individual rounds are written like "00:34:01",
      never "34:01" and never with a fraction. So the hours are always there, under an
      hour: a list mixing "59:58" and "1:00:02" reads badly, and "34:01" could be
      read as hours and minutes.
    - The rules keep time in whole seconds, truncated (``RULES.md``,
      ``championship.rules.timing``): 59:59.999 is "0:59:59", as it is ranked.
    - ``RULES.md`` writes a limit as "2:00:00", and the interchange format and the
      API carry ``H:MM:SS`` (``SPEC.md``, ``docs/interchange.md``, ``docs/api.md``):
      the hour is not padded, so what a page shows is what those documents hold.
      ``parse_duration`` reads the published "00:34:01" as well.

    Every other place follows it: the ``duration`` template filter (which takes
    whole seconds), the diplomas, the CSV files, and in the browser
    ``ServerClock.duration`` (``static/js/server_clock.js``) for the projector's
    clock, the control room, the entrant's page and the judge's phone;
    ``tests/durations_cases.py`` holds the cases both must agree on.
    """
    if ms is None:
        return None
    seconds = ms // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def parse_duration(text: str) -> int:
    """Return ``H:MM:SS`` in milliseconds; raise ``ValueError`` for anything else.

    Reads what ``format_duration`` writes, and hours with a leading zero ("00:34:01",
    as published result lists write them).
    """
    match = DURATION.match(text.strip()) if isinstance(text, str) else None
    if not match:
        raise ValueError(f'"{text}" is not a time H:MM:SS')
    hours, minutes, seconds = (int(part) for part in match.groups())
    return ((hours * 60 + minutes) * 60 + seconds) * 1000
