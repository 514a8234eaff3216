"""Through the capture API: the time limit, own starts, and results that nothing silently changes.

RULES.md, "Timing and finishing": "TIME" at or before the limit is a completion, a
tap made after it is refused ("count the pieces instead"), and a phone's delay in
delivering a tap made in time is no reason to refuse it. An entry with an own
later start (rogaland) keeps its minutes after the heat's time-up. A recorded
result changes only by its own judge before the entrant confirms, or by a head
judge's correction; a closed round and an imported championship keep theirs.
"""

import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from championship.errors import RoundStateError
from championship.models import Championship, ChampionshipRole, Seat
from championship.services import tables_create
from control import rounds
from interchange.export import export_document
from interchange.write import import_document
from judging import services as judging_services
from judging.models import Capture
from registration.models import Entry
from results.models import Result
from results.services import standings_ensure
from tests import factories

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role


def url(championship):
    return f"/api/v1/championships/{championship.slug}/captures/"


def client_for(user):
    """A judge's phone whose judge chose English (the API answers in the championship's else)."""
    client = APIClient()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_authenticate(user)
    return client


class Floor:
    """A running heat of one round, with two judges and a head judge, seen from the API."""

    def __init__(self, *, ruleset="rogaland", entrants=3, started_minutes_ago=45):
        self.championship = factories.championship(slug=f"{ruleset}-floor", ruleset=ruleset)
        category = self.championship.categories.get(kind="individual")
        self.round = category.rounds.order_by("order").first()
        tables_create(championship=self.championship, count=entrants + 1)
        for _ in range(entrants):
            person = factories.person(self.championship, region="Rogaland", citizenship=["SE"])
            factories.entry(category, members=[person], checked_in_at=timezone.now())
        self.entries = list(Entry.objects.filter(category=category).order_by("pk"))
        rounds.round_seat(round_=self.round)
        (self.heat,) = rounds.round_start(round_=self.round)
        self.now = timezone.now()
        self.heat.started_at = self.now - timedelta(minutes=started_minutes_ago)
        self.heat.save()
        self.judge = factories.role(self.championship, Role.JUDGE, username=f"{ruleset}-anna")
        self.other = factories.role(self.championship, Role.JUDGE, username=f"{ruleset}-bo")
        self.head = factories.role(self.championship, Role.HEAD_JUDGE, username=f"{ruleset}-hj")

    def after_start(self, minutes=0, seconds=0, millis=0):
        return self.heat.started_at + timedelta(
            minutes=minutes, seconds=seconds, milliseconds=millis
        )

    def post(self, who, entry=0, kind="finish", **fields):
        """Send one capture as ``who`` (a user); return the response."""
        body = {
            "id": str(fields.pop("id", uuid.uuid4())),
            "round": self.round.key,
            "entry": self.entries[entry].ref,
            "kind": kind,
            **fields,
        }
        if "at" in body and body["at"] is not None:
            body["at"] = body["at"].isoformat()
        return client_for(who).post(url(self.championship), body, format="json")

    def result(self, entry=0) -> Result:
        standings_ensure(self.round)
        return Result.objects.get(round=self.round, entry=self.entries[entry])


# The time limit ------------------------------------------------------------------------


def test_a_tap_made_in_time_is_taken_however_late_it_arrives():
    """The phone was offline: the tap at 1:59:59 arrives a minute after the limit."""
    floor = Floor(started_minutes_ago=121)
    response = floor.post(floor.judge, at=floor.after_start(119, 59))
    assert response.status_code == 201, response.json()
    assert response.json()["result"]["final_seconds"] == 119 * 60 + 59
    assert floor.result().outcome == "completed"


def test_a_tap_in_the_limits_last_second_is_at_the_limit():
    floor = Floor(started_minutes_ago=121)
    response = floor.post(floor.judge, at=floor.after_start(120, 0, 900))
    assert response.status_code == 201, response.json()
    assert response.json()["result"]["final_seconds"] == 120 * 60


@pytest.mark.parametrize("late", [1, 29], ids=["1 s late", "29 s late"])
def test_a_tap_made_after_the_limit_is_refused_count_the_pieces_instead(late):
    floor = Floor(started_minutes_ago=121)
    response = floor.post(floor.judge, at=floor.after_start(120, late))
    assert response.status_code == 400
    assert "count the pieces instead" in response.json()["at"][0]
    assert not Capture.objects.exists()


