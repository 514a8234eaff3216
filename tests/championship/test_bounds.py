"""Dates within plausible windows on every path: models, admin, control room and import.

The windows are ``championship.bounds``'s: a championship starts from 2000 up to
five years after today; its registration opens and closes at most two years
before its start; its heats are scheduled within its days (two days before to
three after the start); an own start falls within the time limit after its
heat's start; a time limit is 1 to 600 minutes. Each path gets dates just
inside and just outside a window, and the ends of the calendar (years 1 and
9999): outside is refused with a clear message, and nothing is written.
"""

from __future__ import annotations

import copy
import io
import json
import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.utils import timezone
from rest_framework.test import APIClient

from championship import bounds
from championship.models import Category, Championship, ChampionshipRole, Heat, Round, Seat
from championship.services import tables_create
from control import rounds
from interchange.format import InterchangeError
from interchange.write import import_document
from tests import factories
from tests.championship.test_admin import admin_url, change_form_data
from tests.control.control_room import said, seated, seats_of, url
from tests.factories import NEXT_YEAR
from tests.interchange.documents import counts, example

FIRST = datetime(1, 1, 1, tzinfo=UTC)
LAST = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)
# 14 March next year, 10:00 in Oslo: the championship of the control-room and admin tests.
START = datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
OSLO = zoneinfo.ZoneInfo("Europe/Oslo")
MINUTE = timedelta(minutes=1)
DAY = timedelta(days=1)


# The arithmetic ---------------------------------------------------------------------------------


def test_a_year_from_29_february_is_28_february():
    assert bounds.add_years(datetime(2028, 2, 29, 12, tzinfo=UTC), 1) == datetime(
        2029, 2, 28, 12, tzinfo=UTC
    )


def test_the_windows_reach_the_ends_of_the_calendar_without_overflowing():
    assert bounds.championship_days(LAST).latest.year == 9999
    assert bounds.championship_days(FIRST).earliest.year == 1
    assert bounds.own_start_window(LAST, 600).latest.year == 9999
    assert bounds.registration_window(FIRST).earliest.year == 1


@pytest.mark.parametrize(
    "moment, expected",
    [
        (FIRST, bounds.SAFE_EARLIEST),
        (LAST, bounds.SAFE_LATEST),
        (START, START),
        (None, None),
    ],
)
def test_a_moment_at_the_ends_of_the_calendar_is_read_inside_them(moment, expected):
    assert bounds.safe(moment) == expected


# The models: full_clean(), so the admin, model forms and services ---------------------------------


