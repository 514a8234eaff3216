"""Each new entry gets its payment reference in the form of its championship's bank."""

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from championship.models import Championship, PaymentReferenceScheme
from registration import payment, references, services
from registration.models import Entry
from registration.validation import MemberData
from tests import factories

BEFORE = ("championship", "0025_outgoing_mail_organiser_kinds")


def register(championship, name="Kari"):
    category = championship.categories.get(kind="individual")
    members = [MemberData(name, f"{name.lower()}@example.org", date(1980, 1, 1))]
    return services.entry_register(
        category=category, members=members, send_mail=False, enforce_deadline=False
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("currency", "scheme"), [("NOK", "kid10"), ("SEK", "ocr"), ("DKK", "fik71"), ("EUR", "rf")]
)
def test_the_currency_gives_the_form_its_banks_check(currency, scheme):
    championship = factories.championship(currency=currency)
    entry = register(championship)
    entry.refresh_from_db()
    assert entry.payment_reference == references.make(scheme, entry.pk)
    assert references.is_valid(scheme, entry.payment_reference)
    assert payment.reference(entry) == entry.payment_reference


def test_the_championships_choices_are_the_schemes_references_makes():
    made = set(PaymentReferenceScheme.values) - {"", PaymentReferenceScheme.ENTRY}
    assert made == set(references.SCHEMES)


@pytest.mark.django_db
def test_the_entrys_own_id_where_the_organiser_asks_for_it():
    championship = factories.championship()
    Championship.objects.filter(pk=championship.pk).update(payment_reference_scheme="entry")
    championship.refresh_from_db()
    entry = register(championship)
    assert entry.payment_reference == ""
    assert payment.reference(entry) == entry.ref


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_entry_ids_that_earlier_entrants_were_given():
    """Championships made before the choice keep giving the entry's id, until changed."""
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    executor.loader.build_graph()
    old = executor.loader.project_state([BEFORE]).apps
    OldChampionship = old.get_model("championship", "Championship")
    assert "payment_reference_scheme" not in {f.name for f in OldChampionship._meta.fields}
    earlier = OldChampionship.objects.create(
        slug="earlier",
        name="Earlier",
        ruleset="rogaland",
        starts_at="2027-03-14T09:00Z",
        currency="NOK",
        language="nb",
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Championship.objects.get(pk=earlier.pk).payment_reference_scheme == "entry"
    # One made now follows its currency.
    assert factories.championship().payment_reference_scheme == ""
    assert not Entry.objects.exists()
