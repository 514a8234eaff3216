"""The round control room, the venue's tables, the prior-ranking import and the public seating."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from championship.models import ChampionshipRole, Heat, Round, Seat, Table
from championship.services import tables_create
from control import rounds
from control.rounds import SeatingPlan
from registration.models import Entry
from registration.services import entry_check_in
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
T0 = datetime(NEXT_YEAR, 1, 1, tzinfo=UTC)
# The weekday of 14 March next year, as the pages abbreviate it in English.
MARCH_14 = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][date(NEXT_YEAR, 3, 14).weekday()]


# Fixtures and helpers -------------------------------------------------------------------------


@pytest.fixture
def rm():
    """A rogaland championship next year (Europe/Oslo): one final per category."""
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}",
        name=f"Rogalandsmesterskapet {NEXT_YEAR}",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
    )


@pytest.fixture
def individual(rm):
    return rm.categories.get(kind="individual")


@pytest.fixture
def final(individual):
    return individual.rounds.get()


@pytest.fixture
def organiser(rm):
    return factories.role(rm, Role.ORGANISER)


@pytest.fixture
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def org(english, organiser):
    """A client logged in as an organiser of ``rm``, speaking English."""
    english.force_login(organiser)
    return english


def entrants(category, count, **kwargs):
    """Create ``count`` confirmed, official (Rogaland) entries, in registration order."""
    championship = category.championship
    made = []
    for number in range(count):
        person = factories.person(championship, region="Rogaland", name=f"Entrant {number + 1:02}")
        made.append(
            factories.entry(
                category,
                members=[person],
                registered_at=T0 + timedelta(minutes=number),
                **kwargs,
            )
        )
    return made


def seated(category, round_, count=4, tables=6, **plan):
    tables_create(championship=category.championship, count=tables)
    made = entrants(category, count)
    # Without prior rankings, seeding is registration order (and every preset allows it).
    rounds.round_seat(round_=round_, plan=SeatingPlan(**plan))
    return made


def seats_of(round_):
    return list(
        Seat.objects.filter(round=round_)
        .select_related("table", "heat", "entry")
        .order_by("heat__order", "table__number", "position")
    )


def url(name, championship, round_=None, **kwargs):
    if round_ is not None:
        kwargs["round_key"] = round_.key
    return reverse(f"manage:{name}", kwargs={"championship_slug": championship.slug, **kwargs})


def said(response) -> list[str]:
    """Return the messages the page shows."""
    return [str(message) for message in response.context["messages"]]


def finish_all(round_):
    factories.ran_earlier(round_)
    for minute, result in enumerate(Result.objects.filter(round=round_), start=40):
        result.status, result.time_ms = "finished", minute * 60_000
        result.save()
    standings_recompute(round_=round_)


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


# Seating ---------------------------------------------------------------------------------------


def test_seating_two_heats_with_scheduled_starts_in_the_championship_time_zone(
    org, rm, individual, final
):
    tables_create(championship=rm, count=6)
    entrants(individual, 5)
    response = org.post(
        url("round_seat", rm, final),
        {
            "heats": "2",
            "order": "registration",
            "seed": "",
            "start_1": f"{NEXT_YEAR}-03-14T10:00",
            "start_2": f"{NEXT_YEAR}-03-14T12:30",
            "start_3": f"{NEXT_YEAR}-03-14T15:00",  # beyond the number of heats: ignored
        },
        follow=True,
    )
    assert said(response) == ["The round is seated in 2 heats."]
    heats = list(final.heats.order_by("order"))
    # Europe/Oslo is UTC+1 in March.
    assert [h.scheduled_start for h in heats] == [
        datetime(NEXT_YEAR, 3, 14, 9, 0, tzinfo=UTC),
        datetime(NEXT_YEAR, 3, 14, 11, 30, tzinfo=UTC),
    ]
    assert [h.seats.count() for h in heats] == [3, 2]
    final.refresh_from_db()
    assert final.state == Round.State.SEATED
    page = response.content.decode()
    assert "Heat A" in page and "Heat B" in page and "Entrant 01" in page
    assert f"scheduled {MARCH_14} 14 Mar 10:00" in page


def test_random_seating_takes_a_seed_and_shows_it(org, rm, individual, final):
    tables_create(championship=rm, count=10)
    entrants(individual, 8)
    response = org.post(
        url("round_seat", rm, final), {"heats": "1", "order": "random", "seed": ""}, follow=True
    )
    (message,) = said(response)
    seed = int(message.rsplit(" ", 1)[1].rstrip("."))
    assert f"Last seated at random with seed {seed}." in response.content.decode()
    first = [s.entry_id for s in seats_of(final)]
    # The same seed gives the same order.
    rounds.round_seat(round_=final, plan=SeatingPlan(order="random", seed=seed))
    assert [s.entry_id for s in seats_of(final)] == first


def test_seating_refusals_are_messages_and_change_nothing(org, rm, individual, final):
    tables_create(championship=rm, count=2)
    entrants(individual, 3)
    # More heats than entries.
    response = org.post(url("round_seat", rm, final), {"heats": "4", "order": "seeding"})
    assert response.status_code == 200
    assert "The round is not seated: see the form." in said(response)
    assert "at most 3 heats" in response.content.decode()
    # Too few tables (the service says so).
    response = org.post(url("round_seat", rm, final), {"heats": "1", "order": "seeding"})
    assert any("Not enough tables" in m for m in said(response))
    # An unknown order.
    response = org.post(url("round_seat", rm, final), {"heats": "1", "order": "alphabetical"})
    assert "The round is not seated: see the form." in said(response)
    assert not Seat.objects.exists() and not Heat.objects.exists()
    final.refresh_from_db()
    assert final.state == Round.State.PLANNED


def test_seating_only_the_checked_in(org, rm, individual, final):
    tables_create(championship=rm, count=4)
    here, _away = entrants(individual, 2)
    Entry.objects.filter(pk=here.pk).update(checked_in_at=T0)
    org.post(
        url("round_seat", rm, final), {"heats": "1", "order": "seeding", "checked_in_only": "on"}
    )
    assert [s.entry for s in seats_of(final)] == [here]


def organising(org, ruleset, slug):
    """Return a new championship of ``ruleset`` that the ``org`` client's user organises."""
    championship = factories.championship(
        slug=slug, ruleset=ruleset, starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    user_id = org.session.get("_auth_user_id")
    ChampionshipRole.objects.create(championship=championship, user_id=user_id, role=Role.ORGANISER)
    return championship


def test_sm_seat_form_requires_check_in_and_says_how_many_are_left_out(org):
    sm = organising(org, "sm", f"sm-{NEXT_YEAR}")
    individual = sm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    tables_create(championship=sm, count=6)
    here = entrants(individual, 2, checked_in_at=T0)
    away = entrants(individual, 3)
    page = org.get(url("round_control", sm, prelim)).content.decode()
    assert 'name="checked_in_only"' not in page
    assert "The rules require check-in: only checked-in entries are seated." in page
    assert (
        "3 confirmed entries are not checked in: they are left out, and become walk-overs "
        "when the round starts (the rules require check-in)." in page
    )
    assert "2 entries to seat at 6 tables." in page
    response = org.post(url("round_seat", sm, prelim), {"heats": "1"}, follow=True)
    assert said(response) == ["The round is seated in 1 heat."]
    assert {s.entry for s in seats_of(prelim)} == set(here)
    # A late check-in: the organiser is told to seat the round again.
    entry_check_in(entry=away[0])
    page = org.get(url("round_control", sm, prelim)).content.decode()
    assert "1 checked-in entry is not seated: seat the round again to seat it." in page
    org.post(url("round_seat", sm, prelim), {"heats": "1"})
    assert {s.entry for s in seats_of(prelim)} == {*here, away[0]}


def test_prior_ranking_rules_offer_no_other_order_and_refuse_one_sent(org):
    dm = organising(org, "dm", f"dm-{NEXT_YEAR}")
    individual = dm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    tables_create(championship=dm, count=6)
    entrants(individual, 3)
    page = org.get(url("round_control", dm, prelim)).content.decode()
    assert 'value="random"' not in page and 'value="registration"' not in page
    assert "by prior ranking, then by registration time: no other order is allowed." in page
    # dm's heats are equal: no sizes to give.
    assert 'name="heat_sizes"' not in page
    response = org.post(
        url("round_seat", dm, prelim), {"heats": "1", "order": "random", "seed": "5"}, follow=True
    )
    assert any("no other order is allowed" in message for message in said(response))
    assert not Seat.objects.exists()


def test_rogaland_leaves_the_order_and_heat_sizes_to_the_organiser(org, rm, individual, final):
    tables_create(championship=rm, count=6)
    made = entrants(individual, 5)
    page = org.get(url("round_control", rm, final)).content.decode()
    assert 'value="random"' in page and 'value="registration"' in page
    assert "By prior ranking, then by registration time" in page
    assert 'name="checked_in_only"' in page
    assert (
        "5 confirmed entries are not checked in: they are left out if only checked-in "
        "entries are seated." in page
    )
    assert "Heat sizes (e.g. 20, 14)" in page
    response = org.post(
        url("round_seat", rm, final),
        {"heats": "2", "order": "registration", "heat_sizes": "2, 3"},
        follow=True,
    )
    assert said(response) == ["The round is seated in 2 heats."]
    heat_of = {s.entry_id: s.heat.key for s in seats_of(final)}
    assert [heat_of[e.pk] for e in made] == ["a", "b", "b", "a", "b"]
    # Sizes that are not whole numbers, or that do not add up, are refused with the reason.
    response = org.post(
        url("round_seat", rm, final), {"heats": "2", "order": "registration", "heat_sizes": "3, x"}
    )
    assert "Give the heat sizes as whole numbers separated by commas, e.g. 20, 14." in (
        response.content.decode()
    )
    response = org.post(
        url("round_seat", rm, final), {"heats": "2", "order": "registration", "heat_sizes": "4, 4"}
    )
    assert said(response) == ["The heat sizes add up to 8, but there are 5 entries to seat."]
    # The refused seatings changed nothing.
    assert [h.seats.count() for h in final.heats.order_by("order")] == [2, 3]


def test_moving_a_seat_until_the_seating_is_published(org, rm, individual, final):
    seated(individual, final, count=3, tables=4)
    seat = seats_of(final)[0]
    response = org.post(
        url("seat_move", rm, final, seat=seat.pk),
        {"heat": "a", "table": "4", "position": "1"},
        follow=True,
    )
    assert said(response) == ["Entrant 01 moves to table 4 in Heat A."]
    seat.refresh_from_db()
    assert seat.table.number == 4
    # A taken seat, a missing table, a second seat at a table for one: refused.
    taken = seats_of(final)[0]
    for data, expected in [
        ({"heat": "a", "table": str(taken.table.number), "position": "1"}, "This seat is taken"),
        ({"heat": "a", "table": "99", "position": "1"}, "There is no table 99"),
        ({"heat": "a", "table": "4", "position": "2"}, "only one seat"),
        ({"heat": "zz", "table": "4", "position": "1"}, "no such heat"),
    ]:
        response = org.post(url("seat_move", rm, final, seat=seat.pk), data, follow=True)
        assert any(expected in m for m in said(response)), (data, said(response))
        seat.refresh_from_db()
        assert seat.table.number == 4 and seat.position == 1
    # Asked to, the two entries swap places.
    taken_number, taken_name = taken.table.number, taken.entry.name
    response = org.post(
        url("seat_move", rm, final, seat=seat.pk),
        {"heat": "a", "table": str(taken_number), "position": "1", "swap": "on"},
        follow=True,
    )
    assert said(response) == [
        f"Entrant 01 moves to table {taken_number} in Heat A; {taken_name} takes their place."
    ]
    where = {s.entry.name: s.table.number for s in seats_of(final)}
    assert (where["Entrant 01"], where[taken_name]) == (taken_number, 4)
    # Published: seats no longer move.
    response = org.post(url("round_publish", rm, final), follow=True)
    assert said(response) == ["The seating is published: entrants see their heat and table."]
    response = org.post(
        url("seat_move", rm, final, seat=seat.pk),
        {"heat": "a", "table": "1", "position": "1"},
        follow=True,
    )
    assert said(response) == ["The seating is published: it can no longer change."]
    seat.refresh_from_db()
    assert seat.table.number == taken_number
    # And the page no longer offers the move.
    assert 'name="table"' not in response.content.decode()


def test_publishing_before_seating_is_refused(org, rm, final):
    response = org.post(url("round_publish", rm, final), follow=True)
    assert said(response) == ["Seat the round before publishing its seating."]
    final.refresh_from_db()
    assert final.seating_published_at is None


# The clock -------------------------------------------------------------------------------------


def test_starting_and_closing_one_heat(org, rm, individual, final):
    seated(individual, final, count=4, heats=2)
    response = org.post(url("heat_close", rm, final, heat_key="a"), follow=True)
    assert said(response) == ["This heat has not started."]
    response = org.post(url("heat_start", rm, final, heat_key="a"), follow=True)
    (message,) = said(response)
    assert message.startswith("Heat A started at ")
    heat_a, heat_b = final.heats.order_by("order")
    assert heat_a.state == Heat.State.RUNNING and heat_b.state == Heat.State.SCHEDULED
    page = response.content.decode()
    assert 'class="clock"' in page and "Call time in Heat A" in page and "Start Heat B" in page
    # Starting again is refused and changes nothing.
    started_at = heat_a.started_at
    response = org.post(url("heat_start", rm, final, heat_key="a"), follow=True)
    assert said(response) == ["This heat has already started."]
    heat_a.refresh_from_db()
    assert heat_a.started_at == started_at
    # Closing all is refused while heat B waits.
    response = org.post(url("round_close", rm, final), follow=True)
    assert said(response) == ["A heat of this round has not started yet."]
    response = org.post(url("heat_close", rm, final, heat_key="a"), follow=True)
    assert said(response)[0].startswith("Time is up in Heat A")
    heat_a.refresh_from_db()
    assert heat_a.state == Heat.State.TIME_UP and heat_a.ended_at
    response = org.post(url("heat_close", rm, final, heat_key="a"), follow=True)
    assert said(response) == ["Time is already up in this heat."]


def test_start_all_and_close_all(org, rm, individual, final):
    seated(individual, final, count=4, heats=2)
    response = org.post(url("round_start", rm, final), follow=True)
    assert said(response)[0].startswith("2 heats started at ")
    assert set(final.heats.values_list("state", flat=True)) == {"running"}
    final.refresh_from_db()
    assert final.state == Round.State.RUNNING and final.seating_published_at
    response = org.post(url("round_start", rm, final), follow=True)
    assert said(response) == ["Every heat of this round has already started."]
    response = org.post(url("round_close", rm, final), follow=True)
    assert said(response) == ["Time is up in 2 heats."]
    final.refresh_from_db()
    assert final.state == Round.State.CLOSED
    assert "4 entries have no result yet." in response.content.decode()
    response = org.post(url("round_close", rm, final), follow=True)
    assert said(response) == ["No heat of this round is running."]


def test_starting_an_unseated_round_is_refused(org, rm, final):
    response = org.post(url("round_start", rm, final), follow=True)
    assert said(response) == ["Seat the round before starting it."]


def test_a_later_start_in_the_championship_time_zone(org, rm, individual, final):
    seated(individual, final, count=2)
    seat = seats_of(final)[0]
    response = org.post(url("seat_start", rm, final, seat=seat.pk), {"at": "10:00"}, follow=True)
    assert said(response) == ["The heat has not started yet."]
    started = datetime(NEXT_YEAR, 3, 14, 9, 0, tzinfo=UTC)  # 10:00 in Oslo
    rounds.heat_start(heat=seat.heat, at=started)
    response = org.post(url("seat_start", rm, final, seat=seat.pk), {"at": "10:02:30"}, follow=True)
    assert said(response) == ["Entrant 01 starts at 10:02:30."]
    seat.refresh_from_db()
    assert seat.started_at == started + timedelta(minutes=2, seconds=30)
    assert "own start 10:02:30" in response.content.decode()
    for at, expected in [("09:59", "cannot be before the heat's start"), ("soon", "as a time")]:
        response = org.post(url("seat_start", rm, final, seat=seat.pk), {"at": at}, follow=True)
        assert any(expected in m for m in said(response)), said(response)
    seat.refresh_from_db()
    assert seat.started_at == started + timedelta(minutes=2, seconds=30)


def test_advancing_once_the_results_are_final():
    dm = factories.championship(
        slug=f"dm-{NEXT_YEAR}", ruleset="dm", starts_at=datetime(NEXT_YEAR, 5, 1, tzinfo=UTC)
    )
    individual = dm.categories.get(kind="individual")
    prelim, final = individual.rounds.order_by("order")
    from django.test import Client

    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(dm, Role.ORGANISER))
    response = client.post(
        url("round_advancement", dm, prelim),
        {"advance": "overall", "advance_count": "2"},
        follow=True,
    )
    assert said(response) == ["The advancement is saved."]
    seated(individual, prelim, count=4)
    rounds.round_start(round_=prelim)
    response = client.post(url("round_advance", dm, prelim), follow=True)
    assert said(response) == ["The results are not final yet: 4 entries have no result."]
    rounds.round_close(round_=prelim)
    response = client.post(url("round_advance", dm, prelim), follow=True)
    assert said(response) == ["The results are not final yet: 4 entries have no result."]
    assert not Seat.objects.filter(round=final).exists()
    finish_all(prelim)
    page = client.get(url("round_control", dm, prelim)).content.decode()
    assert "The results are complete but provisional" in page
    assert "Advance the qualified to Final" in page
    # From provisional results only when the organiser says so.
    response = client.post(url("round_advance", dm, prelim), follow=True)
    assert said(response) == [
        "The results are provisional: sign them off first, or confirm that the qualified "
        "advance from provisional results."
    ]
    assert not Seat.objects.filter(round=final).exists()
    response = client.post(url("round_advance", dm, prelim), {"provisional": "yes"}, follow=True)
    assert said(response) == ["The qualified are seated in Final."]
    assert Seat.objects.filter(round=final).count() == 2
    # The final has no prior-ranking import: it is seated by the prelim's places.
    assert client.get(url("round_ranking", dm, final)).status_code == 404


