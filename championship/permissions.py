"""Who may do what in a championship: one place for the role checks."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from championship.models import Championship, ChampionshipRole

Role = ChampionshipRole.Role

# Who counts as having a role: a head judge may do everything a judge does.
IMPLIED_ROLES = {
    Role.ORGANISER: {Role.ORGANISER},
    Role.HEAD_JUDGE: {Role.HEAD_JUDGE, Role.ORGANISER},
    Role.JUDGE: {Role.JUDGE, Role.HEAD_JUDGE, Role.ORGANISER},
}


MEMO = "_championship_roles"


def roles_of(user, championship: Championship) -> frozenset[str]:
    """Return the roles ``user`` holds in ``championship``, read once per user object.

    A request's user is read anew for every request, so a role granted or taken
    away counts from the next request on; whoever grants a role to a user
    object forgets its roles (``roles_forget``).
    """
    memo = user.__dict__.setdefault(MEMO, {})
    if championship.pk not in memo:
        memo[championship.pk] = _roles_read(championship.pk, user.pk)
    return memo[championship.pk]


def _roles_read(championship_id: int, user_id: int) -> frozenset[str]:
    """Read a user's roles in a championship."""
    # Unordered: the model's order would join the championships for nothing.
    return frozenset(
        ChampionshipRole.objects.filter(championship_id=championship_id, user_id=user_id)
        .order_by()
        .values_list("role", flat=True)
    )


def roles_remember(user, championship_id: int, roles: frozenset[str]) -> None:
    """Keep the roles of ``user`` in a championship, read with it: ``roles_of`` reads no more."""
    user.__dict__.setdefault(MEMO, {})[championship_id] = roles


def roles_forget(user) -> None:
    """Forget the roles read for ``user`` (after a role was granted to it)."""
    user.__dict__.pop(MEMO, None)


def has_role(user, championship: Championship, role: str) -> bool:
    """Return whether ``user`` holds ``role`` (or a role that implies it) in ``championship``."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return bool(roles_of(user, championship) & IMPLIED_ROLES[role])


def sees_draft(user, championship: Championship) -> bool:
    """Return whether ``user`` may see ``championship``'s public pages: always, unless a draft.

    A draft's pages are for its staff (any role) and the site's superusers.
    """
    if not championship.draft:
        return True
    if not user.is_authenticated or not user.is_active:
        return False
    return user.is_superuser or bool(roles_of(user, championship))


def championships_of(user, role: str = Role.ORGANISER):
    """Return the championships in which ``user`` holds ``role``."""
    if user.is_superuser:
        return Championship.objects.all()
    return Championship.objects.filter(
        roles__user=user, roles__role__in=IMPLIED_ROLES[role]
    ).distinct()


def get_championship(request, championship_slug: str) -> Championship:
    """Return the championship of ``/<championship_slug>/`` as the middleware found it, or 404."""
    championship = getattr(request, "championship", None)
    if championship is not None and championship.slug == championship_slug:
        return championship
    return get_object_or_404(Championship, slug=championship_slug)


def role_required(role: str):
    """Let a view of ``/<championship_slug>/…`` run only for users with ``role`` there.

    Anonymous users are sent to the login page; others without the role get 403.
    The view receives the championship instead of the slug.
    """

    def decorator(view):
        @wraps(view)
        def wrapped(request, championship_slug, *args, **kwargs):
            championship = get_championship(request, championship_slug)
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, championship, role):
                raise PermissionDenied
            return view(request, championship, *args, **kwargs)

        return wrapped

    return decorator


organiser_required = role_required(Role.ORGANISER)
judge_required = role_required(Role.JUDGE)
