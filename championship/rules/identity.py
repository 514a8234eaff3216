"""Who is who: the people behind dm's "one entry per person per category".

identity
    What tells a person apart: an e-mail address, or a name together with a
    birth date. Where the preset allows one entry per person in a category,
    every member of an entry needs one.
same person
    Two members are the same person when their e-mail addresses are the same
    (ignoring case and the spaces around them), or when their names are the same
    (ignoring case, spacing and the Unicode form of accented letters) and their
    birth dates are equal. Different e-mail addresses do not make two members
    different people: a name and a birth date that match still do.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Generic, TypeVar

T = TypeVar("T")

# How two members turned out to be the same person, as stable codes.
SAME_EMAIL = "same_email"
SAME_NAME_AND_BIRTH_DATE = "same_name_and_birth_date"


@dataclass(frozen=True)
class Identity:
    """What the rule compares of a person."""

    name: str = ""
    email: str = ""
    birth_date: date | None = None


@dataclass(frozen=True)
class Clash:
    """Member ``member`` is the same person as ``other``, by ``how`` (a code).

    Both are indexes: ``member`` into the members compared, ``other`` into the
    list they were compared with (other entries' members, or the same members).
    """

    member: int
    other: int
    how: str


def email_key(email: str) -> str:
    """Return an e-mail address as the rule compares it."""
    return email.strip().casefold()


def name_key(name: str) -> str:
    """Return a name as the rule compares it: one space between words, case and form folded."""
    collapsed = " ".join(unicodedata.normalize("NFC", name).split())
    return unicodedata.normalize("NFC", collapsed.casefold())


def has_identity(person: Identity) -> bool:
    """Return whether ``person`` can be told apart: an e-mail, or a name and a birth date."""
    return bool(email_key(person.email)) or (
        bool(name_key(person.name)) and person.birth_date is not None
    )


def same_person(a: Identity, b: Identity) -> str | None:
    """Return how ``a`` and ``b`` are the same person (a code), or ``None`` when they are not."""
    if email_key(a.email) and email_key(a.email) == email_key(b.email):
        return SAME_EMAIL
    if (
        a.birth_date is not None
        and a.birth_date == b.birth_date
        and name_key(a.name)
        and name_key(a.name) == name_key(b.name)
    ):
        return SAME_NAME_AND_BIRTH_DATE
    return None


class People(Generic[T]):
    """People seen so far, each with a value (where they were seen), found in constant time.

    ``find`` answers as ``same_person`` would against every person added.
    """

    def __init__(self) -> None:
        self._by_email: dict[str, T] = {}
        self._by_name: dict[tuple[str, date], T] = {}

    def add(self, person: Identity, value: T) -> None:
        """Remember ``person`` with ``value``; the first value stays for a person added twice."""
        email = email_key(person.email)
        if email:
            self._by_email.setdefault(email, value)
        name = name_key(person.name)
        if name and person.birth_date is not None:
            self._by_name.setdefault((name, person.birth_date), value)

    def find(self, person: Identity) -> tuple[str, T] | None:
        """Return how ``person`` is someone added before (a code), and that one's value.

        ``None`` when ``person`` is nobody added before. The e-mail address is tried first.
        """
        email = email_key(person.email)
        if email and email in self._by_email:
            return SAME_EMAIL, self._by_email[email]
        name = name_key(person.name)
        if name and person.birth_date is not None and (name, person.birth_date) in self._by_name:
            return SAME_NAME_AND_BIRTH_DATE, self._by_name[(name, person.birth_date)]
        return None


def clashes_with_others(members: Sequence[Identity], others: Sequence[Identity]) -> list[Clash]:
    """Return the members who are the same person as one of ``others``.

    Each member clashes once at most: with the first of ``others`` with the same
    e-mail address, else with the first with the same name and birth date.
    """
    seen: People[int] = People()
    for index, other in enumerate(others):
        seen.add(other, index)
    found = []
    for index, member in enumerate(members):
        match = seen.find(member)
        if match is not None:
            found.append(Clash(index, match[1], match[0]))
    return found


def clashes_within(members: Sequence[Identity]) -> list[Clash]:
    """Return the members who are the same person as an earlier member of the same list."""
    found = []
    for index, member in enumerate(members):
        for earlier_index, earlier in enumerate(members[:index]):
            how = same_person(member, earlier)
            if how is not None:
                found.append(Clash(index, earlier_index, how))
                break
    return found
