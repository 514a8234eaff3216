"""Places offered with a deadline, and payment deadlines: what lapses, who is told, what moves."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.utils import timezone

from championship.models import Category, Championship
from registration import deadlines, places, services
from registration.models import Entry
from tests import factories
from tests.registration.test_services import member

pytestmark = pytest.mark.django_db

STARTS = datetime(factories.NEXT_YEAR, 6, 1, 9, tzinfo=UTC)


@pytest.fixture
def rm():
    """A championship next year that offers freed places for 48 hours; one place, 200 kr."""
    championship = factories.championship(starts_at=STARTS, language="en")
    Championship.objects.filter(pk=championship.pk).update(
        offer_hours=48,
        payment_instructions="Vipps {fee} to 123 45, marked {reference}.",
    )
    championship.refresh_from_db()
    individual = Category.objects.get(championship=championship, kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1, fee=Decimal("200"))
    individual.refresh_from_db()
    return individual


def sign_up(category, name, capture, **kwargs):
    with capture(execute=True):
        return services.entry_register(
            category=category,
            members=[member(name)],
            now=STARTS - timedelta(days=60),
            **kwargs,
            publish_consent=True,
            language="en",
        )


def mails_to(name):
    address = f"{name.lower().replace(' ', '.')}@example.org"
    return [message for message in mail.outbox if message.to == [address]]


def test_a_freed_place_is_offered_held_and_accepted(rm, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    first = sign_up(rm, "Anna", capture)
    second = sign_up(rm, "Bo", capture)
    third = sign_up(rm, "Cara", capture)
    mail.outbox.clear()
    before = timezone.now()
    with capture(execute=True):
        services.entry_withdraw(entry=first)
    second.refresh_from_db()
    assert second.status == Entry.Status.OFFERED
    assert (
        before + timedelta(hours=48)
        <= second.offer_expires_at
        <= timezone.now() + timedelta(hours=48)
    )
    (offer,) = mails_to("Bo")
    assert "it is offered to you" in offer.body and second.manage_token in offer.body
    assert f"Vipps 200 NOK to 123 45, marked {second.payment_reference}." in offer.body
    # The offered place is held: the category stays full, a newcomer waits behind Cara.
    assert places.registration_state(rm) == places.FULL
    late = sign_up(rm, "Dan", capture)
    assert late.status == Entry.Status.WAITLISTED
    third.refresh_from_db()
    assert (third.status, third.waiting_position(), late.waiting_position()) == (
        "waitlisted",
        1,
        2,
    )
    with capture(execute=True):
        deadlines.offer_accept(entry=second)
    second.refresh_from_db()
    assert second.status == Entry.Status.CONFIRMED and second.offer_expires_at is None
    with pytest.raises(ValidationError, match="No place is offered"):
        deadlines.offer_accept(entry=second)


def test_an_offer_not_accepted_lapses_and_passes_to_the_next(
    rm, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    first = sign_up(rm, "Anna", capture)
    second = sign_up(rm, "Bo", capture)
    third = sign_up(rm, "Cara", capture)
    with capture(execute=True):
        services.entry_withdraw(entry=first)
    second.refresh_from_db()
    expires = second.offer_expires_at
    mail.outbox.clear()
    # A second before the deadline nothing lapses; at the deadline it does.
    assert deadlines.deadlines_run(expires - timedelta(seconds=1)).offers_lapsed == []
    with capture(execute=True):
        done = deadlines.deadlines_run(expires)
    assert done.offers_lapsed == [second.pk]
    second.refresh_from_db()
    third.refresh_from_db()
    assert (second.status, second.lapsed) == (Entry.Status.WITHDRAWN, Entry.Lapse.OFFER)
    assert third.status == Entry.Status.OFFERED
    (lapsed,) = mails_to("Bo")
    assert "was not accepted in time" in lapsed.body
    (offered,) = mails_to("Cara")
    assert "it is offered to you" in offered.body
    # Too late to accept: refused, and the place stays Cara's offer.
    with pytest.raises(ValidationError, match="No place is offered"):
        deadlines.offer_accept(entry=second)
    with pytest.raises(ValidationError, match="The offer has lapsed"):
        deadlines.offer_accept(entry=third, now=third.offer_expires_at)


def test_close_to_the_event_an_offer_ends_at_the_start(rm, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    Championship.objects.filter(pk=rm.championship_id).update(
        starts_at=timezone.now() + timedelta(hours=10)
    )
    rm.refresh_from_db()
    rm.championship.refresh_from_db()
    first = sign_up(rm, "Anna", capture, enforce_deadline=False)
    second = sign_up(rm, "Bo", capture, enforce_deadline=False)
    services.entry_withdraw(entry=first)
    second.refresh_from_db()
    assert second.offer_expires_at == rm.championship.starts_at


def test_without_offers_the_place_is_given_at_once(rm, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    Championship.objects.filter(pk=rm.championship_id).update(offer_hours=0)
    rm.championship.refresh_from_db()
    first = sign_up(rm, "Anna", capture)
    second = sign_up(rm, "Bo", capture)
    services.entry_withdraw(entry=first)
    second.refresh_from_db()
    assert second.status == Entry.Status.CONFIRMED


def test_the_entrant_accepts_on_their_page(client, rm, django_capture_on_commit_callbacks):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    capture = django_capture_on_commit_callbacks
    first = sign_up(rm, "Anna", capture)
    second = sign_up(rm, "Bo", capture)
    services.entry_withdraw(entry=first)
    url = f"/{rm.championship.slug}/entries/{second.manage_token}/"
    page = client.get(url).content.decode()
    assert "A place is offered to you" in page and "Accept the place" in page
    answer = client.post(url + "accept/", follow=True)
    assert "The place is yours: your entry is confirmed." in answer.content.decode()
    second.refresh_from_db()
    assert second.status == Entry.Status.CONFIRMED


# Payment deadlines ------------------------------------------------------------------------


@pytest.fixture
def pay(rm):
    """Entries pay within 72 hours of getting their place."""
    Championship.objects.filter(pk=rm.championship_id).update(payment_hours=72)
    rm.championship.refresh_from_db()
    return rm


def test_a_confirmed_entry_must_pay_within_the_hours_and_is_reminded_once(
    pay, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    anna = sign_up(pay, "Anna", capture)
    assert anna.payment_due_at == anna.confirmed_at + timedelta(hours=72)
    mail.outbox.clear()
    due = anna.payment_due_at
    assert deadlines.deadlines_run(due - timedelta(hours=25)).reminded == []
    with capture(execute=True):
        assert deadlines.deadlines_run(due - timedelta(hours=23)).reminded == [anna.pk]
    assert deadlines.deadlines_run(due - timedelta(hours=22)).reminded == []
    (reminder,) = mails_to("Anna")
    assert "is not paid yet" in reminder.body
    # The deadline in the championship's time (Oslo), not the server's.
    local = timezone.localtime(due, pay.championship.tzinfo)
    assert f"Please pay by {local:%-d %B %Y, %H:%M}" in reminder.body
    assert f"Vipps 200 NOK to 123 45, marked {anna.payment_reference}." in reminder.body
    # Past the deadline: overdue, but not released without the organiser (or the setting).
    anna.refresh_from_db()
    assert anna.is_overdue(due) and not anna.is_overdue(due - timedelta(seconds=1))
    assert deadlines.deadlines_run(due + timedelta(hours=1)).released == []
    # Paid: no longer overdue.
    services.entry_set_payment(entry=anna, status=Entry.Payment.PAID, reference="")
    anna.refresh_from_db()
    assert not anna.is_overdue(due + timedelta(hours=1))


def test_the_organiser_releases_an_overdue_entry_and_the_place_is_offered(
    client, pay, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    anna = sign_up(pay, "Anna", capture)
    bo = sign_up(pay, "Bo", capture)
    client.force_login(factories.role(pay.championship, "organiser"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    release = f"/{pay.championship.slug}/manage/entries/{anna.pk}/release/"
    # Not overdue yet: refused, nothing changes.
    client.post(release)
    anna.refresh_from_db()
    assert anna.status == Entry.Status.CONFIRMED
    Entry.objects.filter(pk=anna.pk).update(payment_due_at=timezone.now() - timedelta(hours=1))
    listing = client.get(f"/{pay.championship.slug}/manage/entries/").content.decode()
    assert "overdue since" in listing and "Release the place (not paid in time)" in listing
    mail.outbox.clear()
    with capture(execute=True):
        client.post(release)
    anna.refresh_from_db()
    bo.refresh_from_db()
    assert (anna.status, anna.lapsed) == (Entry.Status.WITHDRAWN, Entry.Lapse.UNPAID)
    assert bo.status == Entry.Status.OFFERED
    assert "was not paid by its deadline" in mails_to("Anna")[0].body
    assert "it is offered to you" in mails_to("Bo")[0].body


def test_the_championship_releases_overdue_entries_by_itself(
    pay, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    Championship.objects.filter(pk=pay.championship_id).update(release_unpaid=True)
    anna = sign_up(pay, "Anna", capture)
    bo = sign_up(pay, "Bo", capture)
    assert deadlines.deadlines_run(anna.payment_due_at - timedelta(seconds=1)).released == []
    with capture(execute=True):
        call_command("registration_deadlines", verbosity=0)  # nothing due now
        done = deadlines.deadlines_run(anna.payment_due_at)
    assert done.released == [anna.pk]
    bo.refresh_from_db()
    assert bo.status == Entry.Status.OFFERED
    # Accepting the offer starts Bo's own 72 hours.
    accepted_at = bo.offer_expires_at - timedelta(hours=1)
    deadlines.offer_accept(entry=bo, now=accepted_at)
    bo.refresh_from_db()
    assert bo.payment_due_at == accepted_at + timedelta(hours=72)


def test_offers_and_payment_deadlines_go_through_the_interchange_format(
    pay, django_capture_on_commit_callbacks
):
    from interchange.export import export_document
    from interchange.format import InterchangeError
    from interchange.write import import_document

    capture = django_capture_on_commit_callbacks
    anna = sign_up(pay, "Anna", capture)
    bo = sign_up(pay, "Bo", capture)
    services.entry_withdraw(entry=anna)
    bo.refresh_from_db()
    document = export_document(pay.championship)
    document["championship"]["slug"] = "imported-offers"
    (competition,) = [c for c in document["competitions"] if c["key"] == pay.key]
    by_id = {entry["id"]: entry for entry in competition["entries"]}
    assert by_id[bo.ref]["status"] == "offered" and by_id[bo.ref]["offer_expires_at"]
    assert document["championship"]["offer_hours"] == 48
    assert document["championship"]["payment_hours"] == 72
    copy = import_document(document)
    imported = Entry.objects.get(category__championship=copy, ref=bo.ref)
    assert imported.status == Entry.Status.OFFERED
    assert imported.offer_expires_at == bo.offer_expires_at
    (copy_of_anna,) = Entry.objects.filter(category__championship=copy, ref=anna.ref)
    assert copy_of_anna.payment_due_at == anna.payment_due_at
    by_id[bo.ref]["offer_expires_at"] = None
    document["championship"]["slug"] = "imported-again"
    with pytest.raises(InterchangeError, match="an offered place needs its deadline"):
        import_document(document)
