"""The organiser's own questions: add, change, remove (``registration.questions``).

The form is ``registration.organiser_forms.QuestionForm``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from championship.permissions import organiser_required
from registration import questions as questions_services
from registration.models import Question
from registration.organiser_forms import QuestionForm

QUESTIONS = "registration/organiser_questions.html"


def _question(championship, pk) -> Question:
    question = Question.objects.filter(championship=championship, pk=pk).first()
    if question is None:
        raise Http404(_("There is no such question in this championship."))
    return question


@require_http_methods(["GET", "POST"])
@organiser_required
def questions(request, championship):
    """List the championship's questions, each with its form; add one."""
    existing = list(championship.questions.prefetch_related("categories").order_by("order", "id"))
    adding = QuestionForm(championship=championship, prefix="new")
    editing: dict[int, QuestionForm] = {}
    if request.method == "POST":
        pk = request.POST.get("question")
        if pk:
            question = _question(championship, pk if pk.isdigit() and len(pk) <= 18 else 0)
            form = QuestionForm(
                request.POST, instance=question, championship=championship, prefix=f"q{pk}"
            )
            if form.is_valid():
                questions_services.question_change(
                    question=form.save(commit=False), categories=form.cleaned_data["categories"]
                )
                messages.success(request, _("The question is saved."))
                return redirect("manage:questions", championship_slug=championship.slug)
            editing[question.pk] = form
        else:
            adding = QuestionForm(request.POST, championship=championship, prefix="new")
            if adding.is_valid():
                questions_services.question_add(
                    championship=championship,
                    question=adding.save(commit=False),
                    categories=adding.cleaned_data["categories"],
                )
                messages.success(request, _("The question is added."))
                return redirect("manage:questions", championship_slug=championship.slug)
    forms_ = [
        (
            question,
            editing.get(question.pk)
            or QuestionForm(instance=question, championship=championship, prefix=f"q{question.pk}"),
        )
        for question in existing
    ]
    return render(request, QUESTIONS, {"questions": forms_, "adding": adding})


@require_POST
@organiser_required
def question_delete(request, championship, pk):
    """Remove a question; the answers given to it are removed from the entries too."""
    question = _question(championship, pk)
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm that the question goes."))
        return redirect("manage:questions", championship_slug=championship.slug)
    questions_services.question_delete(question=question)
    messages.success(request, _("The question is removed, with its answers."))
    return redirect("manage:questions", championship_slug=championship.slug)
