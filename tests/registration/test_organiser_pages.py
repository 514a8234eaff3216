"""The organiser's lists a page at a time: the entries page and the check-in desk.

A category of thousands of entries is listed fifty at a time; the filters, the
search and the page stay in the query string, through the pages' links and the
row actions; the counts are of the whole category; a page costs the same number
of queries and about the same bytes whatever the number of entries.
"""

import re
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext

from championship.models import ChampionshipRole
from registration import checkin, paging, selectors
from registration.models import Entry, Person
from registration.validation import member_data_of
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

PER_PAGE = selectors.PER_PAGE


@pytest.fixture
def future(db):
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


@pytest.fixture
def organiser(client, future):
    client.force_login(factories.role(future, ChampionshipRole.Role.ORGANISER))
    return client


@pytest.fixture
def individual(future):
    return future.categories.get(key="individual")


def entries_url(championship, query=""):
    return f"/{championship.slug}/manage/entries/" + (f"?{query}" if query else "")


def checkin_url(championship, query=""):
    return f"/{championship.slug}/manage/checkin/" + (f"?{query}" if query else "")


def add_entries(category, count, *, name="Puzzler", start=0, **kwargs):
    """Add ``count`` individual entries registered a minute apart, named ``name 0001`` on."""
    championship = category.championship
    first = datetime(NEXT_YEAR - 1, 10, 1, tzinfo=UTC) + timedelta(minutes=start)
    made = []
    for number in range(start, start + count):
        person = factories.person(
            championship,
            name=f"{name} {number:04d}",
            birth_date=date(1980, 1, 1),
            region="Rogaland",
        )
        made.append(
            factories.entry(
                category,
                members=[person],
                registered_at=first + timedelta(minutes=number - start),
                **kwargs,
            )
        )
    return made


def names(response) -> list[str]:
    return [row.entry.name for row in response.context["listing"].rows]


def checkin_names(response) -> list[str]:
    return [row.entry.name for row in response.context["rows"]]


# The page asked for -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "number"),
    [
        ("", 1),
        ("2", 2),
        ("0", 1),
        ("-3", 1),
        ("x", 1),
        ("²", 1),
        ("1234567", 1),
        ("999999", 999999),
    ],
)
def test_the_page_asked_for_is_a_small_whole_number(value, number):
    assert paging.page_number(QueryDict(f"page={value}")) == number


# The entries page ------------------------------------------------------------------------------


def test_the_entries_come_a_page_at_a_time_in_the_order_they_registered(
    organiser, future, individual
):
    made = add_entries(individual, PER_PAGE * 2 + 7)
    first = organiser.get(entries_url(future))
    assert names(first) == [entry.name for entry in made[:PER_PAGE]]
    assert "Entries 1–50 of 107" in first.text and "Page 1 of 3" in first.text
    assert f"{PER_PAGE * 2 + 7} entries in Individual." in first.text
    second = organiser.get(entries_url(future, "category=individual&page=2"))
    assert names(second) == [entry.name for entry in made[PER_PAGE : PER_PAGE * 2]]
    assert "Entries 51–100 of 107" in second.text
    last = organiser.get(entries_url(future, "category=individual&page=3"))
    assert names(last) == [entry.name for entry in made[PER_PAGE * 2 :]]
    # Past the end: the last page; not a number: the first.
    assert names(organiser.get(entries_url(future, "page=40"))) == names(last)
    assert names(organiser.get(entries_url(future, "page=two"))) == names(first)


def test_the_links_go_to_the_other_pages_and_keep_the_filters(organiser, future, individual):
    add_entries(individual, PER_PAGE * 3, name="Hansen")
    response = organiser.get(entries_url(future, "category=individual&q=hansen&page=2"))
    links = response.context["pages"]
    base = entries_url(future)
    assert links.first == f"{base}?category=individual&q=hansen"
    assert links.previous == f"{base}?category=individual&q=hansen"
    assert links.next == f"{base}?category=individual&q=hansen&page=3"
    assert links.last == f"{base}?category=individual&q=hansen&page=3"
    html = response.text
    assert f'href="{base}?category=individual&amp;q=hansen&amp;page=3"' in html
    assert 'hx-target="#entries-region"' in html and 'rel="next"' in html
    # The row actions post the filters and the page back.
    assert 'name="query" value="category=individual&amp;q=hansen&amp;page=2"' in html
    assert "Page 2 of 3" in html


