"""Payment references in the forms the banks of each country check.

An entry's reference is made from its number (the entry's id, unique on the site)
and a check digit by one of the schemes below; the organiser chooses the one their
bank agreement names, and the championship's currency suggests one
(``default_scheme``). The check digits are python-stdnum's: Luhn (modulus 10),
and ISO 7064 MOD 97-10 in ISO 11649's form; only KID's modulus 11, which stdnum
does not offer, is written out here.

- ``kid10``, ``kid11`` — Norway's KID (kundeidentifikasjon), its last digit a check
  digit by modulus 10 (Luhn) or modulus 11 (weights 2 to 7 from the right; a
  remainder of 1 gives ``-``, as the banks' KID agreements allow).
- ``ocr``, ``ocr_length`` — Sweden's OCR reference for a bankgiro: a Luhn check digit,
  and before it, where the agreement asks for the length to be checked too, a length
  digit (the whole reference's number of digits, its tens left out).
- ``fik71`` — Denmark's FIK payment id on a +71 card: 15 digits, the last a Luhn
  check digit.
- ``rf`` — the ISO 11649 creditor reference (SEPA, for EUR): ``RF``, two check
  digits, the number.

Pure functions: no Django, no database.
"""

from __future__ import annotations

from stdnum import iso11649, luhn
from stdnum.exceptions import ValidationError
from stdnum.iso7064 import mod_97_10

SCHEMES = ("kid10", "kid11", "ocr", "ocr_length", "fik71", "rf")
DEFAULT_BY_CURRENCY = {"NOK": "kid10", "SEK": "ocr", "DKK": "fik71", "EUR": "rf"}
FIK_DIGITS = 15
# The base is the entry's number zero-padded to this many digits, so that the
# references of one championship have one length (a bankgiro agreement with a fixed
# length, a KID agreement with one, want that).
BASE_DIGITS = 7


class InvalidReference(ValueError):
    """A reference that its scheme's check refuses."""


def default_scheme(currency: str) -> str:
    """Return the scheme a championship in ``currency`` uses unless its organiser chooses."""
    return DEFAULT_BY_CURRENCY.get(currency.upper(), "rf")


def mod11_check_digit(digits: str) -> str:
    """Return KID's modulus-11 check digit of ``digits``: ``0``-``9``, or ``-``."""
    weights = (2, 3, 4, 5, 6, 7)
    total = sum(
        int(digit) * weights[index % len(weights)] for index, digit in enumerate(reversed(digits))
    )
    check = (11 - total % 11) % 11
    return "-" if check == 10 else str(check)


def make(scheme: str, number: int) -> str:
    """Return the reference of ``number`` (a positive integer) by ``scheme``."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown payment reference scheme {scheme!r}")
    if number < 1:
        raise ValueError("a reference is made of a positive number")
    base = str(number).zfill(BASE_DIGITS)
    if scheme == "fik71":
        if len(base) > FIK_DIGITS - 1:
            raise ValueError(f"a FIK payment id holds at most {FIK_DIGITS - 1} digits")
        base = base.zfill(FIK_DIGITS - 1)
        return base + luhn.calc_check_digit(base)
    if scheme in ("kid10", "ocr"):
        return base + luhn.calc_check_digit(base)
    if scheme == "kid11":
        return base + mod11_check_digit(base)
    if scheme == "ocr_length":
        with_length = base + str((len(base) + 2) % 10)
        return with_length + luhn.calc_check_digit(with_length)
    return "RF" + mod_97_10.calc_check_digits(base + "RF") + base


def compact(text: str) -> str:
    """Return ``text`` as typed or printed, without its spaces, in capitals."""
    return "".join(text.split()).upper()


def validate(scheme: str, text: str) -> str:
    """Return ``text`` in its compact form if its scheme's check holds; else raise."""
    reference = compact(text)
    if scheme not in SCHEMES:
        raise ValueError(f"unknown payment reference scheme {scheme!r}")
    if scheme == "rf":
        try:
            return iso11649.validate(reference)
        except ValidationError:
            raise InvalidReference(reference) from None
    digits, check = reference[:-1], reference[-1:]
    if not digits.isdigit() or not (check.isdigit() or (scheme == "kid11" and check == "-")):
        raise InvalidReference(reference)
    if scheme == "kid11":
        ok = mod11_check_digit(digits) == check
    elif scheme == "fik71":
        ok = len(reference) == FIK_DIGITS and luhn.is_valid(reference)
    elif scheme == "ocr_length":
        ok = (
            len(reference) >= 3
            and int(reference[-2]) == len(reference) % 10
            and luhn.is_valid(reference)
        )
    else:
        ok = luhn.is_valid(reference)
    if not ok:
        raise InvalidReference(reference)
    return reference


def is_valid(scheme: str, text: str) -> bool:
    try:
        validate(scheme, text)
    except InvalidReference:
        return False
    return True


def grouped(text: str) -> str:
    """Return a reference as it is printed: an RF reference in groups of four (ISO 11649's
    paper form, "RF18 5390 0754 7034"), any other as it is."""
    if not (text.upper().startswith("RF") and is_valid("rf", text)):
        return text
    code = compact(text)
    return " ".join(code[i : i + 4] for i in range(0, len(code), 4))
