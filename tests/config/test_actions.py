"""A view's call of a service (``core.actions``): told as a success, or refused and nothing changed.

The services are real ones: a round's advancement (``control.rounds.round_set_advance``,
which the round checks with ``Round.clean``) and the publication of its seating.
"""

import pytest
from django import forms
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.exceptions import ValidationError
from django.test import RequestFactory
from django.utils import translation

from championship.errors import RoundStateError
from championship.models import Round
from control import rounds
from control.forms import AdvanceForm
from core import actions

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def request_():
    """A POST with a message store, as a view receives it."""
    request = RequestFactory().post("/")
    request._messages = CookieStorage(request)
    return request


@pytest.fixture
def final(championship) -> Round:
    return championship.categories.get(kind="individual").rounds.get()


def told(request) -> list[tuple[str, str]]:
    return [(message.level_tag, message.message) for message in messages.get_messages(request)]


def advance(final: Round, *, count: int | None):
    def action():
        rounds.round_set_advance(round_=final, advance="overall", count=count, best_remaining=None)
        return "The advancement is saved."

    return action


def test_a_call_that_goes_through_is_told_as_a_success(request_, final):
    assert actions.run(request_, advance(final, count=3)) is True
    assert told(request_) == [("success", "The advancement is saved.")]
    final.refresh_from_db()
    assert (final.advance, final.advance_count) == ("overall", 3)


def test_a_call_that_has_nothing_to_say_tells_nothing(request_, final):
    def action():
        rounds.round_set_advance(round_=final, advance="none", count=None, best_remaining=None)

    assert actions.run(request_, action) is True
    assert told(request_) == []


def test_a_refusal_is_told_as_an_error_and_changes_nothing(request_, final):
    assert actions.run(request_, advance(final, count=None)) is False
    assert told(request_) == [("error", "Say how many advance overall.")]
    final.refresh_from_db()
    assert (final.advance, final.advance_count) == ("none", None)


def test_an_apps_own_refusals_are_told_in_its_words(request_, final):
    def publish():
        rounds.seating_publish(round_=final)
        return "The seating is published."

    said = actions.run(
        request_,
        publish,
        refusals=(ValidationError, RoundStateError),
        say=lambda error: f"Refused: {error.message}",
    )
    assert said is False
    assert told(request_) == [("error", "Refused: Seat the round before publishing its seating.")]
    final.refresh_from_db()
    assert final.seating_published_at is None


def test_an_error_that_is_not_a_refusal_goes_on_up(request_, final):
    with pytest.raises(RoundStateError):
        actions.run(request_, lambda: rounds.seating_publish(round_=final))
    assert told(request_) == []


def test_a_refusal_naming_fields_is_shown_at_the_forms_fields(request_, final):
    form = AdvanceForm({"advance": "overall"})
    assert form.is_valid()
    data = form.cleaned_data

    def action():
        rounds.round_set_advance(
            round_=final,
            advance=data["advance"],
            count=data["advance_count"],
            best_remaining=data["advance_best_remaining"],
        )
        return "The advancement is saved."

    assert actions.run(request_, action, form=form) is False
    assert form.errors == {"advance_count": ["Say how many advance overall."]}
    # Shown on the form, not told above it.
    assert told(request_) == []
    final.refresh_from_db()
    assert final.advance == "none"


def test_a_refusal_naming_a_field_the_form_lacks_is_shown_above_its_fields():
    form = AdvanceForm({"advance": "none"})
    assert form.is_valid()
    refusal = ValidationError({"time_limit_minutes": ["A heat has started."], "advance": ["No."]})
    actions.refusal_on_form(form, refusal)
    assert form.non_field_errors() == ["A heat has started."]
    assert form.errors["advance"] == ["No."]


def test_an_invalid_form_is_refused_like_a_service(request_):
    class Form(forms.Form):
        count = forms.IntegerField()

    form = Form({"count": "many"})

    def action():
        if not form.is_valid():
            raise actions.form_refusal(form)
        return "Counted."

    assert actions.run(request_, action) is False
    assert told(request_) == [("error", "Enter a whole number.")]