def test_filters_and_search_narrow_the_whole_category_before_it_is_paged(
    organiser, future, individual
):
    add_entries(individual, 70, name="Olsen")
    hansens = add_entries(individual, 60, name="Hansen", start=70)
    outside = factories.person(future, name="Hansen Bergen", region="Vestland")
    unofficial = factories.entry(individual, members=[outside])
    young = factories.person(
        future, name="Hansen Liten", birth_date=date(NEXT_YEAR - 9, 6, 1), region="Rogaland"
    )
    child = factories.entry(individual, members=[young], adult_name="Mor")
    response = organiser.get(entries_url(future, "category=individual&q=HANSEN&page=2"))
    assert names(response) == [e.name for e in [*hansens, unofficial, child][PER_PAGE:]]
    assert response.context["listing"].count == 62
    assert "62 entries of 132 in Individual match the filters." in response.text
    only = organiser.get(entries_url(future, "category=individual&official=no"))
    assert names(only) == [unofficial.name]
    assert names(organiser.get(entries_url(future, "under_age=yes"))) == [child.name]
    both = organiser.get(entries_url(future, "q=hansen&official=yes&page=2"))
    assert names(both) == [e.name for e in [*hansens, child][PER_PAGE:]]


def test_the_counts_are_of_the_whole_category_on_every_page(organiser, future, individual):
    add_entries(individual, 60)
    add_entries(individual, 30, start=60, status="waitlisted")
    add_entries(individual, 5, start=90, payment_status="paid", checked_in_at=datetime.now(UTC))
    outside = factories.person(future, name="Bergen", region="Vestland")
    factories.entry(
        individual, members=[outside], status="withdrawn", withdrawn_at=datetime.now(UTC)
    )
    for page in (1, 2):
        response = organiser.get(entries_url(future, f"page={page}&status=confirmed"))
        counts = response.context["listing"].counts
        assert counts["status"] == {"confirmed": 65, "waitlisted": 30, "withdrawn": 1}
        assert counts["payment"] == {"unpaid": 60, "paid": 5}
        assert counts["checked_in"] == {"yes": 5, "no": 91}
        assert counts["official"] == {"yes": 95, "no": 1}
        assert counts["under_age"] == {"no": 96}
        assert response.context["listing"].total == 96
        assert "Confirmed <strong>65</strong>/50" in response.text


def test_places_on_the_waiting_list_count_the_whole_list(organiser, future, individual):
    add_entries(individual, 40)
    waiting = add_entries(individual, 40, start=40, status="waitlisted")
    response = organiser.get(entries_url(future, "page=2"))
    rows = response.context["listing"].rows
    assert [row.waitlist_position for row in rows] == list(range(11, 41))
    assert "No. 40 on the list" in response.text
    # Filtered to the waiting list, the places stay the list's.
    only = organiser.get(entries_url(future, "status=waitlisted&q=0079"))
    assert [(r.entry.name, r.waitlist_position) for r in only.context["listing"].rows] == [
        (waiting[-1].name, 40)
    ]


def test_an_htmx_page_gets_the_list_alone(organiser, future, individual):
    made = add_entries(individual, PER_PAGE + 3)
    response = organiser.get(entries_url(future, "page=2"), HTTP_HX_REQUEST="true")
    text = response.text.lstrip()
    assert text.startswith('<div id="entries-region">') and "<html" not in text
    assert names(response) == [entry.name for entry in made[PER_PAGE:]]
    assert 'hx-get="/rm-' in text and "Page 2 of 2" in text


