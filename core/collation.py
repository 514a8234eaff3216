"""Alphabetical order as the reader's language has it: the one sort of names and countries.

order
    Swedish: … X, Y, Z, Å, Ä, Ö (Æ sorts with Ä, Ø with Ö, Ü with Y).
    Norwegian bokmål and Danish: … X, Y, Z, Æ, Ø, Å (Ä sorts with Æ, Ö with Ø,
    and the old spelling "Aa" of a name such as Aase with Å). English: Å, Ä and
    Æ with A, Ø and Ö with O. Capitals, and accents on other letters, count only
    between names that are otherwise the same ("Élise" next to "Elise"), as each
    language's own rule has it (Danish puts capitals first).
sort key
    ``sort_key(text, language)``: a value that sorts ``text`` in that order among
    others of the same language; ``language`` is the active one when not given
    (the championship's on its pages, or the one the visitor chose).

Why ICU. Python compares strings by code point: Ä (U+00C4) before Å (U+00C5)
before Æ before Ø, all after Z, which is wrong in all three languages (Swedish
wants Å before Ä; bokmål and Danish want Æ, Ø, Å). ``locale.strxfrm`` follows
the system's locales, which a Debian image, CI's among them, has only for C and
English. ``pyuca`` knows only Unicode's root order (Å sorts with A in every
language). The Nordic orders are the tailorings of the Unicode Common Locale Data
Repository (CLDR), which ICU carries. PyICU is its Python binding, but built from
source it needs ICU's headers and a compiler; ``pyicu-wheels`` is PyICU with ICU
built in, as wheels for Linux (glibc and musl), macOS and Windows, so ``pip``
installs it with no system package. Its module is PyICU's own, ``icu``.

A collator is made once per language and thread (ICU's collators are not meant to
be shared between threads).
"""

from __future__ import annotations

import threading

import icu
from django.utils.translation import get_language, to_locale

_local = threading.local()


def collator(language: str | None = None) -> icu.Collator:
    """Return the collator of ``language`` (else the active language) for this thread."""
    language = (language or get_language() or "en").lower()
    made = getattr(_local, "collators", None)
    if made is None:
        made = _local.collators = {}
    found = made.get(language)
    if found is None:
        found = made[language] = icu.Collator.createInstance(icu.Locale(to_locale(language)))
    return found


def sort_key(text: str, language: str | None = None) -> bytes:
    """Return the key that sorts ``text`` alphabetically in ``language`` (else the active one)."""
    return collator(language).getSortKey(text)
