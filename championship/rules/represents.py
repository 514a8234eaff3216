"""The country an entry represents, where a championship's rounds give country places.

Terms, as in the world championship's rules (``WJPC.md``, "Countries of entries"):

represents
    The country an entry races for: an ISO 3166-1 alpha-2 code, or ``neutral``
    for the neutral flag ("International Puzzlers"), which counts as a country
    of its own for the country places. Empty: none.
nationalities
    A member's countries: their citizenships, or, where they gave none, the
    country they live in.
individual
    Represents one of the entrant's nationalities; a person with two chooses.
pair
    Represents one of its members' nationalities: the pair chooses.
team
    Represents the country it declares, whatever its members' (in 2024 some
    teams flew a minority member's flag; it is the team's declaration that
    counts).
neutral
    Allowed only where the championship allows the neutral flag; then any
    entry may choose it.

Decisions:

- Without a choice, an individual or pair represents its first member's first
  nationality, a team the nationality most of its members share (the first
  member's on a tie, as 2022's rule let the team choose on a tie); an entry
  whose members gave no nationality represents none until it chooses.
- A member who gave no nationality leaves the choice open: nothing can be
  checked against them, so an individual or a pair may then declare any
  country, as a team does.
- The choice is fixed once the championship has started (``FIXED``); the
  organiser may still correct it (a passport checked).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

NEUTRAL = "neutral"

INDIVIDUAL, PAIR, TEAM = "individual", "pair", "team"

# Refusals, by code.
NOT_A_COUNTRY = "not_a_country"
NEUTRAL_NOT_ALLOWED = "neutral_not_allowed"
NOT_A_MEMBERS_COUNTRY = "not_a_members_country"
FIXED = "fixed"


def is_country_code(value: str) -> bool:
    """Whether ``value`` has the form of an alpha-2 code (two capital letters, A to Z)."""
    return len(value) == 2 and all("A" <= letter <= "Z" for letter in value)


def default(kind: str, nationalities: Sequence[Sequence[str]]) -> str:
    """Return what an entry represents when it chose nothing (empty: none).

    ``nationalities``: each member's, in the entry's order.
    """
    if kind == TEAM:
        counts = Counter(code for member in nationalities for code in dict.fromkeys(member))
        if not counts:
            return ""
        most = max(counts.values())
        for member in nationalities:
            for code in member:
                if counts[code] == most:
                    return code
    for member in nationalities:
        if member:
            return member[0]
    return ""


def refusal(
    kind: str, value: str, nationalities: Sequence[Sequence[str]], *, neutral_allowed: bool
) -> str | None:
    """Return why ``value`` cannot be what the entry represents, as a code, or ``None``.

    ``value`` empty is always allowed (no country).
    """
    if not value:
        return None
    if value == NEUTRAL:
        return None if neutral_allowed else NEUTRAL_NOT_ALLOWED
    if not is_country_code(value):
        return NOT_A_COUNTRY
    if kind == TEAM or any(not member for member in nationalities):
        return None
    if any(value in member for member in nationalities):
        return None
    return NOT_A_MEMBERS_COUNTRY
