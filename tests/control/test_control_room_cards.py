"""Table cards and the public seating, as the control room links to them."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from championship.models import Table
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from registration.models import Entry
from tests.control.control_room import MARCH_14, entrants, seats_of, url
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db


# Table cards and public seating ----------------------------------------------------------------


def test_the_cards_list_every_seated_table_with_names(org, rm, individual, final):
    tables_create(championship=rm, count=3, seats=2)
    made = entrants(individual, 5)
    rounds.round_seat(round_=final, plan=SeatingPlan(heats=2, order="registration"))
    Table.objects.filter(number=1).update(label="Stage")
    response = org.get(url("cards", rm, final))
    cards = response.context["cards"]
    seated_tables = {(s.heat.key, s.table.number) for s in seats_of(final)}
    assert {(card["heat"].key, card["table"].number) for card in cards} == seated_tables
    page = response.content.decode()
    assert page.count('class="table-card"') == len(seated_tables)
    assert page.count("<svg") == len(seated_tables)
    for entry in made:
        assert entry.name in page
    assert 'class="table-card-sheet cards-a4"' in page and "Stage" in page
    # Unshared tables carry no A/B mark.
    assert 'class="position"' not in page
    a5 = org.get(url("cards", rm, final) + "?size=a5").content.decode()
    assert 'class="table-card-sheet cards-a5"' in a5
    letter = org.get(url("cards", rm, final) + "?size=letter").content.decode()
    assert 'class="table-card-sheet cards-a4"' in letter


def test_shared_tables_show_both_names_marked_a_and_b(org, rm, individual, final):
    tables_create(championship=rm, count=2, seats=2)
    entrants(individual, 2)
    rounds.round_seat(round_=final)
    first = rm.tables.get(number=1)
    rounds.seat_move(seat=seats_of(final)[1], heat=final.heats.get(), table=first, position=2)
    page = org.get(url("cards", rm, final)).content.decode()
    assert page.count('class="table-card"') == 1
    assert '<span class="position">A</span> Entrant 01' in page
    assert '<span class="position">B</span> Entrant 02' in page


def test_the_public_seating_waits_for_publication_and_withholds_names(
    english, rm, individual, final
):
    tables_create(championship=rm, count=4)
    shown, hidden = entrants(individual, 2)
    Entry.objects.filter(pk=shown.pk).update(publish_consent=True)
    shown.members.update(publish_consent=True)  # consent is each member's
    rounds.round_seat(
        round_=final,
        plan=SeatingPlan(
            order="registration", scheduled_starts=[datetime(NEXT_YEAR, 3, 14, 9, 30, tzinfo=UTC)]
        ),
    )
    path = reverse("control:seating", args=[rm.slug, final.key])
    response = english.get(path)
    assert response.status_code == 200
    page = response.content.decode()
    assert "not published yet" in page and shown.name not in page
    rounds.seating_publish(round_=final)
    page = english.get(path).content.decode()
    assert shown.name in page and hidden.name not in page
    assert "Name withheld" in page
    assert f"Starts {MARCH_14} 14 Mar 10:30 (Norwegian time)" in page


def test_the_control_room_links_to_the_new_pages(org, rm, final):
    page = org.get(
        reverse("manage:control_room", kwargs={"championship_slug": rm.slug})
    ).content.decode()
    assert url("round_control", rm, final) in page
    assert url("cards", rm, final) in page
    assert url("tables", rm) in page
