"""Table cards speak the championship's language, whatever the organiser's."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.urls import reverse

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db


@pytest.fixture
def sm_prelim(db):
    """An sm championship whose individual preliminary round is seated at two tables."""
    sm = factories.championship(
        slug=f"sm-{NEXT_YEAR}", ruleset="sm", starts_at=datetime(NEXT_YEAR, 5, 8, 8, tzinfo=UTC)
    )
    individual = sm.categories.get(kind="individual")
    tables_create(championship=sm, count=2)
    for name in ("Anna Andersson", "Bo Berg"):
        factories.entry(
            individual,
            members=[factories.person(sm, name=name, citizenship=["SE"])],
            name=name,
            checked_in_at=datetime(NEXT_YEAR, 5, 8, 7, tzinfo=UTC),
        )
    prelim = individual.rounds.get(stage="prelim")
    rounds.round_seat(round_=prelim)
    return prelim


def test_an_english_speaking_organiser_prints_an_sm_championships_cards_in_swedish(
    client, sm_prelim
):
    championship = sm_prelim.championship
    client.force_login(factories.role(championship, ChampionshipRole.Role.ORGANISER))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(
        reverse(
            "manage:cards",
            kwargs={"championship_slug": championship.slug, "round_key": sm_prelim.key},
        )
    )
    assert response.status_code == 200
    text = response.content.decode()
    toolbar, sheet = text.split('<div class="table-card-sheet', 1)
    # The organiser's toolbar stays in English…
    assert "<h1>Table cards</h1>" in toolbar and ">Print<" in toolbar
    assert "The cards are in the championship’s language: Swedish." in toolbar
    # …the cards are in Swedish, the championship's language.
    assert 'lang="sv"' in sheet.split(">", 1)[0]
    assert sheet.count('class="table-card"') == 2
    assert "<span>Bord</span>" in sheet and "<span>Table</span>" not in sheet
    assert "Individuell · Inledande omgång · Heat A" in sheet
    assert "Domare: skanna för att registrera" in sheet and "Judges:" not in sheet
    assert 'aria-label="QR-kod för bord 1"' in sheet
    assert "Anna Andersson" in sheet and "Bo Berg" in sheet


def test_a_norwegian_championships_cards_are_in_norwegian_for_a_swedish_organiser(client):
    rm = factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    individual = rm.categories.get(kind="individual")
    tables_create(championship=rm, count=1)
    factories.entry(individual, name="Kari Nordmann")
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    client.force_login(factories.role(rm, ChampionshipRole.Role.ORGANISER))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    text = client.get(
        reverse("manage:cards", kwargs={"championship_slug": rm.slug, "round_key": final.key})
    ).content.decode()
    toolbar, sheet = text.split('<div class="table-card-sheet', 1)
    assert "<h1>Bordskort</h1>" in toolbar and ">Skriv ut<" in toolbar
    assert 'lang="nb"' in sheet.split(">", 1)[0]
    assert "Individuell · Finale" in sheet
    assert "Dommere: skann for å registrere" in sheet and "Domare" not in sheet
