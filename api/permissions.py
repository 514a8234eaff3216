"""Who may call which endpoint: DRF permission classes over ``championship.permissions``."""

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from championship.models import Championship, ChampionshipRole
from championship.permissions import has_role


class IsChampionshipOrganiser(BasePermission):
    """Let organisers of the championship (and superusers) in; anonymous users get 401.

    The view calls ``check_object_permissions`` with the championship.
    """

    message = _("Only the championship's organisers may do this.")

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj: Championship):
        return has_role(request.user, obj, ChampionshipRole.Role.ORGANISER)


class MayActOnRound(BasePermission):
    """Organisers run a round; head judges (and organisers) may also sign its results off.

    The view calls ``check_object_permissions`` with the championship; the action
    is the URL's ``action``.
    """

    SIGN_OFF = "publish"

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj: Championship):
        if view.kwargs.get("action") == self.SIGN_OFF:
            self.message = _("Only the championship's head judges and organisers may sign off.")
            return has_role(request.user, obj, ChampionshipRole.Role.HEAD_JUDGE)
        self.message = IsChampionshipOrganiser.message
        return has_role(request.user, obj, ChampionshipRole.Role.ORGANISER)


class IsSuperuser(BasePermission):
    """Let superusers in; anonymous users get 401, everybody else 403."""

    message = _("Only a superuser may do this.")

    def has_permission(self, request, view):
        user = request.user
        return bool(user and user.is_authenticated and user.is_active and user.is_superuser)


class IsChampionshipJudge(BasePermission):
    """Let judges, head judges and organisers of the championship in; anonymous users get 401."""

    message = _("Only the championship's judges may record captures.")

    def has_permission(self, request, view):
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj: Championship):
        return has_role(request.user, obj, ChampionshipRole.Role.JUDGE)


class MayCreateChampionships(BasePermission):
    """Let everyone read; let users with ``championship.add_championship`` create.

    Anonymous users get 401, users without the permission 403.
    """

    message = _("Only organisers who may create championships may do this.")

    def has_permission(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        user = request.user
        return bool(
            user
            and user.is_authenticated
            and user.is_active
            and user.has_perm("championship.add_championship")
        )
