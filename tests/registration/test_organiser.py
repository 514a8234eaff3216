"""The organiser's entry list with its actions, and the check-in desk."""

from datetime import UTC, date, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from championship.models import Category, ChampionshipRole
from registration.models import Entry
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

ORGANISER = ChampionshipRole.Role.ORGANISER


@pytest.fixture
def future(db):
    """A rogaland championship far enough ahead that registration is open."""
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


@pytest.fixture
def organiser_client(client, future):
    client.force_login(factories.role(future, ORGANISER, username="desk"))
    return client


@pytest.fixture
def individual(future):
    return future.categories.get(key="individual")


def url(championship, suffix=""):
    return f"/{championship.slug}/manage/{suffix}"


def adult(championship, name, **kwargs):
    kwargs.setdefault("birth_date", date(1980, 1, 1))
    kwargs.setdefault("region", "Rogaland")
    return factories.person(championship, name=name, **kwargs)


def names_listed(response) -> list[str]:
    """Return the entry names of the list's rows, in order."""
    return [row.entry.name for row in response.context["listing"].rows]


# Permissions ----------------------------------------------------------------------------------

PAGES = ["entries/", "entries/export.csv", "entries/import/", "checkin/"]
ACTIONS = ["promote", "payment", "withdraw", "walkover"]


def _action_paths(entry):
    return [f"entries/{entry.pk}/{action}/" for action in ACTIONS] + [f"checkin/{entry.pk}/"]


@pytest.mark.parametrize("page", PAGES)
def test_anonymous_visitors_are_sent_to_the_login_page(client, future, page):
    response = client.get(url(future, page))
    assert response.status_code == 302
    assert response.url.startswith(f"/accounts/login/?next=/{future.slug}/manage/")


@pytest.mark.parametrize("page", PAGES)
def test_a_judge_is_refused(client, future, page):
    client.force_login(factories.role(future, ChampionshipRole.Role.JUDGE))
    assert client.get(url(future, page)).status_code == 403


@pytest.mark.parametrize("page", PAGES)
def test_another_championships_organiser_is_refused(client, future, page):
    other = factories.championship(starts_at=datetime(NEXT_YEAR, 5, 1, tzinfo=UTC))
    client.force_login(factories.role(other, ORGANISER))
    assert client.get(url(future, page)).status_code == 403


@pytest.mark.parametrize("page", PAGES)
def test_the_organiser_gets_the_page(organiser_client, future, page):
    assert organiser_client.get(url(future, page)).status_code == 200


def test_the_import_preview_is_for_organisers_only(client, future):
    path = url(future, "entries/import/some-token/")
    assert client.get(path).status_code == 302
    client.force_login(factories.role(future, ChampionshipRole.Role.JUDGE))
    assert client.get(path).status_code == 403
    assert client.post(path, {"action": "import"}).status_code == 403


def test_actions_are_for_organisers_only_and_change_nothing_otherwise(client, future, individual):
    entry = factories.entry(individual, status="waitlisted")
    for path in _action_paths(entry):
        response = client.post(url(future, path), {"status": "paid", "confirm": "yes"})
        assert response.status_code == 302 and "/accounts/login/" in response.url
    other = factories.championship(starts_at=datetime(NEXT_YEAR, 5, 1, tzinfo=UTC))
    for user in (
        factories.role(future, ChampionshipRole.Role.JUDGE),
        factories.role(other, ORGANISER),
    ):
        client.force_login(user)
        for path in _action_paths(entry):
            data = {"status": "paid", "confirm": "yes", "reason": "late"}
            assert client.post(url(future, path), data).status_code == 403
    entry.refresh_from_db()
    assert (entry.status, entry.payment_status, entry.checked_in_at) == (
        "waitlisted",
        "unpaid",
        None,
    )


def test_actions_refuse_get(organiser_client, future, individual):
    entry = factories.entry(individual)
    assert organiser_client.get(url(future, f"entries/{entry.pk}/withdraw/")).status_code == 405


