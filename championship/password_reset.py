"""Password reset by e-mail, through the outbox like every other mail of the site.

Django's password reset (``django.contrib.auth.urls``) sends its mail at once,
with the reset link's token in it. Here its form queues the mail instead
(``OutgoingMail.Kind.PASSWORD_RESET``, no championship) with ``outbox.SECRET``
where the token goes; the outbox makes the token for the user as it sends the
mail (``outbox._finish_password_reset``), so the database never holds a working
link. The answer to the request is the same whether the address has a user or
not.
"""

from __future__ import annotations

from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.views import PasswordResetView
from django.template import loader

from championship import outbox
from championship.models import OutgoingMail


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's password reset form, its mail queued in the outbox without the token."""

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        context = {**context, "token": outbox.SECRET}
        subject = loader.render_to_string(subject_template_name, context)
        body = loader.render_to_string(email_template_name, context)
        outbox.queue(
            to=to_email,
            subject=subject,
            body=body,
            kind=OutgoingMail.Kind.PASSWORD_RESET,
            reference=context["user"].pk,
            championship=None,
        )


# ``accounts/password_reset/``, before ``django.contrib.auth.urls`` (config/urls.py).
reset = PasswordResetView.as_view(form_class=OutboxPasswordResetForm)
