"""The organiser's own questions: which a category asks, what a valid answer is, how it reads.

question
    Asked at registration, in the form, the API and the CSV import, of every
    category or of the categories chosen. Four kinds: ``text`` (a line of text),
    ``choice`` (one of the choices), ``choices`` (any of them) and ``yes_no``.
    A required question must be answered (a ``choices`` question with at least
    one choice).
answers
    Stored on the entry by the question's id (``Entry.answers``): a string, a
    list of strings, or true/false. A text holds no character that a database
    cannot store (``core.jsonbounds``). The entrant changes them through
    the private link as long as the entry's details can be changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _

from championship.models import Category, Championship
from core import jsonbounds
from registration.models import Entry, Question

Kind = Question.Kind
MAX_TEXT = 500


def questions_for(category: Category) -> list[Question]:
    """Return the questions a category asks, in order."""
    return list(
        Question.objects.filter(championship_id=category.championship_id)
        .annotate(category_count=Count("categories"))
        .filter(Q(category_count=0) | Q(categories=category))
        .distinct()
        .order_by("order", "id")
    )


def _one(question: Question, value: Any) -> Any:
    """Return ``value`` as an answer to ``question``, or raise ``ValidationError``."""
    if question.kind == Kind.TEXT:
        if not isinstance(value, str):
            raise ValidationError(_("Give a text."))
        value = value.strip()
        # Stored in a JSON column: PostgreSQL's jsonb holds no NUL character.
        jsonbounds.validate_text(value)
        if len(value) > MAX_TEXT:
            raise ValidationError(
                _("At most %(count)s characters.") % {"count": MAX_TEXT}, code="too_long"
            )
        return value
    if question.kind == Kind.YES_NO:
        if isinstance(value, bool):
            return value
        raise ValidationError(_("Answer yes or no."))
    if question.kind == Kind.CHOICE:
        if value == "" or value is None:
            return ""
        if not isinstance(value, str) or value not in question.choices:
            raise ValidationError(
                _("Choose one of: %(choices)s.") % {"choices": ", ".join(question.choices)}
            )
        return value
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValidationError(_("Give a list of choices."))
    unknown = [item for item in value if item not in question.choices]
    if unknown:
        raise ValidationError(
            _("Choose among: %(choices)s.") % {"choices": ", ".join(question.choices)}
        )
    return [choice for choice in question.choices if choice in value]


def _answered(value: Any) -> bool:
    return value not in (None, "", [])


def clean_answers(
    questions: Iterable[Question], given: Mapping[str, Any] | None, *, required: bool = True
) -> dict:
    """Return the answers to ``questions`` in ``given`` (by question id), checked.

    Raise ``ValidationError`` with the messages by question id (``{"<id>": [...]}``)
    when an answer is not one the question takes, a required one is missing, or
    an answer names no question asked. Without ``required`` (an organiser's
    import), a required question may stay unanswered.
    """
    given = dict(given or {})
    errors: dict[str, list] = {}
    answers: dict[str, Any] = {}
    asked = {question.ref: question for question in questions}
    for ref in given:
        if ref not in asked:
            errors[str(ref)[:40]] = [_("No such question is asked in this category.")]
    for ref, question in asked.items():
        value = given.get(ref)
        if not _answered(value):
            if question.required and required:
                errors[ref] = [_("This question needs an answer.")]
            continue
        try:
            answers[ref] = _one(question, value)
        except ValidationError as error:
            errors[ref] = error.messages
            continue
        if question.required and required and not _answered(answers[ref]):
            errors[ref] = [_("This question needs an answer.")]
    if errors:
        raise ValidationError(errors)
    return answers


def answer_text(question: Question, value: Any) -> str:
    """Return an answer as the organiser reads it (the entries list, the CSV export)."""
    if value is None or value == "" or value == []:
        return ""
    if question.kind == Kind.YES_NO:
        return _("Yes") if value else _("No")
    if isinstance(value, list):
        return ", ".join(value)
    return str(value)


def answers_shown(questions: Iterable[Question], answers: Mapping[str, Any]) -> list[tuple]:
    """Return (question, answer text) for each question answered, in order."""
    return [
        (question, answer_text(question, answers.get(question.ref)))
        for question in questions
        if _answered(answers.get(question.ref))
    ]


@transaction.atomic
def question_add(*, championship, question: Question, categories: Iterable[Category]) -> Question:
    """Add ``question`` (not saved yet) to ``championship``, last, asked in ``categories``."""
    # One question added at a time in a championship: each gets its own place in the order.
    Championship.objects.select_for_update().only("pk").get(pk=championship.pk)
    last = Question.objects.filter(championship=championship).aggregate(last=Max("order"))["last"]
    question.championship = championship
    question.order = (last or 0) + 1
    question.save()
    question.categories.set(categories)
    return question


@transaction.atomic
def question_change(*, question: Question, categories: Iterable[Category]) -> Question:
    """Save the changes made to ``question``, asked now in ``categories``."""
    question.save()
    question.categories.set(categories)
    return question


@transaction.atomic
def question_delete(*, question: Question) -> None:
    """Remove a question, and the answers given to it from every entry of its championship."""
    ref = question.ref
    answered = Entry.objects.select_for_update().filter(
        category__championship_id=question.championship_id, answers__has_key=ref
    )
    for entry in answered:
        entry.answers.pop(ref, None)
        entry.save(update_fields=["answers", "updated_at"])
    question.delete()
