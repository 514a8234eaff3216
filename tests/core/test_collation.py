"""Names sort as each language's readers expect: Nordic letters after Z, Å as A in English.

The collation library's tailoring is tested here for every language the site speaks, with
real names: a library without it (Python's code points, ``pyuca``'s root order) fails.
"""

import random

import pytest
from django.utils import translation

from core.collation import sort_key

# Each language's alphabetical order of the same names.
ORDERS = {
    # Bokmål and Danish: … Z, Æ, Ø, Å.
    "nb": ["Ola", "Zakarias", "Ærlig", "Øystein", "Åse"],
    "da": ["Ola", "Zakarias", "Ærlig", "Øystein", "Åse"],
    # Swedish: … Z, Å, Ä, Ö.
    "sv": ["Oskar", "Zakarias", "Åsa", "Ärla", "Östen"],
    # English: Å with A, Ø with O.
    "en": ["Anna", "Åse", "Bo", "Ola", "Øystein", "Zakarias"],
}


def shuffled(names):
    names = list(names)
    random.Random(7).shuffle(names)
    return names


@pytest.mark.parametrize(("language", "order"), ORDERS.items())
def test_names_sort_in_the_languages_alphabetical_order(language, order):
    backwards = order[::-1]
    assert sorted(shuffled(order), key=lambda name: sort_key(name, language)) == order
    assert sorted(backwards, key=lambda name: sort_key(name, language)) == order


def test_code_point_order_is_not_the_nordic_order():
    """What the check-in list did before: Ä before Å, and Å before Æ and Ø."""
    assert sorted(ORDERS["sv"]) != ORDERS["sv"]
    assert sorted(ORDERS["nb"]) != ORDERS["nb"]


@pytest.mark.parametrize(
    ("language", "order"),
    [
        # Norwegian and Danish read the Swedish letters as their own: Ä as Æ, Ö as Ø.
        ("nb", ["Zakarias", "Ärla", "Ærlig", "Östen", "Øystein", "Åse"]),
        ("da", ["Zakarias", "Ärla", "Ærlig", "Östen", "Øystein", "Åse"]),
        # Swedish reads the Norwegian letters as its own: Æ as Ä, Ø as Ö.
        ("sv", ["Zakarias", "Åse", "Ärla", "Ærlig", "Östen", "Øystein"]),
    ],
)
def test_the_neighbours_letters_sort_with_their_own(language, order):
    assert sorted(shuffled(order), key=lambda name: sort_key(name, language)) == order


@pytest.mark.parametrize("language", ["nb", "da"])
def test_the_old_spelling_aa_sorts_as_aa_in_norwegian_and_danish(language):
    names = ["Aase", "Anna", "Zakarias", "Åse", "Øystein"]
    ordered = sorted(names, key=lambda name: sort_key(name, language))
    assert ordered[:3] == ["Anna", "Zakarias", "Øystein"]
    assert set(ordered[3:]) == {"Aase", "Åse"}


@pytest.mark.parametrize("language", ["nb", "sv", "da", "en"])
def test_capitals_and_spaces_do_not_move_a_name_out_of_its_letter(language):
    names = ["øystein ås", "Øystein Ås", "Ola Nordmann", "ola nordmann", "Åse"]
    ordered = sorted(names, key=lambda name: sort_key(name, language))
    # The same name in capitals or not stands next to itself.
    positions = {name.casefold(): [] for name in names}
    for index, name in enumerate(ordered):
        positions[name.casefold()].append(index)
    assert all(max(found) - min(found) == len(found) - 1 for found in positions.values())


def test_without_a_language_the_active_one_sorts():
    names = ["Åsa", "Ärla", "Östen", "Oskar"]
    with translation.override("sv"):
        swedish = sorted(names, key=sort_key)
    with translation.override("nb"):
        norwegian = sorted(names, key=sort_key)
    assert swedish == ["Oskar", "Åsa", "Ärla", "Östen"]
    assert norwegian == ["Oskar", "Ärla", "Östen", "Åsa"]
