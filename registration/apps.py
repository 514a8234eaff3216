from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistrationConfig(AppConfig):
    name = "registration"
    verbose_name = _("Registration")

    def ready(self):
        from registration import checkin, notifications, payment

        checkin.attach_to_mail()
        payment.attach_to_mail()
        notifications.finish_address_links()
