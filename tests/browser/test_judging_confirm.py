"""On the phone: only the judge who timed an entrant (or a head judge) has them confirm it."""

import os
import uuid
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Seat
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from results.models import Result
from tests import factories
from tests.browser.conftest import forget_the_phone, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = os.environ.get("JUDGING_SCREENSHOTS")


@pytest.fixture
def timed(db):
    """A rogaland heat with one entrant whose time judy took; bo and a head judge also judge."""
    championship = factories.championship(slug="rm-confirm", name="RM confirmations")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    table = factories.table(championship)
    entry = factories.entry(individual, name="Ingrid Hansen")
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=table, entry=entry)
    heat = rounds.heat_start(heat=heat)
    heat.started_at = timezone.now() - timedelta(minutes=50)
    heat.save()
    judy = factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    capture_record(
        round_=round_,
        entry=entry,
        judge=judy,
        data=CaptureInput(
            client_id=uuid.uuid4(), kind="finish", at=heat.started_at + timedelta(minutes=42)
        ),
    )
    return SimpleNamespace(
        table=table,
        entry=entry,
        bo=factories.role(championship, ChampionshipRole.Role.JUDGE, username="bo"),
        head=factories.role(championship, ChampionshipRole.Role.HEAD_JUDGE, username="head"),
    )


def test_another_judge_sees_the_time_but_no_confirm_button(phone, live_server, timed):
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, "bo", timed.table.get_absolute_url())
    expect(phone.locator("[data-review-value]").first).to_have_text("0:42:00")
    expect(phone.get_by_role("button", name="Confirmed by the entrant")).to_be_hidden()
    # Nor may bo change judy's time.
    expect(phone.locator('[data-step-panel="review"] [data-action="edit"]')).to_be_hidden()
    expect(phone.locator("[data-review-source]")).to_contain_text(
        "Recorded by another judge: they, or a head judge, have the entrant confirm it."
    )
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        phone.screenshot(path=os.path.join(SCREENSHOTS, "confirm-other-judge.png"), full_page=True)
    assert Result.objects.get(entry=timed.entry).confirmed_at is None


def test_a_head_judge_may_have_the_entrant_confirm_it(phone, live_server, timed):
    forget_the_phone(phone, live_server)
    log_in(phone, live_server, "head", timed.table.get_absolute_url())
    phone.get_by_role("button", name="Confirmed by the entrant").click()
    expect(phone.locator(".confirmed-badge")).to_be_visible()
    expect(phone.locator("[data-save-state]")).to_have_text("saved")
    assert Result.objects.get(entry=timed.entry).confirmed_at is not None
