"""Template tags that tell an organiser, or an entrant, of e-mail that could not be sent."""

from django import template

from championship import outbox

register = template.Library()


@register.inclusion_tag("championship/_mail_banner.html")
def mail_banner(championship):
    """Show the control room's banner when some of the championship's e-mail is failing."""
    return {"championship": championship, "count": outbox.failing(championship).count()}
