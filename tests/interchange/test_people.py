"""The interchange import compares people for one entry per person, and restores, not registers."""

import copy
from datetime import UTC, date, datetime

import pytest

from interchange.export import export_document
from interchange.format import InterchangeError
from interchange.write import import_document
from registration.models import Entry
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

STARTS = datetime(NEXT_YEAR, 5, 1, 9, tzinfo=UTC)


def entrant(category, name, email, born):
    person = factories.person(category.championship, name=name, email=email, birth_date=born)
    return factories.entry(category, members=[person], name=name)


@pytest.fixture
def dm_document():
    """A dm championship's document: two individuals and a pair, all different people."""
    dm = factories.championship(slug=f"dm-{NEXT_YEAR}", ruleset="dm", starts_at=STARTS)
    individual = dm.categories.get(kind="individual")
    entrant(individual, "Mette Hansen", "mette@example.dk", date(1990, 5, 1))
    entrant(individual, "Jens Jensen", "jens@example.dk", date(1991, 6, 2))
    pair = dm.categories.get(kind="pair")
    factories.entry(
        pair,
        members=[
            factories.person(dm, name="Søs", email="sos@example.dk", birth_date=date(1980, 1, 1)),
            factories.person(dm, name="Bo", email="bo@example.dk", birth_date=date(1981, 1, 1)),
        ],
    )
    return export_document(dm)


def where(document, key, name):
    """Return the path of the member named ``name`` in competition ``key``, and the person."""
    persons = {person["id"]: person for person in document["persons"]}
    for index, competition in enumerate(document["competitions"]):
        if competition["key"] != key:
            continue
        for entry_index, entry in enumerate(competition["entries"]):
            for position, ref in enumerate(entry["members"]):
                if persons[ref]["name"] == name:
                    return (
                        f"competitions[{index}].entries[{entry_index}].members[{position}]",
                        persons[ref],
                    )
    raise LookupError(name)


def refused(document) -> InterchangeError:
    with pytest.raises(InterchangeError) as raised:
        import_document(copy.deepcopy(document), replace=True)
    return raised.value


def test_the_same_name_and_birth_date_in_two_entries_of_a_dm_category_is_refused(dm_document):
    path, jens = where(dm_document, "individual", "Jens Jensen")
    mette_path, mette = where(dm_document, "individual", "Mette Hansen")
    # Another id and another e-mail address, but the same person.
    jens.update(name="  mette HANSEN ", birth_date="1990-05-01")
    error = refused(dm_document)
    assert error.path == path
    assert error.message == (
        f'person "{jens["id"]}" has the same name and birth date as person "{mette["id"]}", '
        f"who already has an entry in this category ({mette_path.rsplit('.', 1)[0]}); "
        "the ruleset allows one"
    )
    assert Entry.objects.count() == 3  # the championship in the database is untouched


def test_the_same_email_in_two_entries_of_a_dm_category_is_refused(dm_document):
    path, jens = where(dm_document, "individual", "Jens Jensen")
    jens["email"] = "METTE@example.dk"
    error = refused(dm_document)
    assert error.path == path
    assert "has the same e-mail address as person" in error.message


def test_the_same_person_twice_in_one_dm_entry_is_refused(dm_document):
    path, bo = where(dm_document, "pair", "Bo")
    bo.update(name="søs", email="", birth_date="1980-01-01")
    error = refused(dm_document)
    assert error.path == path
    assert "the same person cannot be two members" in error.message


def test_the_same_person_in_two_categories_is_imported(dm_document):
    _path, bo = where(dm_document, "pair", "Bo")
    bo.update(name="Mette Hansen", email="", birth_date="1990-05-01")
    imported = import_document(copy.deepcopy(dm_document), replace=True)
    assert Entry.objects.filter(category__championship=imported).count() == 3


def test_a_withdrawn_entry_does_not_count_for_one_entry_per_person(dm_document):
    path, jens = where(dm_document, "individual", "Jens Jensen")
    jens.update(name="Mette Hansen", birth_date="1990-05-01")
    entry_path = path.rsplit(".", 1)[0]
    competition, entry = (int(part.split("[")[1][:-1]) for part in entry_path.split("."))
    withdrawn = dm_document["competitions"][competition]["entries"][entry]
    withdrawn.update(status="withdrawn")
    imported = import_document(copy.deepcopy(dm_document), replace=True)
    assert Entry.objects.filter(category__championship=imported, status="withdrawn").count() == 1


def test_a_restore_keeps_unofficial_entries_and_members_without_identity():
    sm = factories.championship(
        slug=f"sm-{NEXT_YEAR}",
        ruleset="sm",
        starts_at=STARTS,
        rule_overrides={
            "unofficial_allowed": False,
            "one_entry_per_person_per_category": True,
        },
    )
    pair = sm.categories.get(kind="pair")
    guest = factories.person(sm, name="Ola", email="", citizenship=["NO"])
    swede = factories.person(sm, name="Sven", citizenship=["SE"], birth_date=date(1980, 1, 1))
    factories.entry(pair, members=[swede, guest])
    document = export_document(sm)
    imported = import_document(copy.deepcopy(document), replace=True)
    assert export_document(imported) == document