def test_a_tap_made_after_the_organisers_time_up_is_refused():
    floor = Floor(started_minutes_ago=100)
    rounds.heat_close(heat=floor.heat, at=floor.after_start(90))
    response = floor.post(floor.judge, at=floor.after_start(90, 10))
    assert response.status_code == 400
    assert "count the pieces instead" in response.json()["at"][0]
    in_time = floor.post(floor.judge, entry=1, at=floor.after_start(89, 59))
    assert in_time.status_code == 201, in_time.json()


# Own starts (rogaland's taped bag) ------------------------------------------------------


def test_an_own_start_moves_the_time_limit_past_the_heats_time_up():
    """Started 5 minutes late, the entrant has 120 minutes from then, time-up or not."""
    floor = Floor(started_minutes_ago=126)
    late_seat = Seat.objects.get(round=floor.round, entry=floor.entries[0])
    judging_services.seat_set_start(seat=late_seat, at=floor.after_start(5))
    rounds.heat_close(heat=floor.heat, at=floor.after_start(120))

    finish = floor.post(floor.judge, at=floor.after_start(124, 30))
    assert finish.status_code == 201, finish.json()
    assert finish.json()["result"]["final_seconds"] == 119 * 60 + 30
    other = floor.post(floor.judge, entry=1, at=floor.after_start(124, 30))
    assert other.status_code == 400


def test_the_judges_page_keeps_time_for_an_entry_that_started_later(client):
    floor = Floor(entrants=2, started_minutes_ago=121)
    late_seat = Seat.objects.get(round=floor.round, entry=floor.entries[0])
    judging_services.seat_set_start(seat=late_seat, at=floor.after_start(5))
    rounds.heat_close(heat=floor.heat, at=floor.after_start(120))
    client.force_login(floor.judge)
    steps = {}
    for seat in Seat.objects.filter(round=floor.round).select_related("table"):
        page = client.get(f"/t/{seat.table.token}/")
        steps[seat.entry_id] = page.context["screen"].seats[0].step
    assert steps == {floor.entries[0].pk: "puzzling", floor.entries[1].pk: "timeup"}


@pytest.mark.parametrize("ruleset", ["sm", "dm"])
def test_own_starts_exist_only_where_the_rules_give_them(client, ruleset):
    floor = Floor(ruleset=ruleset)
    seat = Seat.objects.select_related("heat").get(round=floor.round, entry=floor.entries[0])
    with pytest.raises(RoundStateError):
        judging_services.seat_set_start(seat=seat, at=floor.after_start(2))
    organiser = factories.role(floor.championship, Role.ORGANISER)
    client.force_login(organiser)
    control = f"/{floor.championship.slug}/manage/rounds/{floor.round.key}/"
    client.post(f"{control}seats/{seat.pk}/start/", {"at": "10:07:30"})
    seat.refresh_from_db()
    assert seat.started_at is None
    assert "Later start" not in client.get(control).text

    document = export_document(floor.championship)
    document["competitions"][0]["rounds"][0]["heats"][0]["seats"][0]["started_at"] = (
        floor.after_start(2).isoformat()
    )
    from interchange.format import InterchangeError

    with pytest.raises(InterchangeError) as refused:
        import_document(document, replace=True)
    assert refused.value.path.endswith(".seats[0].started_at")
    assert "no entry a start of its own" in refused.value.message


# 11. A restored championship keeps its results --------------------------------------------


def restored(ruleset="rogaland"):
    """A floor whose results (a confirmed podium time) went through export and import."""
    floor = Floor(ruleset=ruleset)
    assert floor.post(floor.judge, at=floor.after_start(40), missing_found=1).status_code == 201
    assert floor.post(floor.judge, kind="confirm", at=floor.now).status_code == 201
    assert floor.post(floor.judge, entry=1, at=floor.after_start(42)).status_code == 201
    import_document(export_document(floor.championship), replace=True)
    assert not Capture.objects.exists()
    floor.championship = Championship.objects.get(slug=floor.championship.slug)
    floor.round = floor.championship.rounds.get(key=floor.round.key)
    refs = [entry.ref for entry in floor.entries]
    floor.entries = [Entry.objects.get(category=floor.round.category, ref=ref) for ref in refs]
    return floor


