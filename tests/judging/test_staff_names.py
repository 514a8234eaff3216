"""Staff are shown by their names: the capture log, the count disputes, the sign-off, the refusals.

Staff added by a sign-in link get a generated user name (``greta-domare-802325``)
that nobody should read; an account with no name at all is shown by its user name.
"""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from championship import staff_links
from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from core.people import person_name
from judging.capture_kinds import CaptureConflict, CaptureInput
from judging.services import capture_record
from results import official
from tests import factories

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
START = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)
TIME_UP = START + timedelta(minutes=100)


@pytest.fixture
def sm(db):
    """An sm heat whose time is up (two judges count), its staff added by sign-in links."""
    championship = factories.championship(slug="sm-names", ruleset="sm")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.order_by("order").first()
    tables_create(championship=championship, count=7)
    entries = [
        factories.entry(
            individual,
            members=[factories.person(championship, name=name, citizenship=["SE"])],
            checked_in_at=START,
        )
        for name in ("Anna Ek", "Bo Lind", "Cia Berg", "Dag Ek", "Eva Lund", "Fia Ström")
    ]
    factories.started_heat(round_, started_at=START)
    organiser = factories.role(championship, Role.ORGANISER, username="kari")

    def staff(name, role):
        return staff_links.link_create(
            championship=championship, name=name, role=role, by=organiser, send=False
        ).user

    return {
        "championship": championship,
        "round": round_,
        "entries": entries,
        "organiser": organiser,
        "greta": staff("Greta Domare", Role.JUDGE),
        "gustav": staff("Gustav Domare", Role.JUDGE),
        "hugo": staff("Hugo Huvuddomare", Role.HEAD_JUDGE),
        "staff": staff,
    }


def count(sm, judge, entry, placed):
    capture_record(
        round_=sm["round"],
        entry=sm["entries"][entry],
        judge=judge,
        data=CaptureInput(client_id=uuid.uuid4(), kind="pieces", pieces_placed=placed),
        now=TIME_UP,
    )


def finish(sm, judge, entry, minutes):
    at = START + timedelta(minutes=minutes)
    capture_record(
        round_=sm["round"],
        entry=sm["entries"][entry],
        judge=judge,
        data=CaptureInput(client_id=uuid.uuid4(), kind="finish", at=at),
        now=at,
    )


def dashboard(client, sm, user) -> str:
    client.force_login(user)
    url = reverse(
        "manage:dashboard",
        kwargs={"championship_slug": sm["championship"].slug, "round_key": sm["round"].key},
    )
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_staff_links_generated_user_name_is_never_shown_when_the_person_has_a_name(sm):
    greta = sm["greta"]
    assert greta.get_username().startswith("greta-domare-")
    assert person_name(greta) == "Greta Domare"
    nameless = factories.user(username="judge-7")
    assert person_name(nameless) == "judge-7"
    named = factories.user(username="kn", first_name="Kari", last_name="Nordmann")
    assert person_name(named) == "Kari Nordmann"


def test_the_capture_log_and_the_dispute_box_name_the_judges(english, sm):
    finish(sm, sm["greta"], 1, 40)
    count(sm, sm["greta"], 0, 300)
    count(sm, sm["gustav"], 0, 310)
    page = dashboard(english, sm, sm["hugo"])
    assert "Greta Domare counted 300 pieces placed" in page
    assert "Gustav Domare counted 310 pieces placed" in page
    log = page[page.index('<table class="data captures">') :]
    assert "<td>Greta Domare</td>" in log and "<td>Gustav Domare</td>" in log
    for judge in (sm["greta"], sm["gustav"], sm["hugo"]):
        assert judge.get_username() not in page


def test_a_judge_without_a_name_is_shown_by_the_user_name(english, sm):
    plain = factories.role(sm["championship"], Role.JUDGE, username="domare-utan-namn")
    count(sm, plain, 1, 250)
    page = dashboard(english, sm, sm["hugo"])
    assert "<td>domare-utan-namn</td>" in page


def test_the_capture_log_reads_its_judges_in_the_same_queries_however_many_there_are(english, sm):
    counted = iter(range(len(sm["entries"])))

    def queries_with(entries: int) -> int:
        """Have two new judges count each of ``entries`` more entries; count the page's queries."""
        for _ in range(entries):
            entry = next(counted)
            for judge in range(2):
                judge = sm["staff"](f"Domare {entry}-{judge}", Role.JUDGE)
                count(sm, judge, entry, 200 + entry)
        english.force_login(sm["hugo"])
        url = reverse(
            "manage:dashboard",
            kwargs={"championship_slug": sm["championship"].slug, "round_key": sm["round"].key},
        )
        english.get(url)  # the first reading fills the caches
        with CaptureQueriesContext(connection) as queries:
            assert english.get(url).status_code == 200
        return len(queries)

    few = queries_with(1)
    many = queries_with(4)
    assert many == few


def test_a_refusal_names_the_judge_who_recorded_the_result(sm):
    finish(sm, sm["greta"], 1, 40)
    with pytest.raises(CaptureConflict) as refused:
        finish(sm, sm["gustav"], 1, 41)
    assert str(refused.value) == (
        "Greta Domare already recorded this entry's result: only a head judge can change it."
    )


def test_the_round_page_says_who_signed_the_results_off_by_name(english, sm):
    round_ = sm["round"]
    for entry in range(len(sm["entries"])):
        finish(sm, sm["greta"], entry, 40 + entry)
    rounds.round_close(round_=round_)
    official.round_sign_off(round_=round_, by=sm["hugo"], now=timezone.now() + timedelta(hours=1))
    english.force_login(sm["organiser"])
    url = reverse(
        "manage:round_control",
        kwargs={"championship_slug": sm["championship"].slug, "round_key": round_.key},
    )
    page = english.get(url).content.decode()
    assert "by Hugo Huvuddomare." in page
    assert sm["hugo"].get_username() not in page