# Advancement settings --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"advance": "overall"}, "advance_count", "Say how many advance overall."),
        ({"advance": "overall", "advance_count": "0"}, "advance_count", "Say how many"),
        (
            {"advance": "per_heat", "advance_count": "3"},
            "advance_best_remaining",
            "Say how many of the best remaining advance.",
        ),
        ({"advance": "per_heat"}, "advance_count", "Say how many advance per heat."),
        ({"advance": "everybody"}, "advance", "Select a valid choice"),
        ({"advance": "overall", "advance_count": "-1"}, "advance_count", "greater than or equal"),
    ],
)
def test_advancement_settings_are_validated_like_the_round(org, rm, final, data, field, message):
    response = org.post(url("round_advancement", rm, final), data)
    assert response.status_code == 200
    assert "The advancement is not saved: see the form." in said(response)
    errors = response.context["advance_form"].errors
    assert any(message in error for error in errors[field]), errors
    final.refresh_from_db()
    assert final.advance == "none" and final.advance_count is None


def test_advancement_settings_are_saved_and_the_numbers_that_do_not_apply_dropped(org, rm, final):
    org.post(
        url("round_advancement", rm, final),
        {"advance": "per_heat", "advance_count": "3", "advance_best_remaining": "2"},
    )
    final.refresh_from_db()
    assert final.advance_settings == {"per_heat": 3, "best_remaining": 2}
    org.post(
        url("round_advancement", rm, final),
        {"advance": "overall", "advance_count": "8", "advance_best_remaining": "2"},
    )
    final.refresh_from_db()
    assert final.advance_settings == {"overall": 8}
    org.post(url("round_advancement", rm, final), {"advance": "none", "advance_count": "8"})
    final.refresh_from_db()
    assert (final.advance, final.advance_count, final.advance_best_remaining) == (
        "none",
        None,
        None,
    )


