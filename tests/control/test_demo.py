"""``python manage.py demo`` builds championships ready to click through, afresh or kept."""

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.utils import timezone

from championship.models import Championship, ChampionshipRole, Heat, Table
from control import demo
from core import lan
from judging.models import Capture
from registration.models import Entry
from registration.places import registration_state
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


# Kept or afresh: `make run` keeps the demo, `python manage.py demo` recreates it ---------------


@pytest.fixture
def passwords_file(tmp_path, monkeypatch):
    """Keep the demo's passwords in a file of the test's own, as beside db.sqlite3."""
    path = tmp_path / "db.sqlite3-demo-passwords.json"
    monkeypatch.setattr(demo, "passwords_file", lambda: path)
    return path


def run_demo_keeping(capsys, *args):
    call_command("demo", "--keep", *args)
    output = capsys.readouterr().out
    return dict(re.findall(r"user '(\w+)' password: (\S+)", output)), output


def test_keep_builds_the_demo_when_there_is_none(capsys, passwords_file):
    passwords, output = run_demo_keeping(capsys)
    assert Championship.objects.filter(slug__in=["demo", "demo-sm"]).count() == 2
    assert "built afresh" in output
    for username, password in passwords.items():
        assert authenticate(username=username, password=password) is not None
    assert json.loads(passwords_file.read_text()) == passwords
    assert passwords_file.stat().st_mode & 0o077 == 0, "only the owner may read the passwords"


def test_keep_leaves_the_demo_and_the_passwords_so_phones_stay_logged_in(
    client, capsys, passwords_file
):
    first = run_demo(capsys)
    demo_pk = Championship.objects.get(slug="demo").pk
    captures = Capture.objects.count()
    assert client.login(username="judge", password=first["judge"])
    table = Table.objects.filter(championship__slug="demo").first()
    assert client.get(f"/t/{table.token}/").status_code == 200

    kept, output = run_demo_keeping(capsys)
    assert kept == first
    assert "kept as it was" in output
    assert Championship.objects.get(slug="demo").pk == demo_pk
    assert Capture.objects.count() == captures
    assert client.get(f"/t/{table.token}/").status_code == 200, "the judge is still logged in"

    afresh = run_demo(capsys)
    assert afresh["judge"] != first["judge"]
    assert Championship.objects.get(slug="demo").pk != demo_pk
    table = Table.objects.filter(championship__slug="demo").first()
    assert client.get(f"/t/{table.token}/").status_code == 302, "new passwords log phones out"


def test_keep_without_the_passwords_file_gives_new_passwords_that_work(capsys, monkeypatch):
    monkeypatch.setattr(demo, "passwords_file", lambda: None)  # e.g. on PostgreSQL
    first = run_demo(capsys)
    kept, _output = run_demo_keeping(capsys)
    assert kept["organiser"] != first["organiser"]
    assert authenticate(username="organiser", password=kept["organiser"]) is not None


def test_no_passwords_file_is_written_for_a_database_that_is_not_an_sqlite_file():
    assert demo.passwords_file() is None  # the test database: in memory, or PostgreSQL in CI


def test_the_demo_has_a_championship_whose_registration_is_open(client, capsys):
    run_demo(capsys)
    sm = Championship.objects.get(slug="demo-sm")
    now = timezone.now()
    assert sm.effective_registration_deadline() > now + timedelta(days=7)
    assert {registration_state(c) for c in sm.categories.all()} == {"open"}
    page = client.get("/demo-sm/register/individual/")
    assert page.status_code == 200
    assert b"<form" in page.content
    home = client.get("/").content.decode()
    assert sm.name in home and "Rogalandsmesterskapet" in home


def test_the_open_championship_is_open_whenever_the_demo_is_built(capsys, monkeypatch):
    later = timezone.now() + timedelta(days=3 * 365)
    monkeypatch.setattr(timezone, "now", lambda: later)
    run_demo(capsys)
    sm = Championship.objects.get(slug="demo-sm")
    assert {registration_state(c, now=later) for c in sm.categories.all()} == {"open"}


def test_keep_builds_the_open_championship_anew_once_its_registration_has_closed(
    capsys, passwords_file
):
    run_demo(capsys)
    running = Championship.objects.get(slug="demo").pk
    closed = Championship.objects.get(slug="demo-sm")
    closed.registration_deadline = timezone.now() - timedelta(hours=1)
    closed.save(update_fields=["registration_deadline"])
    run_demo_keeping(capsys)
    sm = Championship.objects.get(slug="demo-sm")
    assert sm.pk != closed.pk
    assert {registration_state(c) for c in sm.categories.all()} == {"open"}
    assert Championship.objects.get(slug="demo").pk == running


# The summary: the addresses and passwords, last and framed ----------------------------------


def test_the_summary_ends_the_output_framed_with_the_addresses_and_passwords(capsys):
    call_command("demo", "--address", "127.0.0.1:8000")
    lines = capsys.readouterr().out.strip().splitlines()
    rules = [number for number, line in enumerate(lines) if line and set(line) == {"="}]
    assert len(rules) == 2 and rules[1] == len(lines) - 1, "the frame closes the output"
    text = "\n".join(lines[rules[0] + 1 : -1])
    assert "user 'organiser' password:" in text and "user 'judge' password:" in text
    assert "http://127.0.0.1:8000/demo/" in text and "http://127.0.0.1:8000/demo-sm/" in text
    assert "make run HOST=0.0.0.0" in text


def test_on_all_addresses_the_summary_gives_the_address_for_phones(capsys, monkeypatch):
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.23")
    call_command("demo", "--address", "0.0.0.0:8123")
    output = capsys.readouterr().out
    assert "Phones on the same network open: http://192.168.1.23:8123/" in output
    assert "SITE_URL=http://192.168.1.23:8123" in output
    assert "http://127.0.0.1:8123/demo/" in output


def test_without_a_lan_address_the_summary_says_how_to_find_it(capsys, monkeypatch):
    monkeypatch.setattr(lan, "lan_address", lambda: None)
    call_command("demo", "--address", "0.0.0.0:8000")
    output = capsys.readouterr().out
    assert "was not found" in output and "http://ADDRESS:8000/" in output
