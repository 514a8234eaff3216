"""Matching credits to entries, without a database (payments.matching)."""

from decimal import Decimal

from payments import matching
from payments.matching import Payable

KARI = Payable(1, "00000018", Decimal(200), names=("Kari Nordmann",))
PER = Payable(2, "00000026", Decimal(300), names=("Per Hansen", "Pål Hansen"))
RF = Payable(3, "RF18539007547034", Decimal(20), names=("Aino Virtanen",))


def test_references_are_found_as_people_type_them():
    found = matching.references_in("", "Påmelding, KID 0000 0018 takk")
    assert "00000018" in found
    assert "RF18539007547034" in matching.references_in("", "ref rf18 5390 0754 7034")
    assert matching.references_in(" 0000 0018 ", "")[0] == "00000018"


def test_a_number_that_only_contains_a_reference_matches_nothing():
    (result,) = matching.match([(Decimal(200), "", "Faktura 1000000018", "")], [KARI])
    assert result == matching.Match("unknown")


def test_two_halves_make_a_payment_and_a_third_overpays():
    credits = [(Decimal(150), "00000026", "", "")] * 3
    assert [m.status for m in matching.match(credits, [PER])] == [
        "partial",
        "matched",
        "overpaid",
    ]


def test_a_paid_entry_paid_again_is_overpaid_and_paid_by_hand_then_by_bank_is_matched():
    paid = Payable(1, "00000018", Decimal(200), received=Decimal(200), paid=True)
    (result,) = matching.match([(Decimal(200), "00000018", "", "")], [paid])
    assert result == matching.Match("overpaid", 1)
    by_hand = Payable(1, "00000018", Decimal(200), paid=True)
    (result,) = matching.match([(Decimal(200), "00000018", "", "")], [by_hand])
    assert result == matching.Match("matched", 1)


def test_a_suggestion_needs_the_fee_and_a_name_and_one_entry_only():
    ola = Payable(4, "00000034", Decimal(200), names=("Ola Nordmann",))
    credits = [
        (Decimal(200), "", "Startavgift", "Per Hansen"),  # Per's name, Kari's fee
        (Decimal(300), "", "", "PER HANSEN"),
        (Decimal(200), "", "", "Nordmann"),  # two Nordmanns owe 200
        (Decimal(20), "", "", "Aino Virtanen"),
    ]
    assert [m.suggested for m in matching.match(credits, [KARI, PER, RF, ola])] == [
        None,
        2,
        None,
        3,
    ]
