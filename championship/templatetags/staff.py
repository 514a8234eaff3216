"""Template tags for the paths between the staff's screens."""

from django import template

from championship.models import ChampionshipRole
from championship.permissions import has_role

register = template.Library()


@register.simple_tag
def organises(user, championship) -> bool:
    """Return whether ``user`` may open ``championship``'s control room."""
    return championship is not None and has_role(
        user, championship, ChampionshipRole.Role.ORGANISER
    )