def test_a_head_judges_warning_keeps_an_imported_confirmed_time():
    floor = restored()
    before = floor.result()
    assert (before.time_ms, before.missing_found, before.place) == (40 * 60_000, 1, 1)
    response = floor.post(floor.head, kind="warning", reason="Talking to a neighbour")
    assert response.status_code == 201, response.json()
    after = floor.result()
    assert (after.status, after.time_ms, after.final_ms) == ("finished", 40 * 60_000, 2_405_000)
    assert after.confirmed_at is not None and after.place == 1


def test_a_correction_starts_from_the_imported_result():
    floor = restored()
    response = floor.post(
        floor.head, kind="correction", missing_found=2, reason="A second piece was found"
    )
    assert response.status_code == 201, response.json()
    result = floor.result()
    assert (result.time_ms, result.missing_found, result.penalty_ms) == (40 * 60_000, 2, 10_000)


def test_a_judge_confirms_an_imported_time_and_cannot_replace_it():
    floor = restored()
    replaced = floor.post(floor.judge, entry=1, at=floor.after_start(43))
    assert replaced.status_code == 409
    assert "imported" in replaced.json()["detail"]
    confirmed = floor.post(floor.other, entry=1, kind="confirm", at=floor.now)
    assert confirmed.status_code == 201, confirmed.json()
    result = floor.result(1)
    assert (result.time_ms, result.confirmed_at is not None) == (42 * 60_000, True)


def test_a_restored_result_exports_as_it_was_imported():
    floor = restored()
    first = export_document(floor.championship)
    floor.post(floor.head, kind="warning", reason="Noted")
    assert export_document(floor.championship) == first


# 12. A closed round --------------------------------------------------------------------


def closed_floor():
    floor = Floor()
    assert floor.post(floor.judge, at=floor.after_start(40)).status_code == 201
    rounds.round_close(round_=floor.round)
    floor.round.refresh_from_db()
    return floor


def test_a_closed_round_takes_no_judges_capture_that_changes_a_result():
    floor = closed_floor()
    count = floor.post(floor.judge, kind="pieces", pieces_placed=480, at=floor.now)
    later_time = floor.post(floor.judge, at=floor.after_start(41))
    misplaced = floor.post(floor.other, kind="incorrect", pieces_placed=480, at=floor.now)
    assert [r.status_code for r in (count, later_time, misplaced)] == [409, 409, 409]
    result = floor.result()
    assert (result.status, result.time_ms) == ("finished", 40 * 60_000)


def test_a_closed_round_still_takes_what_completes_a_result():
    """Piece counts at time-up, a tap made in time, its missing pieces, a confirmation."""
    floor = closed_floor()
    tap = floor.after_start(40)
    amended = floor.post(floor.judge, at=tap, missing_found=1)
    assert amended.status_code == 201, amended.json()
    assert floor.post(floor.judge, kind="confirm", at=floor.now).status_code == 201
    counted = floor.post(floor.other, entry=1, kind="pieces", pieces_remaining=20, at=floor.now)
    assert counted.status_code == 201, counted.json()
    delivered = floor.post(floor.judge, entry=2, at=floor.after_start(44))
    assert delivered.status_code == 201, delivered.json()
    assert [floor.result(i).outcome for i in range(3)] == ["completed", "unfinished", "completed"]
    assert floor.result().penalty_ms == 5_000


def test_a_head_judge_corrects_a_closed_round_with_a_reason():
    floor = closed_floor()
    no_reason = floor.post(floor.head, kind="correction", time="0:39:00")
    assert no_reason.status_code == 400
    corrected = floor.post(floor.head, kind="correction", time="0:39:00", reason="Misread")
    assert corrected.status_code == 201
    assert floor.result().time_ms == 39 * 60_000
    dns = floor.post(floor.head, kind="dns", reason="")
    dsq = floor.post(floor.head, kind="dsq", reason="Help from outside")
    assert (dns.status_code, dsq.status_code) == (409, 409)
    assert floor.post(floor.head, entry=1, kind="dns").status_code == 201


def test_no_correction_once_the_next_round_is_seated_from_the_results():
    floor = Floor(ruleset="sm", entrants=4)
    for index, minutes in enumerate((40, 41, 42, 43)):
        assert (
            floor.post(floor.judge, entry=index, at=floor.after_start(minutes)).status_code == 201
        )
    rounds.round_set_advance(round_=floor.round, advance="overall", count=2, best_remaining=None)
    rounds.round_close(round_=floor.round)
    before = floor.post(floor.head, entry=3, kind="correction", time="0:42:30", reason="Misread")
    assert before.status_code == 201, before.json()
    rounds.round_advance(round_=floor.round)
    after = floor.post(floor.head, kind="correction", time="0:44:00", reason="Misread again")
    assert after.status_code == 409
    assert "next round is seated" in after.json()["detail"]
    assert floor.result().time_ms == 40 * 60_000


