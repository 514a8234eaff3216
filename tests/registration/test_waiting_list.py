"""The waiting list people can see: their place in it, which moves as places are given."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from rest_framework.test import APIClient

from championship.models import Category
from interchange.export import export_document
from registration import services
from tests import factories
from tests.registration.test_services import member, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def full(championship):
    """The individual category with one place: one confirmed entry and three waiting."""
    individual = championship.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    entries = [register(individual, [member(f"P{number}")]) for number in range(4)]
    return individual, entries


def test_the_position_moves_when_someone_ahead_withdraws_or_gets_a_place(full):
    _individual, (confirmed, first, second, third) = full
    assert confirmed.waiting_position() is None
    assert [e.waiting_position() for e in (first, second, third)] == [1, 2, 3]
    services.entry_withdraw(entry=second)
    first.refresh_from_db()
    third.refresh_from_db()
    assert (first.waiting_position(), third.waiting_position()) == (1, 2)
    # The confirmed entry withdraws: the first waiting gets the place, the third moves up.
    services.entry_withdraw(entry=confirmed)
    first.refresh_from_db()
    third.refresh_from_db()
    assert first.waiting_position() is None and first.status == "confirmed"
    assert third.waiting_position() == 1


def test_the_private_page_shows_the_position(client, championship):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    individual = championship.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    register(individual, [member("First")])
    mail.outbox.clear()
    waiting = register(individual, [member("Second")], language="en")
    page = client.get(reverse("results:entry_page", args=[championship.slug, waiting.manage_token]))
    assert '<strong class="waiting-position">number 1 in line</strong>' in page.content.decode()
    services.entry_withdraw(entry=waiting)
    page = client.get(reverse("results:entry_page", args=[championship.slug, waiting.manage_token]))
    assert "waiting-position" not in page.content.decode()


def test_the_waiting_list_mail_gives_the_position(championship, django_capture_on_commit_callbacks):
    individual = championship.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    register(individual, [member("First")])
    register(individual, [member("Second")])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        register(individual, [member("Third")], language="en", send_mail=True)
    (message,) = mail.outbox
    assert "You are number 2 on the waiting list." in message.body


def test_the_registration_answer_and_the_export_carry_the_position(championship):
    individual = championship.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1, registration_opens_at=None)
    championship.starts_at = datetime(factories.NEXT_YEAR, 6, 1, 9, tzinfo=UTC)
    championship.save()
    url = reverse(
        "api:entry-register",
        kwargs={"championship_slug": championship.slug, "category_key": individual.key},
    )
    answers = [
        APIClient().post(
            url,
            {
                "members": [
                    {
                        "name": name,
                        "email": f"{name.lower()}@example.org",
                        "birth_date": "1990-01-01",
                        "region": "Rogaland",
                        "years_in_region": 10,
                    }
                ]
            },
            format="json",
        )
        for name in ("Anna", "Bo", "Cara")
    ]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert [a.json()["waiting_position"] for a in answers] == [None, 1, 2]
    document = export_document(championship)
    (competition,) = [c for c in document["competitions"] if c["key"] == individual.key]
    assert [e["waiting_position"] for e in competition["entries"]] == [None, 1, 2]
