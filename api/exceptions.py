"""Turn the errors of services and the database into the API's answers: 400, 409, never 500.

The errors that reach no view of the API (a host the site does not serve, a
form Django refuses to read, an exception no view handled) are answered by the
site's handlers (``config.urls``): under ``/api/`` in JSON, ``{"detail": "…"}``,
as every other answer of the API; elsewhere with the site's pages.
"""

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.http import JsonResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views import defaults
from rest_framework import exceptions, serializers
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

API_PREFIX = "/api/"


class Conflict(exceptions.APIException):
    """The request contradicts the current state (an existing slug, a confirmed result)."""

    status_code = 409
    default_detail = _("This conflicts with the current state.")
    default_code = "conflict"


def validation_error(error: DjangoValidationError) -> exceptions.ValidationError:
    """Return Django's ``ValidationError`` as DRF's: ``{"field": ["message"]}``."""
    detail = serializers.as_serializer_error(error)
    if NON_FIELD_ERRORS in detail:
        detail[api_settings.NON_FIELD_ERRORS_KEY] = detail.pop(NON_FIELD_ERRORS)
    return exceptions.ValidationError(detail)


def exception_handler(exc, context):
    """Answer like DRF, and also a ``ValidationError`` with 400 and an ``IntegrityError`` with 409.

    A service that refuses input raises Django's ``ValidationError``; a
    constraint that a concurrent request won raises ``IntegrityError``. Neither is
    a server error. The database's message is not shown: it names tables, not
    fields a client knows.
    """
    if isinstance(exc, DjangoValidationError):
        exc = validation_error(exc)
    elif isinstance(exc, IntegrityError):
        exc = Conflict()
    return drf_exception_handler(exc, context)


# The site's error handlers ----------------------------------------------------------------


def under_api(request) -> bool:
    """Return whether a request is for the API: its answers are JSON, errors too."""
    return request.path_info.startswith(API_PREFIX)


def _answer(status: int, detail: str) -> JsonResponse:
    # Nothing of the request is read: its host may be the very thing refused.
    return JsonResponse({"detail": detail}, status=status)


def bad_request(request, exception):
    """Answer 400 to a request Django refuses to read: a host not served, a form too large."""
    if under_api(request):
        return _answer(400, gettext("The request cannot be read."))
    return defaults.bad_request(request, exception)


def permission_denied(request, exception):
    """Answer 403 where no view of the API answered it."""
    if under_api(request):
        return _answer(403, gettext("You do not have permission to perform this action."))
    return defaults.permission_denied(request, exception)


def page_not_found(request, exception):
    """Answer 404 where no view of the API answered it."""
    if under_api(request):
        return _answer(404, gettext("Not found."))
    return defaults.page_not_found(request, exception)


def server_error(request):
    """Answer 500 to an exception no view handled (the error is logged, never shown)."""
    if under_api(request):
        return _answer(500, gettext("A server error occurred. Try again."))
    return defaults.server_error(request)
