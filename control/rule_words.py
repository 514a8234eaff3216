"""The rules' parameters and values in the organiser's words, for the page that edits them.

The rules speak in codes (``prior_ranking``, ``region_residence``), which the API, the
interchange format and docs/rulesets.md keep. The page shows each parameter by what
it means (``championship.rulesets.PARAMETER_HELP``) and each value in words, in the
organiser's language; the code stays beside the meaning, for the docs.
"""

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from championship import rulesets

# Every code a choice or a list of the rules takes (rulesets: ELIGIBILITY_KINDS,
# PENALTY_CHARGES, SEATING_FIRST_ROUND, SEATING_LATER_ROUNDS, HEAT_SPLITS,
# PUBLISHABLE_FIELDS, STAGES).
VALUE_WORDS = {
    "region_residence": pgettext_lazy("rule value", "lives or lived in the region"),
    "citizenship": pgettext_lazy("rule value", "citizens of the country"),
    "everyone": pgettext_lazy("rule value", "everyone"),
    "found": pgettext_lazy("rule value", "only pieces found later"),
    "all": pgettext_lazy("rule value", "every piece missing at TIME"),
    "organiser": pgettext_lazy("rule value", "the organiser chooses"),
    "prior_ranking": pgettext_lazy("rule value", "by prior ranking"),
    "previous_placement": pgettext_lazy("rule value", "by placement in the previous round"),
    "equal": pgettext_lazy("rule value", "equal sizes"),
    "name": pgettext_lazy("rule value", "name"),
    "city": pgettext_lazy("rule value", "home town"),
    "nationality": pgettext_lazy("rule value", "nationality"),
    "age": pgettext_lazy("rule value", "age"),
    "prelim": pgettext_lazy("rule value", "preliminary round"),
    "semifinal": pgettext_lazy("rule value", "semifinal"),
    "final": pgettext_lazy("rule value", "final"),
}


def value_words(value) -> str:
    """Return a value of the rules as the page shows it: "yes", "by prior ranking"."""
    if value is None:
        return _("none")
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    if isinstance(value, list | tuple):
        return ", ".join(value_words(item) for item in value) or "–"
    if value == "":
        return "–"
    return str(VALUE_WORDS.get(value, value))


def choices(values) -> list[tuple[str, str]]:
    """Return a choice field's choices: each code with its words."""
    return [(value, str(VALUE_WORDS.get(value, value))) for value in values]


def parameter_title(name: str) -> str:
    """Return what a parameter means, as a row's title ("Who is eligible to take part …")."""
    return capfirst(_(rulesets.PARAMETER_HELP[name]))
