"""Provisional, then official: signing a round off, the protest window, corrections after it."""

import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from championship.errors import RoundStateError
from championship.models import ChampionshipRole, Round
from championship.services import tables_create
from control import rounds
from interchange.export import export_document
from interchange.format import InterchangeError
from interchange.write import import_document
from judging.capture_kinds import CaptureConflict, CaptureInput
from judging.models import Capture
from judging.services import capture_record
from results import official
from results.models import Result
from results.selectors import round_standings
from tests import factories
from tests.control.test_rounds import entrants, finish_all, seats_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def dm():
    """A dm championship whose individual prelim is run: 4 entries, the best 2 advance."""
    championship = factories.championship(slug="dm-2026", ruleset="dm")
    individual = championship.categories.get(kind="individual")
    prelim, final = individual.rounds.order_by("order")
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=2)
    prelim.refresh_from_db()
    tables_create(championship=championship, count=6)
    entrants(championship, individual, 4)
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    factories.ran_earlier(prelim)
    return championship, prelim, final


def closed(prelim, minutes=(43, 41, 42, 40)):
    """Close the round with every entry timed by a judge's taps, in registration order."""
    championship = prelim.championship
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE, username="timer")
    started = prelim.heats.get().started_at
    seated = Result.objects.filter(round=prelim).order_by("entry__registered_at")
    for result, minute in zip(seated, minutes, strict=True):
        at = started + timedelta(minutes=minute)
        capture_record(
            round_=prelim,
            entry=result.entry,
            judge=judge,
            data=CaptureInput(client_id=uuid.uuid4(), kind="finish", at=at),
            now=at,
        )
    rounds.round_close(round_=prelim)
    prelim.refresh_from_db()
    return prelim


def head_judge(championship, username="hj"):
    return factories.role(championship, ChampionshipRole.Role.HEAD_JUDGE, username=username)


def test_a_round_is_signed_off_only_when_time_is_up_and_every_entry_has_a_result(dm):
    championship, prelim, _final = dm
    user = head_judge(championship)
    with pytest.raises(RoundStateError, match="Time is not up"):
        official.round_sign_off(round_=prelim, by=user)
    rounds.round_close(round_=prelim)
    prelim.refresh_from_db()
    with pytest.raises(RoundStateError, match="4 entries have no result yet"):
        official.round_sign_off(round_=prelim, by=user)
    finish_all(prelim)
    prelim.refresh_from_db()
    version = prelim.version
    signed = official.round_sign_off(round_=prelim, by=user)
    assert signed.is_official and signed.state == Round.State.PUBLISHED
    assert signed.official_by == user and signed.official_at is not None
    # The pages that show the round learn it: a new version.
    assert signed.version == version + 1
    with pytest.raises(RoundStateError, match="already official"):
        official.round_sign_off(round_=signed, by=user)


def test_the_protest_window_runs_from_time_up(dm):
    championship, prelim, _final = dm
    championship.protest_window_minutes = 15
    championship.save()
    prelim = closed(prelim)
    time_up = prelim.heats.get().ended_at
    assert prelim.protests_until() == time_up + timedelta(minutes=15)
    with pytest.raises(RoundStateError, match="Entrants may protest until"):
        official.round_sign_off(round_=prelim, by=None, now=time_up + timedelta(minutes=14))
    signed = official.round_sign_off(round_=prelim, by=None, now=time_up + timedelta(minutes=15))
    assert signed.is_official and signed.official_by is None


def test_once_official_only_a_head_judges_correction_changes_a_result_and_it_shows(dm):
    championship, prelim, _final = dm
    prelim = closed(prelim)
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    boss = head_judge(championship)
    official.round_sign_off(round_=prelim, by=boss)
    prelim.refresh_from_db()
    result = Result.objects.filter(round=prelim).order_by("entry__registered_at").first()
    before = Capture.objects.count()
    # A head judge's disqualification is no correction: refused, like a judge's piece count.
    for user, data in (
        (boss, CaptureInput(client_id=uuid.uuid4(), kind="dsq", reason="late")),
        (judge, CaptureInput(client_id=uuid.uuid4(), kind="pieces", pieces_remaining=20)),
    ):
        with pytest.raises(CaptureConflict, match="official"):
            capture_record(round_=prelim, entry=result.entry, judge=user, data=data)
    assert Capture.objects.count() == before
    capture_record(
        round_=prelim,
        entry=result.entry,
        judge=boss,
        data=CaptureInput(
            client_id=uuid.uuid4(), kind="correction", time_ms=39 * 60_000, reason="Clock misread"
        ),
    )
    prelim.refresh_from_db()
    assert prelim.is_official
    assert [item["reason"] for item in prelim.corrections] == ["Clock misread"]
    standings = round_standings(prelim)
    assert standings["official"] is True
    assert [item["reason"] for item in standings["corrections"]] == ["Clock misread"]
    # The corrected time takes first place.
    assert standings["rows"][0]["entry"]["id"] == result.entry.ref


