"""The site's select writes the HTML Django's would, in every case a form gives it."""

import re

import pytest
from django import forms

from core.widgets import Select
from registration.forms import country_choices
from tests import factories


def same(html: str) -> str:
    """The HTML without the whitespace Django's templates put between tags."""
    return re.sub(r">\s+<", "><", html.strip())


@pytest.mark.parametrize(
    ("choices", "value", "attrs"),
    [
        (country_choices(), "NO", None),
        (country_choices(), "", {"id": "id_country", "required": True}),
        ([("a", '<Ålesund> & "co"'), ("b", "B")], "a", {"class": "x", "disabled": False}),
        ([("Nordic", [("no", "Norway"), ("se", "Sweden")]), ("dk", "Denmark")], "se", None),
        ([(1, "One"), (2, "Two")], 2, None),
    ],
    ids=["countries", "nothing-chosen", "escaped", "groups", "numbers"],
)
def test_the_html_is_djangos(choices, value, attrs):
    django, site = forms.Select(choices=choices), Select(choices=choices)
    assert same(site.render("field", value, attrs)) == same(django.render("field", value, attrs))


@pytest.mark.django_db
def test_a_model_choice_is_djangos():
    championship = factories.championship(slug="widgets")
    individual = championship.categories.get(kind="individual")
    chosen = factories.entry(individual, name="Åse <Ø>")
    factories.entry(individual, name="Bjørn")
    queryset = type(chosen).objects.order_by("pk")
    django = forms.ModelChoiceField(queryset=queryset)
    site = forms.ModelChoiceField(queryset=queryset, widget=Select)
    html = same(site.widget.render("entry", chosen.pk))
    assert html == same(django.widget.render("entry", chosen.pk))
    assert f'<option value="{chosen.pk}" selected>Åse &lt;Ø&gt;' in html
