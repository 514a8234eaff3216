"""The country an entry represents: the default and what may be chosen, case by case."""

import pytest

from championship.rules.represents import (
    INDIVIDUAL,
    NEUTRAL,
    NEUTRAL_NOT_ALLOWED,
    NOT_A_COUNTRY,
    NOT_A_MEMBERS_COUNTRY,
    PAIR,
    TEAM,
    default,
    refusal,
)


@pytest.mark.parametrize(
    ("kind", "nationalities", "expected"),
    [
        # A person with two nationalities represents the first unless they choose.
        (INDIVIDUAL, [["SE", "FI"]], "SE"),
        (INDIVIDUAL, [[]], ""),
        # A pair: its first member's, or the second's where the first gave none.
        (PAIR, [["NO"], ["DK"]], "NO"),
        (PAIR, [[], ["DK"]], "DK"),
        # A team: the nationality most members share; the first member's on a tie.
        (TEAM, [["DE"], ["ES"], ["ES"], ["DE", "ES"]], "ES"),
        (TEAM, [["DE"], ["ES"], ["ES"], ["DE"]], "DE"),
        (TEAM, [["IT"], ["FR"]], "IT"),
        (TEAM, [[], []], ""),
    ],
)
def test_the_default(kind, nationalities, expected):
    assert default(kind, nationalities) == expected


@pytest.mark.parametrize(
    ("kind", "value", "nationalities", "neutral_allowed", "expected"),
    [
        (INDIVIDUAL, "FI", [["SE", "FI"]], False, None),
        (INDIVIDUAL, "NO", [["SE", "FI"]], False, NOT_A_MEMBERS_COUNTRY),
        # Nothing to check against: any country.
        (INDIVIDUAL, "NO", [[]], False, None),
        (PAIR, "DK", [["NO"], ["DK"]], False, None),
        (PAIR, "SE", [["NO"], ["DK"]], False, NOT_A_MEMBERS_COUNTRY),
        # A team declares its country, whatever its members'.
        (TEAM, "SE", [["NO"], ["DK"], ["DK"]], False, None),
        (TEAM, NEUTRAL, [["NO"]], True, None),
        (INDIVIDUAL, NEUTRAL, [["RU"]], True, None),
        (INDIVIDUAL, NEUTRAL, [["RU"]], False, NEUTRAL_NOT_ALLOWED),
        (TEAM, "se", [["SE"]], False, NOT_A_COUNTRY),
        (TEAM, "SWE", [["SE"]], False, NOT_A_COUNTRY),
        (INDIVIDUAL, "", [["SE"]], False, None),
    ],
)
def test_what_may_be_chosen(kind, value, nationalities, neutral_allowed, expected):
    assert refusal(kind, value, nationalities, neutral_allowed=neutral_allowed) == expected