def test_a_row_action_brings_back_the_page_with_its_filters(organiser, future, individual):
    made = add_entries(individual, PER_PAGE * 2 + 5, name="Hansen")
    entry = made[PER_PAGE + 3]
    query = "category=individual&q=hansen&page=2"
    answer = organiser.post(
        f"/{future.slug}/manage/entries/{entry.pk}/payment/",
        {"status": "paid", "reference": "VIPPS-1", "query": query},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    assert answer.text.lstrip().startswith('<div id="entries-region">')
    assert names(answer) == [e.name for e in made[PER_PAGE : PER_PAGE * 2]]
    assert f"Payment of {entry.name} saved: Paid." in answer.text
    assert 'name="query" value="category=individual&amp;q=hansen&amp;page=2"' in answer.text
    # Without JavaScript: back to the same page of the list.
    answer = organiser.post(
        f"/{future.slug}/manage/entries/{entry.pk}/judge-note/",
        {"judge_note": "Left-handed", "query": query},
    )
    assert answer.status_code == 302
    assert answer.url == entries_url(future, query)


def test_an_action_that_empties_the_last_page_brings_back_the_page_before(
    organiser, future, individual
):
    made = add_entries(individual, PER_PAGE + 1)
    last = made[-1]
    answer = organiser.post(
        f"/{future.slug}/manage/entries/{last.pk}/withdraw/",
        {"confirm": "yes", "query": "category=individual&status=confirmed&page=2"},
        HTTP_HX_REQUEST="true",
    )
    assert names(answer) == [entry.name for entry in made[:PER_PAGE]]
    assert 'name="query" value="category=individual&amp;status=confirmed"' in answer.text


# What a page costs ------------------------------------------------------------------------------


def _queries(client, path) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


LIST_PATHS = [
    "",
    "page=2",
    "page=6",
    "q=solo&page=2",
    "official=no",
    "under_age=yes&status=confirmed",
    "category=team&page=2",
]


def test_a_page_reads_the_same_number_of_queries_whatever_the_number_of_entries(
    organiser, future, individual, django_assert_max_num_queries
):
    team = future.categories.get(key="team")
    waiting_list = {"status": "waitlisted"}

    def grow(to):
        have = individual.entries.count()
        add_entries(individual, to - have, name="Solo", start=have, **waiting_list)
        for number in range(team.entries.count(), to // 3):
            members = [
                factories.person(future, name=f"Team {number}.{m}", birth_date=date(1990, 1, 1))
                for m in range(4)
            ]
            factories.entry(team, members=members)
        return {path: _queries(organiser, entries_url(future, path)) for path in LIST_PATHS} | {
            f"checkin?{path}": _queries(organiser, checkin_url(future, path))
            for path in ("", "page=3", "q=solo")
        }

    few = grow(5)
    many = grow(300)
    assert few == many
    # As tests/registration/test_organiser.py counts them.
    with django_assert_max_num_queries(11):
        organiser.get(entries_url(future, "q=solo&official=yes&page=4"))
    # The session, its user, the championship, the role; the counts per category, the
    # entries' names and statuses, their members' texts, the page's entries and members.
    with django_assert_max_num_queries(9):
        organiser.get(checkin_url(future, "q=solo&page=2"))


def test_a_page_of_a_thousand_entries_stays_small(organiser, future, individual):
    add_entries(individual, 1000, payment_reference="VIPPS-0000")
    sizes = {
        "entries": len(organiser.get(entries_url(future)).content),
        "entries, page 20": len(organiser.get(entries_url(future, "page=20")).content),
        "entries, HTMX": len(
            organiser.get(entries_url(future, "page=3"), HTTP_HX_REQUEST="true").content
        ),
        "check-in": len(organiser.get(checkin_url(future)).content),
        "check-in, page 20": len(organiser.get(checkin_url(future, "page=20")).content),
    }
    # 50 rows with their actions: about 4 kB each on the entries page.
    assert all(size < 350_000 for size in sizes.values()), sizes
    assert sizes["check-in"] < 120_000, sizes


# The check-in desk --------------------------------------------------------------------------------


def test_the_checkin_desk_lists_a_page_at_a_time_confirmed_first_by_name(
    organiser, future, individual
):
    add_entries(individual, 10, name="Venter", status="waitlisted")
    confirmed = add_entries(individual, PER_PAGE + 5, name="Deltaker", start=10)
    first = organiser.get(checkin_url(future))
    assert checkin_names(first) == [e.name for e in confirmed[:PER_PAGE]]
    assert "Entries 1–50 of 65" in first.text
    second = organiser.get(checkin_url(future, "page=2"))
    assert checkin_names(second) == [e.name for e in confirmed[PER_PAGE:]] + [
        f"Venter {n:04d}" for n in range(10)
    ]
    # The button's form brings the desk back to this page.
    assert 'name="page" value="2"' in second.text


def test_a_checkin_search_is_paged_and_keeps_its_words(organiser, future, individual):
    add_entries(individual, 30, name="Olsen")
    found = add_entries(individual, PER_PAGE + 2, name="Åsen", start=30)
    response = organiser.get(checkin_url(future, "q=ÅSEN&page=2"))
    assert checkin_names(response) == [e.name for e in found[PER_PAGE:]]
    assert "52 entries found for “ÅSEN”." in response.text
    links = response.context["pages"]
    assert links.previous == checkin_url(future, "q=%C3%85SEN")
    assert 'hx-target="#checkin-results"' in response.text
    entry = found[PER_PAGE]
    answer = organiser.post(
        f"/{future.slug}/manage/checkin/{entry.pk}/", {"q": "ÅSEN", "page": "2"}
    )
    assert answer.url == checkin_url(future, "q=%C3%85SEN&page=2")
    entry.refresh_from_db()
    assert entry.checked_in_at is not None


def test_an_htmx_checkin_page_gets_the_results_and_the_counts(organiser, future, individual):
    made = add_entries(individual, PER_PAGE + 1)
    response = organiser.get(checkin_url(future, "page=2"), HTTP_HX_REQUEST="true")
    text = response.text.lstrip()
    assert text.startswith('<div id="checkin-results">') and "<html" not in text
    assert checkin_names(response) == [made[-1].name]
    assert 'id="checkin-counts"' in text and 'hx-swap-oob="true"' in text


def test_a_scanned_code_shows_its_entry_above_the_first_page_without_it(
    organiser, future, individual
):
    made = add_entries(individual, PER_PAGE + 5)
    scanned = made[3]
    response = organiser.get(checkin.checkin_path(scanned))
    assert response.context["row"].entry == scanned
    listed = checkin_names(response)
    assert scanned.name not in listed and len(listed) == PER_PAGE
    assert listed[:3] == [e.name for e in made[:3]] and listed[3] == made[4].name
    assert response.text.count(f'id="checkin-{scanned.pk}"') == 1


# The rulebook's facts, read as plain values ------------------------------------------------------


@pytest.mark.parametrize("citizenship", [["se", "No"], [], None, "SE", {"SE": True}, ["dk"]])
def test_a_member_read_as_values_is_the_member_the_rows_see(future, citizenship):
    person = Person(
        championship=future,
        name="Kari",
        birth_date=date(2001, 2, 3),
        citizenship=citizenship,
        region=" Rogaland ",
        years_in_region=7,
    )
    as_values = selectors.rules_member(
        person.birth_date, person.citizenship, person.region, person.years_in_region
    )
    # The rulebook does not read the name; the rows' member carries it.
    assert as_values == replace(member_data_of(person).as_rules_member(), name="")


def test_the_lists_counts_agree_with_the_rows(organiser, future):
    """What the list counts as official or under age is what each row shows (every preset)."""
    team = future.categories.get(key="team")
    for number in range(12):
        members = [
            factories.person(
                future,
                name=f"T{number}.{m}",
                region=["Rogaland", "rogaland ", "Vestland", ""][(number + m) % 4],
                years_in_region=[None, 6, 2][(number * m) % 3],
                birth_date=[date(1990, 1, 1), date(NEXT_YEAR - 10, 3, 14), None][(number + m) % 3],
            )
            for m in range(3 + number % 2)
        ]
        factories.entry(team, members=members, adult_name="Forelder")
    response = organiser.get(entries_url(future, "category=team"))
    listing = response.context["listing"]
    rows = listing.rows
    assert listing.counts["official"]["yes"] == sum(row.official for row in rows)
    assert listing.counts["under_age"]["yes"] == sum(row.under_age for row in rows)
    assert 0 < listing.counts["official"]["yes"] < 12
    for value, wanted in (("yes", True), ("no", False)):
        shown = organiser.get(entries_url(future, f"category=team&official={value}"))
        assert {r.entry.pk for r in shown.context["listing"].rows} == {
            r.entry.pk for r in rows if r.official == wanted
        }
        shown = organiser.get(entries_url(future, f"category=team&under_age={value}"))
        assert {r.entry.pk for r in shown.context["listing"].rows} == {
            r.entry.pk for r in rows if r.under_age == wanted
        }
    assert Entry.objects.filter(category=team).count() == 12
    assert re.search(r"Unofficial <strong>\d+</strong>", response.text)
