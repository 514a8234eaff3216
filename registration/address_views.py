"""The page that confirms a person's e-mail address: the link mailed to it opens it."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from championship.permissions import get_championship
from registration import addresses
from registration.addresses import AddressLinkRefused

CONFIRM = "registration/confirm_address.html"


def _refusal(code: str) -> str:
    return {
        addresses.INVALID: _(
            "This link does not work. Check that the whole address was copied from the e-mail."
        ),
        addresses.EXPIRED: _(
            "This link has expired. Your entry’s page (the private link in your registration "
            "e-mail) sends a new one."
        ),
        addresses.USED: _("This e-mail address is confirmed already: the link has been used."),
        addresses.STALE: _(
            "This link no longer works: the e-mail address of the registration has changed "
            "since it was sent."
        ),
    }[code]


def _page(request, context: dict, status: int = 200):
    response = render(request, CONFIRM, context, status=status)
    # The address holds the link's secret: no other site learns it from a Referer.
    response.headers["Referrer-Policy"] = "same-origin"
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def confirm_address(request, championship_slug, token):
    """Show whose address a link confirms, with a button; the button confirms it.

    Opening the link (GET) confirms nothing: a mail scanner that follows links,
    or a visitor who is not the person, joins no one to anyone's history.
    """
    championship = get_championship(request, championship_slug)
    try:
        if request.method == "POST":
            person = addresses.address_confirm(championship=championship, token=token)
        else:
            person = addresses.person_to_confirm(championship=championship, token=token)
    except AddressLinkRefused as refused:
        status = 404 if refused.code == addresses.INVALID else 410
        return _page(
            request,
            {"championship": championship, "refused": _refusal(refused.code)},
            status=status,
        )
    return _page(
        request,
        {
            "championship": championship,
            "person": person,
            "confirmed": request.method == "POST",
        },
    )
