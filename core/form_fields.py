"""Form fields that refuse what a stranger may send before it reaches the database."""

from __future__ import annotations

import json

from django import forms
from django.core.exceptions import ValidationError

from core import jsonbounds

# The longest id a database integer column holds without overflowing (SQLite and
# PostgreSQL's bigint hold 19 digits; 18 leaves no doubt).
MAX_ID_DIGITS = 18


class IdsField(forms.ModelMultipleChoiceField):
    """A ``ModelMultipleChoiceField`` whose values must be ids, refused before the query.

    Django looks every posted value up in the database: a value of twenty digits
    overflows the integer column (a 500). Such a value is an invalid choice here.
    """

    def _check_values(self, value):
        for item in value:
            text = str(item)
            if not text.isdigit() or len(text) > MAX_ID_DIGITS:
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": text[:40]},
                )
        return super()._check_values(value)


class StorableJSONField(forms.JSONField):
    """A ``JSONField`` whose text a database can store (``core.jsonbounds``).

    A NUL character or a lone surrogate, written as ``\\u0000`` or ``\\ud800`` in
    the JSON, is refused with a message. The refused value is shown back with
    such characters escaped again: a lone surrogate cannot be written in a page.
    """

    default_validators = [jsonbounds.validate_text]

    def prepare_value(self, value):
        if not isinstance(value, forms.fields.InvalidJSONInput) and jsonbounds.bad_text(
            value, surrogates_only=True
        ):
            return json.dumps(value, cls=self.encoder)
        return super().prepare_value(value)
