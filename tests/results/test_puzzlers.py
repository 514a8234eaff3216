"""A puzzler across championships: recognised by a confirmed e-mail address, a page only with
consent, a prior ranking from their history; someone else's address takes over nothing."""

from __future__ import annotations

import importlib
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.apps import apps as global_apps
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import resolve, reverse
from rest_framework.test import APIClient

from championship.models import Championship, ChampionshipRole
from championship.services import tables_create
from control import rounds
from registration.models import Person, Puzzler
from results import official
from results.puzzlers import history_ranking, history_sources
from results.selectors import round_standings
from tests import factories
from tests.control.test_rounds import finish_all

pytestmark = pytest.mark.django_db


def run_round(championship, people, minutes, *, sign_off=True, confirmed=True):
    """Seat the individual category's first round with ``people``, time them, sign it off.

    ``people``: (name, e-mail, consent) in registration order; ``minutes`` their times.
    With ``confirmed`` each person confirmed their address (the link mailed to it).
    """
    individual = championship.categories.get(kind="individual")
    first = individual.rounds.order_by("order").first()
    tables_create(championship=championship, count=len(people))
    for number, (name, email, consent) in enumerate(people):
        person = factories.person(
            championship, name=name, email=email, region="Rogaland", publish_consent=consent
        )
        if confirmed:
            person = factories.confirm_address(person)
        factories.entry(
            individual,
            members=[person],
            publish_consent=consent,
            registered_at=championship.starts_at - timedelta(days=30, minutes=-number),
        )
    rounds.round_seat(round_=first)
    rounds.round_start(round_=first)
    rounds.round_close(round_=first)
    first.refresh_from_db()
    finish_all(first, minutes)
    first.refresh_from_db()
    if sign_off:
        official.round_sign_off(round_=first, by=None)
        first.refresh_from_db()
    return first


def puzzler_of(championship, name) -> Puzzler:
    return Person.objects.get(championship=championship, name=name).puzzler


def confirm_link(body: str) -> str:
    """Return the path of the link in a mail that confirms an e-mail address."""
    (path,) = re.findall(r"https?://[^/\s]+(/[^\s]+/address/[^\s/]+/)", body)
    return path


# Identity ----------------------------------------------------------------------------------------


def test_a_typed_address_joins_no_one_and_a_confirmed_one_is_one_puzzler():
    first = factories.championship()
    second = factories.championship()
    anna = factories.person(first, name="Anna", email="Anna@Example.org")
    again = factories.person(second, name="Anna B.", email=" anna@example.ORG ")
    # Typed, not confirmed: each is a puzzler of their own, with no address.
    assert anna.puzzler != again.puzzler
    assert anna.puzzler.email_key is None and again.puzzler.email_key is None
    page = anna.puzzler.ref
    anna = factories.confirm_address(anna)
    # The first to confirm keeps their page's address; it becomes the address's puzzler.
    assert anna.puzzler.ref == page and anna.puzzler.email_key == "anna@example.org"
    own = again.puzzler
    again = factories.confirm_address(again)
    assert again.puzzler == anna.puzzler
    assert not Puzzler.objects.filter(pk=own.pk).exists()
    other = factories.person(second, name="Bo", email="bo@example.org")
    assert other.puzzler != anna.puzzler


def test_a_confirmed_person_whose_address_changes_leaves_the_puzzler():
    championship = factories.championship()
    known = factories.confirm_address(factories.person(championship, email="kari@example.org"))
    nobody = factories.person(championship, email="")
    own = nobody.puzzler
    assert own != known.puzzler and own.email_key is None
    # A corrected address is typed: it joins no one, and the page stays the person's own.
    nobody.email = "KARI@example.org"
    nobody.save(update_fields=["email"])
    assert Person.objects.get(pk=nobody.pk).puzzler == own
    factories.confirm_address(Person.objects.get(pk=nobody.pk))
    assert Person.objects.get(pk=nobody.pk).puzzler == known.puzzler
    # Another address: a puzzler of their own again, unconfirmed.
    reloaded = Person.objects.get(pk=nobody.pk)
    reloaded.email = "kari.new@example.org"
    reloaded.save()
    left = Person.objects.get(pk=nobody.pk)
    assert left.puzzler not in (known.puzzler, own)
    assert left.puzzler.email_key is None and not left.address_confirmed


