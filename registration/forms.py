"""The registration form: the entry, and one block per member with the fields the preset needs."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from championship.models import Category
from championship.rules.represents import NEUTRAL
from core.widgets import Select
from registration import countries
from registration.models import Question
from registration.questions import MAX_TEXT, questions_for
from registration.regions import region_choices
from registration.validation import MemberData


def country_choices():
    """Return a country menu's choices: none, then every country in the language's order."""
    return [("", "—"), *countries.menu()]


def represents_choices(rules) -> list[tuple[str, str]]:
    """Return the choices of the country an entry represents: none, the neutral flag, countries."""
    return [
        ("", "—"),
        *([(NEUTRAL, _("Neutral flag"))] if rules.neutral_flag_allowed else []),
        *countries.menu(),
    ]


class MemberForm(forms.Form):
    """One member of an entry."""

    name = forms.CharField(label=_("Name"), max_length=200)
    # 254 characters: the longest address SMTP delivers, and the model's column.
    email = forms.EmailField(label=_("E-mail"), max_length=254, required=False)
    birth_date = forms.DateField(
        label=_("Birth date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    city = forms.CharField(label=_("Home town"), max_length=100, required=False)
    country = forms.ChoiceField(
        label=_("Country"), required=False, choices=country_choices, widget=Select
    )
    citizenship = forms.ChoiceField(
        label=_("Citizenship"), required=False, choices=country_choices, widget=Select
    )
    publish_consent = forms.BooleanField(required=False)

    def __init__(self, *args, category: Category, **kwargs):
        super().__init__(*args, **kwargs)
        rules = category.championship.rules
        self.fields["name"].widget.attrs["autocomplete"] = "name"
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self._require_birth_date(category)
        if rules.eligibility == "region_residence":
            self.fields["region"] = forms.ChoiceField(
                label=_("Where do you live?"),
                choices=region_choices(rules.eligibility_region),
                required=True,
            )
            self.fields["years_in_region"] = forms.IntegerField(
                label=_("Earlier years living in %(region)s without a break")
                % {"region": rules.eligibility_region},
                help_text=_("Only if you live elsewhere now. Leave empty if none."),
                min_value=0,
                max_value=120,
                required=False,
            )
        if rules.one_entry_per_person_per_category:
            # Each person may enter once: the rule tells people apart by these.
            self.fields["email"].help_text = _(
                "An e-mail address or a birth date is needed for each member: each person "
                "may have one entry in this category."
            )
        if self.prefix and self.prefix.endswith("-0"):
            self.fields["email"].required = True
        # Consent is each member's own: only a consenting member is published.
        consent = self.fields.pop("publish_consent")
        if category.max_members == 1:
            consent.label = _(
                "I agree that %(fields)s may be published in entry and result lists."
            ) % {"fields": published_fields_text(rules.published_fields)}
        else:
            consent.label = _(
                "This member agrees that %(fields)s may be published in entry and result lists."
            ) % {"fields": published_fields_text(rules.published_fields)}
        consent.help_text = _(
            "With consent, results also appear on a public page of the puzzler that lists "
            "their championships on this site (recognised by e-mail address, once confirmed)."
        )
        self.fields["publish_consent"] = consent

    def _require_birth_date(self, category: Category) -> None:
        """Make the birth date required where an age rule of the preset applies to the category."""
        rules = category.championship.rules
        minimum = rules.min_age_for(category.kind)
        adult_age = rules.adult_required_below
        if minimum is None and adult_age is None:
            return
        field = self.fields["birth_date"]
        field.required = True
        field.error_messages["required"] = _("Give the birth date: this category has an age limit.")
        if minimum is not None:
            field.help_text = _(
                "The minimum age in this category is %(limit)s on the day of the championship."
            ) % {"limit": minimum}
        if adult_age is not None and (minimum is None or adult_age > minimum):
            adult = _(
                "Under %(age)s on the day of the championship, an accompanying adult must be named."
            ) % {"age": adult_age}
            field.help_text = f"{field.help_text} {adult}".strip()

    def member_data(self) -> MemberData:
        data = self.cleaned_data
        return MemberData(
            name=data.get("name", ""),
            email=data.get("email", ""),
            birth_date=data.get("birth_date"),
            city=data.get("city", ""),
            country=data.get("country", ""),
            citizenship=(data["citizenship"],) if data.get("citizenship") else (),
            region=data.get("region", ""),
            years_in_region=data.get("years_in_region"),
            publish_consent=bool(data.get("publish_consent")),
        )


def member_count_message(category: Category) -> str:
    """Return what a category asks of the number of members, as the registration service says it."""
    if category.min_members == category.max_members:
        return ngettext(
            "An entry in this category has %(count)s member.",
            "An entry in this category has %(count)s members.",
            category.min_members,
        ) % {"count": category.min_members}
    return _("An entry in this category has %(low)s to %(high)s members.") % {
        "low": category.min_members,
        "high": category.max_members,
    }


class BaseMemberFormSet(forms.BaseFormSet):
    """The members of an entry: never more forms than the category has members.

    The form's count (``members-TOTAL_FORMS``) comes from the browser; the
    formset's ``absolute_max`` is the category's maximum, so a count of
    100,000 builds that many forms at most and is refused with the category's rule.
    """

    def __init__(self, *args, category: Category, **kwargs):
        self.category = category
        super().__init__(*args, **kwargs)
        # Django formats these with the count: a message of our own has no placeholder left.
        message = str(member_count_message(category)).replace("%", "%%")
        self.error_messages = {
            **self.error_messages,
            "too_many_forms": message,
            "too_few_forms": message,
        }

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "category": self.category}

    @property
    def empty_form(self):
        form = self.form(
            auto_id=self.auto_id,
            prefix=self.add_prefix("__prefix__"),
            empty_permitted=True,
            use_required_attribute=False,
            category=self.category,
        )
        self.add_fields(form, None)
        return form

    def members(self) -> list[MemberData]:
        """Return the filled-in members, in order (an optional empty block is left out).

        A member given before (an initial form, on the entrant's page) counts even
        when unchanged: correcting one member keeps the others.
        """
        initial = self.initial_form_count()
        return [
            form.member_data()
            for index, form in enumerate(self.forms)
            if (index < initial or form.has_changed()) and form.is_valid()
        ]


def member_formset_class(category: Category):
    return forms.formset_factory(
        MemberForm,
        formset=BaseMemberFormSet,
        extra=category.max_members - category.min_members,
        min_num=category.min_members,
        max_num=category.max_members,
        absolute_max=category.max_members,
        validate_min=True,
        validate_max=True,
    )


def member_formset(category: Category, data=None, initial=None):
    return member_formset_class(category)(
        data, initial=initial, prefix="members", category=category
    )


class EntryForm(forms.Form):
    """What belongs to the entry as a whole."""

    name = forms.CharField(
        label=_("Name of the pair or team"),
        max_length=200,
        required=False,
        help_text=_("Leave empty to use the members' names."),
    )
    adult_name = forms.CharField(
        label=_("Accompanying adult"),
        max_length=200,
        required=False,
        help_text=_("Required when a member is under %(age)s on the day of the championship."),
    )
    represents = forms.ChoiceField(
        label=_("Country represented"),
        required=False,
        widget=Select,
        help_text=_("Empty: the first member's nationality."),
    )

    def __init__(self, *args, category: Category, answers: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        rules = category.championship.rules
        self.questions = questions_for(category)
        for question in self.questions:
            self.fields[question_field(question)] = _question_field(
                question, (answers or {}).get(question.ref)
            )
        if category.max_members == 1:
            del self.fields["name"]
        self._represents_field(category, rules)
        adult_age = rules.adult_required_below
        minimum = rules.min_age_for(category.kind)
        if adult_age is None or (minimum is not None and minimum >= adult_age):
            # Nobody of this category can be young enough to need an adult.
            del self.fields["adult_name"]
        else:
            self.fields["adult_name"].help_text = self.fields["adult_name"].help_text % {
                "age": adult_age
            }

    def _represents_field(self, category: Category, rules) -> None:
        """Ask which country the entry represents where the championship's entries represent one."""
        if not rules.entries_represent_country:
            del self.fields["represents"]
            return
        field = self.fields["represents"]
        field.choices = represents_choices(rules)
        if category.kind == "team":
            field.help_text = _("The country the team declares. Empty: most members' nationality.")
        elif category.max_members > 1:
            field.help_text = _("One of the members' nationalities. Empty: the first member's.")
        else:
            field.help_text = _("One of your nationalities. Empty: your first.")

    def question_fields(self):
        """Return the bound fields of the organiser's questions, in order."""
        return [self[question_field(question)] for question in self.questions]

    def answers(self) -> dict:
        """Return the answers given, by question id (``registration.questions``)."""
        answers = {}
        for question in self.questions:
            value = self.cleaned_data.get(question_field(question))
            if question.kind == Question.Kind.YES_NO:
                value = {"yes": True, "no": False}.get(value)
            answers[question.ref] = value
        return answers


class RepresentsForm(forms.Form):
    """The entrant's change of the country their entry represents (their private page).

    Whether the entry may represent it, ``registration.represents`` says.
    """

    represents = forms.ChoiceField(label=_("Country represented"), widget=Select)

    def __init__(self, *args, category: Category, **kwargs):
        super().__init__(*args, **kwargs)
        rules = category.championship.rules
        field = self.fields["represents"]
        field.choices = represents_choices(rules)
        if category.kind == "team":
            field.help_text = _("The country the team declares.")
        elif category.max_members > 1:
            field.help_text = _("One of the members' nationalities.")
        else:
            field.help_text = _("One of your nationalities.")


def question_field(question: Question) -> str:
    return f"q_{question.ref}"


def _question_field(question: Question, answer) -> forms.Field:
    """Return the form field asking ``question``, with ``answer`` as its initial value."""
    label, required = question.text, question.required
    if question.kind == Question.Kind.TEXT:
        field = forms.CharField(max_length=MAX_TEXT, required=required)
    elif question.kind == Question.Kind.CHOICE:
        field = forms.ChoiceField(
            choices=[(choice, choice) for choice in question.choices],
            widget=forms.RadioSelect(attrs={"class": "choices"}),
            required=required,
        )
    elif question.kind == Question.Kind.CHOICES:
        field = forms.MultipleChoiceField(
            choices=[(choice, choice) for choice in question.choices],
            widget=forms.CheckboxSelectMultiple(attrs={"class": "choices"}),
            required=required,
        )
    else:
        field = forms.ChoiceField(
            choices=[("yes", _("Yes")), ("no", _("No"))],
            widget=forms.RadioSelect(attrs={"class": "choices"}),
            required=required,
        )
        answer = {True: "yes", False: "no"}.get(answer)
    field.label = label
    field.initial = answer
    return field


def published_fields_text(fields) -> str:
    names = {
        "name": _("the name"),
        "city": _("the home town"),
        "nationality": _("the nationality"),
        "age": _("the age"),
    }
    words = [str(names[field]) for field in fields]
    if len(words) <= 1:
        return "".join(words)
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def apply_service_errors(error: ValidationError, entry_form, formset) -> None:
    """Put a service's field errors (``members.N.field``) on the forms they belong to."""
    for key, messages_ in error.message_dict.items():
        for message in messages_:
            if key.startswith("members."):
                _members, index, field = key.split(".")
                form = formset.forms[int(index)]
                form.add_error(field if field in form.fields else None, message)
            elif key == "members":
                formset._non_form_errors.append(message)
            elif key.startswith("answers.") and f"q_{key[8:]}" in entry_form.fields:
                entry_form.add_error(f"q_{key[8:]}", message)
            elif key in entry_form.fields:
                entry_form.add_error(key, message)
            else:
                entry_form.add_error(None, message)