def test_advancement_can_be_set_after_the_round_until_the_next_round_is_seated(org):
    """An organiser who forgot to set it before the round can still set it on the results."""
    dm = factories.championship(slug="dm-adv", ruleset="dm")
    role_user = org.session.get("_auth_user_id")
    ChampionshipRole.objects.create(championship=dm, user_id=role_user, role="organiser")
    individual = dm.categories.get(kind="individual")
    prelim = individual.rounds.get(stage="prelim")
    tables_create(championship=dm, count=4)
    for _ in range(3):
        factories.entry(individual)
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    factories.ran_earlier(prelim)
    for minute, result in enumerate(Result.objects.filter(round=prelim), start=40):
        result.status, result.time_ms = "finished", minute * 60_000
        result.save()
    standings_recompute(round_=prelim)
    response = org.post(
        url("round_advancement", dm, prelim),
        {"advance": "overall", "advance_count": "2"},
        follow=True,
    )
    prelim.refresh_from_db()
    assert prelim.advance == "overall" and prelim.advance_count == 2
    assert Result.objects.filter(round=prelim, qualified=True).count() == 2
    rounds.round_close(round_=prelim)
    rounds.round_advance(round_=prelim)
    response = org.post(
        url("round_advancement", dm, prelim),
        {"advance": "overall", "advance_count": "3"},
        follow=True,
    )
    assert said(response) == [
        "The next round is seated: advancement from this round can no longer change."
    ]
    prelim.refresh_from_db()
    assert prelim.advance_count == 2
    assert "Save the advancement" not in response.content.decode()


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


