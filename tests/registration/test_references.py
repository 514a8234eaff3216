"""Payment references (registration/references.py) against published examples.

Sources of the examples:

- FIK +71 (Denmark), Luhn: the payment id "2" printed with its check digit as "26"
  (giro-kort.dk, "Betalingsidentifikation"); the +71 code line
  "+71< 004040400000669+12345678<", whose payment id is 00404040000066 with the check
  digit 9 (Uniconta, "Setting up FIK code on company information").
- Luhn as Sweden's OCR reference and personnummer use it: the personnummer
  811218-9876 (Swedish Wikipedia's example), its check digit 6 over 811218987.
- The length digit (Sweden's bankgiro OCR): the second-to-last digit is the whole
  reference's length, tens left out; the last is the Luhn digit over all before it
  (cogwork.se, "Kontrollsiffror för OCR- och personnummer"; Bankgirot's OCR-referenskontroll).
- Modulus 11 with weights 2 to 7 from the right, as KID's MOD11: the Danish CVR number
  13748136, whose check digit 6 the Danish Business Authority works out with these
  weights (erhvervsstyrelsen.dk, "Modulus 11 kontrol"); remainder 0 gives 0, and where
  CVR refuses a remainder of 1, a KID ends in "-" (the Norwegian banks' MOD11 rule).
- ISO 11649: RF18 5390 0754 7034 (the standard's example) and RF18 5390 0754 70Y
  (letters are allowed), valid; RF17 5390 0754 7034, refused (python-stdnum's examples).
"""

import pytest

from registration import references as r


@pytest.mark.parametrize(
    ("scheme", "reference"),
    [
        ("fik71", "004040400000669"),
        ("kid10", "26"),
        ("ocr", "8112189876"),
        ("kid10", "8112189876"),
        ("kid11", "13748136"),
        ("rf", "RF18 5390 0754 7034"),
        ("rf", "rf18539007547034"),
        ("rf", "RF18 5390 0754 70Y"),
    ],
)
def test_published_references_pass_their_check(scheme, reference):
    assert r.is_valid(scheme, reference)


@pytest.mark.parametrize(
    ("scheme", "reference"),
    [
        ("fik71", "004040400000668"),  # the check digit off by one
        ("fik71", "26"),  # a payment id on a +71 card has 15 digits
        ("kid10", "27"),
        ("ocr", "8112189875"),
        ("ocr", "8112198876"),  # two neighbouring digits swapped
        ("kid11", "13748137"),
        ("kid11", "1374813-"),
        ("ocr_length", "8112189876"),  # a Luhn digit, but no length digit
        ("rf", "RF17 5390 0754 7034"),
        ("rf", "18 5390 0754 7034"),
        ("kid10", ""),
        ("kid10", "12a4"),
    ],
)
def test_wrong_references_are_refused(scheme, reference):
    assert not r.is_valid(scheme, reference)
    with pytest.raises(r.InvalidReference):
        r.validate(scheme, reference)


def test_the_published_check_digits_are_the_ones_made():
    assert r.make("fik71", 404040000066) == "004040400000669"
    assert r.make("fik71", 2) == "000000000000026"
    assert r.mod11_check_digit("1374813") == "6"
    assert r.make("ocr", 811218987) == "8112189876"


def test_modulus_11_ends_in_a_dash_where_the_remainder_is_one():
    # 0000001 weighs 2; 11 - 2 = 9. 0000005 weighs 10: 11 - 10 = 1. Look for a 10.
    dashed = next(n for n in range(1, 200) if r.make("kid11", n).endswith("-"))
    reference = r.make("kid11", dashed)
    assert r.is_valid("kid11", reference)
    assert not r.is_valid("kid10", reference)
    weights = [2, 3, 4, 5, 6, 7, 2]
    total = sum(int(d) * w for d, w in zip(reversed(reference[:-1]), weights, strict=True))
    assert total % 11 == 1


def test_the_length_digit_counts_the_whole_reference():
    reference = r.make("ocr_length", 12345)
    assert reference[:-2] == "0012345"
    assert reference[-2] == str(len(reference) % 10) == "9"
    assert r.is_valid("ocr_length", reference)
    assert r.is_valid("ocr", reference)  # the Luhn digit covers the length digit too


@pytest.mark.parametrize("scheme", r.SCHEMES)
@pytest.mark.parametrize("number", [1, 42, 1234567, 98765432])
def test_every_made_reference_passes_its_own_check_and_fails_when_mistyped(scheme, number):
    reference = r.make(scheme, number)
    # As typed or printed, in groups of four: the same reference.
    spaced = " ".join(reference[i : i + 4] for i in range(0, len(reference), 4))
    assert r.validate(scheme, spaced) == reference
    # One digit mistyped (the last digit of the number) is caught by every scheme.
    position = len(reference) - (2 if scheme in ("ocr_length",) else 1) - 1
    if scheme == "rf":
        position = len(reference) - 1
    wrong = str((int(reference[position]) + 1) % 10)
    mistyped = reference[:position] + wrong + reference[position + 1 :]
    assert not r.is_valid(scheme, mistyped)


def test_references_of_one_championship_have_one_length():
    for scheme in ("kid10", "kid11", "ocr", "ocr_length", "fik71"):
        assert len({len(r.make(scheme, n)) for n in (1, 99, 12345, 9999999)}) == 1, scheme


def test_the_currency_suggests_the_scheme():
    assert [r.default_scheme(c) for c in ("NOK", "sek", "DKK", "EUR", "GBP")] == [
        "kid10",
        "ocr",
        "fik71",
        "rf",
        "rf",
    ]


def test_nonsense_is_refused_before_a_reference_is_made():
    with pytest.raises(ValueError, match="unknown"):
        r.make("giro", 1)
    with pytest.raises(ValueError, match="positive"):
        r.make("kid10", 0)
    with pytest.raises(ValueError, match="at most 14"):
        r.make("fik71", 10**14)


def test_an_rf_reference_is_printed_in_groups_of_four_and_others_as_they_are():
    assert r.grouped("RF18539007547034") == "RF18 5390 0754 7034"
    assert r.grouped("rf18 5390 0754 7034") == "RF18 5390 0754 7034"
    assert r.grouped("00000018") == "00000018"
    assert r.grouped("RF19539007547034") == "RF19539007547034"  # not a valid RF