# 13. A second judge, a reused capture id ------------------------------------------------


@pytest.mark.parametrize(
    ("who", "kind", "fields"),
    [
        ("other", "finish", {}),
        ("other", "pieces", {"pieces_placed": 450}),
        ("other", "incorrect", {"pieces_placed": 450}),
        ("head", "dns", {}),
    ],
    ids=["a second finish", "a piece count", "an incorrect", "a dns"],
)
def test_a_second_judge_cannot_overwrite_the_first_judges_time(who, kind, fields):
    floor = Floor()
    assert floor.post(floor.judge, at=floor.after_start(40)).status_code == 201
    at = floor.after_start(41) if kind == "finish" else floor.now
    response = floor.post(getattr(floor, who), kind=kind, at=at, **fields)
    assert response.status_code == 409
    result = floor.result()
    assert (result.status, result.time_ms) == ("finished", 40 * 60_000)
    assert Capture.objects.count() == 1


def test_the_judge_who_recorded_the_time_may_still_change_it_before_confirmation():
    floor = Floor()
    assert floor.post(floor.judge, at=floor.after_start(40)).status_code == 201
    incorrect = floor.post(floor.judge, kind="incorrect", pieces_placed=497, at=floor.now)
    assert incorrect.status_code == 201, incorrect.json()
    assert floor.result().outcome == "unfinished"


def test_the_same_capture_id_with_another_body_is_409_not_stored():
    floor = Floor()
    capture_id = uuid.uuid4()
    first = floor.post(floor.judge, id=capture_id, at=floor.after_start(40))
    assert first.status_code == 201
    again = floor.post(floor.judge, id=capture_id, at=floor.after_start(40))
    assert again.status_code == 201 and again.json() == first.json()
    other = floor.post(floor.judge, id=capture_id, at=floor.after_start(40), missing_found=3)
    assert other.status_code == 409
    assert floor.result().missing_found == 0 and Capture.objects.count() == 1


# 10. Impossible counts, 4. adjacent pieces ---------------------------------------------


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"pieces_placed": 500}, "pieces_placed"),
        ({"pieces_placed": 2}, "pieces_placed"),
        ({"pieces_placed": 1}, "pieces_placed"),
        ({"pieces_remaining": 0}, "pieces_remaining"),
        ({"pieces_remaining": 499}, "pieces_remaining"),
    ],
)
def test_an_impossible_piece_count_is_refused_with_the_reason(fields, field):
    floor = Floor(started_minutes_ago=121)
    response = floor.post(floor.judge, kind="pieces", at=floor.now, **fields)
    assert response.status_code == 400
    assert "clusters of at least 3" in response.json()[field][0]
    assert not Capture.objects.exists()


def test_dm_records_how_many_lost_pieces_were_adjacent():
    floor = Floor(ruleset="dm")
    response = floor.post(
        floor.judge, at=floor.after_start(40), missing_found=1, missing_lost=3, adjacent_missing=2
    )
    assert response.status_code == 201, response.json()
    result = floor.result()
    assert (result.adjacent_missing, result.penalty_ms) == (2, 20_000)
    assert Capture.objects.get().adjacent_missing == 2


@pytest.mark.parametrize(
    ("adjacent", "penalty"), [(True, 0), (False, 30_000)], ids=["true", "false"]
)
def test_a_phone_of_the_earlier_release_sends_yes_or_no(adjacent, penalty):
    """True meant the missing pieces were adjacent: all the lost ones; false: none."""
    floor = Floor(ruleset="dm")
    response = floor.post(
        floor.judge, at=floor.after_start(40), missing_lost=3, adjacent_missing=adjacent
    )
    assert response.status_code == 201, response.json()
    assert floor.result().penalty_ms == penalty


@pytest.mark.parametrize("adjacent", [1, 4])
def test_adjacent_pieces_are_two_or_more_of_the_lost(adjacent):
    floor = Floor(ruleset="dm")
    response = floor.post(
        floor.judge, at=floor.after_start(40), missing_lost=3, adjacent_missing=adjacent
    )
    assert response.status_code == 400
    assert "adjacent_missing" in response.json()