# Prior ranking ---------------------------------------------------------------------------------


def upload(client, path, content: bytes, name="ranking.csv", **kwargs):
    return client.post(
        path,
        {"action": "upload", "file": SimpleUploadedFile(name, content, "text/csv")},
        **kwargs,
    )


@pytest.fixture
def ranked_field(individual):
    """Four entries: Åse and Bjørn with e-mails, Ødegård & co by name, one left unranked."""
    championship = individual.championship
    made = {}
    for number, (name, email) in enumerate(
        [
            ("Åse Økland", "ase@example.no"),
            ("Bjørn Berg", "Bjorn.Berg@Example.no"),
            ("Ødegård Sæther", "ode@example.no"),
            ("Unranked Person", "nobody@example.no"),
        ]
    ):
        person = factories.person(championship, name=name, email=email, region="Rogaland")
        made[name] = factories.entry(
            individual, members=[person], registered_at=T0 + timedelta(minutes=number)
        )
    return made


def test_ranking_preview_matches_by_email_and_name_and_saves_nothing(org, rm, final, ranked_field):
    content = (
        "email,name,rank\n"
        "BJORN.BERG@example.NO,,1\n"
        ",ødegård sæther,2\n"
        "ase@example.no,Whatever,3\n"
        "ghost@example.no,,4\n"
        ",Åse Økland,5\n"
        "nobody@example.no,,first\n"
    ).encode()
    path = url("round_ranking", rm, final)
    response = upload(org, path, content)
    assert response.status_code == 302 and response.url == path
    response = org.get(path)
    preview = response.context["preview"]
    assert [(row.line, row.entry.name, row.rank) for row in preview.matched] == [
        (2, "Bjørn Berg", 1),
        (3, "Ødegård Sæther", 2),
        (4, "Åse Økland", 3),
    ]
    assert [(row.line, row.problem) for row in preview.unmatched] == [
        (5, "No confirmed entry of this category has this e-mail or name."),
        (6, "Row 4 already ranks Åse Økland."),
        (7, "“first” is not a rank (a whole number from 1)."),
    ]
    assert [entry.name for entry in preview.not_in_file] == ["Unranked Person"]
    page = response.content.decode()
    assert "Save the ranks of 3 entries" in page and "Unranked Person" in page
    assert not Entry.objects.filter(prior_ranking__isnull=False).exists()


