"""The public pages answer, and the organiser's area is for that championship's organisers."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from championship.models import ChampionshipRole, Seat
from tests import factories

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role


def test_the_start_page_lists_championships(client, championship):
    response = client.get("/")
    assert response.status_code == 200
    assert "Rogalandsmesterskapet 2026" in response.text
    assert f'href="/{championship.slug}/"' in response.text


def test_the_championship_page_shows_categories_schedule_and_entries(client, championship):
    individual = championship.categories.get(kind="individual")
    factories.entry(individual, name="Kari Nordmann", publish_consent=True)
    factories.entry(individual, name="Hemmelig Person", publish_consent=False)
    factories.heat(individual.rounds.get())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(f"/{championship.slug}/")
    assert response.status_code == 200
    text = response.text
    assert "Kari Nordmann" in text
    assert "Hemmelig Person" not in text  # no consent to publication
    assert "Name withheld" in text
    assert "200 NOK" in text  # the rogaland individual fee
    assert "2 of 50" in text
    assert "Revealed at the start" in text


def test_the_motif_stays_hidden_until_a_heat_starts(client, championship):
    individual = championship.categories.get(kind="individual")
    individual.puzzle_motif = "Preikestolen at dawn"
    individual.save()
    heat = factories.heat(individual.rounds.get())
    assert "Preikestolen" not in client.get(f"/{championship.slug}/").text
    heat.started_at, heat.state = factories.START, "running"
    heat.save()
    assert "Preikestolen at dawn" in client.get(f"/{championship.slug}/").text


def test_a_started_category_without_a_brand_or_motif_shows_no_empty_puzzle_line(
    client, championship
):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    individual = championship.categories.get(kind="individual")
    pair = championship.categories.get(kind="pair")
    pair.puzzle_brand = "Ravensburger"
    pair.save()
    for category in (individual, pair):
        heat = factories.heat(category.rounds.get())
        heat.started_at, heat.state = factories.START, "running"
        heat.save()
    text = client.get(f"/{championship.slug}/").text
    cards = {
        name: text[text.index(f"<h3>{name}</h3>") :].split("</li>")[0]
        for name in ("Individual", "Pair", "Team")
    }
    assert "<dt>Puzzle</dt>" not in cards["Individual"]
    assert "Revealed at the start" not in cards["Individual"]
    assert re.search(r'<dt>Puzzle</dt>\s*<dd class="puzzle">Ravensburger</dd>', cards["Pair"])
    # The team's heat has not started: its puzzle is still to come.
    assert "Revealed at the start" in cards["Team"]


def test_an_unknown_championship_is_404(client, db):
    response = client.get("/no-such-championship/")
    assert response.status_code == 404
    assert "nothing at this address" in response.text


def test_health_answers_when_the_database_does(client, db):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.text == "ok\n"


def test_the_organiser_area_sends_anonymous_visitors_to_log_in(client, championship):
    url = f"/{championship.slug}/manage/"
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"


def test_the_organiser_area_refuses_an_organiser_of_another_championship(client, championship):
    other = factories.championship(slug="sm-2026", ruleset="sm")
    client.force_login(factories.role(other, Role.ORGANISER))
    assert client.get(f"/{championship.slug}/manage/").status_code == 403
    assert client.get(f"/{other.slug}/manage/").status_code == 200


def test_the_organiser_area_refuses_a_judge(client, championship, judge):
    client.force_login(judge)
    assert client.get(f"/{championship.slug}/manage/").status_code == 403


def test_the_organiser_area_opens_for_its_organiser(client, championship, organiser):
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(f"/{championship.slug}/manage/")
    assert response.status_code == 200
    assert "Control room" in response.text
    assert "individual-final" in response.text


def test_a_superuser_reaches_every_organiser_area(client, championship):
    client.force_login(factories.user(is_superuser=True, is_staff=True))
    assert client.get(f"/{championship.slug}/manage/").status_code == 200


def test_the_login_page_answers(client, db):
    assert client.get(reverse("login")).status_code == 200


def test_a_page_speaks_the_championships_language_by_default(client, championship):
    response = client.get(f"/{championship.slug}/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.headers["Content-Language"] == "nb"
    assert '<html lang="nb">' in response.text
    assert "Kategorier" in response.text


@pytest.mark.parametrize(
    ("language", "control_room"),
    [("en", "Control room"), ("nb", "Kontrollrom"), ("sv", "Kontrollrum"), ("da", "Kontrolrum")],
)
def test_the_control_room_speaks_the_chosen_language(
    client, championship, organiser, language, control_room
):
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    assert f"<h1>{control_room}</h1>" in client.get(f"/{championship.slug}/manage/").text


def test_the_language_switcher_wins_over_the_championships_language(client, championship):
    response = client.post(
        reverse("set_language"), {"language": "sv", "next": f"/{championship.slug}/"}
    )
    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "sv"
    page = client.get(f"/{championship.slug}/")
    assert '<html lang="sv">' in page.text


@pytest.mark.parametrize("language", ["en", "nb", "sv", "da"])
def test_every_page_offers_the_four_languages(client, championship, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    text = client.get("/").text
    for code in ("en", "nb", "sv", "da"):
        assert f'<option value="{code}" lang="{code}"' in text
    assert f'<html lang="{language}">' in text


def test_times_are_shown_in_the_championships_time_zone(client, championship):
    heat = factories.heat(championship.categories.get(kind="individual").rounds.get())
    heat.started_at, heat.state = factories.START, "running"  # 09:00 UTC
    heat.save()
    assert ">10:00<" in client.get(f"/{championship.slug}/").text  # Oslo, winter time


def test_a_table_code_asks_anonymous_visitors_to_log_in(client, championship):
    table = factories.table(championship)
    response = client.get(f"/t/{table.token}/")
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_a_table_code_shows_a_judge_who_sits_there(client, championship, judge):
    individual = championship.categories.get(kind="individual")
    table = factories.table(championship)
    heat = factories.heat(individual.rounds.get())
    Seat.objects.create(heat=heat, table=table, entry=factories.entry(individual, name="Ola N"))
    client.force_login(judge)
    response = client.get(f"/t/{table.token}/")
    assert response.status_code == 200
    assert "Ola N" in response.text


def test_a_table_code_of_another_championship_is_refused(client, championship):
    other = factories.championship(slug="dm-2026", ruleset="dm")
    table = factories.table(championship)
    client.force_login(factories.role(other, Role.JUDGE))
    assert client.get(f"/t/{table.token}/").status_code == 403


def test_an_unknown_table_code_is_404(client, judge):
    client.force_login(judge)
    assert client.get("/t/not-a-real-token/").status_code == 404
