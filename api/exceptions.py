"""Turn the errors of services and the database into the API's answers: 400, 409, never 500."""

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler


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