def test_a_windows_1252_semicolon_file_is_read_and_confirming_saves_the_ranks(
    org, rm, individual, final, ranked_field
):
    tables_create(championship=rm, count=6)
    Entry.objects.filter(pk=ranked_field["Unranked Person"].pk).update(prior_ranking=9)
    content = "Name;Rank\r\nØdegård Sæther;1\r\nÅse Økland;2\r\nBjørn Berg;3\r\n".encode("cp1252")
    path = url("round_ranking", rm, final)
    upload(org, path, content)
    assert [row.rank for row in org.get(path).context["preview"].matched] == [1, 2, 3]
    response = org.post(path, {"action": "confirm", "clear_others": "yes"}, follow=True)
    assert said(response) == ["The prior ranking of 3 entries is saved."]
    ranks = dict(Entry.objects.values_list("name", "prior_ranking"))
    assert ranks == {
        "Ødegård Sæther": 1,
        "Åse Økland": 2,
        "Bjørn Berg": 3,
        "Unranked Person": None,
    }
    # The preview is gone from the session: confirming again is refused.
    response = org.post(path, {"action": "confirm"}, follow=True)
    assert said(response) == ["Upload the file again: its preview has expired."]
    # Seating by seeding follows the ranks; the unranked sit last.
    org.post(url("round_seat", rm, final), {"heats": "1", "order": "seeding"})
    assert [(s.table.number, s.entry.name) for s in seats_of(final)] == [
        (1, "Ødegård Sæther"),
        (2, "Åse Økland"),
        (3, "Bjørn Berg"),
        (4, "Unranked Person"),
    ]


