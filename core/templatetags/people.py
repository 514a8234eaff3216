"""Template filters that name people: ``{{ capture.judge|person }}``."""

from django import template

from core.people import person_name

register = template.Library()


@register.filter
def person(user) -> str:
    """Return the name to show for an account (``core.people.person_name``)."""
    return person_name(user)