def test_the_results_page_says_provisional_then_official_and_q_shows_only_when_official(client, dm):
    championship, prelim, _final = dm
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("results:round", args=[championship.slug, prelim.key])
    prelim = closed(prelim)
    page = client.get(url).content.decode()
    assert 'data-results-state="provisional"' in page
    assert 'title="Qualified for the next round">Q</span>' not in page
    official.round_sign_off(round_=prelim, by=None)
    page = client.get(url).content.decode()
    assert 'data-results-state="official"' in page
    assert page.count('title="Qualified for the next round">Q</span>') == 2
    screen = client.get(reverse("results:screen", args=[championship.slug, prelim.key]))
    assert 'data-results-state="official"' in screen.content.decode()


def test_the_csv_says_whether_the_results_are_official(client, dm):
    championship, prelim, _final = dm
    prelim = closed(prelim)
    url = reverse("results:round_csv", args=[championship.slug, prelim.key])
    lines = client.get(url).content.decode("utf-8-sig").splitlines()
    header = lines[0].split(";")
    column = header.index("Resultatstatus")  # a Danish championship's file
    assert {line.split(";")[column] for line in lines[1:]} == {"foreløbige"}
    official.round_sign_off(round_=prelim, by=None)
    lines = client.get(url).content.decode("utf-8-sig").splitlines()
    assert {line.split(";")[column] for line in lines[1:]} == {"officielle"}


def test_the_api_signs_off_for_head_judges_and_asks_before_advancing_from_provisional(dm):
    championship, prelim, final = dm
    prelim = closed(prelim)
    api = APIClient()
    base = f"/api/v1/championships/{championship.slug}/rounds/{prelim.key}"
    results = api.get(f"/api/v1/championships/{championship.slug}/rounds/{prelim.key}/results/")
    assert results.status_code == 200
    assert results.json()["official"] is False and results.json()["official_at"] is None
    organiser = factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    api.force_authenticate(organiser)
    refused = api.post(f"{base}/advance/", {}, format="json")
    assert refused.status_code == 409 and "provisional" in refused.json()["detail"]
    assert not seats_of(final)
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    api.force_authenticate(judge)
    assert api.post(f"{base}/publish/", {}, format="json").status_code == 403
    api.force_authenticate(head_judge(championship))
    signed = api.post(f"{base}/publish/", {}, format="json")
    assert signed.status_code == 200 and signed.json()["state"] == "published"
    assert api.post(f"{base}/publish/", {}, format="json").status_code == 409
    api.force_authenticate(None)
    results = api.get(f"/api/v1/championships/{championship.slug}/rounds/{prelim.key}/results/")
    assert results.json()["official"] is True and results.json()["official_at"]
    api.force_authenticate(organiser)
    assert api.post(f"{base}/advance/", {}, format="json").status_code == 200
    assert len(seats_of(final)) == 2


def test_the_api_advances_from_provisional_results_when_told_so(dm):
    championship, prelim, final = dm
    closed(prelim)
    api = APIClient()
    api.force_authenticate(
        factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    )
    base = f"/api/v1/championships/{championship.slug}/rounds/{prelim.key}"
    answer = api.post(f"{base}/advance/", {"provisional": True}, format="json")
    assert answer.status_code == 200
    assert len(seats_of(final)) == 2


def test_the_control_room_signs_off_and_asks_before_advancing_from_provisional(client, dm):
    championship, prelim, final = dm
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    prelim = closed(prelim)
    organiser = factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    client.force_login(organiser)
    page = client.get(reverse("manage:round_control", args=[championship.slug, prelim.key]))
    html = page.content.decode()
    assert "Sign the results off" in html and 'name="provisional"' in html
    advance = reverse("manage:round_advance", args=[championship.slug, prelim.key])
    answer = client.post(advance, follow=True)
    assert "The results are provisional" in answer.content.decode()
    assert not seats_of(final)
    answer = client.post(
        reverse("manage:round_sign_off", args=[championship.slug, prelim.key]), follow=True
    )
    assert "The results are official since" in answer.content.decode()
    prelim.refresh_from_db()
    assert prelim.is_official and prelim.official_by == organiser
    html = answer.content.decode()
    assert 'name="provisional"' not in html and "signed off at" in html
    client.post(advance)
    assert len(seats_of(final)) == 2