def test_confirming_can_keep_the_other_entries_ranks(org, rm, final, ranked_field):
    Entry.objects.filter(pk=ranked_field["Unranked Person"].pk).update(prior_ranking=9)
    path = url("round_ranking", rm, final)
    upload(org, path, b"email,rank\nase@example.no,1\n")
    org.post(path, {"action": "confirm"})
    assert Entry.objects.get(pk=ranked_field["Unranked Person"].pk).prior_ranking == 9
    assert Entry.objects.get(pk=ranked_field["Åse Økland"].pk).prior_ranking == 1


def test_cancelling_the_preview_saves_nothing(org, rm, final, ranked_field):
    path = url("round_ranking", rm, final)
    upload(org, path, b"email;rank\nase@example.no;1\n")
    response = org.post(path, {"action": "cancel"}, follow=True)
    assert response.context["preview"] is None
    assert not Entry.objects.filter(prior_ranking__isnull=False).exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"who,place\nase@example.no,1\n", "must name the columns"),
        (b"", "The submitted file is empty."),
        (b"\n ; \n\n", "The file is empty."),
        (b"\x81\x8d\x8f\x90\x9d", "neither UTF-8 nor Windows-1252"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused(org, rm, final, ranked_field, content, message):
    response = upload(org, url("round_ranking", rm, final), content)
    assert response.status_code == 200
    assert any(message in error for error in response.context["form"].errors["file"])
    assert response.context["preview"] is None


def test_ranking_import_matches_only_confirmed_entries_of_the_category(org, rm, individual, final):
    person = factories.person(rm, name="Waiting Wenche", email="w@example.no")
    factories.entry(individual, members=[person], status=Entry.Status.WAITLISTED)
    pair = rm.categories.get(kind="pair")
    factories.entry(pair, name="Other Category")
    path = url("round_ranking", rm, final)
    upload(org, path, b"email,name,rank\nw@example.no,,1\n,Other Category,2\n")
    preview = org.get(path).context["preview"]
    assert not preview.matched and len(preview.unmatched) == 2


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