def test_registering_again_is_recognised_once_the_address_is_confirmed(
    client, django_capture_on_commit_callbacks
):
    earlier = factories.championship()
    known = factories.confirm_address(
        factories.person(earlier, name="Kari", email="kari@example.org")
    )
    later = factories.championship(
        ruleset="rogaland", starts_at=datetime(factories.NEXT_YEAR, 6, 1, 9, tzinfo=UTC)
    )
    individual = later.categories.get(kind="individual")
    with django_capture_on_commit_callbacks(execute=True):
        answer = APIClient().post(
            reverse(
                "api:entry-register",
                kwargs={"championship_slug": later.slug, "category_key": individual.key},
            ),
            {
                "members": [
                    {
                        "name": "Kari",
                        "email": "KARI@example.org",
                        "birth_date": "1990-01-01",
                        "region": "Rogaland",
                        "years_in_region": 10,
                    }
                ]
            },
            format="json",
        )
    assert answer.status_code == 201, answer.content
    registered = Person.objects.get(championship=later)
    assert registered.puzzler != known.puzzler
    # The registration's mail carries the link; its button joins Kari's history.
    (message,) = mail.outbox
    link = confirm_link(message.body)
    assert client.post(link).status_code == 200
    registered.refresh_from_db()
    assert registered.puzzler == known.puzzler


def test_migration_links_existing_persons_by_email():
    module = importlib.import_module("registration.migrations.0005_puzzler")
    championship = factories.championship()
    a = factories.person(championship, email="same@example.org")
    b = factories.person(factories.championship(), email="SAME@example.org")
    c = factories.person(championship, email="")
    Puzzler.objects.all().update(email_key=None)
    module.link_persons(global_apps, None)
    a, b, c = (Person.objects.get(pk=p.pk) for p in (a, b, c))
    assert a.puzzler == b.puzzler and a.puzzler.email_key == "same@example.org"
    assert c.puzzler not in (a.puzzler,)


def test_puzzlers_is_a_reserved_slug():
    championship = Championship(slug="puzzlers")
    with pytest.raises(ValidationError) as raised:
        championship.full_clean()
    assert "slug" in raised.value.message_dict
    assert resolve("/puzzlers/0123abcd0123abcd/").url_name == "puzzler"


# The page ---------------------------------------------------------------------------------------


@pytest.fixture
def two_championships():
    """Anna and Bo in two championships; Anna consents in both, Bo only in the second."""
    spring = factories.championship(
        name="Vårmesterskapet", starts_at=datetime(2026, 3, 14, 9, tzinfo=UTC)
    )
    autumn = factories.championship(
        name="Høstmesterskapet", starts_at=datetime(2026, 10, 3, 9, tzinfo=UTC)
    )
    run_round(
        spring,
        [("Anna", "anna@example.org", True), ("Bo", "bo@example.org", False)],
        (50, 45),
    )
    run_round(
        autumn,
        [("Anna Berg", "ANNA@example.org", True), ("Bo", "bo@example.org", True)],
        (40, 48),
        sign_off=False,
    )
    return spring, autumn


def test_a_puzzlers_page_lists_every_championship_they_consented_in(client, two_championships):
    spring, _autumn = two_championships
    anna = puzzler_of(spring, "Anna")
    page = client.get(anna.get_absolute_url())
    assert page.status_code == 200
    text = page.content.decode()
    # The newest name, both championships newest first, with places, times and pace.
    assert "<h1>Anna Berg</h1>" in text
    history = text[text.index('class="card puzzler-championship"') :]
    assert history.index("Høstmesterskapet") < history.index("Vårmesterskapet")
    assert "<time>0:50:00</time>" in text and "<time>0:40:00</time>" in text
    # 500 pieces in 50 and 40 minutes.
    assert "10.0 pieces/min" in text and "12.5 pieces/min" in text
    # The autumn round is not signed off: provisional, and no personal best from it.
    assert "provisional" in text
    bests = text[text.index("Personal bests") : text.index("Høstmesterskapet")]
    assert "50:00" in bests and "40:00" not in bests