def start_cases(now: datetime) -> list[tuple[str, datetime, bool]]:
    """Return (name, start, allowed): just inside and just outside the championship window."""
    latest = bounds.add_years(now, bounds.YEARS_AFTER)
    return [
        ("1 January 2000", datetime(2000, 1, 1, tzinfo=UTC), True),
        ("the hour before 2000", datetime(1999, 12, 31, 23, tzinfo=UTC), False),
        ("a day before five years from now", latest - DAY, True),
        ("a day after five years from now", latest + DAY, False),
        ("year 1", FIRST, False),
        ("year 9999", LAST, False),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("index", range(6), ids=[name for name, *_ in start_cases(timezone.now())])
def test_a_championship_starts_from_2000_to_five_years_ahead(index):
    now = timezone.now()
    _name, start, allowed = start_cases(now)[index]
    latest = bounds.add_years(now, bounds.YEARS_AFTER)
    if allowed:
        championship = factories.championship(slug="inside", starts_at=start)
        assert championship.starts_at == start
        return
    with pytest.raises(ValidationError) as refused:
        factories.championship(slug="outside", starts_at=start)
    last_day = latest.astimezone(OSLO)
    assert refused.value.message_dict == {
        "starts_at": [f"Give a start between 1 January 2000 and {last_day:%-d %B %Y}."]
    }
    assert not Championship.objects.exists()


@pytest.mark.django_db
def test_a_start_left_as_it_was_stays_accepted_a_changed_one_is_checked():
    championship = factories.championship(slug="archive")
    Championship.objects.filter(pk=championship.pk).update(starts_at=LAST)
    stored = Championship.objects.get(pk=championship.pk)
    stored.venue = "Sølvberget"
    stored.full_clean()  # the stored start is not the organiser's doing now
    stored.starts_at = datetime(NEXT_YEAR + bounds.YEARS_AFTER + 1, 1, 1, tzinfo=UTC)
    with pytest.raises(ValidationError) as refused:
        stored.full_clean()
    assert list(refused.value.message_dict) == ["starts_at"]


def registration_cases(start: datetime) -> list[tuple[str, datetime, bool]]:
    earliest = bounds.add_years(start, -bounds.REGISTRATION_YEARS_BEFORE)
    return [
        ("at the start", start, True),
        ("a minute after the start", start + MINUTE, False),
        ("a day less than two years before", earliest + DAY, True),
        ("a day more than two years before", earliest - DAY, False),
        ("year 1", FIRST, False),
        ("year 9999", LAST, False),
    ]


REGISTRATION_IDS = [name for name, *_ in registration_cases(START)]


@pytest.mark.django_db
@pytest.mark.parametrize("index", range(6), ids=REGISTRATION_IDS)
def test_the_registration_deadline_lies_before_the_start_and_not_long_before(index):
    championship = factories.championship(slug="rm", starts_at=START)
    _name, deadline, allowed = registration_cases(START)[index]
    championship.registration_deadline = deadline
    if allowed:
        championship.full_clean()
        return
    with pytest.raises(ValidationError) as refused:
        championship.full_clean()
    assert refused.value.message_dict == {
        "registration_deadline": [
            f"Give a deadline between 14 March {NEXT_YEAR - 2}, 10:00 and the start, "
            f"14 March {NEXT_YEAR}, 10:00."
        ]
    }


@pytest.mark.django_db
@pytest.mark.parametrize("index", range(6), ids=REGISTRATION_IDS)
def test_a_category_opens_before_the_start_and_not_long_before(index):
    championship = factories.championship(slug="rm", starts_at=START)
    category = championship.categories.get(kind="individual")
    _name, opens, allowed = registration_cases(START)[index]
    category.registration_opens_at = opens
    if allowed:
        category.full_clean()
        return
    with pytest.raises(ValidationError) as refused:
        category.full_clean()
    assert refused.value.message_dict == {
        "registration_opens_at": [
            f"Give an opening between 14 March {NEXT_YEAR - 2}, 10:00 and the start, "
            f"14 March {NEXT_YEAR}, 10:00."
        ]
    }


DAYS_CASES = [
    ("a minute inside two days before", START - 2 * DAY + MINUTE, True),
    ("a minute beyond two days before", START - 2 * DAY - MINUTE, False),
    ("a minute inside three days after", START + 3 * DAY - MINUTE, True),
    ("a minute beyond three days after", START + 3 * DAY + MINUTE, False),
    ("year 1", FIRST, False),
    ("year 9999", LAST, False),
]
DAYS_MESSAGE = (
    f"Give a time between 12 March {NEXT_YEAR}, 10:00 and 17 March {NEXT_YEAR}, 10:00, "
    "within the championship's days."
)


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["scheduled_start", "started_at", "ended_at"])
@pytest.mark.parametrize(
    "moment, allowed", [case[1:] for case in DAYS_CASES], ids=[case[0] for case in DAYS_CASES]
)
def test_a_heat_lies_within_the_championships_days(field, moment, allowed):
    championship = factories.championship(slug="rm", starts_at=START)
    heat = factories.heat(championship.categories.get(kind="individual").rounds.get())
    if field == "ended_at":
        heat.started_at = moment - MINUTE if moment > FIRST + MINUTE else moment
        heat.state = Heat.State.TIME_UP
    setattr(heat, field, moment)
    if allowed:
        heat.full_clean()
        return
    with pytest.raises(ValidationError) as refused:
        heat.full_clean()
    assert refused.value.message_dict[field] == [DAYS_MESSAGE]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "after_start, allowed",
    [(timedelta(minutes=120), True), (timedelta(minutes=121), False), (-MINUTE, False)],
    ids=["at the end of the time limit", "a minute after it", "before the heat's start"],
)
def test_an_own_start_lies_within_the_time_limit_after_the_heats_start(after_start, allowed):
    championship = factories.championship(slug="rm", starts_at=START)
    individual = championship.categories.get(kind="individual")
    seated(individual, individual.rounds.get(), count=1)
    seat = Seat.objects.get()
    rounds.heat_start(heat=seat.heat, at=START)
    seat = Seat.objects.select_related("heat__round").get()
    seat.started_at = START + after_start
    if allowed:
        seat.full_clean()
        return
    with pytest.raises(ValidationError) as refused:
        seat.full_clean()
    assert refused.value.message_dict == {
        "started_at": [
            f"Give an own start between the heat's start, 14 March {NEXT_YEAR}, 10:00, "
            f"and the end of its time limit, 14 March {NEXT_YEAR}, 12:00."
        ]
    }


