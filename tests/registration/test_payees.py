"""Where entrants pay: the payees' numbers checked against published examples, stored compact."""

from datetime import UTC, datetime

import pytest
from django.core.exceptions import ValidationError

from championship import payees
from championship.models import Championship
from tests import factories

# Published examples: Swish's QR specification (1237856901), python-stdnum's
# documentation (8601 11 17947, NO93 8601 1117 947), the ECBS IBAN examples
# (DE89 3704 0044 0532 0130 00, SE45 5000 0000 0583 9825 7466, DK50 0040 0440 1162 43),
# the EPC QR code guideline (BE72 0000 0000 1616, BPOTBEB1) and Bankgirot's own
# bankgiro number (5050-1055).
VALID = {
    "swish_number": [
        ("123 785 69 01", "1237856901"),
        ("123-7856901", "1237856901"),
        ("900 12 34", "9001234"),
        ("+46 70 123 45 67", "0701234567"),
        ("070-123 45 67", "0701234567"),
    ],
    "vipps_number": [("123 45", "12345"), ("+47 912 34 567", "91234567")],
    "mobilepay_number": [("1234", "1234"), ("+45 12 34 56 78", "12345678")],
    "iban": [
        ("NO93 8601 1117 947", "NO9386011117947"),
        ("de89 3704 0044 0532 0130 00", "DE89370400440532013000"),
        ("SE45 5000 0000 0583 9825 7466", "SE4550000000058398257466"),
        ("DK50 0040 0440 1162 43", "DK5000400440116243"),
        ("BE72000000001616", "BE72000000001616"),
    ],
    "bic": [("DNBANOKK", "DNBANOKK"), ("bpot be b1", "BPOTBEB1"), ("ESSESESSXXX", "ESSESESSXXX")],
}
INVALID = {
    "swish_number": ["12345", "1337856901", "0801234567", "Swish"],
    "vipps_number": ["123", "123456789", "Vipps"],
    "mobilepay_number": ["12", "MP 1234"],
    # One check digit off each.
    "iban": ["NO94 8601 1117 947", "DE88 3704 0044 0532 0130 00", "SE45"],
    "bic": ["DNB", "DNBANOK1X"],
}


@pytest.mark.parametrize(
    ("field", "typed"),
    [(field, typed) for field, cases in VALID.items() for typed, _ in cases],
)
def test_published_numbers_pass(field, typed):
    validator = Championship._meta.get_field(field).validators[0]
    validator(typed)


@pytest.mark.parametrize(
    ("field", "typed"), [(field, typed) for field, cases in INVALID.items() for typed in cases]
)
def test_wrong_numbers_are_refused_with_what_they_should_be(field, typed):
    validator = Championship._meta.get_field(field).validators[0]
    with pytest.raises(ValidationError) as refused:
        validator(typed)
    assert refused.value.messages[0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "typed", "stored"),
    [(field, typed, stored) for field, cases in VALID.items() for typed, stored in cases],
)
def test_a_championship_stores_each_number_compact(field, typed, stored):
    championship = factories.championship(starts_at=datetime(factories.NEXT_YEAR, 5, 1, tzinfo=UTC))
    setattr(championship, field, typed)
    championship.full_clean()
    assert getattr(championship, field) == stored


ACCOUNTS = [
    ("NOK", "8601.11.17947", "86011117947", "8601.11.17947"),
    ("NOK", "8601 11 17947", "86011117947", "8601.11.17947"),
    ("SEK", "5050-1055", "5050-1055", "5050-1055"),
    ("SEK", "8327-9 123 456 789-0", "8327-9 123 456 789-0", "8327-9 123 456 789-0"),
    ("DKK", "1234 0001234567", "1234 0001234567", "1234 0001234567"),
]
WRONG_ACCOUNTS = [
    ("NOK", "8601.11.17949", "11 digits with a check digit"),
    ("NOK", "1234", "11 digits with a check digit"),
    ("SEK", "5050-1056", "check digit is wrong"),
    ("SEK", "bankgiro", "clearing number"),
    ("DKK", "12 34", "registration number"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("currency", "typed", "stored", "shown"), ACCOUNTS)
def test_a_bank_account_is_checked_as_its_currency_s_country_writes_it(
    currency, typed, stored, shown
):
    championship = factories.championship(currency=currency)
    championship.bank_account = typed
    championship.full_clean()
    assert championship.bank_account == stored
    assert payees.display_account(championship.bank_account, currency) == shown


@pytest.mark.django_db
@pytest.mark.parametrize(("currency", "typed", "says"), WRONG_ACCOUNTS)
def test_a_wrong_bank_account_is_refused_and_says_why(currency, typed, says):
    championship = factories.championship(currency=currency)
    championship.bank_account = typed
    with pytest.raises(ValidationError) as refused:
        championship.full_clean()
    assert says in refused.value.message_dict["bank_account"][0]


def test_numbers_are_shown_as_people_write_them():
    assert payees.display_swish("1237856901") == "123 785 69 01"
    assert payees.display_swish("0701234567") == "070-123 45 67"
    assert payees.display_swish("9001234") == "900 12 34"
    assert payees.display_app_number("12345") == "123 45"
    assert payees.display_app_number("91234567") == "91 23 45 67"
    assert payees.display_iban("NO9386011117947") == "NO93 8601 1117 947"


@pytest.mark.django_db
def test_the_payee_is_the_account_holder_else_the_championship():
    championship = factories.championship(name="NM i puslespill")
    assert championship.payee == "NM i puslespill"
    championship.payee_name = "  Norsk   Puslespillforbund "
    championship.full_clean()
    assert championship.payee == "Norsk Puslespillforbund"
