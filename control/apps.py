from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ControlConfig(AppConfig):
    """The organiser's control room, the round lifecycle and the demo, above the apps they use."""

    name = "control"
    verbose_name = _("Control room")

    def ready(self):
        # The outbox fills in an organiser's sign-in link as it sends the mail.
        from control import organiser_links

        organiser_links.finish_sign_in_links()
