"""The project's admin site: Django's, with "view on site" limited to what the user may see.

Django's admin answers ``/admin/r/<content type>/<object id>/`` for any object of
any model with a ``get_absolute_url``, redirecting to that address. A table's
address is its judging page, ``/t/<token>/``: the redirect would tell any staff
member the QR token of another championship's table. Here the redirect is given
only for an object the user's own admin of its model shows (the admins scoped
by ``ChampionshipScopedMixin`` show the objects of the championships the user
organises); any other object is "not found", whether it exists or not.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.contenttypes import views as contenttype_views
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.http import Http404
from django.urls import path
from django.utils.translation import gettext as _


class ChampionshipAdminSite(admin.AdminSite):
    """The admin site whose "view on site" redirect respects the admins' scoping."""

    def get_urls(self):
        # Listed before Django's own pattern of the same name and address, which it replaces.
        return [
            path(
                "r/<int:content_type_id>/<path:object_id>/",
                self.admin_view(self.view_on_site),
                name="view_on_site",
            ),
            *super().get_urls(),
        ]

    def view_on_site(self, request, content_type_id, object_id):
        """Redirect to an object's page, if the user's admin of its model shows the object."""
        try:
            model = ContentType.objects.get_for_id(content_type_id).model_class()
        except ContentType.DoesNotExist:
            model = None
        model_admin = self._registry.get(model) if model is not None else None
        if model_admin is None or not model_admin.has_view_permission(request):
            raise Http404(_("There is no such object."))
        try:
            shown = model_admin.get_queryset(request).filter(pk=object_id).exists()
        except (ValueError, TypeError, ValidationError):
            shown = False
        if not shown:
            raise Http404(_("There is no such object."))
        return contenttype_views.shortcut(request, content_type_id, object_id)
