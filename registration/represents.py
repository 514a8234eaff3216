"""The country an entry represents: chosen at registration, fixed once the championship starts.

The rule is ``championship.rules.represents``; here it meets the members as
given or stored, the championship's rules (``entries_represent_country``,
``neutral_flag_allowed``) and the clock.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from championship.rules import represents
from registration.models import Entry
from registration.validation import country_name


def nationalities(members: Iterable) -> list[list[str]]:
    """Return each member's nationalities: their citizenships, else the country they live in.

    ``members``: ``MemberData`` as registered, or stored ``Person`` rows.
    """
    found = []
    for member in members:
        codes = [code.strip().upper() for code in (member.citizenship or ()) if code.strip()]
        country = (member.country or "").strip().upper()
        found.append(codes or ([country] if country else []))
    return found


def _message(code: str, value: str) -> str:
    if code == represents.NEUTRAL_NOT_ALLOWED:
        return _("This championship does not allow the neutral flag.")
    if code == represents.NOT_A_MEMBERS_COUNTRY:
        return _(
            "%(country)s is not a nationality of the entry's members: choose one of theirs."
        ) % {"country": country_name(value)}
    if code == represents.FIXED:
        return _("The country an entry represents is fixed once the championship has started.")
    return _("Choose a country, or the neutral flag.")


def chosen(category, members: Iterable, value: str = "") -> str:
    """Return what a registering entry represents: ``value`` checked, or the rule's default.

    Empty where the championship's entries represent no country and none was
    given. Raise ``ValidationError`` on ``represents`` when ``value`` may not be
    chosen.
    """
    rules = category.championship.rules
    value = (value or "").strip()
    if value != represents.NEUTRAL:
        value = value.upper()
    given = nationalities(members)
    if not value:
        return represents.default(category.kind, given) if rules.entries_represent_country else ""
    code = represents.refusal(
        category.kind, value, given, neutral_allowed=rules.neutral_flag_allowed
    )
    if code is not None:
        raise ValidationError({"represents": _message(code, value)})
    return value


def entry_set_represents(*, entry: Entry, value: str, by_organiser: bool = False) -> Entry:
    """Change the country an entry represents; refused once the championship has started.

    The organiser may still correct it (a passport checked at the desk), within
    the same rule.
    """
    championship = entry.category.championship
    if not by_organiser and championship.starts_at <= timezone.now():
        raise ValidationError({"represents": _message(represents.FIXED, value)})
    entry.represents = chosen(entry.category, entry.members.all(), value) if value else ""
    entry.save(update_fields=["represents", "updated_at"])
    return entry