def test_an_entry_of_another_championship_is_not_found(organiser_client, future):
    other = factories.championship(starts_at=datetime(NEXT_YEAR, 5, 1, tzinfo=UTC))
    stranger = factories.entry(other.categories.get(key="individual"))
    response = organiser_client.post(
        url(future, f"entries/{stranger.pk}/withdraw/"), {"confirm": "yes"}
    )
    assert response.status_code == 404
    stranger.refresh_from_db()
    assert stranger.status == "confirmed"


# The list, its filters and its search ---------------------------------------------------------


@pytest.fixture
def varied(future, individual):
    """Five individual entries that differ in every filtered respect."""
    kari = factories.entry(
        individual,
        members=[adult(future, "Kari Nordmann", email="kari@example.org")],
        payment_status="paid",
        payment_reference="VIPPS-4711",
        checked_in_at=datetime(NEXT_YEAR, 3, 14, 8, tzinfo=UTC),
    )
    bergen = factories.entry(
        individual, members=[adult(future, "Bjørn Bergenser", region="Vestland")]
    )
    child = factories.entry(
        individual,
        members=[adult(future, "Ærlig Liten", birth_date=date(NEXT_YEAR - 9, 6, 1))],
        adult_name="Mor Liten",
    )
    waiting = factories.entry(
        individual, members=[adult(future, "Venter Venn")], status="waitlisted"
    )
    gone = factories.entry(
        individual,
        members=[adult(future, "Borte Bort")],
        status="withdrawn",
        withdrawn_at=datetime(NEXT_YEAR, 1, 1, tzinfo=UTC),
        payment_status="refunded",
    )
    return {"kari": kari, "bergen": bergen, "child": child, "waiting": waiting, "gone": gone}


def test_the_list_shows_the_first_category_by_default(organiser_client, future, varied):
    pair = future.categories.get(key="pair")
    factories.entry(pair, members=[adult(future, "Par En"), adult(future, "Par To")])
    response = organiser_client.get(url(future, "entries/"))
    assert response.context["category"].key == "individual"
    assert set(names_listed(response)) == {e.name for e in varied.values()}
    response = organiser_client.get(url(future, "entries/?category=pair"))
    assert names_listed(response) == ["Par En & Par To"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("status=confirmed", {"kari", "bergen", "child"}),
        ("status=waitlisted", {"waiting"}),
        ("status=withdrawn", {"gone"}),
        ("official=no", {"bergen"}),
        ("official=yes", {"kari", "child", "waiting", "gone"}),
        ("payment=paid", {"kari"}),
        ("payment=refunded", {"gone"}),
        ("payment=unpaid", {"bergen", "child"}),  # waiting: not unpaid before it has a place
        ("status=confirmed&payment=unpaid", {"bergen", "child"}),
        ("checked_in=yes", {"kari"}),
        ("checked_in=no", {"bergen", "child", "waiting", "gone"}),
        ("under_age=yes", {"child"}),
        ("q=KARI", {"kari"}),
        ("q=bjørn", {"bergen"}),
        ("q=ÆRLIG", {"child"}),
        ("q=kari@example", {"kari"}),
        ("q=vipps-4711", {"kari"}),
        ("q=nobody-has-this", set()),
        ("status=bogus", {"kari", "bergen", "child", "waiting", "gone"}),
    ],
)
def test_filters_and_search_narrow_the_list(organiser_client, future, varied, query, expected):
    response = organiser_client.get(url(future, f"entries/?category=individual&{query}"))
    assert response.status_code == 200
    assert set(names_listed(response)) == {varied[key].name for key in expected}
    assert response.context["listing"].total == 5


def test_the_counts_are_shown(organiser_client, future, varied):
    response = organiser_client.get(url(future, "entries/?status=withdrawn"))
    counts = response.context["listing"].counts
    assert counts["status"] == {"confirmed": 3, "waitlisted": 1, "withdrawn": 1}
    # Unpaid: the two confirmed entries not paid; the waitlisted one owes nothing yet.
    assert counts["payment"]["unpaid"] == 2 and counts["official"]["no"] == 1
    assert counts["under_age"]["yes"] == 1 and counts["checked_in"]["yes"] == 1
    assert "1 entry of 5 in Individual matches the filters." in response.text
    assert "Confirmed <strong>3</strong>/50" in response.text


