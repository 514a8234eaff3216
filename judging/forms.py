"""The head judge's forms on the round dashboard: mark an entry, correct a result."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championship.models import Round
from core.collation import sort_key
from core.l10n import parse_duration
from core.widgets import Select
from judging.capture_kinds import CaptureInput
from judging.dashboard import seated_entries
from judging.models import Capture
from results.models import Result

MARK_KINDS = [
    (Capture.Kind.DNS, gettext_lazy("Did not start")),
    (Capture.Kind.DSQ, gettext_lazy("Disqualified")),
]


class MarkForm(forms.Form):
    """Mark an entry as not started or disqualified, with the reason."""

    entry = forms.ModelChoiceField(label=gettext_lazy("Entry"), queryset=None, widget=Select)
    kind = forms.ChoiceField(label=gettext_lazy("Mark as"), choices=MARK_KINDS)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=2000)

    def __init__(self, *args, round_: Round, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["entry"]
        field.queryset = seated_entries(round_)
        # The menu by name in the page's alphabetical order (Æ, Ø, Å after Z in Norwegian),
        # not the database's; the queryset still checks what is chosen.
        entries = sorted(field.queryset, key=lambda entry: (sort_key(entry.name), entry.pk))
        field.choices = [
            ("", field.empty_label),
            *((entry.pk, field.label_from_instance(entry)) for entry in entries),
        ]


# What a correction may set a result to: a result is pending only until something is recorded.
CORRECTION_STATUSES = [
    (status.value, status.label) for status in Result.Status if status != Result.Status.PENDING
]
CORRECTION_COUNTS = ("missing_found", "missing_lost", "adjacent_missing")


class CorrectionForm(forms.Form):
    """A head judge's correction of one entry's result, with the reason."""

    entry = forms.ModelChoiceField(label=gettext_lazy("Entry"), queryset=None, widget=Select)
    time = forms.CharField(label=gettext_lazy("Time (H:MM:SS)"), required=False, max_length=20)
    missing_found = forms.IntegerField(required=False, min_value=0)
    missing_lost = forms.IntegerField(required=False, min_value=0)
    adjacent_missing = forms.IntegerField(required=False, min_value=0)
    pieces_placed = forms.IntegerField(required=False, min_value=0)
    status = forms.ChoiceField(label=gettext_lazy("Status"), choices=CORRECTION_STATUSES)
    # Not required here: the capture service says why a correction needs a reason.
    reason = forms.CharField(label=gettext_lazy("Reason"), required=False, max_length=2000)

    def __init__(self, *args, round_: Round, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = seated_entries(round_)

    def clean_time(self):
        text = self.cleaned_data["time"].strip()
        if not text:
            return None
        try:
            return parse_duration(text)
        except ValueError:
            raise forms.ValidationError(_("Give the time as H:MM:SS.")) from None

    def capture(self, *, rules, result: Result | None) -> CaptureInput:
        """Return the correction to record.

        A count the preset does not ask for keeps its value; one left empty is 0.
        An empty time or piece count keeps the recorded one.
        """
        data = self.cleaned_data
        asked = {
            "missing_found": rules.pieces_found_later,
            "missing_lost": True,
            "adjacent_missing": rules.adjacent_missing_waives_penalty,
        }
        counts = {}
        for name in CORRECTION_COUNTS:
            if asked[name]:
                counts[name] = data[name] or 0
            else:
                counts[name] = getattr(result, name) if result is not None else 0
        return CaptureInput(
            client_id=uuid.uuid4(),
            kind=Capture.Kind.CORRECTION,
            time_ms=data["time"],
            pieces_placed=data["pieces_placed"],
            status=data["status"],
            reason=data["reason"],
            **counts,
        )
