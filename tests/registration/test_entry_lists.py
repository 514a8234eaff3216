"""Public entry lists show only consented, published fields, and mark unofficial entries."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_sm_publishes_name_home_town_and_age_and_marks_guests(client):
    sm = factories.championship(slug="sm-2026", ruleset="sm")  # 14 March 2026
    individual = sm.categories.get(kind="individual")
    swede = factories.person(
        sm,
        name="Sven Svensson",
        city="Malmö",
        country="SE",
        citizenship=["SE"],
        birth_date=date(1990, 3, 15),
        email="sven@example.se",
    )
    guest = factories.person(
        sm,
        name="Ola Nordmann",
        city="Bergen",
        country="NO",
        citizenship=["NO"],
        birth_date=date(1980, 1, 1),
    )
    factories.entry(individual, members=[swede], name=swede.name, publish_consent=True)
    factories.entry(individual, members=[guest], name=guest.name, publish_consent=True)
    text = client.get(f"/{sm.slug}/").text
    assert "Sven Svensson" in text and "Malmö" in text
    assert "35 y" in text  # turns 36 the day after the championship
    assert "1990" not in text and "sven@example.se" not in text
    assert text.count("unofficial</span>") == 1
    ola = text.index("Ola Nordmann")
    assert "unofficial" in text[ola : ola + 300]


def test_dm_publishes_nationality_not_home_town(client):
    dm = factories.championship(slug="dm-2026", ruleset="dm")
    individual = dm.categories.get(kind="individual")
    person = factories.person(dm, name="Mette Hansen", city="Odense", country="DK")
    factories.entry(individual, members=[person], name=person.name, publish_consent=True)
    text = client.get(f"/{dm.slug}/").text
    assert "Mette Hansen" in text and "DK" in text
    assert "Odense" not in text


def test_without_consent_nothing_but_the_place_in_the_list(client, championship):
    individual = championship.categories.get(kind="individual")
    person = factories.person(championship, name="Skjult Person", city="Sandnes")
    factories.entry(individual, members=[person], name=person.name, publish_consent=False)
    text = client.get(f"/{championship.slug}/").text
    assert "Skjult Person" not in text and "Sandnes" not in text
    assert "Name withheld" in text


def test_waiting_list_counts_are_shown(client, championship):
    pair = championship.categories.get(kind="pair")
    factories.entry(pair, status="waitlisted")
    factories.entry(pair, status="waitlisted")
    assert "2 waiting" in client.get(f"/{championship.slug}/").text


def test_the_championship_page_takes_the_same_queries_for_5_or_30_entries(client, championship):
    individual = championship.categories.get(kind="individual")

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/{championship.slug}/").status_code == 200
        return len(captured)

    for _ in range(5):
        factories.entry(individual, publish_consent=True)
    few = queries()
    for _ in range(25):
        factories.entry(individual, publish_consent=True)
    assert queries() == few


def test_a_walkover_is_marked_in_the_public_list_without_its_reason(client):
    from datetime import UTC, datetime

    from championship.services import tables_create
    from control import rounds

    sm = factories.championship(slug="sm-2026", ruleset="sm")
    individual = sm.categories.get(kind="individual")
    tables_create(championship=sm, count=4)
    for name, checked_in_at in (
        ("Sven Svensson", datetime(2026, 3, 14, 8, tzinfo=UTC)),
        ("Stina Frånvarande", None),  # no check-in: a walk-over when the round starts
    ):
        factories.entry(
            individual,
            members=[factories.person(sm, name=name, citizenship=["SE"])],
            name=name,
            publish_consent=True,
            checked_in_at=checked_in_at,
        )
    prelim = individual.rounds.get(stage="prelim")
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    text = client.get(f"/{sm.slug}/").text
    absent_at = text.index("Stina Frånvarande")
    assert "Walk-over</span>" in text[absent_at : absent_at + 400]
    assert text.count("Walk-over</span>") == 1
    assert "No check-in" not in text
