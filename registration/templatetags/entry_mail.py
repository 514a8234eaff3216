"""Template tags for an entrant's private link, shown on their page whatever became of the mail."""

from django import template

from registration import notifications

register = template.Library()


@register.simple_tag
def private_link(entry):
    """Return the entry's private link and whether an e-mail to the entrant could not be sent."""
    return {
        "url": notifications.manage_url(entry),
        "mail_failing": notifications.failing_mail(entry).exists(),
    }
