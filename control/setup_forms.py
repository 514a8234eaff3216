"""The forms of "New championship", and the rules of "Edit championship" (also edit_forms.py).

Dates and times are wall-clock times in the championship's own time zone. On
the edit page the request already runs in that zone (``ChampionshipMiddleware``),
so Django's fields read and show them there; on the new page the zone is a field
of the same form, so the start is read as a naive wall-clock time and placed in
the chosen zone once the form is valid.
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championship import bounds, layouts, presets, rulesets, services, setups
from championship.models import (
    Category,
    Championship,
    Currency,
    Round,
    validate_slug_not_reserved,
    validate_timezone,
)
from control import rule_words
from core.zones import known_zones

DATETIME_LOCAL = "%Y-%m-%dT%H:%M"
INPUT_FORMATS = [DATETIME_LOCAL, "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"]

# The presets offered on the new page, the neutral one last.
PRESET_CHOICES = [
    ("rogaland", gettext_lazy("Rogalandsmesterskapet (rogaland): Norway, NOK, Norwegian")),
    ("sm", gettext_lazy("Pussel-SM (sm): Sweden, SEK, Swedish")),
    ("dm", gettext_lazy("DM i Speedpuzzling (dm): Denmark, DKK, Danish")),
    (
        "wjpc",
        gettext_lazy(
            "World Jigsaw Puzzle Championship (wjpc): Spain, EUR, English; groups, "
            "semifinals and a final, with country places"
        ),
    ),
    (
        "neutral",
        gettext_lazy(
            "None (neutral): everyone official, no age limits, one final per category, "
            "no penalty for missing pieces"
        ),
    ),
]

# The stages a category's rounds may have, as the rules allow them (ending in the final).
STAGE_CHOICES = [
    ("final", gettext_lazy("Final only")),
    ("prelim final", gettext_lazy("Preliminary round, then the final")),
    ("prelim semifinal final", gettext_lazy("Preliminary round, semifinal, then the final")),
    ("semifinal final", gettext_lazy("Semifinal, then the final")),
]
# A preset's stage layout (championship.layouts) is offered as "layout:<preset>" where
# the preset fills it in: a round per group, with the layout's advancement.
LAYOUT_CHOICE = "layout:"


def layout_of_choice(value, kind) -> layouts.Layout | None:
    """Return the layout a "layout:<preset>" choice stands for in a category kind, or None."""
    if not isinstance(value, str) or not value.startswith(LAYOUT_CHOICE):
        return None
    preset = value.removeprefix(LAYOUT_CHOICE)
    if preset not in presets.PRESETS:
        return None
    return setups.preset_layout(preset, kind)


def layout_label(layout: layouts.Layout) -> str:
    """Return how the page offers a layout: each stage, with its number of groups."""
    names = dict(Round.Stage.choices)
    parts = [
        f"{stage.groups} × {names[stage.stage]}" if stage.groups > 1 else str(names[stage.stage])
        for stage in layout
    ]
    return _("The preset's groups: %(stages)s") % {"stages": " → ".join(parts)}


def datetime_input() -> forms.DateTimeInput:
    return forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_LOCAL)


class WallClockField(forms.DateTimeField):
    """A date and time as typed, without a time zone: the form says which zone it is in."""

    def __init__(self, **kwargs):
        kwargs.setdefault("input_formats", INPUT_FORMATS)
        kwargs.setdefault("widget", datetime_input())
        super().__init__(**kwargs)

    def to_python(self, value):
        # Django's field would place the value in the active zone; read it in UTC and drop
        # the zone again, which leaves the wall-clock time as typed.
        with timezone.override(UTC):
            result = super().to_python(value)
        return result.replace(tzinfo=None) if result else result

    def prepare_value(self, value):
        return value


class ZoneField(forms.CharField):
    """An IANA time zone, typed with the browser's suggestions (a ``datalist``)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 64)
        kwargs.setdefault("validators", [validate_timezone])
        super().__init__(**kwargs)
        self.widget.attrs.update(list="time-zones", autocomplete="off", spellcheck="false")


def time_zones() -> list[str]:
    """Return the IANA zones people pick from (``Europe/Oslo``), sorted."""
    zones = sorted(
        zone
        for zone in known_zones()
        if "/" in zone and not zone.startswith(("Etc/", "SystemV/", "US/", "posix/", "right/"))
    )
    return [*zones, "UTC"]


# New championship ------------------------------------------------------------------------


