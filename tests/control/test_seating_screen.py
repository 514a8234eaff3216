"""The venue screen's seating: the projector's page, with the names the public page shows."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from championship.models import Seat
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from tests import factories

pytestmark = pytest.mark.django_db


def names_in(page: str, row_tag: str) -> list[str]:
    """Return the text of each seat's name on a page, tags stripped, spaces folded."""
    if row_tag == "li":
        # The public page: one list item a seat, after the table's number.
        cells = re.findall(r'<ul class="table-seats">(.*?)</ul>', page, re.S)
        items = [item for cell in cells for item in re.findall(r"<li>(.*?)</li>", cell, re.S)]
    else:
        items = re.findall(r'<span class="name-text">(.*?)</span></span>', page, re.S)
    text = [re.sub(r"<[^>]+>", "", item) for item in items]
    return [" ".join(item.split()) for item in text]


@pytest.fixture
def pairs(championship):
    """A pair final seated in two heats: full consent, one member's consent, none."""
    category = championship.categories.get(key="pair")
    final = category.rounds.get()
    tables_create(championship=championship, count=4)

    def pair(first, second, *, entry_consent, consents):
        members = [
            factories.person(championship, name=first, publish_consent=consents[0]),
            factories.person(championship, name=second, publish_consent=consents[1]),
        ]
        return factories.entry(
            category,
            members=members,
            name=f"{first} og {second}",
            publish_consent=entry_consent,
            represents="NO",
        )

    pair("Kari Lie", "Ola Berg", entry_consent=True, consents=(True, True))
    pair("Åse Økland", "Hemmelig Person", entry_consent=False, consents=(True, False))
    pair("Skjult En", "Skjult To", entry_consent=False, consents=(False, False))
    rounds.round_seat(round_=final, plan=SeatingPlan(order="registration", heats=2))
    return final


def test_the_projectors_seating_shows_the_names_the_public_page_shows(client, championship, pairs):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    slug = championship.slug
    rounds.seating_publish(round_=pairs)
    public = client.get(reverse("control:seating", args=[slug, pairs.key])).text
    projector = client.get(reverse("control:seating_screen", args=[slug, pairs.key]))
    assert projector.status_code == 200
    page = projector.text
    # The projector's own page: dark and large (screen.css), paged (paging.js), no site header.
    assert 'class="screen seating-screen"' in page and "results/paging.js" in page
    assert "site-header" not in page and "site-header" in public

    shown = names_in(page, "span")
    assert shown == names_in(public, "li")
    assert sorted(shown) == [
        "Kari Lie og Ola Berg NO",
        "Name withheld",
        "Åse Økland + Name withheld",
    ]
    for hidden in ("Hemmelig", "Skjult", "Åse Økland og"):
        assert hidden not in page and hidden not in public
    # A row a seat, with its table and, the round having two heats, its heat.
    rows = re.findall(r'<li class="row[^"]*">.*?</li>', page, re.S)
    assert len(rows) == 3
    seats = Seat.objects.filter(round=pairs).order_by("heat__order", "table__number", "position")
    assert [
        (
            int(re.search(r'<span class="table">(\d+)', row).group(1)),
            re.search(r'<span class="heat">(.*?)</span>', row).group(1),
        )
        for row in rows
    ] == [(seat.table.number, seat.heat.label) for seat in seats]
    assert {seat.heat.label for seat in seats} == {"Heat A", "Heat B"}


def test_an_unpublished_seating_is_not_shown_on_the_projector(client, championship, pairs):
    page = client.get(reverse("control:seating_screen", args=[championship.slug, pairs.key]))
    assert page.status_code == 200
    # The championship's language (nb) for everyone in the hall.
    assert "Bordplasseringen for denne runden er ikke publisert ennå." in page.text
    assert "Kari Lie" not in page.text and 'class="row"' not in page.text


def test_an_unknown_round_is_not_found(client, championship):
    url = reverse("control:seating_screen", args=[championship.slug, "nope"])
    assert client.get(url).status_code == 404
