"""The organiser's own questions: add, change, remove (``registration.questions``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from championship.models import Category
from championship.permissions import organiser_required
from core.form_fields import IdsField
from registration import questions as questions_services
from registration.models import Question

QUESTIONS = "registration/organiser_questions.html"
MAX_CHOICES = 30


class QuestionForm(forms.ModelForm):
    """A question: its text and kind, the choices one per line, required, where it is asked."""

    choices_text = forms.CharField(
        label=gettext_lazy("Choices"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("For one of several and several of several: one per line."),
    )

    class Meta:
        model = Question
        fields = ["text", "kind", "required", "categories"]
        field_classes = {"categories": IdsField}
        widgets = {"categories": forms.CheckboxSelectMultiple(attrs={"class": "choices"})}

    def __init__(self, *args, championship, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["categories"].queryset = Category.objects.filter(
            championship=championship
        ).order_by("order", "key")
        self.fields["categories"].label_from_instance = lambda category: category.display_name
        if self.instance.pk:
            self.initial["choices_text"] = "\n".join(self.instance.choices)

    def clean(self):
        cleaned = super().clean()
        lines = [" ".join(line.split()) for line in cleaned.get("choices_text", "").splitlines()]
        choices = list(dict.fromkeys(line[:100] for line in lines if line))
        kind = cleaned.get("kind")
        if kind in (Question.Kind.CHOICE, Question.Kind.CHOICES):
            if len(choices) < 2:
                self.add_error("choices_text", _("Give at least two choices, one per line."))
            elif len(choices) > MAX_CHOICES:
                self.add_error(
                    "choices_text", _("At most %(count)s choices.") % {"count": MAX_CHOICES}
                )
        else:
            choices = []
        self.instance.choices = choices
        return cleaned


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
