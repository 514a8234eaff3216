"""The forms of one row of an entries file: the entry's cells (``EntryRowForm``) and each
member's (``MemberRowForm``), checked before the registration's own rules check the row.

cells
    A form is bound to a row's cells keyed by field name: stripped, without the
    apostrophe the export writes before a formula (``registration.csv_io``). A
    column the file does not have is no key at all. No cell but the category is
    required: what a registration needs, the registration's rules say
    (``registration.validation``).
refused cell
    A cell a field refuses is a problem of the row, in a sentence that quotes the
    cell (the caller puts "Member 2: " before a member's). The row still keeps what
    can be kept of it (``kept``) for the checks that follow: an e-mail address as
    written, the citizenships that are countries; nothing of a date, a country or a
    number of years.
too long
    A text longer than its column is a problem (``TOO_LONG``) too, but not a refusal
    of the field: the row keeps the text cut to its length, and the registration's
    rules still check it.
"""

from __future__ import annotations

import copy
import re

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy as _

from championship import bounds
from championship.models import Category
from registration import countries
from registration.csv_columns import (
    DATE_FORMATS,
    MAX_LENGTHS,
    NO,
    YES,
    country_code,
    country_parts,
    is_withdrawn,
    parse_date,
    payment_status_of,
    represents_code,
)
from registration.models import Entry
from registration.validation import MemberData

# The code of an over-long text's error: the one error that does not refuse the field.
TOO_LONG = "too_long"
NOT_A_COUNTRY = _(
    "“%(value)s” is not a country: write its name or its two-letter code, e.g. Norway or NO."
)


class CellField(forms.Field):
    """A field of one cell: not required; ``None`` is a cell the file has no column for.

    ``kept_value``: what the row keeps of a cell the field refuses (see ``kept``).
    """

    kept_value = ""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def __deepcopy__(self, memo):
        # Every row's form shares its class's fields: cleaning a cell changes nothing of
        # its field, and copying a form's fields (what a form does) was half of reading
        # a file of 2,000 rows. A field that is set up per form copies itself.
        return self

    def refusal(self, value: str, code: str = "invalid", **params) -> ValidationError:
        return ValidationError(
            self.error_messages[code], code=code, params={"value": value, **params}
        )

    def kept(self, value):
        """Return what the row keeps of the cell when the field refuses it."""
        return self.kept_value


class TextCell(CellField):
    """A text of at most its column's length (``MAX_LENGTHS[limit_key]``).

    ``absent`` is the value of a column the file does not have.
    """

    default_error_messages = {
        TOO_LONG: _("%(where)s%(field)s is longer than %(limit)s characters."),
    }

    def __init__(self, *, limit_key: str, absent: str | None = "", **kwargs):
        self.max_length = MAX_LENGTHS[limit_key]
        self.absent = absent
        super().__init__(**kwargs)

    def to_python(self, value):
        return self.absent if value is None else value

    def clean(self, value):
        """Return the text; refuse it when it is too long, and with every validator's error."""
        value = self.to_python(value)
        errors = []
        if value is not None and len(value) > self.max_length:
            # The message is the one the import always had; the member goes before it.
            errors.append(
                ValidationError(
                    self.error_messages[TOO_LONG],
                    code=TOO_LONG,
                    params={"where": "", "field": self.label, "limit": self.max_length},
                )
            )
            value = self.kept(value)
        try:
            self.run_validators(value)
        except ValidationError as error:
            errors.extend(error.error_list)
        if errors:
            raise ValidationError(errors)
        return value

    def kept(self, value):
        value = self.to_python(value)
        return value if value is None else value[: self.max_length]


class EmailCell(TextCell):
    """An e-mail address; one that is too long is checked as it is cut."""

    default_validators = [validate_email]
    default_error_messages = {"invalid": _("“%(value)s” is not an e-mail address.")}

    def __init__(self, **kwargs):
        super().__init__(limit_key="member.email", **kwargs)


class DateCell(CellField, forms.DateField):
    """A date written ``YYYY-MM-DD``, ``DD.MM.YYYY`` or ``DD/MM/YYYY`` (``parse_date``)."""

    input_formats = DATE_FORMATS
    kept_value = None
    default_error_messages = {
        "invalid": _("“%(value)s” is not a date: write 2010-05-31, 31.05.2010 or 31/05/2010."),
    }

    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            return parse_date(value)
        except ValueError:
            raise self.refusal(value) from None


class CountryCell(CellField):
    """A country, by its two-letter code or its name in en, nb, sv or da; its code."""

    default_error_messages = {"invalid": NOT_A_COUNTRY}

    def to_python(self, value):
        if not value:
            return ""
        code = country_code(value)
        if not code:
            raise self.refusal(value)
        return code


class RepresentsCell(CellField):
    """The country an entry represents: a country (as ``CountryCell``) or the neutral flag.

    Its code, ``neutral``, or "" (the rule's default, ``registration.represents.chosen``).
    Whether the entry may represent it, the registration's rules say.
    """

    default_error_messages = {
        "invalid": _(
            "Country represented: “%(value)s” is not a country: write its name or its "
            "two-letter code, e.g. Norway or NO, or “neutral” for the neutral flag."
        )
    }

    def to_python(self, value):
        code = represents_code(value or "")
        if code is None:
            raise self.refusal(value)
        return code


