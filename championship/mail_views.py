"""The championship's e-mail outbox in the control room: what is queued, failed and sent."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from championship import outbox
from championship.models import OutgoingMail
from championship.permissions import organiser_required
from core import actions

MAIL = "championship/mail.html"
PER_PAGE = 100
State = OutgoingMail.State
# What the list can be narrowed to: every mail, or the mail that failed.
SHOWN = {"all": None, "failing": outbox.FAILING}


def _mail_url(championship) -> str:
    return reverse("manage:mail", kwargs={"championship_slug": championship.slug})


@require_GET
@never_cache
@organiser_required
def mail(request, championship):
    """List the championship's e-mails, the newest first, with their state and last error."""
    shown = request.GET.get("show", "all")
    if shown not in SHOWN:
        shown = "all"
    mails = OutgoingMail.objects.filter(championship=championship)
    if SHOWN[shown] is not None:
        mails = mails.filter(SHOWN[shown])
    page = Paginator(mails.order_by("-created_at", "-pk"), PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        MAIL,
        {
            "page": page,
            "shown": shown,
            "failing_count": outbox.failing(championship).count(),
        },
    )


@require_POST
@organiser_required
def retry(request, championship, pk):
    """Send a failed e-mail again: make it due now (or, sending after commit, try it now)."""
    found = get_object_or_404(OutgoingMail, championship=championship, pk=pk)

    def action():
        retried = outbox.mail_retry(mail=found)
        if retried.state == State.SENT:
            return _("The e-mail to %(to)s is sent.") % {"to": retried.to}
        if retried.state == State.QUEUED and retried.next_attempt_at <= timezone.now():
            # Due and not tried yet: the outbox's sender takes it at its next look.
            return _("The e-mail to %(to)s is queued: it goes out within a minute.") % {
                "to": retried.to
            }
        # Tried at once, and failed again: not refused, yet not sent.
        messages.error(
            request,
            _("The e-mail to %(to)s could not be sent: %(error)s")
            % {"to": retried.to, "error": retried.last_error},
        )
        return None

    actions.run(request, action)
    return redirect(f"{_mail_url(championship)}#mail-{found.pk}")
