"""Template helpers of the entrant's pages and e-mails, and of the organiser's lists."""

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _

from championship.rules.represents import NEUTRAL
from registration import payment
from registration.forms import RepresentsForm
from registration.models import Entry
from registration.validation import country_name

register = template.Library()


@register.simple_tag
def payment_instructions(entry):
    """Return how to pay ``entry`` (``registration.payment.Instructions``), or ``None``."""
    return payment.instructions(entry)


@register.simple_tag
def payment_due(entry) -> bool:
    """Return whether ``entry`` still has its fee to pay."""
    return payment.is_due(entry)


@register.filter
def represents_name(represents) -> str:
    """Name what an entry represents in the active language: the country, or "Neutral flag"."""
    if not represents:
        return ""
    if represents == NEUTRAL:
        return _("Neutral flag")
    return country_name(represents)


@register.filter
def represents_mark(represents) -> str:
    """Show what an entry represents in a list: its ISO code with the country's name as title.

    The neutral flag is told in words ("Neutral flag"); nothing for none.
    """
    if not represents:
        return ""
    if represents == NEUTRAL:
        return format_html(
            '<span class="represents represents-neutral">{}</span>', _("Neutral flag")
        )
    return format_html(
        '<abbr class="represents" title="{}">{}</abbr>', country_name(represents), represents
    )


@register.inclusion_tag("registration/entry_represents.html", takes_context=True)
def entry_represents(context, entry):
    """Show the entrant what their entry represents, and let them change it before the start.

    Shown where the championship's entries represent a country, or the entry has
    one; changeable where they do, until the championship starts.
    """
    championship = entry.category.championship
    rules = championship.rules
    started = championship.starts_at <= timezone.now()
    changeable = (
        rules.entries_represent_country and not started and entry.status != Entry.Status.WITHDRAWN
    )
    return {
        "entry": entry,
        "championship": championship,
        "shown": rules.entries_represent_country or bool(entry.represents),
        "started": started,
        "form": (
            RepresentsForm(category=entry.category, initial={"represents": entry.represents})
            if changeable
            else None
        ),
        "csrf_token": context.get("csrf_token"),
    }
