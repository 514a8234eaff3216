"""The banks' CSV exports and Swish's report, and a layout the organiser maps once."""

from __future__ import annotations

from decimal import Decimal

import pytest

from payments import readers, services
from payments.models import BankLayout
from tests import factories
from tests.payments.test_statements import read, statuses

pytestmark = pytest.mark.django_db


def test_sparebank1_credits_under_inn_with_the_kid_in_the_text(norway):
    outcome = read(norway, "sparebank1.csv")
    assert outcome.statement.kind == "sparebank1"
    assert statuses(outcome) == [
        ("matched", "Kari Nordmann", Decimal("200.00")),
        # 1 300,00 for a pair's 300: a thousands space and a decimal comma.
        ("overpaid", "Per Hansen & Pål Hansen", Decimal("1300.00")),
    ]
    assert outcome.lines()[0].booked_on.isoformat() == "2026-03-02"


def test_swedbank_after_its_title_line_in_latin_1(sweden):
    outcome = read(sweden, "swedbank.csv")
    assert outcome.statement.kind == "swedbank"
    assert statuses(outcome) == [
        ("matched", "Kajsa Karlsson", Decimal("250.50")),  # the OCR in Referens
        ("matched", "Olle Svensson", Decimal("250.50")),  # the OCR in the text
    ]


def test_danske_bank_with_danish_thousands_and_a_fik_reference(denmark):
    outcome = read(denmark, "danske.csv")
    assert outcome.statement.kind == "danske"
    assert statuses(outcome) == [
        ("matched", "Mette Hansen", Decimal("175.00")),
        ("matched", "Jens Jensen & Anne Jensen & Lars Jensen", Decimal("1175.00")),
    ]


def test_a_swish_report_matches_by_the_message_the_qr_code_filled_in(sweden):
    outcome = read(sweden, "swish.csv")
    assert outcome.statement.kind == "swish"
    assert statuses(outcome) == [
        ("matched", "Kajsa Karlsson", Decimal("250.50")),
        ("partial", "Olle Svensson", Decimal("125.25")),
    ]
    assert [line.payer for line in outcome.lines()] == ["KAJSA KARLSSON", "OLLE SVENSSON"]
    # Swish's own reference tells the payment apart in a later, overlapping report.
    assert outcome.lines()[0].fingerprint == "ref:5C2E3A9F1B7D4E60#1"


def test_a_vipps_settlement_report_reads_the_gross_sales_and_the_payer_s_name(norway):
    outcome = read(norway, "vipps.csv")
    assert outcome.statement.kind == "vipps"
    assert statuses(outcome) == [
        ("matched", "Kari Nordmann", Decimal("200.00")),
        ("matched", "Per Hansen & Pål Hansen", Decimal("300.00")),
    ]
    assert [line.payer for line in outcome.lines()] == ["Kari Nordmann", "Per Hansen"]
    assert outcome.lines()[0].fingerprint == "ref:5554795401#1"


def test_an_unknown_layout_is_mapped_once_and_read_by_its_header_from_then_on(norway):
    data = norway.statement("other-bank.csv")
    with pytest.raises(services.NeedsMapping) as unmapped:
        services.statement_read(championship=norway.championship, data=data, file_name="a.csv")
    table = unmapped.value.table
    assert table.header == ["Bokført", "Tekst fra betaler", "Beløp inn", "Beløp ut", "Arkivref"]
    with pytest.raises(services.Refused):
        services.layout_save(
            table=table, columns={"text": "Tekst fra betaler"}, decimal_comma=True, by=None
        )
    services.layout_save(
        table=table,
        columns={
            "date": "Bokført",
            "amount": "Beløp inn",
            "text": "Tekst fra betaler",
            "bank_ref": "Arkivref",
        },
        decimal_comma=True,
        by=factories.user(),
    )
    assert BankLayout.objects.count() == 1
    outcome = services.statement_read(
        championship=norway.championship, data=data, file_name="a.csv"
    )
    assert outcome.statement.kind == "csv"
    assert statuses(outcome) == [("matched", "Kari Nordmann", Decimal("200.00"))]


@pytest.mark.parametrize(
    ("text", "comma", "amount"),
    [
        ("1.234,50", True, Decimal("1234.50")),
        ("1 234,50", True, Decimal("1234.50")),
        ("\u00a0200,00", True, Decimal("200.00")),
        ("'-39,00", True, Decimal("-39.00")),
        ("-39.00", False, Decimal("-39.00")),
        ("1,234.50", False, Decimal("1234.50")),
        ("", True, None),
        ("1.234,50", None, Decimal("1234.50")),
        ("1,234.50", None, Decimal("1234.50")),
        ("200,00", None, Decimal("200.00")),
        ("-3.50", None, Decimal("-3.50")),
    ],
)
def test_amounts_as_the_banks_write_them(text, comma, amount):
    assert readers.parse_amount(text, decimal_comma=comma) == amount


def test_a_row_with_a_bad_amount_or_date_is_refused_with_its_row(norway):
    bad = "Dato;Beskrivelse;Rentedato;Inn;Ut;Til konto;Fra konto;\n01.03.2026;x;;2OO;;;\n"
    with pytest.raises(services.Refused) as refused:
        services.statement_read(championship=norway.championship, data=bad.encode(), file_name="x")
    assert refused.value.message == "Row 2: “2OO” is not an amount."
    bad = "Dato;Beskrivelse;Rentedato;Inn;Ut;Til konto;Fra konto;\n31.02.2026;x;;200,00;;;\n"
    with pytest.raises(services.Refused) as refused:
        services.statement_read(championship=norway.championship, data=bad.encode(), file_name="x")
    assert refused.value.message == "Row 2: “31.02.2026” is not a date."
