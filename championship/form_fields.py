"""Form fields that refuse what a stranger may send before it reaches the database."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

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
