"""Amounts and time zones as a reader of the page's language says them.

money
    An amount with its currency: "200 kr" where the currency is the language's
    own (NOK in Norwegian, SEK in Swedish, DKK in Danish), else "200 NOK"; the
    decimals only when there are øre ("150,50 kr").
zone name
    The championship's time zone as people say it ("Norwegian time") where the
    site knows one, else its IANA name ("Europe/Helsinki").
"""

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
