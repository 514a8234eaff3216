"""The admin types and shows dates in the championship's zone, and leaves the clock alone."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from championship import services
from championship.models import Championship, Heat, Round
from championship.services import tables_create
from control import rounds
from tests import factories
from tests.championship.test_admin import change_form_data


def winter_start() -> datetime:
    return datetime(timezone.now().year + 1, 1, 20, 9, 0, tzinfo=UTC)


@pytest.fixture
def organiser(db):
    """A non-superuser organiser's account, as ``create_organiser`` makes it."""
    user, _password = services.organiser_account_set(username="orga")
    return user


@pytest.fixture
def stockholm(organiser):
    return services.championship_set_up(
        by=organiser, preset="sm", name="Pussel-SM", slug="pussel-sm", starts_at=winter_start()
    )


def change_url(model, pk) -> str:
    opts = model._meta
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[pk])


@pytest.mark.django_db
def test_a_start_typed_in_the_admin_is_the_championships_wall_clock(client, organiser, stockholm):
    """10:00 typed for a Stockholm championship is 09:00 UTC in winter, and shows as 10:00."""
    client.force_login(organiser)
    url = change_url(Championship, stockholm.pk)
    page = client.get(url)
    assert page.status_code == 200
    assert 'name="starts_at_1" value="10:00:00"' in page.content.decode()
    data = change_form_data(page)
    day = winter_start().date()
    data["starts_at_0"] = f"{day:%Y-%m-%d}"
    data["starts_at_1"] = "10:00:00"
    data["registration_deadline_0"] = f"{day.replace(day=10):%Y-%m-%d}"
    data["registration_deadline_1"] = "23:59:00"
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    stockholm.refresh_from_db()
    assert stockholm.starts_at == datetime(day.year, 1, 20, 9, 0, tzinfo=UTC)
    assert stockholm.registration_deadline == datetime(day.year, 1, 10, 22, 59, tzinfo=UTC)
    html = client.get(url).content.decode()
    assert 'value="10:00:00"' in html
    assert 'value="23:59:00"' in html
    assert "time zone" in html


@pytest.mark.django_db
def test_a_heats_scheduled_start_is_in_its_championships_zone(client, organiser, stockholm):
    prelim = Round.objects.get(championship=stockholm, key="individual-prelim")
    heat = Heat.objects.create(
        round=prelim, key="a", scheduled_start=datetime(2027, 1, 20, 9, 30, tzinfo=UTC)
    )
    client.force_login(organiser)
    page = client.get(change_url(Heat, heat.pk))
    assert 'name="scheduled_start_1" value="10:30:00"' in page.content.decode()
    changelist = client.get(reverse("admin:championship_heat_changelist"))
    assert "10:30" in changelist.content.decode()


@pytest.mark.django_db
def test_the_add_form_says_it_creates_no_categories(admin_client):
    html = admin_client.get(reverse("admin:championship_championship_add")).content.decode()
    assert "New championship" in html
    assert "time zone" in html


@pytest.mark.django_db
def test_a_superusers_add_form_reads_the_start_in_the_zone_typed_beside_it(admin_client):
    day = winter_start().date()
    response = admin_client.post(
        reverse("admin:championship_championship_add"),
        {
            "name": "Helsinki Open",
            "slug": "helsinki-open",
            "is_public": "on",
            "starts_at_0": f"{day:%Y-%m-%d}",
            "starts_at_1": "10:00:00",
            "timezone": "Europe/Helsinki",
            "ruleset": "neutral",
            "rule_overrides": "{}",
            "currency": "EUR",
            "language": "en",
            "categories-TOTAL_FORMS": "0",
            "categories-INITIAL_FORMS": "0",
            "rounds-TOTAL_FORMS": "0",
            "rounds-INITIAL_FORMS": "0",
            "roles-TOTAL_FORMS": "0",
            "roles-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    created = Championship.objects.get(slug="helsinki-open")
    assert created.starts_at == datetime(day.year, 1, 20, 8, 0, tzinfo=UTC)


# The round's clock is read-only ----------------------------------------------------------


@pytest.mark.django_db
def test_round_state_is_read_only_in_the_admin(client, organiser, stockholm):
    prelim = Round.objects.get(championship=stockholm, key="individual-prelim")
    client.force_login(organiser)
    url = change_url(Round, prelim.pk)
    page = client.get(url)
    assert "state" not in page.context["adminform"].form.fields
    data = change_form_data(page)
    data["state"] = "published"
    assert client.post(url, data).status_code == 302
    prelim.refresh_from_db()
    assert prelim.state == Round.State.PLANNED
    # Nor in the championship's list of rounds.
    page = client.get(change_url(Championship, stockholm.pk))
    for inline in page.context["inline_admin_formsets"]:
        if inline.formset.model is Round:
            assert all("state" not in form.fields for form in inline.formset.forms)


@pytest.mark.django_db
def test_a_heats_start_time_up_and_state_are_read_only(client, organiser):
    championship = factories.championship(slug="running", ruleset="rogaland")
    services.role_grant(championship=championship, user=organiser, role="organiser")
    individual = championship.categories.get(kind="individual")
    tables_create(championship=championship, count=2)
    factories.entry(individual)
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    rounds.round_start(round_=final)
    heat = final.heats.get()
    started = heat.started_at
    client.force_login(organiser)
    url = change_url(Heat, heat.pk)
    page = client.get(url)
    fields = page.context["adminform"].form.fields
    assert {"started_at", "ended_at", "state"}.isdisjoint(fields)
    assert "scheduled_start" in fields
    data = change_form_data(page)
    data.update({"state": "closed", "started_at_0": "2020-01-01", "started_at_1": "00:00:00"})
    assert client.post(url, data).status_code == 302
    heat.refresh_from_db()
    assert (heat.state, heat.started_at) == (Heat.State.RUNNING, started)
    # The heats listed under the round, too.
    page = client.get(change_url(Round, final.pk))
    for inline in page.context["inline_admin_formsets"]:
        if inline.formset.model is Heat:
            for form in inline.formset.forms:
                assert {"started_at", "ended_at", "state"}.isdisjoint(form.fields)
