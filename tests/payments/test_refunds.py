"""Refunds the rules promise: early withdrawals, a cancelled championship, overpayments."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse

from championship import services as championship_services
from championship.models import Championship, ChampionshipRole
from payments import refunds, services
from payments.models import Refund
from registration import places
from registration.models import Entry
from tests import factories
from tests.payments.test_statements import read

pytestmark = pytest.mark.django_db


def pay(world, *keys):
    Entry.objects.filter(pk__in=[world.entries[key].pk for key in keys]).update(
        payment_status=Entry.Payment.PAID
    )


def withdraw(world, key, days_before):
    at = world.championship.starts_at - timedelta(days=days_before)
    Entry.objects.filter(pk=world.entries[key].pk).update(
        status=Entry.Status.WITHDRAWN, withdrawn_at=at
    )


def owed(world):
    return [(o.entry.name, o.reason, o.amount) for o in refunds.owed(world.championship)]


def set_days(world, days):
    Championship.objects.filter(pk=world.championship.pk).update(refund_days_before=days)
    world.championship.refresh_from_db()


def test_a_withdrawal_up_to_the_deadline_is_owed_its_fee_and_a_later_one_nothing(norway):
    pay(norway, "kari", "ola")
    withdraw(norway, "kari", days_before=20)
    withdraw(norway, "ola", days_before=10)
    withdraw(norway, "siri", days_before=30)  # never paid: owed nothing
    assert owed(norway) == []  # no refund deadline: withdrawals get nothing back
    set_days(norway, 15)  # the world championship's
    assert owed(norway) == [("Kari Nordmann", "withdrawn", Decimal("200.00"))]
    withdraw(norway, "ola", days_before=15)  # up to 15 days before: still owed
    assert [name for name, _r, _a in owed(norway)] == ["Kari Nordmann", "Ola Nilsen"]


def test_a_payment_above_the_fee_is_owed_back(norway):
    services.statement_apply(statement=read(norway, "camt053-nok.xml").statement)
    assert owed(norway) == [("Liv Berg & Tor Berg & Ida Berg", "overpaid", Decimal("50.00"))]


def test_a_cancelled_championship_owes_every_fee_paid_and_closes_registration(norway):
    pay(norway, "kari", "per")
    championship = championship_services.championship_cancel(championship=norway.championship)
    norway.championship = championship
    assert owed(norway) == [
        ("Kari Nordmann", "cancelled", Decimal("200.00")),
        ("Per Hansen & Pål Hansen", "cancelled", Decimal("300.00")),
    ]
    individual = championship.categories.get(kind="individual")
    assert places.registration_state(individual) == places.CLOSED
    refund = refunds.refund_record(
        championship=championship, entry_id=norway.entries["kari"].pk, reason="cancelled"
    )
    assert refund.amount == Decimal("200.00")
    assert Entry.objects.get(pk=norway.entries["kari"].pk).payment_status == "refunded"
    assert [name for name, _r, _a in owed(norway)] == ["Per Hansen & Pål Hansen"]
    with pytest.raises(services.Refused):
        refunds.refund_record(
            championship=championship, entry_id=norway.entries["kari"].pk, reason="cancelled"
        )
    assert Refund.objects.count() == 1


def test_the_refunds_page_lists_marks_done_exports_and_cancels(client, english, norway):
    client.force_login(factories.role(norway.championship, ChampionshipRole.Role.ORGANISER))
    slug = norway.championship.slug
    url = reverse("manage:payments_refunds", kwargs={"championship_slug": slug})
    set_days(norway, 15)
    pay(norway, "kari")
    withdraw(norway, "kari", days_before=20)
    page = client.get(url).text
    assert "Kari Nordmann" in page and norway.entries["kari"].payment_reference in page
    # The CSV, in the championship's language: semicolons and a decimal comma.
    csv = client.get(url + "?format=csv").content.decode("utf-8-sig")
    assert csv.splitlines()[1].endswith(f";200,00;NOK;{norway.entries['kari'].payment_reference}")
    done = reverse("manage:payments_refund_done", kwargs={"championship_slug": slug})
    client.post(done, {"entry": norway.entries["kari"].pk, "reason": "withdrawn"})
    assert Refund.objects.get().entry == norway.entries["kari"]
    refused = client.post(done, {"entry": "x", "reason": "withdrawn"}, follow=True).text
    assert "Nothing is owed to this entry" in refused
    cancel = reverse("manage:payments_cancel", kwargs={"championship_slug": slug})
    assert "Tick the box" in client.post(cancel, {}, follow=True).text
    assert Championship.objects.get(pk=norway.championship.pk).cancelled_at is None
    client.post(cancel, {"confirm": "yes"})
    assert Championship.objects.get(pk=norway.championship.pk).cancelled_at is not None
    public = client.get(norway.championship.get_absolute_url()).text
    assert "This championship is cancelled." in public
