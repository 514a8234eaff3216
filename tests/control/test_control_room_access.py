"""The control room: who may open its pages and send its actions, and the control page itself."""

import pytest
from django.urls import reverse

from championship.models import ChampionshipRole, Heat, Seat
from championship.services import tables_create
from control import rounds
from tests import factories
from tests.control.control_room import entrants, seated, url
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role


# Permissions ----------------------------------------------------------------------------------


def pages(rm, final):
    """Every organiser page (GET) of the control room, tables and cards."""
    table = factories.table(rm)
    return [
        url("round_control", rm, final),
        url("round_ranking", rm, final),
        url("tables", rm),
        url("table_rotate", rm, number=table.number),
        url("table_qr", rm, number=table.number),
        url("cards", rm, final),
    ]


def actions(rm, final):
    """Every organiser action (POST)."""
    tables_create(championship=rm, count=2)
    entrants(final.category, 1)
    rounds.round_seat(round_=final)
    seat = Seat.objects.get(round=final)
    return [
        url("round_advancement", rm, final),
        url("round_seat", rm, final),
        url("round_publish", rm, final),
        url("round_start", rm, final),
        url("round_close", rm, final),
        url("round_advance", rm, final),
        url("round_ranking", rm, final),
        url("heat_start", rm, final, heat_key="a"),
        url("heat_close", rm, final, heat_key="a"),
        url("seat_move", rm, final, seat=seat.pk),
        url("seat_start", rm, final, seat=seat.pk),
        url("tables", rm),
        url("table_edit", rm, number=1),
        url("table_rotate", rm, number=1),
    ]


def test_anonymous_visitors_are_sent_to_log_in_everywhere(client, rm, final):
    for path in pages(rm, final):
        response = client.get(path)
        assert response.status_code == 302, path
        assert response.url.startswith(reverse("login")), path
    for path in actions(rm, final):
        response = client.post(path)
        assert response.status_code == 302 and response.url.startswith(reverse("login")), path


def test_judges_and_other_championships_organisers_are_refused(client, rm, final):
    judge = factories.role(rm, Role.JUDGE)
    other = factories.role(factories.championship(slug=f"other-{NEXT_YEAR}"), Role.ORGANISER)
    head_judge = factories.role(rm, Role.HEAD_JUDGE)
    for user in (judge, other, head_judge):
        client.force_login(user)
        for path in pages(rm, final):
            assert client.get(path).status_code == 403, path
    paths = actions(rm, final)
    heats_before = list(Heat.objects.values_list("pk", "state"))
    for path in paths:
        assert client.post(path).status_code == 403, path
    assert list(Heat.objects.values_list("pk", "state")) == heats_before


def test_organisers_and_superusers_open_every_page(client, rm, final, organiser):
    for user in (organiser, factories.user(is_superuser=True, is_staff=True)):
        client.force_login(user)
        for path in pages(rm, final):
            assert client.get(path).status_code == 200, path


def test_actions_only_answer_post(org, rm, final):
    assert org.get(url("round_start", rm, final)).status_code == 405
    assert org.get(url("table_edit", rm, number=1)).status_code == 405


def test_an_unknown_round_heat_or_table_is_404(org, rm, final):
    assert org.get(f"/{rm.slug}/manage/rounds/no-such-round/").status_code == 404
    assert org.post(url("heat_start", rm, final, heat_key="zz")).status_code == 404
    assert org.get(url("table_qr", rm, number=99)).status_code == 404


# The control page ------------------------------------------------------------------------------


def test_the_control_page_shows_the_state_and_the_forms(org, rm, final):
    entrants(final.category, 3)
    response = org.get(url("round_control", rm, final))
    page = response.content.decode()
    assert "Planned" in page
    assert "Seat the round" in page and "Save the advancement" in page
    assert "3 entries to seat at 0 tables" in page
    # The random seed is offered before the organiser asks for it.
    assert response.context["seat_form"].initial["seed"] >= 1


def test_the_htmx_poll_gets_only_the_status_region(org, rm, individual, final):
    seated(individual, final)
    response = org.get(url("round_control", rm, final), headers={"HX-Request": "true"})
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="round-status"')
    assert "Seat the round" not in page and "<html" not in page
