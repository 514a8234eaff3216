"""The example interchange document: it is its own export, and what it holds comes back."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from decimal import Decimal

import jsonschema
import pytest

from championship.models import (
    ChampionshipRole,
    Heat,
    Round,
)
from interchange.export import export_document
from interchange.format import InterchangeError
from interchange.write import import_document
from registration.models import Entry, Person
from results.models import Result
from tests import factories
from tests.interchange.documents import SCHEMA, example, results_by_entry

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------------ examples


def test_the_example_document_is_its_own_export(db):
    """The example in the docs is exactly what exporting it again gives."""
    championship = import_document(example())

    assert export_document(championship) == example()


def test_the_schedule_time_up_and_own_starts_come_back_as_they_were(db):
    """Heat names, planned starts, time-up, own starts and a round's own limit round-trip."""
    document = example()
    document["competitions"][0]["rounds"][0]["time_limit_minutes"] = 100
    championship = import_document(document)

    final = Round.objects.get(championship=championship, key="individual-final")
    assert (final.time_limit_minutes, final.effective_time_limit_minutes) == (100, 100)
    heat = final.heats.get()
    assert (heat.name, heat.state) == ("Finale", Heat.State.TIME_UP)
    assert heat.scheduled_start == heat.started_at == datetime(2026, 3, 14, 9, 15, tzinfo=UTC)
    assert heat.ended_at == datetime(2026, 3, 14, 11, 15, tzinfo=UTC)
    own = {seat.entry.ref: seat.started_at for seat in final.seats.select_related("entry")}
    assert own == {
        "e1": None,
        "e2": None,
        "e3": datetime(2026, 3, 14, 9, 16, 30, tzinfo=UTC),
        "e4": None,
    }
    assert export_document(championship) == document


def test_check_ins_payments_rankings_and_confirmations_come_back(db):
    """What the day's tools set (check-in, payment, seeding, confirmation) survives a move."""
    from judging.capture_kinds import CaptureConflict, CaptureInput
    from judging.services import capture_record

    championship = import_document(example())

    e1 = Entry.objects.get(ref="e1")
    assert (e1.payment_reference, e1.language, e1.prior_ranking) == ("Vipps 4711", "nb", 12)
    assert e1.checked_in_at == datetime(2026, 3, 14, 8, 41, tzinfo=UTC)
    assert Entry.objects.get(ref="e3").language == "en"
    assert Entry.objects.get(ref="e6").checked_in_at is None
    confirmed = Result.objects.get(entry=e1)
    assert confirmed.confirmed_at == datetime(2026, 3, 14, 9, 56, 31, tzinfo=UTC)
    # A confirmed result stays locked against a judge's tap after the move.
    final = Round.objects.get(championship=championship, key="individual-final")
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE)
    with pytest.raises(CaptureConflict, match="confirmed"):
        capture_record(
            round_=final,
            entry=e1,
            judge=judge,
            data=CaptureInput(
                client_id=uuid.uuid4(),
                kind="finish",
                at=datetime(2026, 3, 14, 9, 50, tzinfo=UTC),
            ),
            now=datetime(2026, 3, 14, 10, 0, tzinfo=UTC),
        )
    # The rest of what an organiser set up comes back too.
    assert championship.address == "Kulturhusgata 2, 4005 Stavanger" and championship.is_public
    assert championship.registration_deadline == datetime(2026, 3, 7, 22, 59, tzinfo=UTC)
    reserved = championship.tables.filter(reserved_for_guests=True)
    assert list(reserved.values_list("number", flat=True)) == [4]
    individual = championship.categories.get(kind="individual")
    assert (individual.name, individual.puzzle_brand, individual.puzzle_motif) == (
        "Individual",
        "Ravensburger",
        "Fjordlandskap",
    )
    assert individual.registration_opens_at == datetime(2026, 1, 10, 11, 0, tzinfo=UTC)
    assert Entry.objects.get(ref="e3").notes == "Needs a table near the door"
    assert Entry.objects.get(ref="e6").fee == Decimal("400.00")
    # Omitted, an entry's language is the championship's.
    document = example()
    del document["competitions"][0]["entries"][2]["language"]
    again = import_document(document, replace=True)
    assert Entry.objects.get(category__championship=again, ref="e3").language == "nb"


def test_the_payment_instructions_round_trip_as_an_optional_extension(db):
    """``championship.payment_instructions``: read, written back, empty when omitted."""
    document = example()
    text = "Vipps {fee} til 123 45 og merk betalingen med {reference}."
    assert document["championship"]["payment_instructions"] == text
    jsonschema.validate(document, SCHEMA)
    championship = import_document(document)
    assert championship.payment_instructions == text
    assert export_document(championship)["championship"]["payment_instructions"] == text

    del document["championship"]["payment_instructions"]
    again = import_document(document, replace=True)
    assert again.payment_instructions == ""
    assert export_document(again)["championship"]["payment_instructions"] == ""

    document["championship"]["payment_instructions"] = ["Vipps"]
    with pytest.raises(InterchangeError) as refused:
        import_document(document, replace=True)
    assert refused.value.path == "championship.payment_instructions"


def test_an_omitted_field_takes_its_default(db):
    championship = import_document(example("minimal"))

    assert (championship.timezone, championship.currency, championship.language) == (
        "Europe/Stockholm",
        "SEK",
        "sv",
    )
    # A time without an offset is in the championship's time zone.
    assert championship.starts_at == datetime(2026, 5, 9, 8, 0, tzinfo=UTC)
    tokens = list(championship.tables.values_list("token", flat=True))
    assert len(set(tokens)) == 2 and all(len(token) >= 20 for token in tokens)
    category = championship.categories.get()
    assert (category.pieces, category.capacity, category.fee) == (500, None, 0)
    assert list(Round.objects.filter(category=category).values_list("stage", flat=True)) == [
        "prelim",
        "final",
    ]
    bo = Entry.objects.get(ref="bo-i")
    assert (bo.name, bo.status, bo.payment_status) == ("Bo Ek", "confirmed", "unpaid")
    results = results_by_entry(export_document(championship), 0, 0)
    # Bo's citizenship is not known: unofficial, but faster than the last official qualifier.
    assert results["bo-i"]["official"] is False and results["bo-i"]["qualified"] is True
    assert results["anna-i"]["official_place"] == 1


def test_a_single_citizenship_code_is_read_as_a_list(db):
    import_document(example("minimal"))

    assert Person.objects.get(ref="anna").citizenship == ["SE"]
