"""Which entry a credit pays, by its reference; else which it might, by amount and name.

reference
    A credit names an entry when its structured reference, or a word of its message,
    is the entry's payment reference (spaces and case aside: "0000 0018" is
    "00000018", "rf18 5390" is "RF185390"). Only exact references count: a number
    that merely contains one does not.
status
    Of a credit that names an entry, by what the entry has received with it (the
    credits applied before, and the earlier ones of the same file): ``matched``
    when that is the fee, ``partial`` below it, ``overpaid`` above it. A credit that
    names no entry is ``unknown``. Applying a statement reckons them again
    (``payments.services``), as another statement may have been applied meanwhile.
suggestion
    An unknown credit whose amount is the fee of exactly one unpaid entry one of
    whose members' names shares a word with the payer's: offered to the organiser
    to confirm, never applied without.

Pure functions: no database.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

MATCHED, PARTIAL, OVERPAID, UNKNOWN = "matched", "partial", "overpaid", "unknown"
WORD = re.compile(r"[0-9A-Z]+")
# A reference typed in groups: "0000 0018", "RF18 5390 0754 7034".
GROUPED = re.compile(r"(?:RF\d\d|\d+)(?: [0-9A-Z]+)+")
NAME_WORD = re.compile(r"\w{2,}")


@dataclass(frozen=True)
class Payable:
    """An entry as a credit may pay it."""

    pk: int
    reference: str
    fee: Decimal
    received: Decimal = Decimal(0)
    paid: bool = False
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Match:
    status: str
    entry: int | None = None
    suggested: int | None = None


def compact(text: str) -> str:
    return "".join(text.split()).upper()


def references_in(reference: str, message: str) -> list[str]:
    """Return what in a credit may be a payment reference: the structured one, then the message's
    words and runs of digit groups ("0000 0018"), compact."""
    found = [compact(reference)] if reference.strip() else []
    text = f"{reference} {message}".upper()
    found.extend(WORD.findall(text))
    for grouped in GROUPED.findall(text):
        words = grouped.split()
        # Every run of consecutive groups: "KID 0000 0018" holds "0000 0018".
        found.extend(
            "".join(words[start:end])
            for start in range(len(words))
            for end in range(start + 2, len(words) + 1)
        )
    return list(dict.fromkeys(code for code in found if len(code) >= 2))


def status_of(fee: Decimal, received: Decimal) -> str:
    """Return a credit's status by all its entry has received with it (an entry marked paid by
    hand and then paid through the bank is matched: the bank confirms it)."""
    if received > fee:
        return OVERPAID
    return MATCHED if received == fee else PARTIAL


def _name_words(text: str) -> set[str]:
    return {word.casefold() for word in NAME_WORD.findall(text)}


def match(credits: Iterable[tuple[Decimal, str, str, str]], payables: list[Payable]) -> list[Match]:
    """Return each credit's match, in order; ``credits`` are (amount, reference, message, payer).

    A credit adds to what its entry has received, so the second of two halves matches.
    """
    by_reference = {compact(p.reference): p for p in payables if p.reference.strip()}
    received = {p.pk: p.received for p in payables}
    results = []
    for amount, reference, message, payer in credits:
        named = next(
            (
                by_reference[code]
                for code in references_in(reference, message)
                if code in by_reference
            ),
            None,
        )
        if named is None:
            results.append(Match(UNKNOWN, suggested=_suggestion(amount, payer, payables)))
            continue
        received[named.pk] += amount
        results.append(Match(status_of(named.fee, received[named.pk]), named.pk))
    return results


def _suggestion(amount: Decimal, payer: str, payables: list[Payable]) -> int | None:
    words = _name_words(payer)
    if not words:
        return None
    fitting = [
        p.pk
        for p in payables
        if not p.paid
        and p.received == 0
        and p.fee == amount
        and any(words & _name_words(name) for name in p.names)
    ]
    return fitting[0] if len(fitting) == 1 else None
