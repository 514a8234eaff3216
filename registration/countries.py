"""Countries as people name them: the menus of the forms, and the names an import reads.

Both go through django-countries with the site's own names (``COUNTRIES_OVERRIDE``,
``core.country_names``), so a name the menu shows is a name the import reads.

menu
    Every country, by its name in the active language, in that language's
    alphabetical order (``core.collation``): "Åland" after "Zimbabwe" in Swedish,
    Norwegian and Danish, "Österrike" after "Åland" in Swedish. Made once per
    language and process, then reused by every form.
name
    A country in a file: its two-letter code ("SE", "se"), or its name in
    English, Norwegian bokmål, Swedish or Danish ("Sverige", "Sweden", "sverige ")
    whatever the championship's language, since a Swedish club may send a list
    typed in Norwegian. Capitals, spaces around and between the words, and the
    Unicode form of the letters make no difference. The active language's names
    are looked up first. Also read: the English names django-countries gives
    the countries the site names otherwise, and the older ones it still knows
    ("Czech Republic", "Turkey").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django.utils.translation import get_language, override
from django_countries import countries, data

from core import collation
from core.process_cache import Store

# The languages whose names an import reads, whatever the championship's.
NAME_LANGUAGES = ("en", "nb", "sv", "da")

# What separates the words of a list of countries in a cell ("NO, SE", "Norge/Sverige").
WORD_SEPARATORS = re.compile(r"[\s,;/]+")

_menus: Store[tuple[tuple[str, str], ...]] = Store("country_menus", size=16)
_names: Store[Names] = Store("country_names", size=1)


def menu(language: str | None = None) -> tuple[tuple[str, str], ...]:
    """Return every country as (code, name) in ``language`` (else the active one), sorted."""
    language = language or get_language() or "en"
    return _menus.get_or_make(language, lambda: _menu(language))


def _menu(language: str) -> tuple[tuple[str, str], ...]:
    with override(language):
        named = [(code, str(name)) for code, name in countries]
    return tuple(sorted(named, key=lambda pair: collation.sort_key(pair[1], language)))


def _normal(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


@dataclass(frozen=True)
class Names:
    """Each language's country names (``_normal``) with their codes; the most words of one."""

    by_language: dict[str, dict[str, str]]
    longest: int


def _make_names() -> Names:
    by_language: dict[str, dict[str, str]] = {}
    for language in NAME_LANGUAGES:
        with override(language):
            by_language[language] = {_normal(str(name)): code for code, name in countries}
    # The library's own English names of the countries the site names otherwise, and
    # those it keeps for the countries it renamed: an older list may still use them.
    older = by_language["en"]
    with override("en"):
        for code, name in data.COUNTRIES.items():
            older.setdefault(_normal(str(name)), code)
        for code, shadowed in countries.shadowed_names.items():
            for name in shadowed:
                older.setdefault(_normal(str(name)), code)
    longest = max(
        len([word for word in WORD_SEPARATORS.split(name) if word])
        for names in by_language.values()
        for name in names
    )
    return Names(by_language=by_language, longest=longest)


def _known() -> Names:
    return _names.get_or_make("names", _make_names)


def longest_name_words() -> int:
    """Return how many words the longest country name has (``WORD_SEPARATORS`` between them)."""
    return _known().longest


def code_of(text: str) -> str:
    """Return the code of the country ``text`` names by code or name (see ``name``), or ""."""
    text = text.strip()
    if not text:
        return ""
    if len(text) == 2:
        # An ISO code is two ASCII letters: "0²" would pass for a number to the library.
        return countries.alpha2(text) if text.isascii() and text.isalpha() else ""
    wanted = _normal(text)
    by_language = _known().by_language
    active = (get_language() or "en").lower()
    for language in (active, *NAME_LANGUAGES):
        code = by_language.get(language, {}).get(wanted)
        if code:
            return code
    return ""
