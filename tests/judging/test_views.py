"""The judges' pages: the table behind a QR code, a later start, and the round dashboard."""

import json
import re
import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from championship import services as championship_services
from championship.models import ChampionshipRole, Seat
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.models import Capture
from judging.services import capture_record
from results.models import Result
from tests import factories

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role


@pytest.fixture(autouse=True)
def no_language_left_behind():
    """Deactivate the language a request activated: it would outlive the test in this thread."""
    yield
    translation.deactivate()


@pytest.fixture
def client(client):
    """A browser that asked for English."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def live(championship):
    """A running heat (started five minutes ago): one table of its own, one shared by two."""
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    single = factories.table(championship)
    shared = factories.table(championship, seats=2)
    ingrid, ola, kari = (
        factories.entry(individual, name=name) for name in ("Ingrid Hansen", "Ola Berg", "Kari Lie")
    )
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=single, entry=ingrid)
    Seat.objects.create(heat=heat, table=shared, entry=ola, position=1)
    Seat.objects.create(heat=heat, table=shared, entry=kari, position=2)
    heat = rounds.heat_start(heat=heat)
    heat.started_at = timezone.now() - timedelta(minutes=5)
    heat.save()
    return SimpleNamespace(
        championship=championship,
        round=round_,
        heat=heat,
        single=single,
        shared=shared,
        ingrid=ingrid,
        ola=ola,
        kari=kari,
    )


def url(table):
    return reverse("judging:table", kwargs={"token": table.token})


def page_json(response, name):
    """Return the JSON a page gives its script under ``name`` (``json_script``)."""
    match = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', response.text)
    assert match, f"no {name} in the page"
    return json.loads(match.group(1))


def record(live, entry, kind, by, **fields):
    return capture_record(
        round_=live.round,
        entry=entry,
        judge=by,
        data=CaptureInput(client_id=uuid.uuid4(), kind=kind, **fields),
    )


# The table page -------------------------------------------------------------------------------


def test_an_anonymous_visitor_is_sent_to_log_in_and_back(client, live):
    response = client.get(url(live.single))
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url(live.single)}"


def test_a_participant_is_told_they_cannot_record_and_cannot(client, live):
    participant = factories.user()
    client.force_login(participant)
    response = client.get(url(live.single))
    assert response.status_code == 403
    assert "You cannot record anything here" in response.text
    assert "Ingrid Hansen" not in response.text
    api = APIClient()
    api.force_authenticate(participant)
    answer = api.post(
        reverse("api:captures", kwargs={"championship_slug": live.championship.slug}),
        {
            "id": str(uuid.uuid4()),
            "round": live.round.key,
            "entry": live.ingrid.ref,
            "kind": "finish",
            "at": timezone.now().isoformat(),
        },
        format="json",
    )
    assert answer.status_code == 403
    assert not Capture.objects.exists()


def test_a_judge_of_another_championship_is_refused(client, live):
    other = factories.championship(slug="sm-2026", ruleset="sm")
    client.force_login(factories.role(other, Role.JUDGE))
    response = client.get(url(live.single))
    assert response.status_code == 403
    assert "You cannot record anything here" in response.text


def test_a_judge_sees_the_entry_the_clock_and_the_time_button(client, live, judge):
    client.force_login(judge)
    response = client.get(url(live.single))
    assert response.status_code == 200
    text = response.text
    assert "Table 1" in text and "Ingrid Hansen" in text
    assert 'data-action="time"' in text and ">TIME</button>" in text
    assert "Start now for this entry" not in text  # head judges only
    rules = page_json(response, "judge-rules")
    assert rules == {
        "preset": "rogaland",
        "penalty_seconds_per_piece": 5,
        "penalty_charges": "found",
        "pieces_found_later": True,
        "adjacent_missing_waives_penalty": False,
        "late_last_piece_seconds": None,
        "max_lost_pieces": None,
        "misplaced_finish_is_unfinished": True,
        "counted_cluster_min_pieces": 3,
        "individual_start_times": True,
    }
    config = page_json(response, "judge-config")
    assert config["captureUrl"] == f"/api/v1/championships/{live.championship.slug}/captures/"
    assert config["timeUrl"] == "/api/v1/time/"
    (seat,) = config["seats"]
    assert (seat["entry"], seat["round"]) == (live.ingrid.ref, "individual-final")
    assert seat["step"] == "puzzling"
    assert seat["startMs"] == int(live.heat.started_at.timestamp() * 1000)
    strings = page_json(response, "judge-strings")
    assert strings["queued"] == "waiting for network — kept on this phone"
    assert '<script type="module" src="/static/judging/judge/main.js">' in text


def test_the_phone_strings_are_translated(client, live, judge):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nb"
    client.force_login(judge)
    response = client.get(url(live.single))
    assert '<html lang="nb">' in response.text
    assert page_json(response, "judge-strings")["saved"]  # rendered through gettext


def test_a_shared_table_offers_both_entries_as_a_and_b(client, live, judge):
    client.force_login(judge)
    response = client.get(url(live.shared))
    text = response.text
    assert "Ola Berg" in text and "Kari Lie" in text
    assert re.search(r'seat-label">A</span>\s*<span class="lane-name"[^>]*>Ola Berg', text)
    assert re.search(r'seat-label">B</span>\s*<span class="lane-name"[^>]*>Kari Lie', text)
    assert text.count('data-lane-time="') == 2  # both TIME buttons, side by side
    labels = [(s["label"], s["name"]) for s in page_json(response, "judge-config")["seats"]]
    assert labels == [("A", "Ola Berg"), ("B", "Kari Lie")]


def test_dm_asks_for_adjacent_pieces_and_the_late_last_piece(client):
    championship = factories.championship(slug="dm-2026", ruleset="dm")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.order_by("order").first()
    table = factories.table(championship)
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=table, entry=factories.entry(individual))
    rounds.heat_start(heat=heat)
    client.force_login(factories.role(championship, Role.JUDGE))
    response = client.get(url(table))
    assert "Of the lost, adjacent" in response.text and 'data-field="adjacent"' in response.text
    assert 'data-field="found"' in response.text  # dm: a missing piece may turn up later
    assert "Last piece placed" in response.text and "Not found" in response.text
    rules = page_json(response, "judge-rules")
    assert rules["late_last_piece_seconds"] == 10 and rules["adjacent_missing_waives_penalty"]


def test_rogaland_asks_for_neither(client, live, judge):
    client.force_login(judge)
    text = client.get(url(live.single)).text
    assert 'data-field="adjacent"' not in text
    assert 'data-action="last-piece"' not in text


def test_sm_asks_for_the_pieces_missing_at_time_and_not_for_pieces_found_later(client):
    """sm has no "found later" (no change after TIME): one count of missing pieces."""
    championship = factories.championship(slug="sm-2026", ruleset="sm")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.order_by("order").first()
    table = factories.table(championship)
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=table, entry=factories.entry(individual))
    rounds.heat_start(heat=heat)
    client.force_login(factories.role(championship, Role.JUDGE))
    text = client.get(url(table)).text
    assert 'data-field="found"' not in text and 'name="missing_found"' not in text
    assert 'data-field="lost"' in text and "more than 10: invalid" in text
    assert 'data-field="adjacent"' not in text


def test_an_unknown_table_code_is_a_clear_404(client, judge):
    client.force_login(judge)
    response = client.get("/t/not-a-real-token/")
    assert response.status_code == 404
    assert "This table code is not valid — it may have been replaced. Ask the organiser." in (
        response.text
    )


def test_a_replaced_table_code_is_a_clear_404(client, live, judge):
    old = url(live.single)
    championship_services.table_rotate_token(table=live.single)
    client.force_login(judge)
    response = client.get(old)
    assert response.status_code == 404
    assert "it may have been replaced" in response.text


def test_without_a_running_heat_the_next_heat_is_shown(client, championship, judge):
    individual = championship.categories.get(kind="individual")
    table = factories.table(championship)
    heat = factories.heat(
        individual.rounds.get(), scheduled_start=timezone.now() + timedelta(hours=1)
    )
    Seat.objects.create(heat=heat, table=table, entry=factories.entry(individual, name="Liv Ask"))
    client.force_login(judge)
    response = client.get(url(table))
    assert "No heat is running at this table." in response.text
    assert "Next heat" in response.text and "Liv Ask" in response.text
    assert 'data-action="time"' not in response.text


def test_at_time_up_the_judge_counts_the_pieces(client, live, judge):
    rounds.heat_close(heat=live.heat)
    client.force_login(judge)
    response = client.get(url(live.single))
    (seat,) = page_json(response, "judge-config")["seats"]
    assert seat["step"] == "timeup"
    assert "Count the pieces" in response.text and "Piles of 10" in response.text
    assert "TIME with misplaced pieces" in response.text


def test_past_the_time_limit_the_judge_counts_the_pieces(client, live, judge):
    live.heat.started_at = timezone.now() - timedelta(minutes=121)
    live.heat.save()
    client.force_login(judge)
    (seat,) = page_json(client.get(url(live.single)), "judge-config")["seats"]
    assert seat["step"] == "timeup"


def test_a_recorded_time_waits_for_the_entrants_confirmation(client, live, judge):
    at = timezone.now() - timedelta(seconds=30)
    record(live, live.ingrid, "finish", judge, at=at, missing_found=1)
    client.force_login(judge)
    (seat,) = page_json(client.get(url(live.single)), "judge-config")["seats"]
    assert seat["step"] == "review"
    assert seat["result"]["final_seconds"] == seat["result"]["time_ms"] // 1000 + 5
    assert seat["finish"]["mine"] and seat["finish"]["found"] == 1
    assert seat["finish"]["atMs"] == int(at.timestamp() * 1000)


def test_a_confirmed_time_shows_no_edit_controls_but_a_head_judge_may_correct(client, live, judge):
    record(live, live.ingrid, "finish", judge, at=timezone.now() - timedelta(seconds=30))
    record(live, live.ingrid, "confirm", judge)
    client.force_login(judge)
    response = client.get(url(live.single))
    (seat,) = page_json(response, "judge-config")["seats"]
    assert seat["step"] == "confirmed" and seat["result"]["confirmed"]
    assert "data-correct-form" not in response.text
    client.force_login(factories.role(live.championship, Role.HEAD_JUDGE))
    response = client.get(url(live.single))
    assert "data-correct-form" in response.text and "Reason (required)" in response.text
    assert "Round dashboard" in response.text


def test_a_disqualified_entry_has_no_time_button(client, live, judge):
    head = factories.role(live.championship, Role.HEAD_JUDGE)
    record(live, live.ingrid, "dsq", head, reason="Sorting tray")
    client.force_login(judge)
    (seat,) = page_json(client.get(url(live.single)), "judge-config")["seats"]
    assert seat["step"] == "out"


# The later start ------------------------------------------------------------------------------


def start_url(table):
    return reverse("judging:start_now", kwargs={"token": table.token})


def test_a_head_judge_starts_one_entry_later(client, live):
    head = factories.role(live.championship, Role.HEAD_JUDGE)
    client.force_login(head)
    assert "Start now for this entry" in client.get(url(live.single)).text
    seat = Seat.objects.get(entry=live.ingrid)
    before = timezone.now()
    response = client.post(start_url(live.single), {"seat": seat.pk}, follow=True)
    assert response.redirect_chain[-1][0] == url(live.single)
    seat.refresh_from_db()
    assert seat.started_at >= before
    assert "Ingrid Hansen started at" in response.text
    (state,) = page_json(response, "judge-config")["seats"]
    assert state["startMs"] == int(seat.started_at.timestamp() * 1000)
    assert "Own start at" in response.text


def test_a_judge_cannot_give_a_later_start(client, live, judge):
    client.force_login(judge)
    seat = Seat.objects.get(entry=live.ingrid)
    assert client.post(start_url(live.single), {"seat": seat.pk}).status_code == 403
    seat.refresh_from_db()
    assert seat.started_at is None


def test_a_later_start_after_confirmation_is_refused_with_a_message(client, live, judge):
    record(live, live.ingrid, "finish", judge, at=timezone.now() - timedelta(seconds=30))
    record(live, live.ingrid, "confirm", judge)
    client.force_login(factories.role(live.championship, Role.ORGANISER))
    seat = Seat.objects.get(entry=live.ingrid)
    response = client.post(start_url(live.single), {"seat": seat.pk}, follow=True)
    assert "its start can no longer change" in response.text
    seat.refresh_from_db()
    assert seat.started_at is None


def test_a_later_start_only_for_a_seat_at_this_table(client, live):
    client.force_login(factories.role(live.championship, Role.HEAD_JUDGE))
    other = Seat.objects.get(entry=live.ola)
    assert client.post(start_url(live.single), {"seat": other.pk}).status_code == 404


# The round dashboard --------------------------------------------------------------------------


def dashboard_url(live):
    return reverse(
        "manage:dashboard",
        kwargs={"championship_slug": live.championship.slug, "round_key": live.round.key},
    )


def mark_url(live):
    return reverse(
        "manage:dashboard_mark",
        kwargs={"championship_slug": live.championship.slug, "round_key": live.round.key},
    )


def test_the_dashboard_is_for_head_judges_and_organisers(client, live, judge):
    response = client.get(dashboard_url(live))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(judge)
    assert client.get(dashboard_url(live)).status_code == 403
    client.force_login(factories.role(live.championship, Role.HEAD_JUDGE))
    assert client.get(dashboard_url(live)).status_code == 200
    client.force_login(factories.role(live.championship, Role.ORGANISER))
    assert client.get(dashboard_url(live)).status_code == 200


def test_the_dashboard_counts_entries_and_lists_every_capture(client, live, judge):
    record(live, live.ingrid, "finish", judge, at=timezone.now() - timedelta(seconds=30))
    record(live, live.ingrid, "confirm", judge)
    record(live, live.ola, "finish", judge, at=timezone.now() - timedelta(seconds=20))
    head = factories.role(live.championship, Role.HEAD_JUDGE, username="hedda")
    record(live, live.ingrid, "correction", head, time_ms=299_000, reason="Misread the clock")
    client.force_login(factories.role(live.championship, Role.ORGANISER))
    response = client.get(dashboard_url(live))
    text = response.text
    assert re.search(r"<strong>1</strong> confirmed", text)
    assert re.search(r"<strong>1</strong> awaiting confirmation", text)
    assert re.search(r"<strong>1</strong> still puzzling", text)
    for name in ("Ingrid Hansen", "Ola Berg", "Kari Lie"):
        assert name in text
    assert "0:04:59" in text  # the corrected time
    captures = text[text.index('id="captures-heading"') :]
    kinds = re.findall(
        r"<td>(Finish \(TIME\)|Confirmed by the entrant|Correction by a head judge)", captures
    )
    assert kinds == [
        "Finish (TIME)",
        "Confirmed by the entrant",
        "Finish (TIME)",
        "Correction by a head judge",
    ]
    assert "Misread the clock" in captures and "hedda" in captures and "judy" in captures
    assert 'hx-trigger="every 5s"' in text


def test_the_dashboard_refreshes_as_an_htmx_fragment(client, live, judge):
    record(live, live.ingrid, "finish", judge, at=timezone.now() - timedelta(seconds=30))
    client.force_login(factories.role(live.championship, Role.HEAD_JUDGE))
    response = client.get(dashboard_url(live), headers={"HX-Request": "true"})
    assert response.status_code == 200
    text = response.text
    assert text.lstrip().startswith('<div id="dashboard-live"')
    assert "<html" not in text and "mark-heading" not in text
    assert "Ingrid Hansen" in text and 'hx-get="' + dashboard_url(live) + '"' in text


def test_the_dashboard_shows_piece_counts_missing_at_time_up(client, live, judge):
    record(live, live.ingrid, "finish", judge, at=timezone.now() - timedelta(seconds=30))
    rounds.heat_close(heat=live.heat)
    record(live, live.ola, "pieces", judge, pieces_remaining=40)
    client.force_login(factories.role(live.championship, Role.HEAD_JUDGE))
    text = client.get(dashboard_url(live)).text
    assert re.search(r"<strong>1</strong> piece count missing at time-up", text)
    assert "460" in text  # Ola's counted pieces


def test_a_head_judge_disqualifies_from_the_dashboard_with_a_reason(client, live):
    head = factories.role(live.championship, Role.HEAD_JUDGE)
    client.force_login(head)
    response = client.post(
        mark_url(live),
        {"entry": live.kari.pk, "kind": "dsq", "reason": "Used a template"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == dashboard_url(live)
    capture = Capture.objects.get()
    assert (capture.kind, capture.judge, capture.reason) == ("dsq", head, "Used a template")
    assert Result.objects.get(entry=live.kari).status == "dsq"
    assert "Kari Lie: Disqualified" in response.text


def test_an_organiser_marks_did_not_start(client, live):
    client.force_login(factories.role(live.championship, Role.ORGANISER))
    client.post(mark_url(live), {"entry": live.ola.pk, "kind": "dns", "reason": "Not here"})
    assert Result.objects.get(entry=live.ola).status == "dns"


def test_a_mark_without_a_reason_changes_nothing(client, live):
    client.force_login(factories.role(live.championship, Role.HEAD_JUDGE))
    response = client.post(
        mark_url(live), {"entry": live.kari.pk, "kind": "dsq", "reason": ""}, follow=True
    )
    assert "This field is required." in response.text
    assert not Capture.objects.exists()


def test_a_mark_the_service_refuses_is_a_message(client, championship):
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    factories.heat(round_)
    entry = factories.entry(individual)  # not seated in the round
    client.force_login(factories.role(championship, Role.HEAD_JUDGE))
    response = client.post(
        reverse(
            "manage:dashboard_mark",
            kwargs={"championship_slug": championship.slug, "round_key": round_.key},
        ),
        {"entry": entry.pk, "kind": "dns", "reason": "Absent"},
        follow=True,
    )
    assert 'class="message error"' in response.text
    assert not Capture.objects.exists()


def test_a_judge_cannot_mark(client, live, judge):
    client.force_login(judge)
    response = client.post(mark_url(live), {"entry": live.kari.pk, "kind": "dsq", "reason": "x"})
    assert response.status_code == 403
    assert not Capture.objects.exists()


def test_once_everything_at_the_table_is_confirmed_after_time_up_no_heat_is_shown(
    client, live, judge
):
    record(live, live.ingrid, "finish", judge, at=timezone.now() - timedelta(seconds=30))
    rounds.heat_close(heat=live.heat)
    client.force_login(judge)
    assert page_json(client.get(url(live.single)), "judge-config")["seats"][0]["step"] == "review"
    record(live, live.ingrid, "confirm", judge)
    response = client.get(url(live.single))
    assert "No heat is running at this table." in response.text
    assert page_json(response, "judge-config")["seats"] == []
    client.force_login(factories.role(live.championship, Role.HEAD_JUDGE))
    (seat,) = page_json(client.get(url(live.single)), "judge-config")["seats"]
    assert seat["step"] == "confirmed"  # a head judge may still correct


def dm_heat_started(minutes_ago, *, checked_in=(True, True, False)):
    """A dm heat of three entries, started ``minutes_ago``, some of them checked in."""
    championship = factories.championship(slug="dm-late", ruleset="dm")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.order_by("order").first()
    heat = factories.heat(round_)
    entries = []
    for number, present in enumerate(checked_in, start=1):
        entry = factories.entry(
            individual,
            name=f"Entrant {number}",
            checked_in_at=timezone.now() if present else None,
        )
        Seat.objects.create(heat=heat, table=factories.table(championship), entry=entry)
        entries.append(entry)
    rounds.heat_start(heat=heat, at=timezone.now() - timedelta(minutes=minutes_ago))
    head = factories.role(championship, Role.HEAD_JUDGE)
    dashboard = reverse(
        "manage:dashboard", kwargs={"championship_slug": championship.slug, "round_key": round_.key}
    )
    return SimpleNamespace(round=round_, entries=entries, head=head, dashboard=dashboard)


def test_dm_flags_an_entrant_not_arrived_10_minutes_after_the_start(client):
    late = dm_heat_started(11)
    client.force_login(late.head)
    board = client.get(late.dashboard).context["board"]
    assert [(row.seat.entry.name, row.minutes) for row in board.late] == [("Entrant 3", 11)]
    text = client.get(late.dashboard).text
    assert "Not arrived 10 minutes after the start" in text and "Disqualify" in text


def test_one_tap_disqualifies_the_late_entrant_with_the_reason(client):
    late = dm_heat_started(11)
    client.force_login(late.head)
    mark = reverse(
        "manage:dashboard_mark",
        kwargs={"championship_slug": "dm-late", "round_key": late.round.key},
    )
    page = client.get(late.dashboard).text
    reason = re.search(r'name="reason" value="([^"]+)"', page).group(1)
    client.post(mark, {"entry": late.entries[2].pk, "kind": "dsq", "reason": reason})
    result = Result.objects.get(round=late.round, entry=late.entries[2])
    assert result.status == "dsq"
    assert Capture.objects.get(entry=late.entries[2]).reason == (
        "Not arrived 10 minutes after the start."
    )
    assert not client.get(late.dashboard).context["board"].late


@pytest.mark.parametrize(
    ("minutes_ago", "checked_in"),
    [(9, (True, True, False)), (11, (False, False, False))],
    ids=["before the 10 minutes", "check-in not used"],
)
def test_nobody_is_flagged_too_early_or_where_arrival_is_unknown(client, minutes_ago, checked_in):
    late = dm_heat_started(minutes_ago, checked_in=checked_in)
    client.force_login(late.head)
    assert client.get(late.dashboard).context["board"].late == []


def test_an_entrant_with_a_time_has_arrived(client):
    late = dm_heat_started(30)
    judge = factories.role(late.round.championship, Role.JUDGE)
    record(SimpleNamespace(round=late.round), late.entries[2], "finish", judge, at=timezone.now())
    client.force_login(late.head)
    assert client.get(late.dashboard).context["board"].late == []


def test_rogaland_flags_no_late_arrivals(client, live, judge):
    head = factories.role(live.championship, Role.HEAD_JUDGE)
    client.force_login(head)
    dashboard = reverse(
        "manage:dashboard",
        kwargs={"championship_slug": live.championship.slug, "round_key": live.round.key},
    )
    assert client.get(dashboard).context["board"].late == []
