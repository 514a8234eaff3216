"""The head judge's menu of the round's entries (mark as not started or disqualified) lists
them by name in the page's alphabetical order, and still takes only the round's entries."""

import pytest
from django.utils import translation

from championship.models import Seat
from judging.forms import MarkForm
from tests import factories

pytestmark = pytest.mark.django_db

NAMES = ["Åse Ås", "Ærlig Hansen", "Øystein Berg", "Ola Nordmann", "Zakarias Lie"]


@pytest.fixture
def seated(championship):
    """The championship's final with the five names seated in one heat."""
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    heat = factories.heat(final)
    for name in NAMES:
        entry = factories.entry(individual, name=name)
        Seat.objects.create(heat=heat, table=factories.table(championship), entry=entry)
    return final


@pytest.mark.parametrize(
    ("language", "order"),
    [
        ("nb", ["Ola Nordmann", "Zakarias Lie", "Ærlig Hansen", "Øystein Berg", "Åse Ås"]),
        ("sv", ["Ola Nordmann", "Zakarias Lie", "Åse Ås", "Ærlig Hansen", "Øystein Berg"]),
        ("en", ["Ærlig Hansen", "Åse Ås", "Ola Nordmann", "Øystein Berg", "Zakarias Lie"]),
    ],
)
def test_the_entries_are_in_the_languages_order(seated, language, order):
    with translation.override(language):
        form = MarkForm(round_=seated)
        labels = [str(label) for _value, label in form.fields["entry"].choices]
    assert labels == ["---------", *order]


def test_the_menu_takes_an_entry_of_the_round_only(seated, championship):
    other = factories.entry(championship.categories.get(kind="individual"), name="Ikke Plassert")
    seated_entry = seated.seats.first().entry
    chosen = MarkForm({"entry": seated_entry.pk, "kind": "dns", "reason": "Borte"}, round_=seated)
    assert chosen.is_valid(), chosen.errors
    assert chosen.cleaned_data["entry"] == seated_entry
    refused = MarkForm({"entry": other.pk, "kind": "dns", "reason": "Borte"}, round_=seated)
    assert not refused.is_valid()
    assert "entry" in refused.errors