def test_the_row_shows_status_officiality_payment_and_times(organiser_client, future, varied):
    Entry.objects.filter(pk=varied["kari"].pk).update(
        registered_at=datetime(NEXT_YEAR, 1, 10, 23, 30, tzinfo=UTC)
    )
    response = organiser_client.get(url(future, "entries/"))
    text = response.text
    assert f"{NEXT_YEAR}-01-11 00:30" in text  # registered at, in Oslo time
    assert "VIPPS-4711" in text
    assert "No. 1 on the list" in text
    assert "Unofficial" in text
    assert "under 16" in text and "Mor Liten" in text


def test_the_unpaid_list_is_one_link_away(organiser_client, future, varied):
    manage = organiser_client.get(url(future))
    link = f"/{future.slug}/manage/entries/?status=confirmed&amp;payment=unpaid"
    assert link in manage.text
    response = organiser_client.get(link.replace("&amp;", "&"))
    assert set(names_listed(response)) == {varied["bergen"].name, varied["child"].name}


def test_an_htmx_request_gets_the_list_alone(organiser_client, future, varied):
    response = organiser_client.get(url(future, "entries/?q=kari"), HTTP_HX_REQUEST="true")
    assert response.text.lstrip().startswith('<div id="entries-region">')
    assert "<html" not in response.text
    assert "Kari Nordmann" in response.text and "Bjørn" not in response.text


def _entries_page_queries(client, future, count):
    individual = future.categories.get(key="individual")
    team = future.categories.get(key="team")
    for number in range(count - individual.entries.count()):
        factories.entry(individual, members=[adult(future, f"Solo {number}")])
        factories.entry(team, members=[adult(future, f"Team {number}.{m}") for m in range(4)])
    with CaptureQueriesContext(connection) as individual_queries:
        assert client.get(url(future, "entries/?q=o")).status_code == 200
    with CaptureQueriesContext(connection) as team_queries:
        assert client.get(url(future, "entries/?category=team&under_age=no")).status_code == 200
    return len(individual_queries), len(team_queries)


def test_the_entries_page_reads_a_constant_number_of_queries(organiser_client, future):
    few = _entries_page_queries(organiser_client, future, 5)
    many = _entries_page_queries(organiser_client, future, 30)
    assert few == many
    # The session, its user, the championship, the role, the categories; the counts, the
    # members' facts, the entries that pass, the page's entries and members; the questions.
    assert few[0] <= 11


# Row actions ----------------------------------------------------------------------------------


def _post(client, championship, entry, action, data=None, **headers):
    data = {"query": "category=individual&status=confirmed", **(data or {})}
    return client.post(url(championship, f"entries/{entry.pk}/{action}/"), data, **headers)


def _messages(response, level="") -> list[str]:
    """Return the messages the response leaves for the organiser (of one level, if given)."""
    return [
        str(message)
        for message in response.wsgi_request._messages
        if not level or message.level_tag == level
    ]


def test_promoting_confirms_a_waitlisted_entry(organiser_client, future, individual):
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    factories.entry(individual)
    waiting = factories.entry(individual, status="waitlisted", name="Venter")
    response = _post(organiser_client, future, waiting, "promote")
    assert response.status_code == 302
    assert response.url == f"/rm-{NEXT_YEAR}/manage/entries/?category=individual&status=confirmed"
    waiting.refresh_from_db()
    assert waiting.status == "confirmed"
    page = organiser_client.get(response.url)
    assert "Venter is confirmed (promoted from the waiting list)." in page.text


def test_promoting_a_confirmed_entry_is_refused(organiser_client, future, individual):
    entry = factories.entry(individual)
    response = _post(organiser_client, future, entry, "promote")
    page = organiser_client.get(response.url)
    assert "Only an entry on the waiting list can be promoted." in page.text
    entry.refresh_from_db()
    assert entry.status == "confirmed"


