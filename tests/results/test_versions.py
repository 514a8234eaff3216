"""Every change a results page, the projector or the API shows moves the round's version.

Pages and API clients poll with the ETag of the version they show; an unchanged
version is answered 304 and a fragment is kept per version. A change that leaves
the version alone would stay unseen: each test polls with the ETag from before
the change and gets the change, not a 304.
"""

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from championship.models import Seat
from championship.services import championship_update, table_update, tables_create
from control import editing, rounds
from judging.services import seat_set_start
from registration.models import Entry, Person
from registration.services import (
    entry_check_in,
    entry_update_details,
    entry_withdraw,
    person_update,
)
from registration.validation import MemberData
from results.models import Result
from results.services import standings_recompute
from tests import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

T0 = datetime(2026, 1, 1, tzinfo=UTC)
BORN = date(1990, 1, 1)


@pytest.fixture
def final(championship):
    """A rogaland final, not seated: Ada and Cato from Rogaland, Bo from Vestland; 6 tables."""
    individual = championship.categories.get(kind="individual")
    tables_create(championship=championship, count=6)
    for minute, (name, region) in enumerate(
        (("Ada Aase", "Rogaland"), ("Bo Berge", "Vestland"), ("Cato Dahl", "Rogaland"))
    ):
        person = factories.person(championship, name=name, region=region, birth_date=BORN)
        factories.entry(
            individual,
            members=[person],
            publish_consent=True,
            registered_at=T0 + timedelta(minutes=minute),
        )
    return individual.rounds.get()


