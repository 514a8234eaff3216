"""``python manage.py demo`` builds a championship ready to click through, as often as asked."""

import re

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from championship.models import Championship, ChampionshipRole, Heat, Table
from judging.models import Capture
from registration.models import Entry
from results.models import Result

pytestmark = pytest.mark.django_db


def run_demo(capsys):
    call_command("demo")
    output = capsys.readouterr().out
    return dict(re.findall(r"user '(\w+)' password: (\S+)", output))


def test_demo_builds_the_championship_the_spec_describes(capsys):
    passwords = run_demo(capsys)
    demo = Championship.objects.get(slug="demo")
    assert demo.ruleset == "rogaland"
    assert sorted(demo.categories.values_list("kind", flat=True)) == ["individual", "pair", "team"]
    for category in demo.categories.all():
        entries = category.entries.filter(status=Entry.Status.CONFIRMED)
        assert entries.count() >= 6
        for entry in entries:
            assert category.min_members <= entry.members.count() <= category.max_members
    persons = demo.persons.all()
    assert any(p.region != "Rogaland" and not p.years_in_region for p in persons)  # unofficial
    under_16 = [p for p in persons if p.age_on(demo.local_date) < 16]
    assert under_16
    for person in under_16:
        assert all(entry.adult_name for entry in person.entries.all())
    assert all(
        re.fullmatch(r"[\w-]{22,}", t.token) for t in Table.objects.filter(championship=demo)
    )
    running = Heat.objects.get(round__championship=demo, state=Heat.State.RUNNING)
    assert Result.objects.filter(heat=running).exists()
    # The confirmed times are ranked by the rules; everyone else is still puzzling.
    finished = Result.objects.filter(heat=running, status="finished")
    assert sorted(finished.values_list("place", flat=True))[0] == 1
    assert all(result.place is not None for result in finished)
    puzzling = Result.objects.filter(heat=running, status="pending")
    assert puzzling.exists() and not puzzling.filter(place__isnull=False).exists()
    assert Capture.objects.filter(heat=running, kind=Capture.Kind.FINISH).count() == (
        Result.objects.filter(heat=running, status="finished").count()
    )
    roles = dict(
        ChampionshipRole.objects.filter(championship=demo).values_list("user__username", "role")
    )
    assert roles == {"organiser": "organiser", "judge": "judge"}
    for username, password in passwords.items():
        assert authenticate(username=username, password=password) is not None


def test_demo_runs_again_and_recreates_the_demo(capsys):
    first = run_demo(capsys)
    first_pk = Championship.objects.get(slug="demo").pk
    second = run_demo(capsys)
    assert Championship.objects.filter(slug="demo").count() == 1
    assert Championship.objects.get(slug="demo").pk != first_pk
    assert first["organiser"] != second["organiser"]
    assert authenticate(username="organiser", password=second["organiser"]) is not None
    assert authenticate(username="organiser", password=first["organiser"]) is None


def test_the_demo_pages_answer(client, capsys):
    passwords = run_demo(capsys)
    assert client.get("/demo/").status_code == 200
    assert client.get("/demo/manage/").status_code == 302
    assert client.login(username="organiser", password=passwords["organiser"])
    assert client.get("/demo/manage/").status_code == 200
    assert client.get("/admin/").status_code == 200
    table = Table.objects.filter(championship__slug="demo").first()
    assert client.login(username="judge", password=passwords["judge"])
    assert client.get(f"/t/{table.token}/").status_code == 200
