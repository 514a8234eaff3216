"""The Payments pages: upload, map a new layout once, review, confirm a suggestion, apply."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from championship.models import ChampionshipRole
from payments.models import Statement
from registration.models import Entry
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client, norway, english):
    client.force_login(factories.role(norway.championship, ChampionshipRole.Role.ORGANISER))
    return client


def url(world, name="payments", **kwargs):
    return reverse(
        f"manage:{name}", kwargs={"championship_slug": world.championship.slug, **kwargs}
    )


def upload(client, world, name):
    data = world.statement(name)
    return client.post(url(world), {"file": SimpleUploadedFile(name, data)})


def test_the_organiser_reviews_confirms_and_applies(organiser, norway):
    answer = upload(organiser, norway, "camt053-nok.xml")
    statement = Statement.objects.get()
    assert answer.url == url(norway, "payments_statement", statement_id=statement.pk)
    page = organiser.get(answer.url).text
    assert page.count('class="state state-matched"') == 2
    assert "Partly paid" in page and "Overpaid" in page
    assert 'name="confirm" value="5"' in page and "It is Siri Lund (200 NOK)" in page
    applied = organiser.post(
        url(norway, "payments_apply", statement_id=statement.pk), {"confirm": "5"}
    )
    assert applied.status_code == 302
    page = organiser.get(applied.url).text
    assert "4 entries became paid" in page
    assert Entry.objects.filter(payment_status="paid").count() == 4
    listing = organiser.get(url(norway)).text
    assert "camt053-nok.xml" in listing and "Not yet" not in listing
    # The same file again: said, and nothing changes.
    again = upload(organiser, norway, "camt053-nok.xml")
    assert "was read before" in organiser.get(again.url).text
    assert Statement.objects.count() == 1


def test_a_refused_file_says_why_beside_the_field(organiser, norway):
    page = upload(organiser, norway, "camt054-sek.xml").text
    assert "This statement is in SEK, and the championship takes NOK" in page
    assert not Statement.objects.exists()


def test_a_new_csv_layout_is_mapped_once(organiser, norway):
    answer = upload(organiser, norway, "other-bank.csv")
    assert "/payments/map/" in answer.url
    page = organiser.get(answer.url).text
    assert "<th>Beløp inn</th>" in page
    refused = organiser.post(answer.url, {"date": "Bokført", "text": "Tekst fra betaler"})
    assert refused.status_code == 200 and Statement.objects.count() == 0
    read = organiser.post(
        answer.url,
        {
            "date": "Bokført",
            "amount": "Beløp inn",
            "text": "Tekst fra betaler",
            "decimal_comma": "on",
        },
    )
    statement = Statement.objects.get()
    assert read.url == url(norway, "payments_statement", statement_id=statement.pk)
    assert statement.lines.get().entry == norway.entries["kari"]
    # The next file with these columns goes straight to its review.
    Statement.objects.all().delete()
    assert "/payments/map/" not in upload(organiser, norway, "other-bank.csv").url


@pytest.mark.parametrize("token", ["x" * 300, "%00", "not-a-token"])
def test_a_mapping_address_without_an_uploads_token_is_not_found_without_a_cache_lookup(
    organiser, norway, token, monkeypatch
):
    from payments import views

    looked_up = []
    monkeypatch.setattr(views.cache, "get", lambda key, *a, **k: looked_up.append(key))
    answer = organiser.get(f"/{norway.championship.slug}/manage/payments/map/{token}/")
    assert answer.status_code == 404
    assert looked_up == []