def test_a_protest_window_disables_the_button_and_says_until_when(client, dm):
    championship, prelim, _final = dm
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    championship.protest_window_minutes = 30
    championship.save()
    prelim = closed(prelim)
    client.force_login(
        factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    )
    html = client.get(
        reverse("manage:round_control", args=[championship.slug, prelim.key])
    ).content.decode()
    assert "Entrants may protest until" in html and 'aria-describedby="sign-off-refusal"' in html
    answer = client.post(
        reverse("manage:round_sign_off", args=[championship.slug, prelim.key]), follow=True
    )
    assert "Entrants may protest until" in answer.content.decode()
    prelim.refresh_from_db()
    assert not prelim.is_official
    assert timezone.now() < prelim.protests_until()


def test_a_head_judge_signs_off_from_the_judging_dashboard_and_a_judge_cannot(client, dm):
    championship, prelim, _final = dm
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    prelim = closed(prelim)
    dashboard = reverse("manage:dashboard", args=[championship.slug, prelim.key])
    sign_off = reverse("manage:round_sign_off", args=[championship.slug, prelim.key])
    client.force_login(factories.role(championship, ChampionshipRole.Role.JUDGE, username="j"))
    assert client.post(sign_off, {"next": dashboard}).status_code == 403
    boss = head_judge(championship)
    client.force_login(boss)
    html = client.get(dashboard).content.decode()
    assert 'data-results-state="provisional"' in html and sign_off in html
    # A "next" to another site is not followed.
    answer = client.post(sign_off, {"next": "https://example.org/"})
    assert answer.status_code == 302 and answer["Location"] == dashboard
    prelim.refresh_from_db()
    assert prelim.is_official and prelim.official_by == boss
    html = client.get(dashboard).content.decode()
    assert 'data-results-state="official"' in html
    again = client.post(sign_off, {"next": dashboard}, follow=True)
    assert again.redirect_chain[-1][0] == dashboard
    assert "already official" in again.content.decode()


def test_the_openapi_schema_documents_the_sign_off_and_the_pace(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    standings = schema["components"]["schemas"]["RoundStandings"]["properties"]
    assert {"official", "official_at", "corrections"} <= set(standings)
    row = schema["components"]["schemas"]["StandingRow"]["properties"]
    assert row["pieces_per_minute"]["nullable"] is True
    action = schema["paths"][
        "/api/v1/championships/{championship_slug}/rounds/{round_key}/{action}/"
    ]
    parameters = {p["name"]: p for p in action["post"]["parameters"]}
    assert "publish" in parameters["action"]["schema"]["enum"]
    options = schema["components"]["schemas"]["RoundActionInput"]["properties"]
    assert "provisional" in options


def test_the_interchange_keeps_the_sign_off_and_the_protest_window(dm):
    championship, prelim, _final = dm
    championship.protest_window_minutes = 10
    championship.save()
    prelim = closed(prelim)
    until = prelim.protests_until()
    official.round_sign_off(round_=prelim, by=None, now=until)
    document = export_document(championship)
    assert document["championship"]["protest_window_minutes"] == 10
    exported = document["competitions"][0]["rounds"][0]
    assert exported["official_at"] is not None
    assert document["competitions"][0]["rounds"][1]["official_at"] is None
    again = import_document(document, replace=True)
    assert again.protest_window_minutes == 10
    restored = again.rounds.get(key=prelim.key)
    assert restored.is_official and restored.official_at == until
    assert not again.rounds.exclude(key=prelim.key).filter(official_at__isnull=False).exists()


def test_the_interchange_refuses_a_sign_off_of_a_round_that_is_not_over(dm):
    championship, _prelim, _final = dm
    document = export_document(championship)
    document["competitions"][0]["rounds"][0]["official_at"] = document["championship"]["starts_at"]
    with pytest.raises(InterchangeError) as refused:
        import_document(document, replace=True)
    assert refused.value.path == "competitions[0].rounds[0].official_at"
    assert "only once it is over" in refused.value.message
