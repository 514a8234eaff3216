"""What every view of the API shares: the base views, the documented error answers and parameters,
the championship of a path, and the JSON 404 for any other path."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from api import exceptions, serializers
from api.authentication import TokenAuthentication
from championship.models import Championship
from interchange.format import SLUG as SLUG_PATTERN

TAG = "championships"

NOT_FOUND = OpenApiResponse(serializers.ErrorSerializer, description="Unknown championship.")
UNAUTHENTICATED = OpenApiResponse(
    serializers.ErrorSerializer, description="Not authenticated (a token or a session is needed)."
)
FORBIDDEN = OpenApiResponse(serializers.ErrorSerializer, description="Missing rights.")
# What a request that needs a user may be refused with, beside its own answers.
STAFF_ERRORS = {401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND}
SLUG = OpenApiParameter(
    "championship_slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The slug."
)
CATEGORY = OpenApiParameter(
    "category_key",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="The category's key, e.g. individual, pair or team.",
)
ROUND = OpenApiParameter(
    "round_key",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="The round's key, unique in the championship, e.g. individual-final.",
)


class ApiView(APIView):
    """The base of the API's views: token before session, and the API's own error answers.

    With the token first, an anonymous request to a protected endpoint gets
    401 with ``WWW-Authenticate: Token`` rather than 403.
    """

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [AllowAny]

    def get_exception_handler(self):
        return exceptions.exception_handler


class PublicApiView(ApiView):
    """The base of the public, read-only views: the answer is the same for everyone.

    Nothing is authenticated: a browser's session would cost two queries per
    request (session and user), and the polled results must answer a conditional
    request with one.
    """

    authentication_classes = []


def championship_or_404(slug: str) -> Championship:
    return get_object_or_404(Championship, slug=slug)


def slug_taken(slug) -> bool:
    """Return whether a championship has ``slug``; text no slug can be (a NUL) has none."""
    return (
        isinstance(slug, str)
        and SLUG_PATTERN.fullmatch(slug) is not None
        and Championship.objects.filter(slug=slug).exists()
    )


def detail_url(request, slug: str) -> str:
    return request.build_absolute_uri(
        reverse("api:championship-detail", kwargs={"championship_slug": slug})
    )


@csrf_exempt
def not_found(request, *args, **kwargs):
    """Answer any other path under the API with a JSON 404, as the API's errors are."""
    return JsonResponse({"detail": _("Not found.")}, status=404)
