"""Where entrants pay a championship's fee: phone numbers of the payment apps, and a bank account.

Each is optional and checked when it is given; it is stored in its compact form
(``compact``) and shown in the form people read it (``display``).

Swish number
    Sweden. A business number of 10 digits beginning 123, a fundraising account's
    of 7 beginning 90 (900 12 34), or a Swedish mobile number (07…, or +46 7…). The Swish QR code
    (``registration.paycodes``) carries it.
Vipps number, MobilePay number
    Norway, Denmark. A business number (Vipps: 5 or 6 digits; MobilePay Box or
    MyShop: 4 to 7) or a mobile number of 8 digits (+47, +45 dropped): 4 to 8
    digits. The entrant types it in the app.
bank account
    As the championship's currency says: a Norwegian account number (11 digits,
    modulus 11 check digit: 1234.56.78903); a Swedish bankgiro number (7 or 8
    digits with a Luhn check digit: 123-4567, 1234-5678), or a clearing and
    account number; a Danish registration and account number (4 and up to 10
    digits: 1234 0001234567).
IBAN, BIC
    For transfers in euro (the EPC QR code carries both), and from abroad.
payee name
    Who the account belongs to: the name the bank checks against the account and
    the EPC QR code carries. Empty: the championship's name.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from stdnum import bic as stdnum_bic
from stdnum import iban as stdnum_iban
from stdnum import luhn
from stdnum.exceptions import ValidationError as NumberError
from stdnum.no import kontonr

# The championship's fields that say where and how entrants pay (the edit page's, the API's,
# the interchange format's since version 4), in the order they are shown.
SETTINGS = (
    "payment_reference_scheme",
    "payee_name",
    "swish_number",
    "vipps_number",
    "mobilepay_number",
    "bank_account",
    "iban",
    "bic",
    "refund_days_before",
)
# Of those, the ones that say where to pay (the others: how references are made, refunds).
PAYEES = SETTINGS[1:-1]

SEPARATORS = re.compile(r"[\s.\-/]")
SWISH_BUSINESS = re.compile(r"^(123\d{7}|90\d{5})$")
SWISH_MOBILE = re.compile(r"^07\d{8}$")
APP_NUMBER = re.compile(r"^\d{4,8}$")
BANKGIRO = re.compile(r"^\d{3,4}-\d{4}$")
SWEDISH_ACCOUNT = re.compile(r"^\d{4}[ ,-]*\d(?:[ -]?\d){4,13}$")
DANISH_ACCOUNT = re.compile(r"^(\d{4})[ -]?(\d{1,10})$")
# The longest a field holds (an IBAN has at most 34 characters, 42 in groups of four).
NUMBER_MAX = 42
NAME_MAX = 70  # what the EPC QR code carries


def _digits(value: str) -> str:
    return SEPARATORS.sub("", value)


def _without_country_code(digits: str, code: str) -> str:
    for prefix in (f"+{code}", f"00{code}"):
        if digits.startswith(prefix) and len(digits) == len(prefix) + 8:
            return digits[len(prefix) :]
    return digits


def compact_swish(value: str) -> str:
    """Return a Swish number as digits: "123 456 78 90" → "1234567890", "+46 70…" → "070…"."""
    digits = _digits(value)
    for prefix in ("+46", "0046"):
        if digits.startswith(prefix + "7"):
            return "0" + digits[len(prefix) :]
    return digits


def validate_swish(value: str) -> None:
    number = compact_swish(value)
    if not (SWISH_BUSINESS.match(number) or SWISH_MOBILE.match(number)):
        raise ValidationError(
            _(
                "A Swish number is a business's 10 digits beginning 123 (123 456 78 90), a "
                "fundraising account's 7 beginning 90 (900 12 34), or a mobile number (07…)."
            ),
            code="swish",
        )


def compact_app_number(value: str) -> str:
    """Return a Vipps or MobilePay number as digits, without +47 or +45 before a mobile number."""
    return _without_country_code(_without_country_code(_digits(value), "47"), "45")


def validate_app_number(value: str) -> None:
    if not APP_NUMBER.match(compact_app_number(value)):
        raise ValidationError(
            _("A Vipps or MobilePay number has 4 to 8 digits (a business number or a mobile)."),
            code="app_number",
        )


def compact_iban(value: str) -> str:
    return stdnum_iban.compact(value)


def validate_iban(value: str) -> None:
    try:
        stdnum_iban.validate(value)
    except NumberError:
        raise ValidationError(
            _("This is not a valid IBAN (its check digits or its length are wrong)."),
            code="iban",
        ) from None


def compact_bic(value: str) -> str:
    return stdnum_bic.compact(value)


def validate_bic(value: str) -> None:
    try:
        stdnum_bic.validate(value)
    except NumberError:
        raise ValidationError(
            _("A BIC (SWIFT code) has 8 or 11 letters and digits, e.g. DNBANOKK."), code="bic"
        ) from None


def compact_account(value: str, currency: str) -> str:
    """Return a bank account number as stored: a Norwegian one as its 11 digits, others as typed."""
    value = " ".join(value.split())
    if currency == "NOK":
        return kontonr.compact(value)
    return value


def account_error(value: str, currency: str) -> str | None:
    """Return why ``value`` is not a bank account of ``currency``'s country, or ``None``."""
    value = " ".join(value.split())
    if currency == "NOK":
        try:
            if len(kontonr.validate(value)) == 11:
                return None
        except NumberError:
            pass
        return _("A Norwegian account number has 11 digits with a check digit, e.g. 1234.56.78903.")
    if currency == "SEK":
        if BANKGIRO.match(value):
            return (
                None
                if luhn.is_valid(_digits(value))
                else _("This bankgiro number's check digit is wrong.")
            )
        if SWEDISH_ACCOUNT.match(value):
            return None
        return _(
            "A bankgiro number is written 123-4567 or 1234-5678; an account as its clearing "
            "number and account number, e.g. 8327-9 123 456 789-0."
        )
    if currency == "DKK":
        if DANISH_ACCOUNT.match(value):
            return None
        return _(
            "A Danish account is its registration number and account number, e.g. 1234 0001234567."
        )
    # Euro: the IBAN is the account; a number beside it is shown as it is typed.
    return None if len(value) <= NUMBER_MAX else _("At most 42 characters.")


