from django.apps import AppConfig
from django.core import checks as django_checks
from django.utils.translation import gettext_lazy as _

from championship import checks


class ChampionshipConfig(AppConfig):
    name = "championship"
    verbose_name = _("Championships")

    def ready(self):
        django_checks.register(checks.site_url_check, checks.TAG, deploy=True)
        django_checks.register(checks.proxy_bind_check, checks.TAG, deploy=True)
