"""The login page: a password form for organisers, and a hint for a judge who scanned a table.

Judges have no password: their badge's QR code (``/s/<token>/``) signs their phone
in. A judge who scans a table's card (``/t/<token>/``) first is sent here with the
table as ``next``; the page then tells them, in the table's championship's
language, to scan their badge first. Only a table token that is in use names the
table and its championship; any other address under ``/t/`` gets the hint alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import Http404
from django.urls import resolve
from django.utils import translation

from championship.models import Table
from judging import selectors as judging_selectors

TABLE_VIEW = "judging:table"


@dataclass(frozen=True)
class TableAsked:
    """What a login's ``next`` says of a table: asked for one, and which (``None``: unknown)."""

    table: Table | None


def table_asked(next_url: str) -> TableAsked | None:
    """Return the table page ``next_url`` leads to, or ``None`` if it is no table's page."""
    if not next_url:
        return None
    try:
        match = resolve(urlsplit(next_url).path)
    except (Http404, ValueError):
        return None
    if match.view_name != TABLE_VIEW:
        return None
    return TableAsked(judging_selectors.table_for_token(match.kwargs.get("token", "")))


class LoginView(auth_views.LoginView):
    """Django's login, which says to a judge who scanned a table first: scan your badge."""

    def dispatch(self, request, *args, **kwargs):
        # The redirect target Django accepts (same host, safe scheme), else "".
        self.table_asked = table_asked(self.get_redirect_url())
        table = self.table_asked.table if self.table_asked else None
        if table is not None and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
            # The table's championship's language, as on the table's page (the
            # language a visitor chose with the switcher wins, as everywhere).
            translation.activate(table.championship.language)
            request.LANGUAGE_CODE = table.championship.language
        return super().dispatch(request, *args, **kwargs)

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        if self.table_asked:
            # The hint is what a judge reads: no keyboard popping up over it on a phone.
            form.fields["username"].widget.attrs.pop("autofocus", None)
        return form

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["table_asked"] = self.table_asked
        return context
