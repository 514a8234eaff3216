"""The organiser's forms: the entry list's filters, an entry's payment and walk-over, the CSV
import's upload, and the organiser's own questions.

The views that show them are ``organiser``, ``organiser_questions``; they save
through ``registration.services`` and ``registration.questions``.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championship.models import Category
from core.form_fields import IdsField
from registration import csv_columns
from registration.models import Entry, Question

# The entry list -------------------------------------------------------------------------------


def _with_all(choices):
    return [("", gettext_lazy("All")), *choices]


YES_NO = [("yes", gettext_lazy("Yes")), ("no", gettext_lazy("No"))]


class SearchInput(forms.TextInput):
    input_type = "search"


class EntryFilterForm(forms.Form):
    """The filters and the search of the entry list (all optional)."""

    category = forms.ChoiceField(label=gettext_lazy("Category"), required=False)
    q = forms.CharField(
        label=gettext_lazy("Search"), required=False, max_length=100, widget=SearchInput
    )
    status = forms.ChoiceField(
        label=gettext_lazy("Status"), required=False, choices=_with_all(Entry.Status.choices)
    )
    official = forms.ChoiceField(
        label=gettext_lazy("Official"), required=False, choices=_with_all(YES_NO)
    )
    payment = forms.ChoiceField(
        label=gettext_lazy("Payment"), required=False, choices=_with_all(Entry.Payment.choices)
    )
    checked_in = forms.ChoiceField(
        label=gettext_lazy("Checked in"), required=False, choices=_with_all(YES_NO)
    )
    under_age = forms.ChoiceField(required=False, choices=_with_all(YES_NO))

    def __init__(self, *args, categories, adult_age, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [(c.key, c.display_name) for c in categories]
        self.fields["q"].widget.attrs["placeholder"] = _("Name, e-mail or payment reference")
        if adult_age is None:
            del self.fields["under_age"]
        else:
            self.fields["under_age"].label = _("Under %(age)s") % {"age": adult_age}


class PaymentForm(forms.Form):
    status = forms.ChoiceField(label=gettext_lazy("Payment"), choices=Entry.Payment.choices)
    reference = forms.CharField(
        label=gettext_lazy("Payment reference"), required=False, max_length=100
    )


class WalkoverForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), required=False, max_length=1000)


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("CSV file"))
    category = forms.ChoiceField(
        label=gettext_lazy("Category"),
        required=False,
        help_text=gettext_lazy("For the rows without a category, or a file without that column."),
    )

    def __init__(self, *args, categories, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [
            ("", "—"),
            *((c.key, c.display_name) for c in categories),
        ]
        self.fields["file"].widget.attrs["accept"] = ".csv,.txt,text/csv,text/plain"

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > csv_columns.MAX_FILE_BYTES:
            raise ValidationError(
                _("The file is larger than %(size)s MB.")
                % {"size": csv_columns.MAX_FILE_BYTES // 1_000_000}
            )
        return upload


# The organiser's questions ----------------------------------------------------------------------

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
