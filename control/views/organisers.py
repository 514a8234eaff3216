"""Organiser accounts: asking for one, the site administrators' decisions, the sign-in link.

request
    ``/organisers/request/``, for anyone: name, e-mail, club, the championship
    planned. A filled honeypot field is answered as if accepted and dropped; the
    form is throttled (``THROTTLE_ORGANISER_REQUEST``). It ends on a page that
    says what happens next.
requests
    ``/organisers/requests/``, for the site's administrators
    (``organiser_requests.may_decide``): the pending requests first, then the
    latest decided; Approve, and Refuse with an optional reason.
sign in
    ``/organisers/sign-in/<token>/``, the link an approved organiser is mailed
    (``organiser_links``): opening it signs nobody in, its button does.
    ``/organisers/sign-in/`` asks for a new link by address, as the log-in page does.
"""

from __future__ import annotations

import logging
from functools import wraps

from axes.handlers.proxy import AxesProxyHandler
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from control import organiser_links, organiser_requests
from control.models import OrganiserRequest
from control.organiser_forms import OrganiserRequestForm, RefuseForm, SignInLinkForm
from control.views.setup import may_create
from core import actions

logger = logging.getLogger(__name__)

REQUEST = "control/organiser_request.html"
REQUEST_SENT = "control/organiser_request_sent.html"
REQUESTS = "control/organiser_requests.html"
SIGN_IN = "control/organiser_sign_in.html"
LINK = "control/organiser_link.html"
# Signing in with a link checks no password: the model backend only loads the user.
BACKEND = "django.contrib.auth.backends.ModelBackend"
# What django-axes writes in its access log for the path of a login by link: not the token.
LOGGED_PATH = "/organisers/sign-in/…/"


def decider_required(view):
    """Let only the site's administrators in; send anonymous visitors to log in."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not organiser_requests.may_decide(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


# Asking --------------------------------------------------------------------------------------


@never_cache
@require_http_methods(["GET", "POST"])
def request_account(request):
    """Show the form that asks for an organiser account; record the request."""
    form = OrganiserRequestForm(request.POST or None)
    if request.method == "POST":
        if form.is_robot():
            logger.info("Organiser account request dropped: its honeypot field was filled in.")
            return redirect("organisers:request_sent")
        if form.is_valid():
            data = form.cleaned_data

            def action():
                organiser_requests.organiser_request_create(
                    name=data["name"],
                    email=data["email"],
                    club=data["club"],
                    message=data["message"],
                    language=get_language(),
                )

            if actions.run(request, action, form=form):
                return redirect("organisers:request_sent")
    already = request.user.is_authenticated and may_create(request.user)
    return render(request, REQUEST, {"form": form, "already": already})


@require_GET
def request_sent(request):
    """Say what happens next: the administrators decide, and the answer comes by e-mail."""
    return render(request, REQUEST_SENT, {"days": organiser_links.MAX_AGE_DAYS})


# Deciding ------------------------------------------------------------------------------------


def _list_url(found: OrganiserRequest) -> str:
    return f"{reverse('organisers:requests')}#request-{found.pk}"


@never_cache
@require_GET
@decider_required
def requests(request):
    """List the requests: the pending ones first, then the latest decided."""
    pending, decided = organiser_requests.requests_to_show()
    return render(
        request,
        REQUESTS,
        {"pending": pending, "decided": decided, "refuse_form": RefuseForm()},
    )


@require_POST
@decider_required
def approve(request, request_id):
    """Approve a request: its account may create championships, and the requester is told."""
    found = get_object_or_404(OrganiserRequest, pk=request_id)

    def action():
        approved = organiser_requests.organiser_request_approve(request=found, by=request.user)
        return _("Approved: %(name)s may now create championships, and is told at %(email)s.") % {
            "name": approved.name,
            "email": approved.email,
        }

    actions.run(request, action)
    return redirect(_list_url(found))


@require_POST
@decider_required
def refuse(request, request_id):
    """Refuse a request, with an optional reason; the requester is told."""
    found = get_object_or_404(OrganiserRequest, pk=request_id)
    form = RefuseForm(request.POST)
    if not form.is_valid():
        messages.error(request, actions.refusal_text(actions.form_refusal(form)))
        return redirect(_list_url(found))

    def action():
        refused = organiser_requests.organiser_request_refuse(
            request=found, by=request.user, reason=form.cleaned_data["reason"]
        )
        return _("Refused: %(name)s is told at %(email)s.") % {
            "name": refused.name,
            "email": refused.email,
        }

    actions.run(request, action)
    return redirect(_list_url(found))


# Signing in ----------------------------------------------------------------------------------


def _sign_in_page(request, context: dict, status: int = 200):
    response = render(request, SIGN_IN, context, status=status)
    # The address holds the link's secret: no other site learns it from a Referer (and not
    # "no-referrer", with which the browser sends "Origin: null" and the CSRF check refuses).
    response.headers["Referrer-Policy"] = "same-origin"
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def sign_in(request, token):
    """Show whom a mailed sign-in link signs in as, with a button; the button signs in.

    Opening the link (GET) signs nobody in, so that a mail scanner that opens
    links uses nothing up. Signing in uses the link: it works once.
    """
    try:
        user = organiser_links.user_for_token(token)
    except organiser_links.LinkRefused as refusal:
        status = 404 if refusal.code == organiser_links.INVALID else 410
        context = {"refused": refusal.code, "form": SignInLinkForm()}
        return _sign_in_page(request, context, status=status)
    if request.method == "GET":
        if request.user.is_authenticated and request.user.pk == user.pk:
            return redirect(organiser_links.landing_url(user))
        return _sign_in_page(request, {"account": user})
    AxesProxyHandler.update_request(request)
    request.axes_path_info = LOGGED_PATH
    login(request, user, backend=BACKEND)
    logger.info("Organiser %s signed in with a mailed link.", user)
    messages.success(
        request, _("Signed in as %(name)s.") % {"name": user.get_full_name() or user.username}
    )
    return redirect(organiser_links.landing_url(user))


@never_cache
@require_http_methods(["GET", "POST"])
def link(request):
    """Ask for a new sign-in link by e-mail address; the answer never says who has an account."""
    form = SignInLinkForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        organiser_links.link_send(email=form.cleaned_data["email"], language=get_language())
        return redirect("organisers:link_sent")
    return render(request, LINK, {"form": form, "sent": False})


@require_GET
def link_sent(request):
    """Say that a link is on its way, if the address has an organiser account without a password."""
    return render(request, LINK, {"form": None, "sent": True, "days": organiser_links.MAX_AGE_DAYS})
