"""The forms of organiser accounts: asking for one, refusing one, asking for a sign-in link."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from control.models import (
    CLUB_MAX_LENGTH,
    EMAIL_MAX_LENGTH,
    MESSAGE_MAX_LENGTH,
    NAME_MAX_LENGTH,
    REASON_MAX_LENGTH,
)

# The honeypot's name: a field people never see, which form-filling robots fill in.
HONEYPOT = "website"


class OrganiserRequestForm(forms.Form):
    """Ask for an organiser account; the service checks the values (``organiser_requests``)."""

    name = forms.CharField(
        label=_("Your name"),
        max_length=NAME_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    email = forms.EmailField(
        label=_("E-mail"),
        max_length=EMAIL_MAX_LENGTH,
        help_text=_("The answer, and your sign-in link, are sent here."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    club = forms.CharField(
        label=_("Club or association (optional)"),
        max_length=CLUB_MAX_LENGTH,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "organization"}),
    )
    message = forms.CharField(
        label=_("The championship you plan"),
        max_length=MESSAGE_MAX_LENGTH,
        help_text=_("Where and when, roughly how many puzzlers, and which rules."),
        widget=forms.Textarea(attrs={"rows": 5}),
    )
    # Hidden from people by CSS, from screen readers by aria-hidden, from the keyboard by
    # tabindex; left empty by every person, filled in by robots that fill in every field.
    website = forms.CharField(
        label=_("Leave this field empty"),
        required=False,
        widget=forms.TextInput(attrs={"tabindex": "-1", "autocomplete": "off"}),
    )

    def is_robot(self) -> bool:
        """Return whether the honeypot is filled in: the request is answered, and dropped."""
        return bool(self.data.get(HONEYPOT, "").strip())


class RefuseForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason (optional, sent to the person)"),
        max_length=REASON_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class SignInLinkForm(forms.Form):
    email = forms.EmailField(
        label=_("Your e-mail address"),
        max_length=EMAIL_MAX_LENGTH,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
