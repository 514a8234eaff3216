"""Ask for an organiser account: the form's request, for a club's own site or app.

The site's administrators approve or refuse it in the browser
(``/organisers/requests/``); the requester is told by e-mail
(``control.organiser_requests``).
"""

from __future__ import annotations

from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from api import inputs, serializers
from api.parsers import JSONParser
from api.views.base import ApiView
from control import organiser_requests

TAG = "organisers"


class OrganiserRequestView(ApiView):
    """Record a request for an organiser account: anonymous, throttled per client."""

    # Anonymous by design: nothing is read of a session or a token.
    authentication_classes = []
    parser_classes = [JSONParser]

    @extend_schema(
        tags=[TAG],
        operation_id="organiser_request_create",
        summary="Ask for an organiser account",
        description=(
            "Anyone may ask; the site's administrators approve or refuse the request in the "
            "browser, and the requester is told by e-mail in the language of the request "
            "(`Accept-Language`): on approval, with a sign-in link (no password). One request "
            "per address waits at a time. Counted per client with the form "
            "(`THROTTLE_ORGANISER_REQUEST`, 5 an hour by default)."
        ),
        request=inputs.OrganiserRequestInputSerializer,
        responses={
            201: serializers.OrganiserRequestCreatedSerializer,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description='{"field": ["message"]}'),
            429: OpenApiResponse(
                serializers.ErrorSerializer,
                description="Too many requests from this client: retry after `Retry-After`.",
            ),
        },
    )
    def post(self, request):
        data = inputs.OrganiserRequestInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        created = organiser_requests.organiser_request_create(
            name=values["name"],
            email=values["email"],
            club=values["club"],
            message=values["message"],
            language=get_language(),
        )
        body = {"id": created.pk, "status": created.status}
        return Response(
            serializers.OrganiserRequestCreatedSerializer(body).data,
            status=status.HTTP_201_CREATED,
        )
