"""Django's admin, installed with the project's site (``championship.admin_site``)."""

from django.contrib.admin.apps import AdminConfig


class ChampionshipAdminConfig(AdminConfig):
    default_site = "championship.admin_site.ChampionshipAdminSite"
