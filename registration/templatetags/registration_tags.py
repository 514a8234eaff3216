"""Template helpers of the entrant's pages and e-mails."""

from django import template

from registration import payment

register = template.Library()


@register.simple_tag
def payment_instructions(entry):
    """Return how to pay ``entry`` (``registration.payment.Instructions``), or ``None``."""
    return payment.instructions(entry)


@register.simple_tag
def payment_due(entry) -> bool:
    """Return whether ``entry`` still has its fee to pay."""
    return payment.is_due(entry)