def test_without_consent_there_is_no_page_and_no_history_shown(client, two_championships):
    spring, autumn = two_championships
    bo = puzzler_of(spring, "Bo")
    assert bo == puzzler_of(autumn, "Bo")
    page = client.get(bo.get_absolute_url())
    # Bo consented in the autumn only: the spring championship is not on his page.
    assert page.status_code == 200
    assert "Høstmesterskapet" in page.content.decode()
    assert "Vårmesterskapet" not in page.content.decode()
    Person.objects.filter(puzzler=bo).update(publish_consent=False)
    assert client.get(bo.get_absolute_url()).status_code == 404
    assert client.get("/puzzlers/nosuchpuzzler/").status_code == 404
    assert client.get("/puzzlers/%00/").status_code == 404


def test_result_rows_link_the_members_who_consented(client, two_championships):
    spring, _autumn = two_championships
    anna = puzzler_of(spring, "Anna")
    first = spring.categories.get(kind="individual").rounds.order_by("order").first()
    rows = {
        row["entry"]["members"][0] if row["entry"]["members"] else None: row
        for row in round_standings(first)["rows"]
    }
    assert rows["Anna"]["entry"]["people"] == [{"name": "Anna", "url": f"/puzzlers/{anna.ref}/"}]
    # Bo did not consent in the spring: no name, no link.
    assert rows[None]["entry"]["people"] == []
    page = client.get(reverse("results:round", args=[spring.slug, first.key])).content.decode()
    assert set(re.findall(r'href="(/puzzlers/[^"]*)"', page)) == {f"/puzzlers/{anna.ref}/"}
    api = (
        APIClient()
        .get(
            reverse(
                "api:round-results",
                kwargs={"championship_slug": spring.slug, "round_key": first.key},
            )
        )
        .json()
    )
    assert [row["entry"]["people"] for row in api["rows"]] == [
        [],
        [{"name": "Anna", "url": f"/puzzlers/{anna.ref}/"}],
    ]


def test_the_entrants_private_page_links_their_public_page(client, two_championships):
    spring, _autumn = two_championships
    anna = Person.objects.get(championship=spring, name="Anna")
    entry = anna.entries.get()
    page = client.get(reverse("results:entry_page", args=[spring.slug, entry.manage_token]))
    assert f'href="/puzzlers/{anna.puzzler.ref}/"' in page.content.decode()


# A prior ranking from history --------------------------------------------------------------


@pytest.fixture
def history():
    return history_world()


def history_world():
    """Two earlier championships, then a third whose first round is to be seated."""
    older = factories.championship(name="2024", starts_at=datetime(2024, 3, 1, 9, tzinfo=UTC))
    newer = factories.championship(name="2025", starts_at=datetime(2025, 3, 1, 9, tzinfo=UTC))
    run_round(
        older,
        [("Cara", "cara@example.org", False), ("Dan", "dan@example.org", True)],
        (30, 35),
    )
    run_round(
        newer,
        [("Anna", "anna@example.org", True), ("Bo", "bo@example.org", True)],
        (50, 45),
    )
    unsigned = factories.championship(name="2025b", starts_at=datetime(2025, 6, 1, 9, tzinfo=UTC))
    run_round(unsigned, [("Eve", "eve@example.org", True)], (20,), sign_off=False)
    now = factories.championship(
        name="2026", starts_at=datetime(2026, 3, 1, 9, tzinfo=UTC), language="en"
    )
    individual = now.categories.get(kind="individual")
    for number, (name, email) in enumerate(
        [
            ("Anna", "anna@example.org"),
            ("Eve", "eve@example.org"),
            ("Dan", "DAN@example.org"),
            ("Bo", "bo@example.org"),
            ("Cara", "cara@example.org"),
            ("New", "new@example.org"),
        ]
    ):
        person = factories.person(now, name=name, email=email, region="Rogaland")
        if name != "New":
            # New has not opened the link in their mail yet.
            person = factories.confirm_address(person)
        factories.entry(
            individual,
            members=[person],
            registered_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=number),
        )
    return older, newer, now


