"""The forms of "Edit championship": the championship, a category, a round.

Dates and times are wall-clock times in the championship's own time zone: the
request already runs in that zone (``ChampionshipMiddleware``), so Django's fields
read and show them there.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championship import bounds, payees, services
from championship.models import Category, Championship, Round
from control.forms import AdvanceForm
from control.setup_forms import INPUT_FORMATS, datetime_input

# Edit championship -----------------------------------------------------------------------


# Where entrants pay, in the order the edit page shows them; and which the page offers for
# which currency (the others: always).
PAYEES = payees.PAYEES
PAYEE_CURRENCIES = {
    "swish_number": ("SEK",),
    "vipps_number": ("NOK",),
    "mobilepay_number": ("DKK",),
    "bank_account": ("NOK", "SEK", "DKK"),
}


class ChampionshipEditForm(forms.ModelForm):
    """The championship's dates, place, payment instructions and public listing."""

    class Meta:
        model = Championship
        fields = list(services.CHAMPIONSHIP_EDITABLE)
        widgets = {
            "starts_at": datetime_input(),
            "registration_deadline": datetime_input(),
            "payment_instructions": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("starts_at", "registration_deadline"):
            self.fields[name].input_formats = INPUT_FORMATS
        self.fields["registration_deadline"].help_text = _(
            "When empty, the preset's rule applies. An earlier deadline than the preset's "
            "closes registration earlier, never later."
        )
        # Only the payment app of the championship's country, and no account number beside
        # an IBAN for euro; what is not shown stays as it is.
        currency = self.instance.currency
        for name, currencies in PAYEE_CURRENCIES.items():
            if currency not in currencies:
                del self.fields[name]
        for name in (*PAYEES, "refund_days_before"):
            if name in self.fields and name not in self.data and self.is_bound:
                # Left out (a form of an earlier release): as it is.
                del self.fields[name]

    @property
    def payee_fields(self):
        """Where entrants pay, as the championship's currency suggests (``PAYEES``)."""
        return [self[name] for name in PAYEES if name in self.fields]

    def clean_payment_reference_scheme(self):
        # Left out (a form of an earlier release): as it is.
        if "payment_reference_scheme" not in self.data:
            return self.instance.payment_reference_scheme
        return self.cleaned_data["payment_reference_scheme"]

    def clean_offer_hours(self):
        # Left out (a form of an earlier release): as it is.
        value = self.cleaned_data.get("offer_hours")
        return self.instance.offer_hours if value is None else value

    def clean_protest_window_minutes(self):
        # Left out (a form of an earlier release): the window stays as it is.
        value = self.cleaned_data.get("protest_window_minutes")
        return self.instance.protest_window_minutes if value is None else value


class CategoryEditForm(forms.ModelForm):
    """A category's capacity, fee, puzzle and registration opening."""

    class Meta:
        model = Category
        fields = [
            "capacity",
            "fee",
            "pieces",
            "time_limit_minutes",
            "puzzle_brand",
            "puzzle_motif",
            "registration_opens_at",
        ]
        widgets = {"registration_opens_at": datetime_input()}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, prefix=f"category-{kwargs['instance'].key}", **kwargs)
        self.fields["registration_opens_at"].input_formats = INPUT_FORMATS
        self.fields["registration_opens_at"].help_text = _("Empty: open now.")


COUNTRY_FIELDS = (
    "advance_country_places",
    "advance_country_requires_completion",
    "advance_per_country",
    "advance_only_countries_without_qualifier",
)


class RoundEditForm(AdvanceForm):
    """A round's puzzle, time limit and how entries advance from it (the edit page's fields)."""

    pieces = forms.IntegerField(
        label=gettext_lazy("Pieces per puzzle"),
        min_value=1,
        max_value=bounds.PIECES_MAX,
        required=False,
        help_text=gettext_lazy("Empty: the category's pieces."),
    )
    puzzles = forms.IntegerField(
        label=gettext_lazy("Puzzles"),
        min_value=1,
        max_value=bounds.PUZZLES_MAX,
        help_text=gettext_lazy("Done in the round and counted together (a team's two puzzles: 2)."),
    )
    time_limit_minutes = forms.IntegerField(
        label=gettext_lazy("Time limit (minutes)"),
        min_value=bounds.TIME_LIMIT_MINUTES_MIN,
        max_value=bounds.TIME_LIMIT_MINUTES_MAX,
        required=False,
        help_text=gettext_lazy("Empty: the category's time limit."),
    )
    field_order = [
        "pieces",
        "puzzles",
        "time_limit_minutes",
        "advance",
        "advance_count",
        "advance_best_remaining",
    ]

    def __init__(self, *args, round_: Round, last: bool = False, **kwargs):
        kwargs.setdefault(
            "initial",
            {
                "pieces": round_.pieces,
                "puzzles": round_.puzzles,
                "time_limit_minutes": round_.time_limit_minutes,
                "advance": round_.advance,
                "advance_count": round_.advance_count,
                "advance_best_remaining": round_.advance_best_remaining,
            },
        )
        super().__init__(*args, prefix=f"round-{round_.key}", **kwargs)
        self.round = round_
        self.last = last
        # Country places, and where the qualifiers go, are set on the round's own page.
        for name in COUNTRY_FIELDS:
            del self.fields[name]
        if last:
            # Nobody advances from a category's last round: only its time limit is offered.
            for name in ("advance", "advance_count", "advance_best_remaining"):
                del self.fields[name]

    def clean(self):
        if not self.last:
            return super().clean()
        data = forms.Form.clean(self)
        data["advance"] = self.round.advance
        data["advance_count"] = self.round.advance_count
        data["advance_best_remaining"] = self.round.advance_best_remaining
        return data