@pytest.mark.django_db
@pytest.mark.parametrize("model", [Category, Round])
@pytest.mark.parametrize("minutes, allowed", [(1, True), (600, True), (0, False), (601, False)])
def test_a_time_limit_is_1_to_600_minutes(model, minutes, allowed):
    championship = factories.championship(slug="rm", starts_at=START)
    category = championship.categories.get(kind="individual")
    instance = category if model is Category else category.rounds.get()
    instance.time_limit_minutes = minutes
    if allowed:
        instance.full_clean()
        return
    with pytest.raises(ValidationError) as refused:
        instance.full_clean()
    assert refused.value.message_dict["time_limit_minutes"] == [
        "Give a time limit between 1 and 600 minutes."
    ]


# The admin ---------------------------------------------------------------------------------------


@pytest.fixture
def admin(client, db):
    user = factories.user(is_superuser=True, is_staff=True)
    client.force_login(user)
    return client


def admin_cases(now: datetime) -> list[tuple[str, str, bool]]:
    """Return (name, local date typed, allowed) for a championship's start in the admin."""
    latest = bounds.add_years(now, bounds.YEARS_AFTER)
    return [
        ("2 January 2000", "2000-01-02", True),
        ("31 December 1999", "1999-12-31", False),
        ("a day before five years from now", f"{latest - DAY:%Y-%m-%d}", True),
        ("two days after five years from now", f"{latest + 2 * DAY:%Y-%m-%d}", False),
        ("year 1", "0001-01-01", False),
        ("year 9999", "9999-12-31", False),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("index", range(6), ids=[name for name, *_ in admin_cases(timezone.now())])
def test_the_admin_refuses_a_start_outside_the_window_and_keeps_the_old_one(admin, index):
    _name, typed, allowed = admin_cases(timezone.now())[index]
    championship = factories.championship(slug="rm", starts_at=START)
    address = admin_url(Championship, "change", championship.pk)
    data = change_form_data(admin.get(address))
    data["starts_at_0"], data["starts_at_1"] = typed, "00:00:00"
    data["registration_deadline_0"] = data["registration_deadline_1"] = ""
    response = admin.post(address, data)
    championship.refresh_from_db()
    if allowed:
        assert response.status_code == 302, response.context["adminform"].form.errors
        return
    assert response.status_code == 200
    assert (
        response.context["adminform"]
        .form.errors["starts_at"][0]
        .startswith("Give a start between 1 January 2000 and ")
    )
    assert championship.starts_at == START


@pytest.mark.django_db
def test_the_admin_says_it_in_the_users_language(admin):
    championship = factories.championship(slug="rm", starts_at=START)
    admin.cookies[settings.LANGUAGE_COOKIE_NAME] = "nb"
    address = admin_url(Championship, "change", championship.pk)
    data = change_form_data(admin.get(address))
    data["starts_at_0"], data["starts_at_1"] = "9999-12-31", "23:59:00"
    response = admin.post(address, data)
    assert response.status_code == 200
    # The window's first day, as Norwegian writes it.
    assert "1. januar 2000" in response.context["adminform"].form.errors["starts_at"][0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "typed, allowed",
    [
        (f"{NEXT_YEAR}-03-12 10:01:00", True),
        (f"{NEXT_YEAR}-03-12 09:59:00", False),
        (f"{NEXT_YEAR}-03-17 09:59:00", True),
        (f"{NEXT_YEAR}-03-17 10:01:00", False),
        ("0001-01-01 00:00:00", False),
        ("9999-12-31 23:59:00", False),
    ],
)
def test_the_admin_refuses_a_heat_outside_the_championships_days(admin, typed, allowed):
    championship = factories.championship(slug="rm", starts_at=START)
    heat = factories.heat(championship.categories.get(kind="individual").rounds.get())
    address = admin_url(Heat, "change", heat.pk)
    data = change_form_data(admin.get(address))
    data["scheduled_start_0"], data["scheduled_start_1"] = typed.split()
    response = admin.post(address, data)
    heat.refresh_from_db()
    if allowed:
        assert response.status_code == 302, response.context["adminform"].form.errors
        assert heat.scheduled_start is not None
        return
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["scheduled_start"] == [DAYS_MESSAGE]
    assert heat.scheduled_start is None


# The control room -----------------------------------------------------------------------------


@pytest.fixture
def organiser(client, db):
    championship = factories.championship(slug="rm", starts_at=START)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(championship, ChampionshipRole.Role.ORGANISER))
    client.championship = championship
    return client


