"""The country an entry represents, where its table is: the table cards, the public seating and
the judge's table page (the results, the projector, CSV and API have their own tests)."""

import pytest
from django.urls import reverse

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from tests import factories

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role


@pytest.fixture
def seated(rm, individual, final):
    """Three seated entries: Norway, the neutral flag, and one that represents nothing."""
    tables_create(championship=rm, count=3)
    entries = [
        factories.entry(individual, name="Kari Lie", represents="NO", publish_consent=True),
        factories.entry(individual, name="Ana Ruiz", represents="neutral", publish_consent=True),
        factories.entry(individual, name="Ola Berg", publish_consent=True),
    ]
    rounds.round_seat(round_=final)
    return entries


def test_the_table_cards_show_the_country(org, rm, final, seated):
    page = org.get(
        reverse("manage:cards", kwargs={"championship_slug": rm.slug, "round_key": final.key})
    ).content.decode()
    # Printed in the championship's language (rm: Norwegian).
    assert 'Kari Lie <abbr class="represents" title="Norge">NO</abbr>' in page
    assert 'Ana Ruiz <span class="represents represents-neutral">Nøytralt flagg</span>' in page
    assert page.count('class="represents') == 2


def test_the_public_seating_shows_the_country_of_a_published_name(english, rm, final, seated):
    rounds.seating_publish(round_=final)
    url = reverse("control:seating", kwargs={"championship_slug": rm.slug, "round_key": final.key})
    page = english.get(url).content.decode()
    assert 'Kari Lie <abbr class="represents" title="Norway">NO</abbr>' in page
    # Without consent, neither the name nor the country is shown.
    seated[0].publish_consent = False
    seated[0].save(update_fields=["publish_consent"])
    for person in seated[0].members.all():
        person.publish_consent = False
        person.save(update_fields=["publish_consent"])
    page = english.get(url).content.decode()
    assert "Kari Lie" not in page and 'title="Norway"' not in page


def test_the_judges_table_page_shows_the_country(english, rm, final, seated):
    english.force_login(factories.role(rm, Role.JUDGE))
    url = reverse("judging:table", kwargs={"token": final.seats.get(entry=seated[0]).table.token})
    mark = b'Kari Lie <abbr class="represents" title="Norway">NO</abbr>'
    # Before the start, in the list of who sits here; then over the entry's buttons.
    assert mark in english.get(url).content
    rounds.round_start(round_=final)
    page = english.get(url).content
    assert b'<p class="entry-name">' + mark + b"</p>" in page
