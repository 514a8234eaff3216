"""Template helpers of the entrant's pages and e-mails."""

import zoneinfo

from django import template
from django.utils import formats, timezone, translation

from registration import payment

register = template.Library()


@register.simple_tag
def payment_instructions(entry):
    """Return how to pay ``entry`` (``registration.payment.Instructions``), or ``None``."""
    return payment.instructions(entry)


@register.simple_tag
def payment_due(entry) -> bool:
    """Return whether ``entry`` still has its fee to pay."""
    return payment.is_due(entry)


# Day, month, year and a 24-hour clock, as read in Norway, Sweden and Denmark; an English
# page gets the same order ("9 March 2099, 10:00") rather than "March 9, 2099, 10 a.m.".
NORDIC_LANGUAGES = frozenset({"nb", "sv", "da"})
ENGLISH_DATETIME = "j F Y, H:i"


@register.filter
def nordic_datetime(value, zone: str = ""):
    """Return an instant as a date and a 24-hour time in ``zone`` (else the active time zone)."""
    if not value:
        return ""
    tz = zoneinfo.ZoneInfo(zone) if zone else None
    local = timezone.localtime(value, tz)
    language = (translation.get_language() or "en").split("-")[0]
    pattern = "DATETIME_FORMAT" if language in NORDIC_LANGUAGES else ENGLISH_DATETIME
    return formats.date_format(local, pattern)