@pytest.mark.parametrize(
    "typed, allowed",
    [
        (f"{NEXT_YEAR}-03-12T10:01", True),
        (f"{NEXT_YEAR}-03-12T09:59", False),
        (f"{NEXT_YEAR}-03-17T09:59", True),
        (f"{NEXT_YEAR}-03-17T10:01", False),
        ("0001-01-01T00:00", False),
        ("9999-12-31T23:59", False),
    ],
)
def test_the_seat_form_refuses_a_scheduled_start_outside_the_championships_days(
    organiser, typed, allowed
):
    championship = organiser.championship
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    tables_create(championship=championship, count=3)
    for _ in range(2):
        factories.entry(individual)
    response = organiser.post(
        url("round_seat", championship, final),
        {"heats": "1", "order": "registration", "seed": "", "start_1": typed},
        follow=True,
    )
    assert response.status_code == 200
    if allowed:
        assert said(response) == ["The round is seated in 1 heat."]
        assert final.heats.get().scheduled_start is not None
        return
    assert said(response) == ["The round is not seated: see the form."]
    assert DAYS_MESSAGE in response.content.decode().replace("&#x27;", "'")
    assert not final.heats.exists()


@pytest.mark.parametrize(
    "typed, allowed",
    [("12:00", True), ("12:01", False), ("23:59", False)],
    ids=["at the end of the time limit", "a minute after it", "late at night"],
)
def test_an_own_start_in_the_control_room_lies_within_the_time_limit(organiser, typed, allowed):
    championship = organiser.championship
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    seated(individual, final, count=1)
    seat = seats_of(final)[0]
    rounds.heat_start(heat=seat.heat, at=START)  # 10:00 in Oslo, 120 minutes
    response = organiser.post(url("seat_start", championship, final, seat=seat.pk), {"at": typed})
    response = organiser.get(response.url)
    seat.refresh_from_db()
    if allowed:
        assert said(response) == [f"{seat.entry.name} starts at 12:00:00."]
        return
    assert said(response) == [
        f"Give an own start between the heat's start, 14 March {NEXT_YEAR}, 10:00, "
        f"and the end of its time limit, 14 March {NEXT_YEAR}, 12:00."
    ]
    assert seat.started_at is None


# The import --------------------------------------------------------------------------------------

HEAT = "competitions[0].rounds[0].heats[0]"


def at(*keys, **heat_too):
    """Return a change of the example document that sets the value at ``keys``.

    ``heat_too`` sets fields of the first heat as well, so that only the value
    at ``keys`` is out of bounds.
    """

    def change(value):
        def apply(document):
            target = document
            for key in keys[:-1]:
                target = target[key]
            target[keys[-1]] = value
            document["competitions"][0]["rounds"][0]["heats"][0].update(heat_too)

        return apply

    return change


# The instant the cases' messages are computed from, and the import's clock in their tests
# (collected before midnight, run after, the window's last day would differ).
NOW = timezone.now()


@pytest.fixture
def frozen_now(monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: NOW)