def display_account(value: str, currency: str) -> str:
    """Return a stored bank account as people read it (Norway: 1234.56.78903)."""
    if currency == "NOK" and len(value) == 11 and value.isdigit():
        return kontonr.format(value)
    return value


def display_iban(value: str) -> str:
    """Return an IBAN in groups of four, as it is printed."""
    return stdnum_iban.format(value) if value else ""


def display_swish(value: str) -> str:
    """Return a Swish number as Swedes write it: 123 456 78 90, 070-123 45 67."""
    if len(value) == 10 and value.startswith("0"):
        return f"{value[:3]}-{value[3:6]} {value[6:8]} {value[8:]}"
    if len(value) == 10:
        return f"{value[:3]} {value[3:6]} {value[6:8]} {value[8:]}"
    if len(value) == 7:
        return f"{value[:3]} {value[3:5]} {value[5:]}"
    return value


def display_app_number(value: str) -> str:
    """Return a Vipps or MobilePay number in groups: 123 45, 12 34 56 78."""
    if len(value) == 8:
        return " ".join(value[i : i + 2] for i in range(0, 8, 2))
    if len(value) in (5, 6):
        return f"{value[:3]} {value[3:]}"
    return value


# The checks of the numbers that do not depend on the currency, by field.
VALIDATORS = {
    "swish_number": validate_swish,
    "vipps_number": validate_app_number,
    "mobilepay_number": validate_app_number,
    "iban": validate_iban,
    "bic": validate_bic,
}


def compacted(values: dict, currency: str) -> dict:
    """Return the payees' fields of ``values`` as they are stored (the others as they are)."""
    compactors = {
        "payee_name": lambda value: " ".join(value.split()),
        "swish_number": compact_swish,
        "vipps_number": compact_app_number,
        "mobilepay_number": compact_app_number,
        "iban": compact_iban,
        "bic": compact_bic,
        "bank_account": lambda value: compact_account(value, currency),
    }
    return {
        name: compactors[name](value) if name in compactors and value else value
        for name, value in values.items()
    }
