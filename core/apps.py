from django.apps import AppConfig
from django.core import checks as django_checks

from core import checks


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Site"

    def ready(self):
        django_checks.register(checks.site_url_check, checks.TAG, deploy=True)
        django_checks.register(checks.proxy_bind_check, checks.TAG, deploy=True)
        django_checks.register(checks.development_file_check, checks.TAG, deploy=True)
