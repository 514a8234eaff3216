"""The registration page, its live officiality check, and the private manage page."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone

from championship.models import Category
from registration.models import Entry, Person
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def future(db):
    """A rogaland championship far enough ahead that registration is open."""
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


def member_data(index, *, name, email="", birth="1990-05-01", region="Rogaland", **extra):
    prefix = f"members-{index}-"
    data = {
        f"{prefix}name": name,
        f"{prefix}email": email,
        f"{prefix}birth_date": birth,
        f"{prefix}city": "Stavanger",
        f"{prefix}country": "NO",
        f"{prefix}citizenship": "NO",
        f"{prefix}region": region,
        f"{prefix}years_in_region": "",
    }
    data.update({f"{prefix}{key}": value for key, value in extra.items()})
    return data


def management(total, initial=0):
    return {
        "members-TOTAL_FORMS": str(total),
        "members-INITIAL_FORMS": str(initial),
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "1000",
    }


def url(championship, category, suffix=""):
    return f"/{championship.slug}/register/{category}/{suffix}"


@pytest.mark.parametrize(("category", "blocks"), [("individual", 1), ("pair", 2), ("team", 4)])
def test_the_page_has_one_block_per_member(client, future, category, blocks):
    response = client.get(url(future, category))
    assert response.status_code == 200
    assert response.text.count('<fieldset class="member card">') == blocks
    assert "Where do you live?" in response.text  # rogaland asks for the region
    assert "200 NOK" in response.text or category != "individual"


def test_an_unknown_category_is_404(client, future):
    assert client.get(url(future, "quartet")).status_code == 404


def test_registering_confirms_and_sends_the_manage_link(
    client, future, django_capture_on_commit_callbacks
):
    data = {
        **management(1),
        **member_data(0, name="Kari Nordmann", email="kari@example.org", publish_consent="on"),
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(future, "individual"), data)
    entry = Entry.objects.get()
    assert response.status_code == 302
    assert response.url == f"/{future.slug}/entries/{entry.manage_token}/"
    assert entry.status == "confirmed" and entry.publish_consent
    assert entry.language == "en"
    (message,) = mail.outbox
    assert entry.manage_token in message.body
    page = client.get(response.url)
    assert "Your entry is confirmed" in page.text
    assert "Kari Nordmann" in page.text


def test_bad_input_shows_the_errors_and_saves_nothing(client, future):
    data = {**management(1), **member_data(0, name="", email="not-an-email")}
    response = client.post(url(future, "individual"), data)
    assert response.status_code == 200
    assert "This field is required." in response.text
    assert "Enter a valid email address." in response.text
    assert not Entry.objects.exists() and not Person.objects.exists()


def test_a_young_member_without_an_adult_is_told_to_name_one(client, future):
    data = {
        **management(2),
        **member_data(0, name="Mor", email="mor@example.org"),
        **member_data(1, name="Barn", birth=f"{NEXT_YEAR - 9}-01-01"),
    }
    response = client.post(url(future, "pair"), data)
    assert response.status_code == 200
    assert "name the accompanying adult" in response.text
    assert not Entry.objects.exists()


def test_the_check_tells_a_registrant_outside_rogaland_the_entry_is_unofficial(client, future):
    data = {**management(1), **member_data(0, name="Bergenser", region="Vestland")}
    response = client.post(url(future, "individual", "check/"), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="officiality"')
    assert "unofficial" in response.text
    assert "does not live in Rogaland" in response.text


def test_the_check_tells_an_official_entry_why(client, future):
    data = {**management(1), **member_data(0, name="Stavangerkar")}
    response = client.post(url(future, "individual", "check/"), data, HTTP_HX_REQUEST="true")
    assert "The entry will be official." in response.text
    assert "lives in Rogaland" in response.text


def test_a_full_category_offers_the_waiting_list(client, future):
    individual = future.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    factories.entry(individual)
    response = client.get(url(future, "individual"))
    assert "Join the waiting list" in response.text
    data = {**management(1), **member_data(0, name="Sist", email="sist@example.org")}
    client.post(url(future, "individual"), data)
    assert Entry.objects.get(name="Sist").status == "waitlisted"


def test_a_closed_category_says_so_and_takes_nothing(client, championship):
    response = client.get(url(championship, "individual"))  # started in 2026: closed
    assert "Registration for this category has closed." in response.text
    data = {**management(1), **member_data(0, name="Sein", email="sein@example.org")}
    response = client.post(url(championship, "individual"), data)
    assert "has closed" in response.text
    assert not Entry.objects.exists()


def test_the_manage_page_corrects_details(client, future):
    individual = future.categories.get(kind="individual")
    person = factories.person(future, name="Old Name", email="me@example.org", region="Rogaland")
    entry = factories.entry(individual, members=[person])
    data = {**management(1, initial=1), **member_data(0, name="New Name", email="me@example.org")}
    response = client.post(f"/{future.slug}/entries/{entry.manage_token}/", data)
    assert response.status_code == 302
    person.refresh_from_db()
    entry.refresh_from_db()
    assert (person.name, entry.name) == ("New Name", "New Name")


def test_withdrawing_needs_the_tick_and_then_promotes_the_waiting_list(
    client, future, django_capture_on_commit_callbacks
):
    individual = future.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    first = factories.entry(individual, status="confirmed", contact_email="a@example.org")
    waiting = factories.entry(individual, status="waitlisted", contact_email="b@example.org")
    withdraw = f"/{future.slug}/entries/{first.manage_token}/withdraw/"
    client.post(withdraw, {})
    first.refresh_from_db()
    assert first.status == "confirmed"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(withdraw, {"confirm": "yes"})
    assert response.status_code == 302
    first.refresh_from_db()
    waiting.refresh_from_db()
    assert (first.status, waiting.status) == ("withdrawn", "confirmed")
    assert {m.to[0] for m in mail.outbox} == {"a@example.org", "b@example.org"}


def test_a_wrong_manage_link_is_404_with_a_clear_message(client, future):
    response = client.get(f"/{future.slug}/entries/not-a-token/")
    assert response.status_code == 404


def test_the_manage_page_shows_the_table_once_published_and_the_result_once_confirmed(
    client, future
):
    from django.utils import timezone

    from championship.services import tables_create
    from control import rounds
    from results.models import Result
    from results.services import standings_recompute

    individual = future.categories.get(kind="individual")
    entry = factories.entry(individual, name="Min Påmelding")
    final = individual.rounds.get()
    tables_create(championship=future, count=2)
    rounds.round_seat(round_=final)
    page = f"/{future.slug}/entries/{entry.manage_token}/"
    assert "once the seating is published" in client.get(page).text
    rounds.seating_publish(round_=final)
    text = client.get(page).text
    assert "Table 1" in text and "entry-clock" not in text
    rounds.round_start(round_=final)
    assert "entry-clock" in client.get(page).text
    result = Result.objects.get(entry=entry)
    result.status, result.time_ms = "finished", 41 * 60_000
    result.save()
    standings_recompute(round_=final)
    assert "41:00" not in client.get(page).text  # not confirmed yet
    Result.objects.filter(pk=result.pk).update(confirmed_at=timezone.now())
    standings_recompute(round_=final)
    live = client.get(page, HTTP_HX_REQUEST="true")
    assert live.text.lstrip().startswith('<div id="entry-live"')
    assert "41:00" in live.text and "place 1" in live.text


def test_the_page_shows_rogalands_deadline_when_the_organisers_is_later(client, future):
    future.registration_deadline = future.starts_at - timedelta(days=1)
    future.save()
    response = client.get(url(future, "individual"))
    # Five days before the start (14 March, 10:00 in Oslo), not the organiser's day.
    assert f'<time datetime="{NEXT_YEAR}-03-09T10:00:00+01:00">' in response.text


def test_the_championship_page_says_registration_has_closed_under_rogalands_rule(client, db):
    soon = factories.championship(slug="rm-soon", starts_at=timezone.now() + timedelta(days=4))
    soon.registration_deadline = timezone.now() + timedelta(days=2)
    soon.save()
    response = client.get(f"/{soon.slug}/")
    assert response.text.count("Registration has closed.") == 3


@pytest.fixture
def sm_officials_only(db):
    """An sm championship, open for registration, that takes no entries hors concours."""
    return factories.championship(
        slug=f"sm-{NEXT_YEAR}",
        ruleset="sm",
        starts_at=datetime(NEXT_YEAR, 5, 1, 9, tzinfo=UTC),
        rule_overrides={"unofficial_allowed": False},
    )


def sm_member(index, *, name, citizenship, **extra):
    data = member_data(index, name=name, citizenship=citizenship, **extra)
    del data[f"members-{index}-region"], data[f"members-{index}-years_in_region"]
    return data


def test_the_check_says_an_entry_that_would_be_unofficial_will_be_refused(
    client, sm_officials_only
):
    data = {**management(1), **sm_member(0, name="Ola Nordmann", citizenship="NO")}
    response = client.post(
        url(sm_officials_only, "individual", "check/"), data, HTTP_HX_REQUEST="true"
    )
    assert 'class="officiality refused"' in response.text
    assert "The entry will be refused: this championship takes official entries only." in (
        response.text
    )
    assert "Ola Nordmann: is not a citizen of Sweden" in response.text
    assert "unofficial" not in response.text


def test_the_form_refuses_an_entry_that_would_be_unofficial_with_the_reason(
    client, sm_officials_only
):
    data = {
        **management(1),
        **sm_member(0, name="Ola Nordmann", email="ola@example.org", citizenship="NO"),
    }
    response = client.post(url(sm_officials_only, "individual"), data)
    assert response.status_code == 200
    assert "Ola Nordmann: is not a citizen of Sweden, so the entry cannot be official." in (
        response.text
    )
    assert "This championship takes official entries only" in response.text
    assert not Entry.objects.exists()
    data = {
        **management(1),
        **sm_member(0, name="Sven Svensson", email="sven@example.org", citizenship="SE"),
    }
    assert client.post(url(sm_officials_only, "individual"), data).status_code == 302


def test_the_dm_form_says_each_member_needs_an_email_or_a_birth_date(client):
    dm = factories.championship(
        slug=f"dm-{NEXT_YEAR}", ruleset="dm", starts_at=datetime(NEXT_YEAR, 5, 1, 9, tzinfo=UTC)
    )
    text = client.get(url(dm, "team")).text
    assert text.count("An e-mail address or a birth date is needed for each member") == 4
    rogaland = factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 1, tzinfo=UTC)
    )
    assert "An e-mail address or a birth date" not in client.get(url(rogaland, "team")).text
