"""Random documents and files get clear errors, never a crash and never a partial write."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from championship.models import Championship
from core.csvfile import CsvFileError, decode
from interchange.format import InterchangeError
from interchange.write import import_document
from registration.csv_io import parse_entries
from registration.models import Entry, Person
from results.models import Result
from tests import factories
from tests.depth import examples
from tests.paths import DATA

pytestmark = pytest.mark.django_db

SMALL = json.loads((DATA / "interchange" / "small.json").read_text(encoding="utf-8"))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**6) | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)


def paths(value, prefix=()):
    """Yield the path of every value in a JSON document."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths(child, (*prefix, index))


ALL_PATHS = [p for p in paths(SMALL) if p]


@st.composite
def mutated_documents(draw):
    """The example document with a few values replaced, removed or retyped."""
    document = copy.deepcopy(SMALL)
    document["championship"]["slug"] = "fuzzed"
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(ALL_PATHS))
        parent = document
        try:
            for key in path[:-1]:
                parent = parent[key]
            action = draw(st.sampled_from(["replace", "delete"]))
            if action == "delete" and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = draw(json_values)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed the way there
    return document


def counts():
    return (
        Championship.objects.count(),
        Person.objects.count(),
        Entry.objects.count(),
        Result.objects.count(),
    )


@settings(
    max_examples=examples(deep=150, quick=40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(mutated_documents())
def test_a_mutated_interchange_document_is_imported_or_refused_cleanly(document):
    before = counts()
    try:
        championship = import_document(document)
    except InterchangeError as error:
        assert error.path and error.message
        assert counts() == before
    else:
        championship.delete()


@settings(max_examples=examples(deep=60, quick=20), deadline=None)
@given(st.one_of(json_values, st.text(max_size=50)))
def test_anything_that_is_not_a_document_is_refused_cleanly(value):
    before = counts()
    with pytest.raises(InterchangeError):
        import_document(value)
    assert counts() == before


HEADER = "name,email,birth_date,city,country,region\n"
cells = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=15)
csv_rows = st.lists(st.lists(cells, min_size=0, max_size=8), max_size=6)


@pytest.fixture
def rogaland(db):
    return factories.championship(slug="csv-fuzz")


@settings(
    max_examples=examples(deep=120, quick=40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.binary(max_size=400))
def test_random_bytes_as_a_csv_file_give_a_clear_answer(rogaland, data):
    try:
        text = decode(data)
        preview = parse_entries(text, championship=rogaland)
    except CsvFileError as error:
        assert str(error)
    else:
        assert preview is not None
    assert not Entry.objects.exists()


@settings(
    max_examples=examples(deep=120, quick=40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(rows=csv_rows, delimiter=st.sampled_from([",", ";"]))
def test_random_csv_rows_are_previewed_with_their_problems(rogaland, rows, delimiter):
    text = HEADER.replace(",", delimiter) + "\n".join(
        delimiter.join(f'"{cell.replace(chr(34), "")}"' for cell in row) for row in rows
    )
    individual = rogaland.categories.get(kind="individual")
    try:
        preview = parse_entries(text, championship=rogaland, default_category=individual)
    except CsvFileError as error:
        assert str(error)
    else:
        assert preview is not None
    assert not Entry.objects.exists()