def import_cases() -> dict[str, tuple]:
    """Return name: (change, value, path, message start) of a refused document."""
    latest = bounds.add_years(NOW, bounds.YEARS_AFTER)
    start = at("championship", "starts_at")
    deadline = at("championship", "registration_deadline")
    scheduled = at("competitions", 0, "rounds", 0, "heats", 0, "scheduled_at")
    started = at("competitions", 0, "rounds", 0, "heats", 0, "started_at")
    # Without a time-up, which an own start must precede anyway.
    own = at("competitions", 0, "rounds", 0, "heats", 0, "seats", 2, "started_at", ended_at=None)
    time = at("competitions", 0, "rounds", 0, "heats", 0, "results", 0, "time")
    limit = at("competitions", 0, "time_limit_minutes")
    return {
        "a start in year 1": (
            start,
            "0001-01-01T00:00:00",
            "championship.starts_at",
            '"0001-01-01T00:00:00" is out of range',
        ),
        "a start in year 1 at noon": (
            start,
            "0001-01-01T12:00:00+01:00",
            "championship.starts_at",
            f"must be between 2000-01-01 and {latest.date()}, not",
        ),
        "a start at the end of year 9999": (
            start,
            "9999-12-31T23:59:59+01:00",
            "championship.starts_at",
            f"must be between 2000-01-01 and {latest.date()}, not",
        ),
        "a start before 2000": (
            start,
            "1999-12-31T10:00:00+01:00",
            "championship.starts_at",
            f"must be between 2000-01-01 and {latest.date()}, not",
        ),
        "a start a day after five years from now": (
            start,
            (latest + DAY).isoformat(),
            "championship.starts_at",
            f"must be between 2000-01-01 and {latest.date()}, not",
        ),
        "a deadline after the start": (
            deadline,
            "2026-03-14T10:01:00+01:00",
            "championship.registration_deadline",
            "must be before the start, at most 2 years, between 2024-03-14T10:00:00+01:00 "
            "and 2026-03-14T10:00:00+01:00, not",
        ),
        "a heat scheduled a minute beyond three days after the start": (
            scheduled,
            "2026-03-17T10:01:00+01:00",
            f"{HEAT}.scheduled_at",
            "must be within the championship's days, between 2026-03-12T10:00:00+01:00 "
            "and 2026-03-17T10:00:00+01:00, not",
        ),
        "a heat started in year 1": (
            started,
            "0001-01-02T10:00:00+01:00",
            f"{HEAT}.started_at",
            "must be within 2 years of the start, between 2024-03-14T10:00:00+01:00 "
            "and 2028-03-14T10:00:00+01:00, not",
        ),
        "an own start a minute after the time limit": (
            own,
            "2026-03-14T12:16:00+01:00",
            f"{HEAT}.seats[2].started_at",
            "must be within the time limit after the heat's start, between "
            "2026-03-14T10:15:00+01:00 and 2026-03-14T12:15:00+01:00, not",
        ),
        "a result time of 99999999999 hours": (
            time,
            "99999999999:00:00",
            f"{HEAT}.results[0].time",
            '"99999999999:00:00" is longer than 24:00:00',
        ),
        "a time limit of 601 minutes": (
            limit,
            601,
            "competitions[0].time_limit_minutes",
            "must be between 1 and 600, not 601",
        ),
    }


IMPORT_CASES = import_cases()


@pytest.mark.django_db
@pytest.mark.parametrize("name", IMPORT_CASES)
def test_the_import_refuses_a_date_outside_its_window_with_its_path(name, tmp_path, frozen_now):
    change, value, path, message = IMPORT_CASES[name]
    document = example()
    change(value)(document)
    before = counts()

    with pytest.raises(InterchangeError) as refused:
        import_document(copy.deepcopy(document))
    assert refused.value.path == path
    assert refused.value.message.startswith(message), refused.value.message

    file = tmp_path / "document.json"
    file.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_championship", str(file), stdout=io.StringIO())
    assert refused.value.returncode == 2
    assert str(refused.value).startswith(f"{path}: {message}")
    assert counts() == before


@pytest.mark.django_db
def test_the_api_import_refuses_a_date_outside_its_window_alike(frozen_now):
    change, value, path, message = IMPORT_CASES["a start at the end of year 9999"]
    document = example()
    change(value)(document)
    api = APIClient()
    api.force_authenticate(factories.user(is_superuser=True, is_staff=True))
    before = counts()
    response = api.post("/api/v1/championships/import/", document, format="json")
    assert response.status_code == 400
    assert response.json()["path"] == path
    assert response.json()["detail"].startswith(message)
    assert counts() == before


@pytest.mark.django_db
def test_the_example_document_with_its_dates_just_inside_is_imported():
    document = example()
    heat = document["competitions"][0]["rounds"][0]["heats"][0]
    heat["scheduled_at"] = "2026-03-17T10:00:00+01:00"
    heat["seats"][2]["started_at"] = "2026-03-14T12:15:00+01:00"
    heat["ended_at"] = "2026-03-14T12:16:00+01:00"
    document["championship"]["registration_deadline"] = "2026-03-14T10:00:00+01:00"
    championship = import_document(document)
    assert Heat.objects.get(round__championship=championship, key=heat["key"]).scheduled_start