def test_setting_the_payment(organiser_client, future, individual):
    entry = factories.entry(individual, name="Betaler")
    response = _post(
        organiser_client, future, entry, "payment", {"status": "paid", "reference": " KID-991 "}
    )
    entry.refresh_from_db()
    assert (entry.payment_status, entry.payment_reference) == ("paid", "KID-991")
    assert "Payment of Betaler saved: Paid." in _messages(response)


@pytest.mark.parametrize(
    "data",
    [{"status": "stolen", "reference": "x"}, {"status": "paid", "reference": "x" * 101}, {}],
)
def test_a_bad_payment_changes_nothing(organiser_client, future, individual, data):
    entry = factories.entry(individual, payment_reference="KEEP")
    response = _post(organiser_client, future, entry, "payment", data)
    entry.refresh_from_db()
    assert (entry.payment_status, entry.payment_reference) == ("unpaid", "KEEP")
    assert _messages(response, "error")


def test_withdrawing_needs_the_tick_then_frees_the_place(organiser_client, future, individual):
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    first = factories.entry(individual, name="Første")
    waiting = factories.entry(individual, status="waitlisted", name="Andre")
    response = _post(organiser_client, future, first, "withdraw")
    assert "Tick the box to confirm the withdrawal." in _messages(response)
    first.refresh_from_db()
    assert first.status == "confirmed"
    response = _post(organiser_client, future, first, "withdraw", {"confirm": "yes"})
    first.refresh_from_db()
    waiting.refresh_from_db()
    assert (first.status, waiting.status) == ("withdrawn", "confirmed")
    assert "Første is withdrawn. Confirmed from the waiting list: Andre." in _messages(response)
    again = _post(organiser_client, future, first, "withdraw", {"confirm": "yes"})
    assert "Første was already withdrawn." in _messages(again)


def test_marking_a_walkover_needs_a_reason(organiser_client, future, individual):
    entry = factories.entry(individual, name="Uteblitt")
    response = _post(organiser_client, future, entry, "walkover", {"reason": "  "})
    assert "Give a reason for the walk-over." in _messages(response)
    entry.refresh_from_db()
    assert entry.walkover_at is None
    response = _post(organiser_client, future, entry, "walkover", {"reason": "No check-in"})
    assert "Uteblitt is marked as a walk-over." in _messages(response)
    entry.refresh_from_db()
    assert entry.walkover_at is not None and entry.walkover_reason == "No check-in"
    _post(organiser_client, future, entry, "walkover", {"undo": "1"})
    entry.refresh_from_db()
    assert entry.walkover_at is None and entry.walkover_reason == ""


def test_a_waitlisted_entry_cannot_be_a_walkover(organiser_client, future, individual):
    entry = factories.entry(individual, status="waitlisted")
    response = _post(organiser_client, future, entry, "walkover", {"reason": "No show"})
    assert "Only a confirmed entry can be marked as a walk-over." in _messages(response)
    entry.refresh_from_db()
    assert entry.walkover_at is None


