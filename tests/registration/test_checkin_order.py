"""The check-in desk lists the entries by name in the championship's alphabetical order:
Æ, Ø, Å after Z in Norwegian and Danish; Å, Ä, Ö after Z in Swedish; Å as A in English.
Confirmed entries still come first."""

import re
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.utils import translation

from registration import selectors
from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.csv_entries import ORGANISER

pytestmark = pytest.mark.django_db

NORWEGIAN_NAMES = ["Åse Ås", "Ærlig Hansen", "Øystein Berg", "Ola Nordmann", "Zakarias Lie"]
SWEDISH_NAMES = ["Åsa Berg", "Ärla Lind", "Östen Ek", "Oskar Ström", "Zakarias Holm"]
ORDERS = {
    "nb": (
        NORWEGIAN_NAMES,
        ["Ola Nordmann", "Zakarias Lie", "Ærlig Hansen", "Øystein Berg", "Åse Ås"],
    ),
    "da": (
        NORWEGIAN_NAMES,
        ["Ola Nordmann", "Zakarias Lie", "Ærlig Hansen", "Øystein Berg", "Åse Ås"],
    ),
    "sv": (
        SWEDISH_NAMES,
        ["Oskar Ström", "Zakarias Holm", "Åsa Berg", "Ärla Lind", "Östen Ek"],
    ),
    # English: Å and Æ with A, Ø with O.
    "en": (
        NORWEGIAN_NAMES,
        ["Ærlig Hansen", "Åse Ås", "Ola Nordmann", "Øystein Berg", "Zakarias Lie"],
    ),
}


def desk(language, names):
    """Return a championship in ``language`` with a confirmed entry per name, and a waiting one."""
    championship = factories.championship(
        slug=f"desk-{language}", language=language, starts_at=datetime(NEXT_YEAR, 3, 14, tzinfo=UTC)
    )
    individual = championship.categories.get(kind="individual")
    individual.capacity = None
    individual.save(update_fields=["capacity"])
    for name in names:
        factories.entry(individual, name=name)
    factories.entry(individual, name="Anna Venter", status="waitlisted")
    return championship


@pytest.mark.parametrize("language", ORDERS)
def test_the_desk_lists_the_names_in_the_championships_order(client, language):
    names, order = ORDERS[language]
    championship = desk(language, names)
    client.force_login(factories.role(championship, ORGANISER, username="desk"))
    # No language chosen: the page speaks the championship's, and sorts as it does.
    page = client.get(f"/{championship.slug}/manage/checkin/")
    assert page.status_code == 200
    shown = re.findall(r'<p class="entry-name">([^<]+?)\s*(?:<|</p>)', page.text)
    assert shown == [*order, "Anna Venter"]


def test_a_search_keeps_the_order(client):
    championship = desk("sv", SWEDISH_NAMES)
    client.force_login(factories.role(championship, ORGANISER, username="desk"))
    page = client.get(f"/{championship.slug}/manage/checkin/?q=berg")
    assert [row.entry.name for row in page.context["rows"]] == ["Åsa Berg"]
    page = client.get(f"/{championship.slug}/manage/checkin/?q=a")
    names = [row.entry.name for row in page.context["rows"]]
    confirmed = [name for name in ORDERS["sv"][1] if name in names]
    assert len(confirmed) >= 4
    assert names == [*confirmed, "Anna Venter"]


def test_the_language_the_organiser_chose_sorts_the_list(client):
    championship = desk("sv", SWEDISH_NAMES)
    client.force_login(factories.role(championship, ORGANISER, username="desk"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nb"
    page = client.get(f"/{championship.slug}/manage/checkin/")
    # Read in Norwegian, Ä sorts as Æ and Ö as Ø, before Å.
    names = [row.entry.name for row in page.context["rows"]]
    norwegian = ["Oskar Ström", "Zakarias Holm", "Ärla Lind", "Östen Ek", "Åsa Berg"]
    assert names == [*norwegian, "Anna Venter"]


def test_the_selector_sorts_in_the_active_language():
    championship = desk("nb", NORWEGIAN_NAMES)
    with translation.override("nb"):
        rows = selectors.checkin_page(championship).object_list
    assert [row.entry.name for row in rows] == [*ORDERS["nb"][1], "Anna Venter"]
