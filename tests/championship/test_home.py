"""The home page leads a championship's staff to their screens; every control screen leads back."""

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user


@pytest.fixture
def client(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def rm():
    """Rogaland next year, not listed publicly: the individual final running at tables 1-3."""
    championship = factories.championship(
        slug="rm-home",
        name="RM at home",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
    )
    championship.is_public = False
    championship.save(update_fields=["is_public"])
    tables_create(championship=championship, count=3)
    individual = championship.categories.get(kind="individual")
    for _ in range(3):
        factories.entry(individual)
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    (heat,) = rounds.round_start(round_=final)
    heat.started_at = timezone.now() - timedelta(minutes=5)
    heat.save()
    return championship


def dashboard(championship, kind="individual"):
    round_ = championship.categories.get(kind=kind).rounds.get()
    return reverse(
        "manage:dashboard", kwargs={"championship_slug": championship.slug, "round_key": round_.key}
    )


def control_room(championship):
    return reverse("manage:control_room", kwargs={"championship_slug": championship.slug})


def table_pages(championship):
    return [f'href="/t/{table.token}/"' for table in championship.tables.all()]


def home_as(client, user):
    client.force_login(user)
    return client.get(reverse("home")).text


def test_an_organiser_gets_the_control_room_the_running_rounds_dashboard_and_the_tables(client, rm):
    text = home_as(client, factories.role(rm, Role.ORGANISER))
    assert text.index("Your championships") < text.index("RM at home")
    assert f'href="{control_room(rm)}"' in text
    assert f'href="{dashboard(rm)}"' in text and "Judging: Individual, Final" in text
    assert all(link in text for link in table_pages(rm))
    assert "Organiser" in text


def test_a_head_judge_gets_the_dashboard_and_the_tables_but_no_control_room(client, rm):
    text = home_as(client, factories.role(rm, Role.HEAD_JUDGE))
    assert f'href="{dashboard(rm)}"' in text
    assert f'href="{control_room(rm)}"' not in text
    assert all(link in text for link in table_pages(rm))
    # The other rounds' dashboards are one click further.
    assert f'href="{dashboard(rm, "pair")}"' in text


def test_a_judge_gets_the_tables_only(client, rm):
    text = home_as(client, factories.role(rm, Role.JUDGE))
    assert "Your championships" in text and "Judge" in text
    assert all(link in text for link in table_pages(rm))
    assert f'href="{dashboard(rm)}"' not in text and f'href="{control_room(rm)}"' not in text
    assert '<details class="staff-tables" open>' in text


def test_the_table_pages_are_shown_to_no_one_but_the_championships_staff(client, rm):
    other = factories.championship(slug="elsewhere")
    for visitor in (None, factories.user(), factories.role(other, Role.ORGANISER)):
        client.logout()
        if visitor is not None:
            client.force_login(visitor)
        text = client.get(reverse("home")).text
        assert not any(table.token in text for table in rm.tables.all())
        assert "RM at home" not in text  # not public, and not theirs


def test_a_superuser_sees_every_championship(client, rm):
    admin = factories.user(is_superuser=True, is_staff=True)
    other = factories.championship(slug="other-one", name="Another championship")
    text = home_as(client, admin)
    staff = text[text.index("Your championships") : text.index("<h2>Championships</h2>")]
    assert "RM at home" in staff and "Another championship" in staff
    assert f'href="{control_room(rm)}"' in staff and f'href="{control_room(other)}"' in staff


def test_without_a_running_round_the_dashboard_is_the_seated_one(client):
    championship = factories.championship(slug="quiet")
    tables_create(championship=championship, count=2)
    pairs = championship.categories.get(kind="pair")
    factories.entry(pairs)
    rounds.round_seat(round_=pairs.rounds.get())
    text = home_as(client, factories.role(championship, Role.HEAD_JUDGE))
    assert f'href="{dashboard(championship, "pair")}"' in text
    assert "Judging: Individual" not in text


def test_logging_in_lands_on_your_championships(client, rm):
    factories.role(rm, Role.JUDGE, username="judy")
    response = client.post(
        reverse("login"), {"username": "judy", "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "Your championships" in response.text and "RM at home" in response.text


# Back to the control room ---------------------------------------------------------------------


def screens(championship):
    final = championship.categories.get(kind="individual").rounds.get()
    table = championship.tables.first()
    slug = {"championship_slug": championship.slug}
    return {
        "manage:control_room": reverse("manage:control_room", kwargs=slug),
        "manage:round_control": reverse(
            "manage:round_control", kwargs={**slug, "round_key": final.key}
        ),
        "manage:tables": reverse("manage:tables", kwargs=slug),
        "manage:round_ranking": reverse(
            "manage:round_ranking", kwargs={**slug, "round_key": final.key}
        ),
        "manage:table_rotate": reverse(
            "manage:table_rotate", kwargs={**slug, "number": table.number}
        ),
        "manage:cards": reverse("manage:cards", kwargs={**slug, "round_key": final.key}),
        "control:seating": reverse("control:seating", kwargs={**slug, "round_key": final.key}),
        "manage:entries": reverse("manage:entries", kwargs=slug),
        "manage:checkin": reverse("manage:checkin", kwargs=slug),
        "manage:entries_import": reverse("manage:entries_import", kwargs=slug),
        "manage:dashboard": dashboard(championship),
    }


def test_every_control_room_screen_links_to_the_control_room_and_the_public_page(client, rm):
    client.force_login(factories.role(rm, Role.ORGANISER))
    public = f'href="{rm.get_absolute_url()}"'
    for name, url in screens(rm).items():
        text = client.get(url).text
        nav = text[text.index('class="meta manage-nav"') :]
        nav = nav[: nav.index("</nav>")]
        assert public in nav, name
        if name != "manage:control_room":
            assert f'href="{control_room(rm)}"' in nav, name


def test_a_head_judge_on_the_dashboard_is_not_sent_to_a_control_room_they_cannot_open(client, rm):
    client.force_login(factories.role(rm, Role.HEAD_JUDGE))
    text = client.get(dashboard(rm)).text
    assert f'href="{control_room(rm)}"' not in text
    assert f'href="{rm.get_absolute_url()}"' in text


def test_the_public_seating_links_to_the_control_room_for_organisers_only(client, rm):
    url = screens(rm)["control:seating"]
    assert f'href="{control_room(rm)}"' not in client.get(url).text
    client.force_login(factories.role(rm, Role.JUDGE))
    assert f'href="{control_room(rm)}"' not in client.get(url).text
