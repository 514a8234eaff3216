from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InterchangeConfig(AppConfig):
    """The championship interchange format and its two commands."""

    name = "interchange"
    verbose_name = _("Interchange")
