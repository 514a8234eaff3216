"""The forms of the Payments page: a statement to upload, the columns of a new CSV layout."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from payments import readers

MAX_FILE_BYTES = 5 * 1024 * 1024


class StatementForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Bank statement"),
        help_text=gettext_lazy(
            "camt.053 or camt.054 (XML) from the bank, or its CSV export, or a Swish or Vipps "
            "report."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs["accept"] = ".xml,.csv,.txt,text/xml,text/csv"

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise ValidationError(_("A statement file has at most 5 MB."))
        return upload


class MappingForm(forms.Form):
    """Which column of a new CSV layout holds what; the date and the amount paid in are needed."""

    decimal_comma = forms.BooleanField(
        label=gettext_lazy("Amounts are written with a decimal comma (1.234,50)"),
        required=False,
        initial=True,
    )

    def __init__(self, *args, header: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *((name, name) for name in header if name)]
        for name in readers.FIELDS:
            self.fields[name] = forms.ChoiceField(
                label=readers.FIELD_NAMES[name],
                choices=choices,
                required=name in ("date", "amount"),
            )
        self.order_fields([*readers.FIELDS, "decimal_comma"])

    def columns(self) -> dict[str, str]:
        return {name: self.cleaned_data[name] for name in readers.FIELDS if self.cleaned_data[name]}
