"""Bank statements read, matched to the entries and applied (payments.services)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from championship.models import Championship
from payments import services
from payments.models import Statement, StatementLine
from registration.models import Entry
from tests import factories

pytestmark = pytest.mark.django_db


def read(world, name, **kwargs):
    return services.statement_read(
        championship=world.championship, data=world.statement(name), file_name=name, **kwargs
    )


def statuses(outcome):
    return [
        (line.status, line.entry.name if line.entry else None, line.amount)
        for line in outcome.lines()
    ]


def paid(world):
    return {
        key
        for key, entry in world.entries.items()
        if Entry.objects.get(pk=entry.pk).payment_status == Entry.Payment.PAID
    }


def test_a_camt053_is_matched_by_kid_and_message_and_nothing_is_paid_before_applying(norway):
    outcome = read(norway, "camt053-nok.xml")
    statement = outcome.statement
    assert (statement.kind, statement.account, statement.currency) == (
        "camt.053",
        "NO9386011117947",
        "NOK",
    )
    assert statuses(outcome) == [
        ("matched", "Kari Nordmann", Decimal("200.00")),  # a KID in a batch
        ("partial", "Per Hansen & Pål Hansen", Decimal("150.00")),  # half of 300
        ("matched", "Ola Nilsen", Decimal("200.00")),  # KID typed in the message, with spaces
        ("overpaid", "Liv Berg & Tor Berg & Ida Berg", Decimal("450.00")),  # 400 due
        ("unknown", None, Decimal("200.00")),  # no reference
        ("unknown", None, Decimal("999.00")),  # a gift
    ]
    lines = outcome.lines()
    # Without a reference, the amount and the payer's name suggest Siri: to confirm.
    assert lines[4].suggested == norway.entries["siri"] and lines[4].payer == "Siri Lund"
    assert lines[5].suggested is None and lines[5].message == "Gave til klubben 2026"
    assert paid(norway) == set()


def test_applying_marks_the_matched_and_the_confirmed_paid_with_the_line_as_evidence(norway):
    outcome = read(norway, "camt053-nok.xml")
    organiser = factories.user(username="kasserer")
    became = services.statement_apply(statement=outcome.statement, by=organiser, confirm=[5])
    assert became == 4
    assert paid(norway) == {"kari", "ola", "liv", "siri"}
    statement = Statement.objects.get()
    assert statement.applied_by == organiser and statement.applied_at is not None
    evidence = StatementLine.objects.get(entry=norway.entries["siri"])
    assert (evidence.statement.file_name, evidence.position) == ("camt053-nok.xml", 5)
    assert evidence.applied_at == statement.applied_at and evidence.status == "matched"
    # Applying again changes nothing.
    assert services.statement_apply(statement=statement, by=organiser) == 0


def test_the_same_file_twice_changes_nothing_and_answers_every_line_duplicate(norway):
    first = read(norway, "camt053-nok.xml")
    services.statement_apply(statement=first.statement)
    lines_before = StatementLine.objects.count()
    again = read(norway, "camt053-nok.xml")
    assert again.again and again.statement == first.statement
    assert {line.status for line in again.lines()} == {"duplicate"}
    assert StatementLine.objects.count() == lines_before
    assert Statement.objects.count() == 1


def test_an_overlapping_statement_reads_a_credit_once_and_completes_a_partial_payment(norway):
    services.statement_apply(statement=read(norway, "camt053-nok.xml").statement)
    assert "per" not in paid(norway)
    outcome = read(norway, "camt053-nok-next.xml")
    assert statuses(outcome) == [
        ("duplicate", None, Decimal("450.00")),  # Liv's, in yesterday's file too
        ("matched", "Per Hansen & Pål Hansen", Decimal("150.00")),  # 150 + 150 = 300
    ]
    services.statement_apply(statement=outcome.statement)
    assert "per" in paid(norway)


def test_a_camt054_with_ocr_references_books_only_booked_credits(sweden):
    outcome = read(sweden, "camt054-sek.xml")
    assert outcome.statement.kind == "camt.054"
    assert statuses(outcome) == [
        ("matched", "Kajsa Karlsson", Decimal("250.50")),
        ("matched", "Olle Svensson", Decimal("250.50")),
    ]
    assert outcome.lines()[0].payer == "Kajsa Karlsson"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (
            {"iban": "NO0215030000000", "bank_account": "15030000000"},
            "is of the account NO9386011117947",
        ),
        ({"currency": "EUR", "iban": ""}, "This statement is in NOK"),
    ],
)
def test_a_statement_of_another_account_or_currency_is_refused(norway, change, says):
    Championship.objects.filter(pk=norway.championship.pk).update(**change)
    norway.championship.refresh_from_db()
    with pytest.raises(services.Refused) as refused:
        read(norway, "camt053-nok.xml")
    assert says in refused.value.message
    assert not Statement.objects.exists()


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"<Document><Foo/></Document>", "not an ISO 20022 bank statement"),
        (b"<Document><BkToCstmrStmt>", "not well-formed XML"),
        (
            b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><Document>&a;</Document>',
            "not well-formed XML",
        ),
        (b"", "The file is empty."),
        (b"Date,Amount\n2026-03-01,abc\n", None),
    ],
)
def test_what_is_no_statement_is_refused_with_why(norway, data, says):
    if says is None:
        with pytest.raises(services.NeedsMapping):
            services.statement_read(championship=norway.championship, data=data, file_name="x")
    else:
        with pytest.raises(services.Refused) as refused:
            services.statement_read(championship=norway.championship, data=data, file_name="x")
        assert says in refused.value.message
    assert not Statement.objects.exists()


def test_applying_reckons_again_with_what_was_applied_since_reading(norway):
    """Read two statements, apply the later first: the earlier half completes Per's fee."""
    first = read(norway, "camt053-nok.xml")
    later = read(norway, "camt053-nok-next.xml")
    assert [line.status for line in later.lines()] == ["duplicate", "partial"]
    services.statement_apply(statement=later.statement)
    assert "per" not in paid(norway)
    services.statement_apply(statement=first.statement)
    assert "per" in paid(norway)
    assert StatementLine.objects.get(statement=first.statement, position=2).status == "matched"
