"""The control room's forms: advancement, seating, moves, own starts, tables and prior rankings."""

from __future__ import annotations

import random
import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from championship import bounds, submissions
from championship.models import Category, Heat, Round
from championship.rules.seating import SEEDING, allowed_orders
from control import rounds
from control.advancement import CountrySettings
from control.rounds import SeatingPlan
from core.form_fields import IdsField

# Forms -----------------------------------------------------------------------------------------


# More heats than letters of the alphabet would not fit a venue's day.
MAX_HEATS = 26
SEED_MAX = 999_999
MAX_RANKING_BYTES = 1_000_000
MAX_RANKING_ROWS = 5000
DATETIME_LOCAL = "%Y-%m-%dT%H:%M"


class AdvanceForm(forms.Form):
    """How entries advance from a round, as ``Round.clean`` checks it."""

    advance = forms.ChoiceField(label=gettext_lazy("Who advances"), choices=Round.Advance.choices)
    advance_count = forms.IntegerField(
        label=gettext_lazy("N"),
        required=False,
        min_value=0,
        max_value=10_000,
        help_text=gettext_lazy("How many advance overall, or per heat."),
    )
    advance_best_remaining = forms.IntegerField(
        label=gettext_lazy("M"),
        required=False,
        min_value=0,
        max_value=10_000,
        help_text=gettext_lazy("With “per heat”: how many of the best remaining advance."),
    )
    advance_country_places = forms.IntegerField(
        label=gettext_lazy("K"),
        required=False,
        min_value=0,
        max_value=10_000,
        help_text=gettext_lazy(
            "With country places: how many countries' best take a place first. "
            "Empty: every country."
        ),
    )
    advance_country_requires_completion = forms.BooleanField(
        label=gettext_lazy("A country place needs a completed puzzle"), required=False
    )
    advance_per_country = forms.IntegerField(
        label=gettext_lazy("Country places per country"),
        required=False,
        min_value=1,
        max_value=100,
        help_text=gettext_lazy("Empty: one."),
    )
    advance_only_countries_without_qualifier = forms.BooleanField(
        label=gettext_lazy(
            "Country places only for countries without a qualifier, on top of the N best"
        ),
        required=False,
    )
    into = forms.TypedChoiceField(
        label=gettext_lazy("Qualifiers go to"),
        required=False,
        coerce=int,
        empty_value=None,
        help_text=gettext_lazy("Several groups may feed one round."),
    )

    def __init__(self, *args, round_: Round | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        # The page shows the fields of the kind chosen here (app.css).
        self.fields["advance"].widget.attrs["data-advance"] = ""
        if round_ is None:
            del self.fields["into"]
            return
        later = Round.objects.filter(category=round_.category_id, order__gt=round_.order)
        self.fields["into"].choices = [
            ("", gettext_lazy("The next round")),
            *((r.pk, r.display_name) for r in later.order_by("order")),
        ]

    def clean(self):
        data = super().clean()
        # The numbers that do not apply to the chosen kind are dropped, not refused.
        if data.get("advance") == Round.Advance.NONE:
            data["advance_count"] = data["advance_best_remaining"] = None
        elif data.get("advance") in (Round.Advance.OVERALL, Round.Advance.COUNTRY):
            data["advance_best_remaining"] = None
        return data

    def country_settings(self) -> CountrySettings | None:
        """Return the country places' settings given (for a round with country places)."""
        data = self.cleaned_data
        if data.get("advance") != Round.Advance.COUNTRY:
            return None
        return CountrySettings(
            advance_country_places=data.get("advance_country_places"),
            advance_country_requires_completion=bool(
                data.get("advance_country_requires_completion")
            ),
            advance_per_country=data.get("advance_per_country") or 1,
            advance_only_countries_without_qualifier=bool(
                data.get("advance_only_countries_without_qualifier")
            ),
        )


class SeatForm(forms.Form):
    """How to seat a round: heats, order, a seed for the random order, scheduled starts.

    The championship's rules shape it: where they fix the order
    (``seating_first_round``, ``seating_later_rounds``) no other order is offered
    (``order_fixed`` says why); elsewhere seeding is offered first, as the
    default (sm's first round: "kan", may); where they require check-in, only
    checked-in entries are seated (``check_in_required``); where they leave the
    heat split to the organiser, heat sizes may be given.
    """

    heats = forms.IntegerField(
        label=gettext_lazy("Number of heats"), min_value=1, max_value=MAX_HEATS, initial=1
    )
    order = forms.ChoiceField(
        label=gettext_lazy("Order"),
        widget=forms.RadioSelect,
        choices=[
            ("seeding", gettext_lazy("By prior ranking, then by registration time")),
            ("registration", gettext_lazy("By registration time")),
            ("random", gettext_lazy("At random")),
        ],
        initial="seeding",
        # Seeding is every round's default order: a form sent without one is seeded.
        required=False,
    )
    seed = forms.IntegerField(
        label=gettext_lazy("Random seed"),
        required=False,
        min_value=0,
        max_value=SEED_MAX,
        help_text=gettext_lazy("The same seed gives the same random order again."),
    )
    checked_in_only = forms.BooleanField(
        label=gettext_lazy("Only checked-in entries"), required=False
    )
    heat_sizes = forms.CharField(
        label=gettext_lazy("Heat sizes (e.g. 20, 14)"),
        required=False,
        max_length=400,
        help_text=gettext_lazy(
            "One size per heat, adding up to the entries to seat. Empty: heat sizes "
            "differ by at most one."
        ),
    )

    def __init__(self, *args, round_: Round, first_round: bool, feeding: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        rules = round_.category.championship.rules
        if not first_round:
            by_place = (
                _("By placement in the previous round")
                if feeding <= 1
                else _("By placement in the groups that feed it, equal places interleaved")
            )
            self.fields["order"].choices = [
                (SEEDING, by_place),
                *self.fields["order"].choices[1:],
            ]
        allowed = allowed_orders(
            first_round=first_round,
            seating_first_round=rules.seating_first_round,
            seating_later_rounds=rules.seating_later_rounds,
        )
        self.order_fixed = None
        if allowed == (SEEDING,):
            # Not offered; an order sent anyway reaches the service, which says why not.
            self.order_fixed = rounds.fixed_order_reason(first_round=first_round)
            self.fields["order"].widget = forms.HiddenInput()
            self.initial["order"] = SEEDING
        self.check_in_required = rounds.check_in_required(round_)
        if rules.heat_split != "organiser":
            del self.fields["heat_sizes"]
        self.start_fields = []
        for number in range(1, MAX_HEATS + 1):
            name = f"start_{number}"
            self.fields[name] = forms.DateTimeField(
                label=Heat(key=rounds.heat_key(number - 1)).label,
                required=False,
                input_formats=[DATETIME_LOCAL, "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
                widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_LOCAL),
            )
            self.start_fields.append(name)
        if not first_round or self.check_in_required:
            # A later round seats the qualified of the round before, checked in or not;
            # where the rules require check-in, there is nothing to choose.
            del self.fields["checked_in_only"]

    def clean_order(self):
        return self.cleaned_data.get("order") or SEEDING

    def clean_heat_sizes(self):
        text = self.cleaned_data.get("heat_sizes", "").strip()
        if not text:
            return ()
        parts = [part for part in re.split(r"[\s,;+]+", text) if part]
        if not all(part.isascii() and part.isdigit() for part in parts):
            raise ValidationError(
                _("Give the heat sizes as whole numbers separated by commas, e.g. 20, 14.")
            )
        return tuple(int(part) for part in parts)

    def start_inputs(self):
        """Return ``(heat number, bound field)`` of every scheduled start input."""
        return [(number, self[name]) for number, name in enumerate(self.start_fields, start=1)]

    def shown_heats(self) -> int:
        """Return for how many heats a start input is shown (the number of heats asked for)."""
        try:
            return max(1, min(int(self["heats"].value()), MAX_HEATS))
        except (TypeError, ValueError):
            return 1

    def clean(self):
        data = super().clean()
        if data.get("order") == "random" and data.get("seed") is None:
            data["seed"] = random.randint(1, SEED_MAX)
        heats = data.get("heats")
        if heats:
            self._check_starts(heats)
            entries = len(
                rounds.round_entries(self.round, checked_in_only=data.get("checked_in_only", False))
            )
            if entries and heats > entries:
                self.add_error(
                    "heats",
                    ngettext(
                        "There is %(count)s entry to seat: at most %(count)s heat.",
                        "There are %(count)s entries to seat: at most %(count)s heats.",
                        entries,
                    )
                    % {"count": entries},
                )
        return data

    def _check_starts(self, heats: int) -> None:
        """Refuse a scheduled start outside the championship's days (the heats asked for only)."""
        championship = self.round.category.championship
        days = bounds.championship_days(championship.starts_at)
        for name in self.start_fields[:heats]:
            start = self.cleaned_data.get(name)
            if start is not None and start not in days:
                self.add_error(name, bounds.days_message(championship))

    def plan(self) -> SeatingPlan:
        data = self.cleaned_data
        heats = data["heats"]
        return SeatingPlan(
            heats=heats,
            order=data["order"],
            seed=data["seed"] if data["order"] == "random" else None,
            checked_in_only=data.get("checked_in_only", False) or self.check_in_required,
            scheduled_starts=[data.get(f"start_{number}") for number in range(1, heats + 1)],
            heat_sizes=data.get("heat_sizes") or (),
        )


class GroupsDealForm(forms.Form):
    """Deal a first stage's entrants to its parallel groups (``control.groups.groups_deal``)."""

    group_sizes = forms.CharField(
        label=gettext_lazy("Group sizes (e.g. 185, 184, 184)"),
        required=False,
        max_length=400,
        help_text=gettext_lazy(
            "One size per group, in the groups' order, adding up to the entries to deal. "
            "Empty: group sizes differ by at most one."
        ),
    )

    def clean_group_sizes(self):
        text = self.cleaned_data.get("group_sizes", "").strip()
        parts = [part for part in re.split(r"[\s,;+]+", text) if part]
        if not all(part.isascii() and part.isdigit() for part in parts):
            raise ValidationError(
                _("Give the group sizes as whole numbers separated by commas, e.g. 185, 184.")
            )
        return tuple(int(part) for part in parts)


class WithdrawForm(forms.Form):
    """A qualifier who does not start the next round: asked (``confirm`` off), then confirmed.

    Any entry is taken: whether it may be withdrawn is the service's to say
    (``control.withdrawals.qualifier_withdraw``), in its words.
    """

    entry = forms.IntegerField(label=gettext_lazy("Qualifier"), min_value=1)
    confirm = forms.BooleanField(required=False)


class MoveForm(forms.Form):
    heat = forms.CharField(max_length=30)
    table = forms.IntegerField(min_value=1)
    position = forms.TypedChoiceField(choices=[(1, "A"), (2, "B")], coerce=int, initial=1)
    swap = forms.BooleanField(required=False)


class OwnStartForm(forms.Form):
    at = forms.TimeField(input_formats=["%H:%M:%S", "%H:%M"])


# The longest table number a form takes: far beyond any venue, within the database's integers.
TABLE_NUMBER_MAX = 100_000


def table_group_field() -> forms.CharField:
    """Return the field for a table's group (``Table.group``): optional, at most 50 characters."""
    return forms.CharField(label=gettext_lazy("Group"), max_length=50, required=False, strip=True)


class TablesAddForm(forms.Form):
    count = forms.IntegerField(
        label=gettext_lazy("Number of tables"), min_value=1, max_value=500, initial=10
    )
    seats = forms.TypedChoiceField(
        label=gettext_lazy("Seats at each"),
        choices=[(1, 1), (2, 2)],
        coerce=int,
        initial=1,
    )
    group = table_group_field()


class TablesGroupForm(forms.Form):
    """Put a range of tables in one group (a row of the venue), or in none."""

    first = forms.IntegerField(
        label=gettext_lazy("From table"), min_value=1, max_value=TABLE_NUMBER_MAX
    )
    last = forms.IntegerField(
        label=gettext_lazy("To table"), min_value=1, max_value=TABLE_NUMBER_MAX
    )
    group = table_group_field()

    def clean(self):
        data = super().clean()
        first, last = data.get("first"), data.get("last")
        if first is not None and last is not None and last < first:
            raise ValidationError(_("The last table's number is below the first's."))
        return data


class TableForm(forms.Form):
    label = forms.CharField(label=gettext_lazy("Label"), max_length=100, required=False)
    seats = forms.TypedChoiceField(
        label=gettext_lazy("Seats"), choices=[(1, 1), (2, 2)], coerce=int
    )
    reserved_for_guests = forms.BooleanField(
        label=gettext_lazy("Reserved for guests"), required=False
    )
    group = table_group_field()


class HistoryRankingForm(forms.Form):
    """Earlier categories on this site whose results rank a first round's entries."""

    sources = IdsField(
        label=gettext_lazy("Earlier championships recognised for the ranking"),
        queryset=Category.objects.none(),
        widget=forms.CheckboxSelectMultiple(attrs={"class": "choices"}),
        help_text=gettext_lazy(
            "An entry is ranked by the most recent of them in which one of its members "
            "placed, then by that place. Puzzlers are recognised by their confirmed e-mail address."
        ),
    )

    def __init__(self, *args, sources=(), **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["sources"]
        field.queryset = Category.objects.filter(pk__in=[source.pk for source in sources])
        field.label_from_instance = lambda category: (
            f"{category.championship.name} ({category.championship.local_date.year}) – "
            f"{category.display_name}"
        )
        self.sources = list(sources)

    def chosen(self) -> list:
        """Return the chosen categories, the most recent first."""
        chosen = {category.pk for category in self.cleaned_data["sources"]}
        return [source for source in self.sources if source.pk in chosen]


class RankingUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("CSV file"),
        help_text=gettext_lazy(
            "A header row with the columns “email” or “name”, and “rank”; "
            "UTF-8 or Windows-1252, separated by commas or semicolons."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs["accept"] = ".csv,.txt,text/csv,text/plain"

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_RANKING_BYTES:
            raise ValidationError(
                _("The file is larger than %(size)s MB.") % {"size": MAX_RANKING_BYTES // 1_000_000}
            )
        return upload


class ScreenForm(forms.Form):
    """What the venue screen shows: a round's board, its seating, a podium, or a message."""

    show = forms.ChoiceField(
        label=gettext_lazy("Show"),
        widget=forms.RadioSelect,
        choices=[
            ("round", gettext_lazy("A round's board and clock")),
            ("seating", gettext_lazy("A round's seating")),
            ("podium", gettext_lazy("A category's podium")),
            ("message", gettext_lazy("A message")),
        ],
    )
    round = forms.ChoiceField(label=gettext_lazy("Round"), required=False)
    # Only the rounds whose seating is published are offered; any other is refused by the
    # service (``control.screen``) in words the organiser can act on, not as an unknown choice.
    seating = forms.CharField(
        label=gettext_lazy("Published seating"),
        required=False,
        max_length=50,
        widget=forms.Select,
        help_text=gettext_lazy("Only rounds whose seating is published are offered."),
    )
    category = forms.ChoiceField(label=gettext_lazy("Category"), required=False)
    text = forms.CharField(
        label=gettext_lazy("Message"),
        required=False,
        max_length=280,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, championship, **kwargs):
        state = championship.screen or {}
        kwargs.setdefault(
            "initial",
            {
                "show": state.get("show", "round"),
                "round": state.get("round", "") if state.get("show") != "seating" else "",
                "seating": state.get("round", "") if state.get("show") == "seating" else "",
                "category": state.get("category", ""),
                "text": state.get("text", ""),
            },
        )
        super().__init__(*args, **kwargs)
        rounds = championship.rounds.select_related("category").order_by("category__order", "order")
        labels = [
            (round_, f"{round_.category.display_name}: {round_.display_name}") for round_ in rounds
        ]
        self.fields["round"].choices = [("", "—")] + [(r.key, label) for r, label in labels]
        self.fields["seating"].widget.choices = [("", "—")] + [
            (r.key, label) for r, label in labels if r.seating_published_at is not None
        ]
        self.fields["category"].choices = [("", "—")] + [
            (category.key, category.display_name)
            for category in championship.categories.order_by("order", "key")
        ]

    def chosen_round(self) -> str:
        """Return the key of the round chosen for what the screen shows (board or seating)."""
        data = self.cleaned_data
        return data["seating"] if data["show"] == "seating" else data["round"]

    def add_error(self, field, error):
        # The service names the round; for the seating, this form's round is the seating's.
        if field == "round" and getattr(self, "cleaned_data", {}).get("show") == "seating":
            field = "seating"
        super().add_error(field, error)


class SubmissionField(forms.CharField):
    """The hidden submission token of a form that acts in bulk (``championship.submissions``).

    Rendered anew as a new token; posted, it is kept on the form shown again
    after a refusal, so the corrected form still acts once. A missing or
    malformed token is refused, and the form shown again carries a new one.
    """

    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        super().__init__(max_length=64, initial=submissions.new_token, **kwargs)

    def bound_data(self, data, initial):
        return data if submissions.token_valid(data) else initial

    def validate(self, value):
        if not submissions.token_valid(value):
            raise ValidationError(
                _("This form is out of date: reload the page and send it again."),
                code="submission",
            )


class MessageForm(forms.Form):
    """The organiser's message to the entrants of the championship, a category or a round."""

    audience = forms.ChoiceField(label=gettext_lazy("To"))
    subject = forms.CharField(label=gettext_lazy("Subject"), max_length=150)
    body = forms.CharField(
        label=gettext_lazy("Message"), max_length=5000, widget=forms.Textarea(attrs={"rows": 4})
    )
    submission = SubmissionField()

    def __init__(self, *args, championship, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("Every confirmed entrant"))]
        for category in championship.categories.order_by("order", "key"):
            choices.append(
                (
                    f"category:{category.key}",
                    _("%(category)s: every confirmed entrant")
                    % {"category": category.display_name},
                )
            )
        for round_ in championship.rounds.select_related("category").order_by(
            "category__order", "order"
        ):
            label = f"{round_.category.display_name}: {round_.display_name}"
            choices.append(
                (f"round:{round_.key}", _("%(round)s: the seated entrants") % {"round": label})
            )
        self.fields["audience"].choices = choices
        self.fields["audience"].required = False
