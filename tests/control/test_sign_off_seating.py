"""The sign-off waits while the next round's seating no longer matches who qualified.

Advancing from provisional results seats the next round; a withdrawal, or one
taken back, re-ranks the round after that. Its results are not signed off while
the next round seats others than its qualifiers: the refusal names them, in the
control room, the judging dashboard and the API (409), until the next round is
seated again, or has started (then its seating is settled).
"""

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from championship.errors import RoundStateError
from championship.models import ChampionshipRole, Heat, Round, Seat
from championship.services import tables_create
from control import rounds
from registration.models import Entry
from registration.services import entry_mark_walkover, entry_status_changed, entry_withdraw
from results import official
from results.models import Result
from results.services import standings_recompute
from tests import factories

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = ("Anna", "Bo", "Cilla", "Dag", "Eva")


@pytest.fixture
def dm():
    """A dm prelim run to time-up: Anna, Bo, Cilla, Dag, Eva in that order; three advance."""
    championship = factories.championship(slug="dm-2026", ruleset="dm")
    individual = championship.categories.get(kind="individual")
    prelim, final = individual.rounds.order_by("order")
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=3)
    tables_create(championship=championship, count=8)
    for minute, name in enumerate(NAMES):
        person = factories.person(championship, name=name)
        factories.entry(individual, members=[person], registered_at=T0 + timedelta(minutes=minute))
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    # Started long ago, so that time-up now is after the time limit.
    Heat.objects.filter(round=prelim).update(started_at=T0 - timedelta(hours=3))
    rounds.round_close(round_=prelim)
    for minute, name in enumerate(NAMES, start=40):
        Result.objects.filter(round=prelim, entry__name=name).update(
            status="finished", time_ms=minute * 60_000
        )
    standings_recompute(round_=prelim)
    prelim.refresh_from_db()
    return championship, prelim, final


def entry(name: str) -> Entry:
    return Entry.objects.get(name=name)


def seated(final: Round) -> set[str]:
    return set(Seat.objects.filter(round=final).values_list("entry__name", flat=True))


def refusal(prelim: Round) -> str | None:
    return official.sign_off_refusal(Round.objects.get(pk=prelim.pk))


def test_seated_as_qualified_the_round_is_signed_off(dm):
    _championship, prelim, final = dm
    rounds.round_advance(round_=prelim)
    assert seated(final) == {"Anna", "Bo", "Cilla"}
    assert refusal(prelim) is None
    assert official.round_sign_off(round_=prelim, by=None).is_official


def test_a_qualifier_withdrawn_after_advancing_names_who_qualifies_in_its_stead(dm):
    _championship, prelim, final = dm
    rounds.round_advance(round_=prelim)
    entry_withdraw(entry=entry("Bo"))
    # Bo takes no part and is not named; Dag, fourth, qualifies now.
    assert refusal(prelim) == (
        "The seating of Final no longer matches who qualified in this round: seat Final "
        "again, then sign the results off. Dag qualified but is not seated there."
    )
    with pytest.raises(RoundStateError, match="Dag qualified but is not seated there"):
        official.round_sign_off(round_=prelim, by=None)
    assert not Round.objects.get(pk=prelim.pk).is_official
    # Seated again from the qualifiers, the final matches: the sign-off goes ahead.
    rounds.round_seat(round_=final)
    assert seated(final) == {"Anna", "Cilla", "Dag"}
    assert official.round_sign_off(round_=prelim, by=None).is_official


def test_a_withdrawal_taken_back_names_both_sides(dm):
    _championship, prelim, final = dm
    cilla = entry("Cilla")
    entry_withdraw(entry=cilla)
    rounds.round_advance(round_=prelim)
    assert seated(final) == {"Anna", "Bo", "Dag"}
    # The organiser takes the withdrawal back: Cilla qualifies again, Dag no longer.
    Entry.objects.filter(pk=cilla.pk).update(status=Entry.Status.CONFIRMED)
    entry_status_changed(entry=entry("Cilla"), before=Entry.Status.WITHDRAWN)
    assert refusal(prelim) == (
        "The seating of Final no longer matches who qualified in this round: seat Final "
        "again, then sign the results off. Cilla qualified but is not seated there. "
        "Dag is seated there but no longer qualifies."
    )


def test_several_names_are_listed_in_standing_order(dm):
    _championship, prelim, _final = dm
    rounds.round_advance(round_=prelim)
    entry_withdraw(entry=entry("Anna"))
    entry_withdraw(entry=entry("Bo"))
    assert refusal(prelim).endswith("Dag, Eva qualified but are not seated there.")


def test_a_walkover_seated_in_the_next_round_is_not_held_against_its_seating(dm):
    """A walk-over takes no part: the refusal names at most who qualifies in its stead."""
    _championship, prelim, final = dm
    rounds.round_advance(round_=prelim)
    entry_mark_walkover(entry=entry("Anna"), reason="Did not come to the final")
    assert "Anna" not in (refusal(prelim) or "")
    # Seated again (before the final starts), the sign-off goes ahead.
    rounds.round_seat(round_=final)
    assert refusal(prelim) is None


def test_once_the_next_round_has_started_its_seating_no_longer_blocks_the_sign_off(dm):
    _championship, prelim, final = dm
    rounds.round_advance(round_=prelim)
    entry_withdraw(entry=entry("Bo"))
    assert refusal(prelim) is not None
    rounds.round_start(round_=final)
    assert refusal(prelim) is None
    assert official.round_sign_off(round_=prelim, by=None).is_official


def test_the_control_room_shows_the_refusal_and_keeps_the_button_off(client, dm):
    championship, prelim, _final = dm
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    rounds.round_advance(round_=prelim)
    entry_withdraw(entry=entry("Bo"))
    client.force_login(
        factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    )
    page = reverse("manage:round_control", args=[championship.slug, prelim.key])
    html = client.get(page).content.decode()
    assert 'aria-describedby="sign-off-refusal"' in html
    assert "Dag qualified but is not seated there." in html
    answer = client.post(
        reverse("manage:round_sign_off", args=[championship.slug, prelim.key]), follow=True
    )
    assert "Dag qualified but is not seated there." in answer.content.decode()
    assert not Round.objects.get(pk=prelim.pk).is_official


def test_the_judging_dashboard_shows_the_refusal_to_a_head_judge(client, dm):
    championship, prelim, _final = dm
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    rounds.round_advance(round_=prelim)
    entry_withdraw(entry=entry("Bo"))
    client.force_login(
        factories.role(championship, ChampionshipRole.Role.HEAD_JUDGE, username="hj")
    )
    html = client.get(
        reverse("manage:dashboard", args=[championship.slug, prelim.key])
    ).content.decode()
    assert "Dag qualified but is not seated there." in html


def test_the_api_answers_the_sign_off_409_with_the_refusal(dm):
    championship, prelim, _final = dm
    rounds.round_advance(round_=prelim)
    entry_withdraw(entry=entry("Bo"))
    api = APIClient()
    api.force_authenticate(
        factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    )
    answer = api.post(
        f"/api/v1/championships/{championship.slug}/rounds/{prelim.key}/publish/",
        {},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 409
    assert "Dag qualified but is not seated there." in answer.json()["detail"]
    assert not Round.objects.get(pk=prelim.pk).is_official
