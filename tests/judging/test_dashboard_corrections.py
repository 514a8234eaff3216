"""The judging dashboard: a head judge corrects any result of any heat; a heat not started waits."""

import re
import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from championship.models import ChampionshipRole, Round
from championship.services import tables_create
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.models import Capture
from judging.services import capture_record
from registration.models import Entry
from results.models import Result
from results.services import standings_ensure
from tests import factories

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
NEXT_ROUND_SEATED = "The next round is seated from this round's results: they can no longer change."


@pytest.fixture
def client(client):
    """A browser that asked for English."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def floor(ruleset="sm", entrants=4, heats=1):
    """A first round seated in ``heats`` heats, the first started 45 minutes ago; the staff."""
    championship = factories.championship(slug=f"{ruleset}-dash", ruleset=ruleset)
    category = championship.categories.get(kind="individual")
    round_ = category.rounds.order_by("order").first()
    tables_create(championship=championship, count=entrants + 1)
    for _ in range(entrants):
        person = factories.person(championship, region="Rogaland", citizenship=["SE"])
        factories.entry(category, members=[person], checked_in_at=timezone.now())
    rounds.round_seat(round_=round_, plan=rounds.SeatingPlan(heats=heats))
    heat = round_.heats.order_by("order").first()
    heat = rounds.heat_start(heat=heat, at=timezone.now() - timedelta(minutes=45))
    return SimpleNamespace(
        championship=championship,
        category=category,
        round=round_,
        heat=heat,
        entries=list(Entry.objects.filter(seats__heat=heat).order_by("seats__table__number")),
        judge=factories.role(championship, Role.JUDGE, username=f"{ruleset}-judy"),
        head=factories.role(championship, Role.HEAD_JUDGE, username=f"{ruleset}-hedda"),
    )


def finish(live, entry, minutes, by=None):
    capture_record(
        round_=live.round,
        entry=entry,
        judge=by or live.judge,
        data=CaptureInput(
            client_id=uuid.uuid4(),
            kind="finish",
            at=live.heat.started_at + timedelta(minutes=minutes),
        ),
    )


def dashboard_url(live):
    return reverse(
        "manage:dashboard",
        kwargs={"championship_slug": live.championship.slug, "round_key": live.round.key},
    )


def correct_url(live):
    return reverse(
        "manage:dashboard_correct",
        kwargs={"championship_slug": live.championship.slug, "round_key": live.round.key},
    )


def result_of(live, entry) -> Result:
    standings_ensure(live.round)
    return Result.objects.get(round=live.round, entry=entry)


def correction(entry, **fields):
    return {
        "entry": entry.pk,
        "time": "0:39:00",
        "missing_found": "0",
        "missing_lost": "0",
        "pieces_placed": "",
        "status": "finished",
        "reason": "Misread the clock",
        **fields,
    }


def first_form(text):
    form = text[text.index('<details class="row-correct"') :]
    return form[: form.index("</details>")]


def test_every_started_row_offers_a_correction_form(client):
    live = floor(heats=2)
    finish(live, live.entries[0], 40)
    client.force_login(live.head)
    text = client.get(dashboard_url(live)).text
    assert text.count('<details class="row-correct"') == len(live.entries)
    form = first_form(text)
    assert 'name="time" value="0:40:00"' in form
    assert 'name="reason"' in form and "Reason (required)" in form
    assert 'name="status"' in form and '<option value="finished" selected>' in form
    # sm: the pieces missing at TIME, neither found later nor adjacent.
    assert 'name="missing_found"' not in form and 'name="adjacent_missing"' not in form
    assert ">Missing pieces<" in form


def test_the_correction_form_asks_what_the_preset_asks(client):
    live = floor(ruleset="dm")
    finish(live, live.entries[0], 40)
    client.force_login(live.head)
    form = first_form(client.get(dashboard_url(live)).text)
    assert "Missing pieces found later" in form and "Missing pieces lost" in form
    assert "Of the lost, adjacent (no penalty)" in form and 'name="adjacent_missing"' in form


def test_a_correction_in_a_closed_round_is_stored(client):
    live = floor()
    first, second = live.entries[:2]
    finish(live, first, 40)
    finish(live, second, 41)
    capture_record(
        round_=live.round,
        entry=first,
        judge=live.judge,
        data=CaptureInput(client_id=uuid.uuid4(), kind="confirm"),
    )
    rounds.round_close(round_=live.round)
    live.round.refresh_from_db()
    assert live.round.state == Round.State.CLOSED
    client.force_login(live.head)
    response = client.post(
        correct_url(live), correction(first, time="0:39:30", missing_lost="1"), follow=True
    )
    assert response.redirect_chain[-1][0] == f"{dashboard_url(live)}#result-{first.pk}"
    capture = Capture.objects.filter(kind="correction").get()
    assert (capture.judge, capture.entry, capture.reason) == (live.head, first, "Misread the clock")
    assert (capture.elapsed_ms, capture.missing_lost) == (39 * 60_000 + 30_000, 1)
    result = result_of(live, first)
    assert (result.status, result.time_ms, result.missing_lost) == ("finished", 2_370_000, 1)
    assert f"The correction of {first.name} is recorded." in response.text
    assert "0:39:30" in response.text


def test_a_correction_sets_the_status_and_counts_of_an_entry_never_recorded(client):
    live = floor()
    entry = live.entries[2]
    rounds.round_close(round_=live.round)
    client.force_login(live.head)
    client.post(
        correct_url(live),
        correction(entry, time="", status="unfinished", pieces_placed="300"),
    )
    result = result_of(live, entry)
    assert (result.status, result.pieces_placed) == ("unfinished", 300)


def test_a_correction_without_a_reason_is_refused_and_keeps_what_was_typed(client):
    live = floor()
    entry = live.entries[0]
    finish(live, entry, 40)
    client.force_login(live.head)
    response = client.post(correct_url(live), correction(entry, time="0:38:12", reason=" "))
    assert response.status_code == 200
    assert not Capture.objects.filter(kind="correction").exists()
    assert result_of(live, entry).time_ms == 40 * 60_000
    text = response.text
    row = text[text.index(f'id="result-{entry.pk}"') :]
    row = row[: row.index("</tr>")]
    assert '<details class="row-correct" open>' in row
    assert "A correction needs a reason." in row
    assert 'value="0:38:12"' in row
    # The other rows' forms stay closed.
    assert text.count('<details class="row-correct" open>') == 1


def test_a_time_that_is_not_h_mm_ss_is_refused_at_its_field(client):
    live = floor()
    entry = live.entries[0]
    finish(live, entry, 40)
    client.force_login(live.head)
    response = client.post(correct_url(live), correction(entry, time="39 minutes"))
    assert "Give the time as H:MM:SS." in response.text
    assert not Capture.objects.filter(kind="correction").exists()


def test_a_correction_after_the_next_round_is_seated_is_refused_with_the_services_message(
    client,
):
    live = floor()
    for index, minutes in enumerate((40, 41, 42, 43)):
        finish(live, live.entries[index], minutes)
    rounds.round_set_advance(round_=live.round, advance="overall", count=2, best_remaining=None)
    rounds.round_close(round_=live.round)
    rounds.round_advance(round_=live.round)
    client.force_login(live.head)
    entry = live.entries[0]
    response = client.post(correct_url(live), correction(entry, time="0:44:00"))
    row = response.text[response.text.index(f'id="result-{entry.pk}"') :]
    assert escape(NEXT_ROUND_SEATED) in row[: row.index("</tr>")]
    assert not Capture.objects.filter(kind="correction").exists()
    assert result_of(live, entry).time_ms == 40 * 60_000
    # The dashboard says so and offers no correction any more.
    text = client.get(dashboard_url(live)).text
    assert NEXT_ROUND_SEATED in text
    assert '<details class="row-correct"' not in text


def test_a_judge_cannot_correct(client):
    live = floor()
    entry = live.entries[0]
    finish(live, entry, 40)
    client.force_login(live.judge)
    response = client.post(correct_url(live), correction(entry))
    assert response.status_code == 403
    assert not Capture.objects.filter(kind="correction").exists()


def test_an_entry_not_in_the_round_is_refused_above_the_dashboard(client):
    live = floor()
    stranger = factories.entry(live.category)
    client.force_login(live.head)
    response = client.post(correct_url(live), correction(stranger))
    assert response.status_code == 200
    assert 'class="message error"' in response.text
    assert not Capture.objects.filter(kind="correction").exists()


# A heat not started ---------------------------------------------------------------------------


def test_the_entrants_of_a_heat_not_started_are_waiting_not_puzzling(client):
    live = floor(heats=2)
    client.force_login(live.head)
    text = client.get(dashboard_url(live)).text
    heat_a = text[text.index('id="heat-a"') : text.index('id="heat-b"')]
    heat_b = text[text.index('id="heat-b"') : text.index('id="captures-heading"')]
    assert re.search(r"<strong>2</strong> still puzzling", heat_a)
    assert "still puzzling" not in heat_b and "Puzzling" not in heat_b
    assert re.search(r"<strong>2</strong> waiting for the start", heat_b)
    assert heat_b.count("Waiting for the start") == 2
    # Nothing to correct before the start.
    assert '<details class="row-correct"' not in heat_b
    assert "Heat B" in heat_b


def test_a_no_show_before_the_start_is_not_waiting(client):
    live = floor(heats=2)
    heat_b = live.round.heats.get(key="b")
    absent = Entry.objects.filter(seats__heat=heat_b).order_by("pk").first()
    capture_record(
        round_=live.round,
        entry=absent,
        judge=live.head,
        data=CaptureInput(client_id=uuid.uuid4(), kind="dns", reason="Ill"),
    )
    client.force_login(live.head)
    text = client.get(dashboard_url(live)).text
    heat_b_text = text[text.index('id="heat-b"') : text.index('id="captures-heading"')]
    assert re.search(r"<strong>1</strong> waiting for the start", heat_b_text)
    assert re.search(r"<strong>1</strong> did not start or disqualified", heat_b_text)


def test_after_time_up_nobody_is_called_puzzling(client):
    live = floor()
    finish(live, live.entries[0], 40)
    rounds.heat_close(heat=live.heat)
    client.force_login(live.head)
    text = client.get(dashboard_url(live)).text
    board = text[text.index('id="heat-a"') : text.index('id="captures-heading"')]
    assert re.search(r"<strong>3</strong> piece counts missing at time-up", board)
    assert "puzzling" not in board.lower()
    assert board.count("No piece count yet") == 3


def test_a_correction_before_the_heat_starts_is_refused_at_its_row(client):
    live = floor(heats=2)
    waiting = Entry.objects.filter(seats__heat__key="b", seats__round=live.round).first()
    client.force_login(live.head)
    response = client.post(correct_url(live), correction(waiting))
    row = response.text[response.text.index(f'id="result-{waiting.pk}"') :]
    assert escape("The entry's heat has not started.") in row[: row.index("</tr>")]
    assert not Capture.objects.filter(kind="correction").exists()
