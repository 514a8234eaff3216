"""The venue's tables in the control room: adding, editing, groups, a second seat, tokens, QR."""

import pytest

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from tests import factories
from tests.control.control_room import entrants, said, seats_of, url

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role


# Tables ----------------------------------------------------------------------------------------


def test_adding_tables(org, rm):
    response = org.post(url("tables", rm), {"count": "3", "seats": "2"}, follow=True)
    assert said(response) == ["3 tables added (1–3)."]
    response = org.post(url("tables", rm), {"count": "1", "seats": "1"}, follow=True)
    assert said(response) == ["1 table added (4)."]
    assert list(rm.tables.values_list("number", "seats")) == [(1, 2), (2, 2), (3, 2), (4, 1)]
    page = response.content.decode()
    token = rm.tables.get(number=1).token
    assert f"…{token[-6:]}" in page and token not in page


def test_adding_tables_refuses_bad_numbers(org, rm):
    for data in ({"count": "0", "seats": "1"}, {"count": "2", "seats": "3"}, {"count": "x"}):
        response = org.post(url("tables", rm), data)
        assert response.status_code == 200
        assert said(response) == ["No table added: see the form."]
    assert not rm.tables.exists()


def test_editing_a_table(org, rm):
    table = factories.table(rm)
    response = org.post(
        url("table_edit", rm, number=table.number),
        {
            f"table-{table.number}-label": " By the window ",
            f"table-{table.number}-seats": "2",
            f"table-{table.number}-reserved_for_guests": "on",
        },
        follow=True,
    )
    assert said(response) == ["Table 1 is saved."]
    table.refresh_from_db()
    assert (table.label, table.seats, table.reserved_for_guests) == ("By the window", 2, True)
    response = org.post(
        url("table_edit", rm, number=table.number),
        {f"table-{table.number}-label": "x", f"table-{table.number}-seats": "3"},
        follow=True,
    )
    assert "Select a valid choice" in said(response)[0]
    table.refresh_from_db()
    assert (table.label, table.seats) == ("By the window", 2)


def test_tables_added_together_may_share_a_group(org, rm):
    response = org.post(
        url("tables", rm), {"count": "3", "seats": "1", "group": " Row A "}, follow=True
    )
    assert said(response) == ["3 tables added (1–3)."]
    org.post(url("tables", rm), {"count": "2", "seats": "1"})
    assert list(rm.tables.values_list("number", "group")) == [
        (1, "Row A"),
        (2, "Row A"),
        (3, "Row A"),
        (4, ""),
        (5, ""),
    ]
    page = org.get(url("tables", rm)).content.decode()
    assert page.count("<td data-group>Row A</td>") == 3
    assert "Groups: Row A." in page


def test_a_range_of_tables_is_put_in_a_group_and_taken_out_again(org, rm):
    tables_create(championship=rm, count=6)
    response = org.post(
        url("tables_group", rm),
        {"group-first": "3", "group-last": "5", "group-group": "By the window"},
        follow=True,
    )
    assert said(response) == ["3 tables (3–5) are in the group “By the window”."]
    assert list(rm.tables.filter(group="By the window").values_list("number", flat=True)) == [
        3,
        4,
        5,
    ]
    response = org.post(
        url("tables_group", rm),
        {"group-first": "5", "group-last": "9", "group-group": ""},
        follow=True,
    )
    assert said(response) == ["2 tables (5–9) are in no group."]
    assert list(rm.tables.exclude(group="").values_list("number", flat=True)) == [3, 4]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"group-first": "5", "group-last": "3", "group-group": "Row"}, "No table changed"),
        ({"group-first": "0", "group-last": "3", "group-group": "Row"}, "No table changed"),
        ({"group-first": "1", "group-last": "3", "group-group": "x" * 51}, "No table changed"),
        ({"group-first": "1", "group-last": "3", "group-group": "a\x00b"}, "No table changed"),
        ({"group-first": "40", "group-last": "50", "group-group": "Row"}, "no table numbered"),
    ],
)
def test_a_wrong_range_or_group_changes_no_table(org, rm, data, message):
    tables_create(championship=rm, count=3)
    response = org.post(url("tables_group", rm), data, follow=True)
    assert response.status_code == 200
    assert message in " ".join(said(response))
    assert not rm.tables.exclude(group="").exists()


def test_a_tables_group_is_edited_with_the_table(org, rm):
    table = factories.table(rm)
    prefix = f"table-{table.number}"
    org.post(
        url("table_edit", rm, number=table.number),
        {f"{prefix}-label": "", f"{prefix}-seats": "1", f"{prefix}-group": "Row C"},
    )
    table.refresh_from_db()
    assert table.group == "Row C"


def test_a_range_of_another_championships_tables_is_not_touched(org, rm):
    other = factories.championship(slug="other-tables")
    tables_create(championship=other, count=3)
    tables_create(championship=rm, count=1)
    org.post(url("tables_group", rm), {"group-first": "1", "group-last": "3", "group-group": "X"})
    assert not other.tables.exclude(group="").exists()
    assert rm.tables.get().group == "X"


def test_a_table_keeps_its_second_seat_while_someone_sits_there(org, rm, individual, final):
    tables_create(championship=rm, count=2, seats=2)
    entrants(individual, 2)
    rounds.round_seat(round_=final)
    first = rm.tables.get(number=1)
    rounds.seat_move(seat=seats_of(final)[1], heat=final.heats.get(), table=first, position=2)
    response = org.post(url("table_edit", rm, number=1), {"table-1-seats": "1"}, follow=True)
    assert said(response) == ["An entry sits at this table's second seat: move it first."]
    assert rm.tables.get(number=1).seats == 2


def test_rotating_a_token_asks_first_then_the_old_code_stops_working(org, client, rm):
    table = factories.table(rm)
    old = table.token
    page = org.get(url("table_rotate", rm, number=1)).content.decode()
    assert "stops working at once" in page
    response = org.post(url("table_rotate", rm, number=1), follow=True)
    assert said(response) == ["Tick the box to confirm the new QR code."]
    table.refresh_from_db()
    assert table.token == old
    response = org.post(url("table_rotate", rm, number=1), {"confirm": "yes"}, follow=True)
    table.refresh_from_db()
    assert table.token != old
    assert said(response)[0].startswith(f"Table 1 has a new QR code (…{table.token[-6:]})")
    judge = factories.role(rm, Role.JUDGE)
    org.force_login(judge)
    assert org.get(f"/t/{old}/").status_code == 404
    assert org.get(f"/t/{table.token}/").status_code == 200


def test_the_qr_png_downloads(org, rm):
    factories.table(rm, number=7)
    response = org.get(url("table_qr", rm, number=7))
    assert response["Content-Type"] == "image/png"
    assert response["Content-Disposition"] == 'attachment; filename="table-7.png"'
    assert response.content.startswith(b"\x89PNG")