class NewChampionshipForm(forms.Form):
    """Step one (preset, name, slug, start, venue) and what the preset fills in."""

    preset = forms.ChoiceField(
        label=gettext_lazy("Preset"), choices=PRESET_CHOICES, widget=forms.RadioSelect
    )
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200)
    slug = forms.SlugField(
        label=gettext_lazy("Address (slug)"),
        max_length=64,
        validators=[validate_slug_not_reserved],
        help_text=gettext_lazy(
            "The championship's address: letters, digits and hyphens, e.g. sm-2026."
        ),
    )
    starts_at = WallClockField(
        label=gettext_lazy("Start"),
        help_text=gettext_lazy("The date and time of the start, in the time zone below."),
    )
    venue = forms.CharField(label=gettext_lazy("Venue"), max_length=200, required=False)
    currency = forms.ChoiceField(label=gettext_lazy("Currency"), choices=Currency.choices)
    language = forms.ChoiceField(label=gettext_lazy("Language"), choices=settings.LANGUAGES)
    timezone = ZoneField(
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy("Every date and time of the championship is in this zone."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["data-slug-source"] = ""
        self.fields["slug"].widget.attrs.update({"data-slug": "", "spellcheck": "false"})

    def clean_slug(self):
        slug = self.cleaned_data["slug"].lower()
        if Championship.objects.filter(slug=slug).exists():
            raise ValidationError(_("A championship with this address exists already."))
        return slug

    def clean(self):
        data = super().clean()
        if data.get("starts_at") and data.get("timezone"):
            data["starts_at"] = timezone.make_aware(
                data["starts_at"], zoneinfo.ZoneInfo(data["timezone"])
            )
        return data


class CategorySetUpForm(forms.Form):
    """One category of the preset, with its rounds, as the organiser edits it."""

    kind = forms.ChoiceField(choices=Category.Kind.choices, widget=forms.HiddenInput)
    include = forms.BooleanField(label=gettext_lazy("Include"), required=False)
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100, required=False)
    min_members = forms.IntegerField(
        label=gettext_lazy("Members, at least"), min_value=1, max_value=20
    )
    max_members = forms.IntegerField(label=gettext_lazy("at most"), min_value=1, max_value=20)
    pieces = forms.IntegerField(
        label=gettext_lazy("Pieces"), min_value=1, max_value=bounds.PIECES_MAX
    )
    time_limit_minutes = forms.IntegerField(
        label=gettext_lazy("Time limit (minutes)"),
        min_value=bounds.TIME_LIMIT_MINUTES_MIN,
        max_value=bounds.TIME_LIMIT_MINUTES_MAX,
    )
    capacity = forms.IntegerField(
        label=gettext_lazy("Capacity"),
        min_value=0,
        max_value=100_000,
        required=False,
        help_text=gettext_lazy("Empty: no limit."),
    )
    fee = forms.DecimalField(
        label=gettext_lazy("Fee"),
        min_value=0,
        max_digits=8,
        decimal_places=2,
        help_text=gettext_lazy("In the currency above; 0: free."),
    )
    stages = forms.ChoiceField(label=gettext_lazy("Rounds"), choices=STAGE_CHOICES)
    prelim_advance = forms.IntegerField(
        label=gettext_lazy("From the preliminary round, the best … advance"),
        min_value=1,
        max_value=10_000,
        required=False,
    )
    semifinal_advance = forms.IntegerField(
        label=gettext_lazy("From the semifinal, the best … advance"),
        min_value=1,
        max_value=10_000,
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A preset's layout is offered where it is the value filled in (or sent back).
        value, kind = self["stages"].value(), self["kind"].value()
        layout = layout_of_choice(value, kind)
        if layout is not None:
            self.fields["stages"].choices = [(value, layout_label(layout)), *STAGE_CHOICES]

    def kind_label(self) -> str:
        kind = self["kind"].value()
        return str(dict(Category.Kind.choices).get(kind, kind))

    def clean(self):
        data = super().clean()
        low, high = data.get("min_members"), data.get("max_members")
        if low and high and high < low:
            self.add_error("max_members", _("At least as many as the minimum."))
        return data

    def setup(self) -> services.CategorySetUp:
        data = self.cleaned_data
        layout = layout_of_choice(data["stages"], data["kind"])
        advance = {"prelim": data.get("prelim_advance"), "semifinal": data.get("semifinal_advance")}
        if layout is not None:
            # The layout's groups, pieces, time limits and country places, as the preset says.
            rounds = setups.rounds_of_layout(layout)
        else:
            rounds = tuple(
                services.RoundSetUp(
                    stage=stage,
                    advance=Round.Advance.OVERALL if advance.get(stage) else Round.Advance.NONE,
                    advance_count=advance.get(stage),
                )
                for stage in data["stages"].split()
            )
        return services.CategorySetUp(
            kind=data["kind"],
            name=data["name"],
            min_members=data["min_members"],
            max_members=data["max_members"],
            pieces=data["pieces"],
            time_limit_minutes=data["time_limit_minutes"],
            capacity=data["capacity"],
            fee=data["fee"],
            rounds=rounds,
        )


class BaseCategorySetUpFormSet(forms.BaseFormSet):
    def clean(self):
        super().clean()
        if any(self.errors):
            return
        if not any(form.cleaned_data.get("include") for form in self.forms):
            raise ValidationError(_("Include at least one category."))

    def setups(self) -> list[services.CategorySetUp]:
        return [form.setup() for form in self.forms if form.cleaned_data.get("include")]


CategorySetUpFormSet = forms.formset_factory(
    CategorySetUpForm,
    formset=BaseCategorySetUpFormSet,
    extra=0,
    min_num=1,
    max_num=len(rulesets.CATEGORY_KINDS),
    absolute_max=len(rulesets.CATEGORY_KINDS),
    validate_max=True,
)


def preset_initial(preset: str) -> tuple[dict, list[dict]]:
    """Return what a preset fills in: the championship's fields and its categories'."""
    chosen = presets.get_preset(preset)
    championship = {"currency": chosen.currency, "language": chosen.language}
    # The neutral preset knows no country: the organiser gives the zone.
    championship["timezone"] = chosen.timezone if chosen.country else ""
    categories = []
    for setup in services.categories_of_preset(preset):
        stages = " ".join(round_.stage for round_ in setup.rounds)
        if any(round_.group for round_ in setup.rounds):
            # The preset's layout of groups (wjpc): one choice for all its rounds.
            stages = f"{LAYOUT_CHOICE}{preset}"
        categories.append(
            {
                "kind": setup.kind,
                "include": True,
                "name": "",
                "min_members": setup.min_members,
                "max_members": setup.max_members,
                "pieces": setup.pieces,
                "time_limit_minutes": setup.time_limit_minutes,
                "capacity": setup.capacity,
                "fee": setup.fee,
                "stages": stages,
            }
        )
    return championship, categories


# Rules -----------------------------------------------------------------------------------

# The stages of the rounds are the rounds themselves: they are changed where rounds are.
RULES_NOT_EDITED_HERE = frozenset({"rounds_individual", "rounds_pair", "rounds_team"})
NONE_CHOICE = ""


class RulesForm(forms.Form):
    """Every parameter of the rules with its current value, its preset's and its meaning."""

    def __init__(self, *args, championship: Championship, **kwargs):
        super().__init__(*args, prefix="rules", **kwargs)
        self.championship = championship
        self.preset_rules = presets.get_preset(championship.ruleset).rules
        current = championship.rules
        for name in rulesets.PARAMETERS:
            if name in RULES_NOT_EDITED_HERE:
                continue
            self.fields[name] = self._field(rulesets.parameter_spec(name))
            self.initial[name] = self._initial(name, getattr(current, name))

    def _field(self, spec: rulesets.ParameterSpec) -> forms.Field:
        # The meaning is the row's title; the code stays beside it (docs/rulesets.md).
        label = rule_words.parameter_title(spec.name)
        help_text = spec.name
        if spec.kind == "boolean":
            return forms.TypedChoiceField(
                label=label,
                help_text=help_text,
                choices=[("true", _("yes")), ("false", _("no"))],
                coerce=lambda value: value == "true",
            )
        if spec.kind == "choice":
            choices = rule_words.choices(spec.choices)
            if spec.optional:
                choices.insert(0, (NONE_CHOICE, _("none")))
            return forms.TypedChoiceField(
                label=label,
                help_text=help_text,
                choices=choices,
                coerce=str,
                empty_value=None,
                required=not spec.optional,
            )
        if spec.kind == "integer":
            field = forms.IntegerField(
                label=label,
                help_text=help_text,
                min_value=spec.least,
                max_value=spec.most if spec.most is not None else 100_000,
                required=not spec.optional,
            )
            if spec.optional:
                field.widget.attrs["placeholder"] = _("none")
            return field
        if spec.kind == "fields":
            return forms.MultipleChoiceField(
                label=label,
                help_text=help_text,
                choices=rule_words.choices(spec.choices),
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
        return forms.CharField(label=label, help_text=help_text, max_length=100, required=False)

    @staticmethod
    def _initial(name, value):
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, tuple):
            return list(value)
        return value

    def parameters(self):
        """Return ``(bound field, preset's value, changed)`` for every parameter shown."""
        rows = []
        for name in self.fields:
            preset_value = getattr(self.preset_rules, name)
            current = getattr(self.championship.rules, name)
            rows.append((self[name], rule_words.value_words(preset_value), current != preset_value))
        return rows

    def fixed(self):
        """Return ``(name, value, meaning)`` of the parameters the page does not edit."""
        rules = self.championship.rules
        return [
            (name, rule_words.value_words(getattr(rules, name)), rule_words.parameter_title(name))
            for name in rulesets.PARAMETERS
            if name in RULES_NOT_EDITED_HERE
        ]

    def overrides(self) -> dict:
        """Return the parameters that differ from the preset, as ``rule_overrides`` keeps them."""
        overrides = {
            name: value
            for name, value in self.championship.rule_overrides.items()
            if name in RULES_NOT_EDITED_HERE
        }
        for name, value in self.cleaned_data.items():
            if isinstance(value, list):
                value = [item for item in rulesets.PUBLISHABLE_FIELDS if item in value]
            preset_value = getattr(self.preset_rules, name)
            if isinstance(preset_value, tuple):
                preset_value = list(preset_value)
            if value != preset_value:
                overrides[name] = value
        return overrides