def poll(client, round_, page="results", etag=None):
    """Poll a round's live page ("results": its table; "screen": the projector's board)."""
    headers = {"HTTP_HX_REQUEST": "true"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(f"/{round_.championship.slug}/{page}/{round_.key}/", **headers)


def api_poll(round_, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return APIClient().get(
        f"/api/v1/championships/{round_.championship.slug}/rounds/{round_.key}/results/",
        **headers,
    )


def live(response) -> str:
    """Return a polled table without its print copy."""
    return response.content.decode().split('class="results-print')[0]


def entry(name: str) -> Entry:
    return Entry.objects.get(name=name)


def started(final):
    rounds.round_seat(round_=final)
    (heat,) = rounds.round_start(round_=final)
    return heat


# Seating -----------------------------------------------------------------------------------


def test_seating_a_round_reaches_the_projector_and_the_api(client, final):
    board = poll(client, final, "screen")
    answer = api_poll(final)
    assert "No entries seated yet." in board.text and answer.json()["state"] == "planned"
    rounds.round_seat(round_=final)
    board = poll(client, final, "screen", board["ETag"])
    assert board.status_code == 200
    assert "The entrants are seated: the list appears at the start." in board.text
    answer = api_poll(final, answer["ETag"])
    assert answer.status_code == 200 and answer.json()["state"] == "seated"


def test_seating_again_takes_the_published_seating_off_the_results_page(client, final):
    rounds.round_seat(round_=final)
    rounds.seating_publish(round_=final)
    table = poll(client, final)
    assert "Ada Aase" in live(table) and "waiting" in live(table)
    rounds.round_seat(round_=final, plan=rounds.SeatingPlan(heats=2))
    table = poll(client, final, etag=table["ETag"])
    assert table.status_code == 200
    assert "Ada Aase" not in live(table) and "No results yet." in live(table)


def test_moving_a_seat_gives_the_pages_and_the_api_a_new_version(client, final):
    rounds.round_seat(round_=final)
    table = poll(client, final)
    answer = api_poll(final)
    seat = Seat.objects.get(round=final, entry__name="Ada Aase")
    free = final.championship.tables.get(number=6)
    rounds.seat_move(seat=seat, heat=seat.heat, table=free)
    assert poll(client, final, etag=table["ETag"]).status_code == 200
    moved = api_poll(final, answer["ETag"])
    assert moved.status_code == 200
    assert moved.json()["version"] > answer.json()["version"]


def test_publishing_the_seating_lists_the_entrants_as_waiting(client, final):
    rounds.round_seat(round_=final)
    table = poll(client, final)
    assert "Ada Aase" not in live(table)
    rounds.seating_publish(round_=final)
    table = poll(client, final, etag=table["ETag"])
    assert table.status_code == 200 and "Ada Aase" in live(table)


# The round's clock, advancement and own starts ------------------------------------------------


def test_starting_and_closing_the_round_reach_the_projector_and_the_api(client, final):
    rounds.round_seat(round_=final)
    board = poll(client, final, "screen")
    answer = api_poll(final)
    (heat,) = rounds.round_start(round_=final)
    board = poll(client, final, "screen", board["ETag"])
    assert f'data-started-ms="{int(heat.started_at.timestamp() * 1000)}"' in board.text
    answer = api_poll(final, answer["ETag"])
    assert answer.json()["state"] == "running" and len(answer.json()["rows"]) == 3
    rounds.round_close(round_=final)
    assert 'data-ended-ms=""' not in poll(client, final, "screen", board["ETag"]).text
    assert api_poll(final, answer["ETag"]).json()["state"] == "closed"


def test_setting_the_advancement_reaches_the_results_page(client, final):
    started(final)
    table = poll(client, final)
    assert "Who qualifies is shown" not in live(table)
    rounds.round_set_advance(round_=final, advance="overall", count=2, best_remaining=None)
    table = poll(client, final, etag=table["ETag"])
    assert table.status_code == 200 and "Who qualifies is shown" in live(table)


def test_an_own_start_gives_the_api_a_new_version(final):
    heat = started(final)
    answer = api_poll(final)
    seat = Seat.objects.get(round=final, entry__name="Ada Aase")
    seat_set_start(seat=seat, at=heat.started_at + timedelta(minutes=3))
    assert api_poll(final, answer["ETag"]).status_code == 200


# Entries: names, withdrawals ------------------------------------------------------------------


def rename(name: str, new_name: str) -> None:
    """Correct an individual entrant's name as the organiser's entry page does."""
    person = Person.objects.get(name=name)
    entry_update_details(
        entry=entry(name),
        members=[
            MemberData(
                name=new_name,
                email=person.email,
                birth_date=BORN,
                region=person.region,
                country="NO",
            )
        ],
        publish_consent=True,
    )


def test_a_corrected_entry_name_reaches_the_results_page(client, final):
    started(final)
    table = poll(client, final)
    rename("Ada Aase", "Ada Aasen")
    table = poll(client, final, etag=table["ETag"])
    assert table.status_code == 200 and "Ada Aasen" in live(table)


def test_a_members_corrected_name_reaches_the_api(final):
    started(final)
    answer = api_poll(final)
    person_update(person=Person.objects.get(name="Bo Berge"), name="Bo Bergesen")
    answer = api_poll(final, answer["ETag"])
    assert answer.status_code == 200
    assert ["Bo Bergesen"] in [row["entry"]["members"] for row in answer.json()["rows"]]


def test_a_name_corrected_before_the_start_reaches_the_waiting_list(client, final):
    rounds.round_seat(round_=final)
    rounds.seating_publish(round_=final)
    table = poll(client, final)
    rename("Cato Dahl", "Cato Dahle")
    table = poll(client, final, etag=table["ETag"])
    assert table.status_code == 200 and "Cato Dahle" in live(table)


def test_a_withdrawal_reaches_the_results_page(client, final):
    started(final)
    Result.objects.filter(round=final).update(status="finished", time_ms=40 * 60_000)
    standings_recompute(round_=final)
    answer = api_poll(final)
    assert {row["place"] for row in answer.json()["rows"]} == {1}
    entry_withdraw(entry=entry("Ada Aase"))
    answer = api_poll(final, answer["ETag"])
    places = {row["entry"]["name"]: row["place"] for row in answer.json()["rows"]}
    assert places == {"Ada Aase": None, "Bo Berge": 1, "Cato Dahl": 1}


# What the championship, its categories and rules show with the results -----------------------


def test_a_new_motif_after_the_start_reaches_the_projector(client, final):
    started(final)
    board = poll(client, final, "screen")
    category = final.category
    editing.category_update(
        category=category,
        capacity=category.capacity,
        fee=Decimal(category.fee),
        pieces=category.pieces,
        time_limit_minutes=category.time_limit_minutes,
        puzzle_brand="Ravensburger",
        puzzle_motif="Lysefjorden",
    )
    board = poll(client, final, "screen", board["ETag"])
    assert board.status_code == 200 and 'data-motif="Ravensburger: Lysefjorden"' in board.text


def test_a_rounds_new_time_limit_reaches_the_projectors_clock(client, final):
    rounds.round_seat(round_=final)
    board = poll(client, final, "screen")
    assert 'data-limit="7200"' in board.text
    editing.round_update(
        round_=final,
        time_limit_minutes=90,
        pieces=final.pieces,
        puzzles=final.puzzles,
        advance=final.advance,
        advance_count=None,
        advance_best_remaining=None,
    )
    board = poll(client, final, "screen", board["ETag"])
    assert board.status_code == 200 and 'data-limit="5400"' in board.text


def test_a_renamed_championship_heads_the_printed_results(client, final):
    started(final)
    table = poll(client, final)
    championship_update(championship=final.championship, name="Rogaland Open 2026")
    table = poll(client, final, etag=table["ETag"])
    assert table.status_code == 200 and "Rogaland Open 2026" in table.text


def test_a_rules_change_marks_the_waiting_entrants_anew(client, final):
    rounds.round_seat(round_=final)
    rounds.seating_publish(round_=final)
    table = poll(client, final)
    assert "unofficial" in live(table)  # Bo lives in Vestland
    editing.rules_set(championship=final.championship, overrides={"eligibility": "everyone"})
    table = poll(client, final, etag=table["ETag"])
    assert table.status_code == 200 and "unofficial" not in live(table)


def test_a_change_nothing_shows_keeps_the_version(final):
    """A check-in and a table's label are not on the results pages: pollers get 304."""
    rounds.round_seat(round_=final)
    answer = api_poll(final)
    entry_check_in(entry=entry("Ada Aase"))
    table = final.championship.tables.get(number=1)
    table_update(table=table, label="By the window", seats=1, reserved_for_guests=False)
    assert api_poll(final, answer["ETag"]).status_code == 304