class CitizenshipCell(CellField):
    """Countries (``CountryCell``) separated by spaces, commas, semicolons or slashes; their codes.

    A name may have several words ("Sri Lanka", ``csv_columns.country_parts``). Each
    country that is not one is a problem of its own; the row keeps the others.
    More than ``championship.bounds.CITIZENSHIPS_MAX`` are one problem, and the row
    keeps none.
    """

    default_error_messages = {"invalid": NOT_A_COUNTRY}
    SEPARATORS = re.compile(r"[\s,;/]+")

    def _codes(self, value) -> list[tuple[str, str]] | None:
        """Return each country as written with its code; ``None`` for too many."""
        words = len([word for word in self.SEPARATORS.split(value or "") if word])
        # Refused before any is looked up: a cell may hold tens of thousands.
        if words > bounds.CITIZENSHIPS_MAX * countries.longest_name_words():
            return None
        parts = country_parts(value or "")
        return None if len(parts) > bounds.CITIZENSHIPS_MAX else parts

    def to_python(self, value):
        codes = self._codes(value)
        if codes is None:
            raise ValidationError(bounds.citizenships_message(), code="too_many")
        errors = [self.refusal(part) for part, code in codes if not code]
        if errors:
            raise ValidationError(errors)
        return tuple(code for _part, code in codes)

    def kept(self, value):
        codes = self._codes(value)
        return () if codes is None else tuple(code for _part, code in codes if code)


class YearsCell(CellField):
    """A whole number of years, 0 to 120."""

    default_error_messages = {"invalid": _("“%(value)s” is not a number of years.")}
    kept_value = None

    def to_python(self, value):
        if not value:
            return None
        try:
            years = int(value)
        except ValueError:
            years = None
        if years is None or not 0 <= years <= 120:
            raise self.refusal(value)
        return years


class YesNoCell(CellField):
    """Yes (``YES``) or no (``NO``), in any case; ``None`` for an empty cell or no column."""

    default_error_messages = {
        "invalid": _("Consent to publication: write yes or no, not “%(value)s”."),
    }
    kept_value = False

    def to_python(self, value):
        answer = (value or "").casefold()
        if not answer:
            return None
        if answer in YES:
            return True
        if answer not in NO:
            raise self.refusal(value)
        return False


class PaymentStatusCell(CellField):
    """A payment status, by its value, its label or an alias (``payment_status_of``)."""

    default_error_messages = {
        "invalid": _("Unknown payment status “%(value)s”: write %(choices)s."),
    }

    def to_python(self, value):
        if not value:
            return ""
        status = payment_status_of(value)
        if status is None:
            raise self.refusal(value, choices=", ".join(Entry.Payment.values))
        return status


class WithdrawnCell(CellField):
    """Whether the status says the entry is withdrawn; any other status is not taken over."""

    def to_python(self, value):
        # The status's value, label or the export's word for it, in any language.
        return is_withdrawn(value or "")


class CategoryCell(CellField):
    """A category of the championship, by key, kind or name; an empty cell is the default one."""

    default_error_messages = {
        "required": _("The row has no category."),
        "invalid": _("There is no category “%(value)s”: use one of %(keys)s."),
    }
    kept_value = None

    def __init__(self, **kwargs):
        kwargs.setdefault("required", True)
        self.categories: dict[str, Category] = {}
        self.default: Category | None = None
        super().__init__(**kwargs)

    def __deepcopy__(self, memo):
        # Set up per form (the championship's categories): a copy of its own.
        return copy.copy(self)

    def to_python(self, value):
        if not value:
            return self.default
        category = self.categories.get(value.casefold())
        if category is None:
            keys = ", ".join(sorted({each.key for each in self.categories.values()}))
            raise self.refusal(value, keys=keys)
        return category


class RowForm(forms.Form):
    """The cells of one row, keyed by field name."""

    def __init__(self, *args, **kwargs):
        # Never rendered: no label suffix to translate for each row's form.
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def values(self) -> dict:
        """Return each field's cleaned value, or what the row keeps of a refused cell."""
        self.is_valid()  # cleans the form, the first time
        cleaned = self.cleaned_data
        return {
            name: cleaned[name] if name in cleaned else field.kept(self[name].data)
            for name, field in self.fields.items()
        }


class EntryRowForm(RowForm):
    """The entry's cells of a row: ``categories`` by their names casefolded."""

    category = CategoryCell()
    name = TextCell(label=_("name"), limit_key="name")
    adult_name = TextCell(label=_("accompanying adult"), limit_key="adult_name")
    represents = RepresentsCell()
    publish_consent = YesNoCell()
    payment_status = PaymentStatusCell()
    # ``None`` without the column: the import leaves the reference as it is.
    payment_reference = TextCell(
        label=_("payment reference"), limit_key="payment_reference", absent=None
    )
    status = WithdrawnCell()

    def __init__(
        self, *args, categories: dict[str, Category], default_category: Category | None, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.fields["category"].categories = categories
        self.fields["category"].default = default_category

    def clean_publish_consent(self) -> bool:
        return bool(self.cleaned_data["publish_consent"])

    def row_values(self) -> dict:
        """Return the values of the ``ImportRow`` (``withdrawn``, from the status)."""
        values = self.values()
        values["withdrawn"] = values.pop("status")
        return values


class MemberRowForm(RowForm):
    """A member's cells of a row; the fields in the order their problems are listed."""

    email = EmailCell(label=_("e-mail"))
    birth_date = DateCell(label=_("birth date"))
    country = CountryCell(label=_("country"))
    citizenship = CitizenshipCell(label=_("citizenship"))
    years_in_region = YearsCell(label=_("years in the region"))
    # ``None`` when not given: the entry's consent counts.
    publish_consent = YesNoCell()
    name = TextCell(label=_("name"), limit_key="member.name")
    city = TextCell(label=_("home town"), limit_key="member.city")
    region = TextCell(label=_("region"), limit_key="member.region")

    def member_data(self) -> MemberData:
        return MemberData(**self.values())
