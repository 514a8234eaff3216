"""The organiser's form that adds a person to a championship's staff."""

from django import forms
from django.utils.translation import gettext_lazy as _

from championship.models import ChampionshipRole
from championship.staff_links import EMAIL_MAX_LENGTH, NAME_MAX_LENGTH

Role = ChampionshipRole.Role


class StaffAddForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX_LENGTH)
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        max_length=EMAIL_MAX_LENGTH,
        required=False,
        help_text=_("The link can be sent there."),
    )
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[
            (Role.JUDGE, Role.JUDGE.label),
            (Role.HEAD_JUDGE, Role.HEAD_JUDGE.label),
            (Role.ORGANISER, _("Co-organiser")),
        ],
        initial=Role.JUDGE,
    )
    send = forms.BooleanField(label=_("Send the link by e-mail now"), required=False, initial=True)
