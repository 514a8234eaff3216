"""Django's admin, installed with the project's site (``core.admin_site``)."""

from django.contrib.admin.apps import AdminConfig


class ChampionshipAdminConfig(AdminConfig):
    default_site = "core.admin_site.ChampionshipAdminSite"
