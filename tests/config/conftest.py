"""The hostile-input sweep's fixtures: the championship under way, and the forms counted."""

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django import forms
from django.test import Client
from django.utils import timezone

from championship import staff_links
from championship.models import ChampionshipRole, Seat
from championship.services import tables_create
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from results.services import standings_recompute
from tests import factories
from tests.config.hostile import (
    FORMS_MAX,
    TooManyForms,
    World,
    harvest,
)
from tests.factories import NEXT_YEAR
from tests.paths import DATA

Role = ChampionshipRole.Role


@pytest.fixture
def world(db):
    """Championship A under way (a heat started, a result, a staff link); championship B."""
    a = factories.championship(slug="a", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC))
    b = factories.championship(slug="b", ruleset="sm")
    individual = a.categories.get(kind="individual")
    tables_create(championship=a, count=4)
    entry = factories.entry(individual, publish_consent=True)
    factories.entry(individual, publish_consent=True)
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    rounds.seating_publish(round_=final)
    (heat,) = rounds.round_start(round_=final)
    heat.started_at = timezone.now() - timedelta(minutes=30)
    heat.save()
    organiser = factories.role(a, Role.ORGANISER)
    judge = factories.role(a, Role.JUDGE)
    capture_record(
        round_=final,
        entry=entry,
        judge=judge,
        data=CaptureInput(
            client_id=str(uuid.UUID(int=1)), kind="finish", at=timezone.now() - timedelta(seconds=5)
        ),
    )
    standings_recompute(round_=final)
    seat = Seat.objects.filter(round=final, entry=entry).get()
    link = staff_links.link_create(championship=a, name="Kari", role=Role.JUDGE, by=organiser)
    superuser = factories.user(is_superuser=True, is_staff=True)
    values = {
        "championship_slug": a.slug,
        "round_key": final.key,
        "category_key": "individual",
        "heat_key": heat.key,
        "seat": seat.pk,
        "pk": entry.pk,
        "number": seat.table.number,
        "action": "start",
        "uidb64": "MQ",
        "link": link.pk,
        "judge_id": judge.pk,
    }
    tokens = {
        "judging:table": seat.table.token,
        "judging:table_state": seat.table.token,
        "judging:start_now": seat.table.token,
        "results:entry_page": entry.manage_token,
        "registration:withdraw": entry.manage_token,
        ":sign_in": staff_links.sign_in_token(link),
        ":password_reset_confirm": "set-password",
    }
    capture = {
        "id": str(uuid.UUID(int=2)),
        "round": final.key,
        "entry": entry.ref,
        "kind": "finish",
        "at": timezone.now().isoformat(),
        "missing_found": 0,
        "missing_lost": 0,
    }
    document = json.loads((DATA / "interchange" / "small.json").read_text("utf-8"))
    api_bodies = {
        "api:championship-list": {
            "preset": "rogaland",
            "name": "New",
            "slug": "new",
            "starts_at": f"{NEXT_YEAR}-05-01T09:00:00Z",
            "categories": [{"kind": "individual", "capacity": 10, "fee": "100.00"}],
        },
        "api:championship-import": document,
        "api:entry-register": {
            "name": "Ola",
            "members": [{"name": "Ola", "email": "ola@example.org", "birth_date": "1990-01-01"}],
            "publish_consent": True,
        },
        "api:round-action": {"heat": heat.key, "heats": 1, "heat_sizes": [2]},
        "api:captures": capture,
        "api:judges": {"name": "Per", "email": "per@example.org", "role": "judge"},
        "api:judge": {},
    }
    users = {
        "organiser": organiser,
        "organiser of another championship": factories.role(b, Role.ORGANISER),
        "superuser": superuser,
    }
    return World(values=values, tokens=tokens, users=users, api_bodies=api_bodies)


@pytest.fixture
def harvested(world):
    """The world, with every page read as its organiser: their forms and links' query names."""
    harvest(world, Client(), world.users["organiser"])
    return world


@pytest.fixture
def counted_forms(monkeypatch):
    """Count the forms each request builds; stop one that builds more than FORMS_MAX."""
    count = {"forms": 0}
    init = forms.BaseForm.__init__

    def counting_init(self, *args, **kwargs):
        count["forms"] += 1
        if count["forms"] > FORMS_MAX:
            raise TooManyForms(f"more than {FORMS_MAX} forms")
        init(self, *args, **kwargs)

    monkeypatch.setattr(forms.BaseForm, "__init__", counting_init)
    return count