def test_an_htmx_action_answers_with_the_refreshed_list(organiser_client, future, individual):
    entry = factories.entry(individual, name="Raskt")
    response = _post(
        organiser_client,
        future,
        entry,
        "payment",
        {"status": "waived", "query": "category=individual&q=raskt"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="entries-region">')
    assert "Payment of Raskt saved: Waived." in response.text
    assert "payment-waived" in response.text
    # The filters of the page stay: the hidden field carries them on.
    assert 'name="query" value="category=individual&amp;q=raskt"' in response.text


def test_a_forged_query_does_not_leave_the_list(organiser_client, future, individual):
    entry = factories.entry(individual)
    response = _post(
        organiser_client, future, entry, "promote", {"query": "next=https://evil.example&x=1"}
    )
    assert response.url == f"/rm-{NEXT_YEAR}/manage/entries/?category=individual"


# Check-in -------------------------------------------------------------------------------------


@pytest.fixture
def desk(future, individual):
    pair = future.categories.get(key="pair")
    return {
        "ola": factories.entry(individual, members=[adult(future, "Ola Åsen")]),
        "kari": factories.entry(individual, members=[adult(future, "Kari Berg")]),
        "pair": factories.entry(
            pair, members=[adult(future, "Per Par"), adult(future, "Pål Par")], name="Parene"
        ),
        "waiting": factories.entry(
            individual, members=[adult(future, "Ola Venter")], status="waitlisted"
        ),
    }


def test_the_checkin_search_finds_by_name(organiser_client, future, desk):
    response = organiser_client.get(url(future, "checkin/?q=ola"))
    assert response.status_code == 200
    names = [row.entry.name for row in response.context["rows"]]
    assert names == ["Ola Åsen", "Ola Venter"]  # confirmed entries first
    assert "Kari Berg" not in response.text
    response = organiser_client.get(url(future, "checkin/?q=pål"))
    assert [row.entry.name for row in response.context["rows"]] == ["Parene"]


def test_an_htmx_search_gets_the_results_partial(organiser_client, future, desk):
    response = organiser_client.get(url(future, "checkin/?q=ÅSEN"), HTTP_HX_REQUEST="true")
    assert response.text.lstrip().startswith('<div id="checkin-results">')
    assert "<html" not in response.text
    assert "Ola Åsen" in response.text and "Kari" not in response.text
    assert 'id="checkin-counts"' in response.text and 'hx-swap-oob="true"' in response.text


def test_the_page_shows_the_counts_per_category(organiser_client, future, desk):
    response = organiser_client.get(url(future, "checkin/"))
    assert "Individual</span> <strong>0 of 2</strong>" in response.text
    assert "Pair</span> <strong>0 of 1</strong>" in response.text
    assert 'type="search"' in response.text and 'hx-trigger="input changed delay:250ms' in (
        response.text
    )


def test_checking_in_and_undoing(organiser_client, future, desk):
    ola = desk["ola"]
    path = url(future, f"checkin/{ola.pk}/")
    response = organiser_client.post(path, {"q": "ola"})
    assert response.status_code == 302 and response.url == f"/rm-{NEXT_YEAR}/manage/checkin/?q=ola"
    ola.refresh_from_db()
    assert ola.checked_in_at is not None
    page = organiser_client.get(response.url)
    assert "Ola Åsen is checked in." in page.text
    assert "Individual</span> <strong>1 of 2</strong>" in page.text
    organiser_client.post(path, {"undo": "1"})
    ola.refresh_from_db()
    assert ola.checked_in_at is None


def test_an_htmx_checkin_swaps_the_row_and_the_counts(organiser_client, future, desk):
    kari = desk["kari"]
    response = organiser_client.post(
        url(future, f"checkin/{kari.pk}/"), {"q": "kari"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    text = response.text.lstrip()
    assert text.startswith(f'<li id="checkin-{kari.pk}"')
    assert "Checked in at" in text and ">Undo</button>" in text
    assert "Individual</span> <strong>1 of 2</strong>" in text
    kari.refresh_from_db()
    assert kari.checked_in_at is not None


def test_a_waitlisted_entry_cannot_be_checked_in(organiser_client, future, desk):
    waiting = desk["waiting"]
    response = organiser_client.post(
        url(future, f"checkin/{waiting.pk}/"), {}, HTTP_HX_REQUEST="true"
    )
    assert "Only a confirmed entry can be checked in." in response.text
    waiting.refresh_from_db()
    assert waiting.checked_in_at is None


def test_a_new_private_link_replaces_the_old_one(client, django_capture_on_commit_callbacks):
    from django.core import mail

    from championship.models import ChampionshipRole
    from tests import factories

    championship = factories.championship(slug="links")
    entry = factories.entry(
        championship.categories.get(kind="individual"), contact_email="me@example.org"
    )
    old = entry.manage_token
    client.force_login(factories.role(championship, ChampionshipRole.Role.ORGANISER))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/{championship.slug}/manage/entries/{entry.pk}/new-link/")
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.manage_token != old and len(entry.manage_token) >= 22
    assert client.get(f"/{championship.slug}/entries/{old}/").status_code == 404
    assert client.get(f"/{championship.slug}/entries/{entry.manage_token}/").status_code == 200
    (message,) = mail.outbox
    assert entry.manage_token in message.body and old not in message.body
