"""Amounts, time zones and durations as a reader of the page's language says them.

money
    An amount with its currency: "200 kr" where the currency is the language's
    own (NOK in Norwegian, SEK in Swedish, DKK in Danish), else "200 NOK"; the
    decimals only when there are øre ("150,50 kr").
zone name
    The championship's time zone as people say it ("Norwegian time") where the
    site knows one, else its IANA name ("Europe/Helsinki").
duration
    A time as ``H:MM:SS`` ("0:42:17"), truncated to the second: on result lists,
    the judge's phone, the API and the interchange format alike.
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
        number = floatformat(amount, "-2")
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
    """Return a duration as ``H:MM:SS``, truncated to the second (``None`` stays ``None``)."""
    if ms is None:
        return None
    seconds = ms // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def parse_duration(text: str) -> int:
    """Return ``H:MM:SS`` in milliseconds; raise ``ValueError`` for anything else."""
    match = DURATION.match(text.strip()) if isinstance(text, str) else None
    if not match:
        raise ValueError(f'"{text}" is not a time H:MM:SS')
    hours, minutes, seconds = (int(part) for part in match.groups())
    return ((hours * 60 + minutes) * 60 + seconds) * 1000