def test_history_ranks_by_the_most_recent_championship_first(history):
    _older, _newer, now = history
    individual = now.categories.get(kind="individual")
    sources = history_sources(individual)
    # Only earlier championships with an official round, the most recent first.
    assert [source.championship.name for source in sources] == ["2025", "2024"]
    ranking = history_ranking(individual, sources)
    names = {entry.pk: entry.name for entry in individual.entries.all()}
    ranked = sorted(ranking.items(), key=lambda item: item[1].rank)
    # 2025: Bo 1st, Anna 2nd; then 2024: Cara 1st, Dan 2nd (recognised despite the case);
    # consent to publication is not needed for seeding. Eve and New have no official result.
    assert [(names[pk], found.rank, found.place) for pk, found in ranked] == [
        ("Bo", 1, 1),
        ("Anna", 2, 2),
        ("Cara", 3, 1),
        ("Dan", 4, 2),
    ]
    only_older = history_ranking(individual, [sources[1]])
    assert sorted(names[pk] for pk in only_older) == ["Cara", "Dan"]


def test_the_organiser_ranks_from_history_previews_and_it_seeds_the_round(client, history):
    _older, _newer, now = history
    individual = now.categories.get(kind="individual")
    first = individual.rounds.order_by("order").first()
    client.force_login(factories.role(now, ChampionshipRole.Role.ORGANISER))
    url = reverse("manage:round_ranking", args=[now.slug, first.key])
    page = client.get(url).content.decode()
    assert "From earlier championships on this site" in page
    sources = history_sources(individual)
    refused = client.post(url, {"action": "history", "sources": ["999999"]})
    assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    assert (
        client.post(url, {"action": "history", "sources": [s.pk for s in sources]}).status_code
        == 302
    )
    preview = client.get(url).content.decode()
    assert "2025, Individual: place 1" in preview
    assert individual.entries.exclude(prior_ranking=None).count() == 0
    saved = client.post(url, {"action": "confirm", "clear_others": "yes"})
    assert saved.status_code == 302
    ranks = dict(individual.entries.values_list("name", "prior_ranking"))
    assert ranks == {"Bo": 1, "Anna": 2, "Cara": 3, "Dan": 4, "Eve": None, "New": None}
    # Seated by seeding: the ranked first, best at table 1, then the others by registration.
    tables_create(championship=now, count=6)
    rounds.round_seat(round_=first)
    order = list(
        first.seats.order_by("table__number", "position").values_list("entry__name", flat=True)
    )
    assert order == ["Bo", "Anna", "Cara", "Dan", "Eve", "New"]


def test_a_consenting_puzzler_without_results_yet_has_a_page_that_says_so(client):
    championship = factories.championship(language="en")
    person = factories.person(championship, name="Nyregistrert", publish_consent=True)
    factories.entry(championship.categories.get(kind="individual"), members=[person])
    page = client.get(person.puzzler.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert "No results on this site yet." in page.content.decode()


# Someone else's address --------------------------------------------------------------------------


def test_a_stranger_with_someones_address_takes_neither_her_page_nor_her_seeding(
    client, django_capture_on_commit_callbacks
):
    """The review's reproduction: a stranger registers through the API with Ingrid's address.

    Her page keeps her name and her history; the history seeding of the stranger's
    championship does not rank the stranger by her results; the organiser's
    preview says why.
    """
    earlier = factories.championship(
        name="Rogalandsmesterskapet 2026", starts_at=datetime(2026, 3, 1, 9, tzinfo=UTC)
    )
    run_round(
        earlier,
        [("Ingrid Tjelta", "ingrid.tjelta@example.org", True), ("Ola", "ola@example.org", True)],
        (30, 35),
    )
    ingrid = puzzler_of(earlier, "Ingrid Tjelta")
    later = factories.championship(
        name="Pussel-SM",
        ruleset="rogaland",
        starts_at=datetime(factories.NEXT_YEAR, 6, 1, 9, tzinfo=UTC),
    )
    individual = later.categories.get(kind="individual")
    with django_capture_on_commit_callbacks(execute=True):
        answer = APIClient().post(
            reverse(
                "api:entry-register",
                kwargs={"championship_slug": later.slug, "category_key": individual.key},
            ),
            {
                "name": "Ingrid Tjelta cheats",
                "publish_consent": True,
                "members": [
                    {
                        "name": "Ingrid Tjelta cheats",
                        "email": "Ingrid.Tjelta@example.org",
                        "birth_date": "1990-01-01",
                        "region": "Rogaland",
                        "years_in_region": 10,
                    }
                ],
            },
            format="json",
        )
    assert answer.status_code == 201, answer.content
    page = client.get(ingrid.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>Ingrid Tjelta</h1>" in page
    assert "cheats" not in page and "Pussel-SM" not in page
    assert "Took part in 1 championship on this site." in page
    # The stranger has a page of their own, apart from hers.
    stranger = Person.objects.get(championship=later)
    assert stranger.puzzler != ingrid and not stranger.address_confirmed
    # Her seeding does not go to the stranger.
    assert history_ranking(individual, history_sources(individual)) == {}
    # Only a mail to her address could join them: the registration's mail went there.
    (message,) = mail.outbox
    assert message.to == ["Ingrid.Tjelta@example.org"]
    assert "/address/" in message.body
    # The organiser's preview says the entry awaits the confirmation of its address.
    first = individual.rounds.order_by("order").first()
    client.force_login(factories.role(later, ChampionshipRole.Role.ORGANISER))
    client.cookies["django_language"] = "en"
    url = reverse("manage:round_ranking", args=[later.slug, first.key])
    sources = [source.pk for source in history_sources(individual)]
    assert client.post(url, {"action": "history", "sources": sources}).status_code == 302
    preview = client.get(url).content.decode()
    assert "place 1" not in preview
    missing = preview[preview.index('class="ranking-missing"') :]
    assert "Ingrid Tjelta cheats: " in missing
    assert "e-mail address not confirmed yet" in missing
    assert re.search(r'class="ranking-awaiting">1<', preview)


def test_the_history_preview_shows_who_each_entry_was_recognised_by(client, history):
    _older, _newer, now = history
    individual = now.categories.get(kind="individual")
    first = individual.rounds.order_by("order").first()
    # Anna's mother registered with Anna's address: typed, never confirmed.
    mother = factories.person(now, name="Anna's mother", email="anna@example.org")
    factories.entry(individual, members=[mother], registered_at=datetime(2026, 1, 2, tzinfo=UTC))
    client.force_login(factories.role(now, ChampionshipRole.Role.ORGANISER))
    client.cookies["django_language"] = "en"
    url = reverse("manage:round_ranking", args=[now.slug, first.key])
    sources = [source.pk for source in history_sources(individual)]
    client.post(url, {"action": "history", "sources": sources})
    preview = client.get(url).content.decode()
    assert "Recognised by a confirmed e-mail address" in preview
    matched = preview[preview.index("ranking-matched") : preview.index("ranking-missing")]
    rows = re.findall(
        r"<tr><td>([^<]*)</td><th scope=\"row\">([^<]*)</th><td class=\"matched-by\">([^<]*)</td>",
        matched,
    )
    assert [(entry, by) for _result, entry, by in rows] == [
        ("Bo", "Bo"),
        ("Anna", "Anna"),
        ("Cara", "Cara"),
        ("Dan", "Dan"),
    ]
    missing = preview[preview.index('class="ranking-missing"') :]
    assert 'Eve: <span class="address-confirmed">confirmed e-mail address</span>' in missing
    assert 'New: <span class="address-awaiting">e-mail address not confirmed yet</span>' in missing
    assert 'Anna&#x27;s mother: <span class="address-awaiting">' in missing
    # New and Anna's mother: two entries not ranked for want of a confirmed address.
    assert re.search(r'class="ranking-awaiting">2<', preview)
