"""REST API of the staff: add judges, head judges and co-organisers; revoke their links.

Each person added gets a personal sign-in link (``championship.staff_links``);
opening it signs a browser in as them, without a password.
"""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from api import inputs, serializers
from api.parsers import JSONParser
from api.permissions import IsChampionshipOrganiser
from api.views.base import (
    FORBIDDEN,
    SLUG,
    STAFF_ERRORS,
    UNAUTHENTICATED,
    ApiView,
    championship_or_404,
)
from championship import staff_links
from championship.models import SignInLink

TAG = "staff"

JUDGE_ID = OpenApiParameter(
    "judge_id",
    OpenApiTypes.INT,
    OpenApiParameter.PATH,
    description="The id of the person's link, as adding them answered.",
)


class JudgesView(ApiView):
    permission_classes = [IsChampionshipOrganiser]
    parser_classes = [JSONParser]

    @extend_schema(
        tags=[TAG],
        operation_id="staff_list",
        summary="List the staff who sign in with a link",
        description=(
            "Each person's latest link, the working ones first; `sign_in_url` is null once "
            "the link is revoked. For the championship's organisers."
        ),
        parameters=[SLUG],
        responses={
            200: serializers.StaffMemberSerializer(many=True),
            **STAFF_ERRORS,
        },
    )
    def get(self, request, championship_slug):
        championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        links = staff_links.latest_links(championship)
        for link in links:
            link.sign_in_url = staff_links.sign_in_url(link) if link.active else None
        return Response(
            serializers.StaffMemberSerializer(links, many=True).data,
            headers={"Cache-Control": "no-store"},
        )

    @extend_schema(
        tags=[TAG],
        operation_id="staff_add",
        summary="Add a judge, head judge or co-organiser with a personal sign-in link",
        description=(
            "The person gets an account of their own, without a password, with the role in "
            "this championship only; `sign_in_url` signs a browser in as them (put it in a QR "
            "code, or send it). With `email`, the link is mailed to them unless `send_email` "
            "is false. For the championship's organisers."
        ),
        parameters=[SLUG],
        request=inputs.StaffInputSerializer,
        responses={
            201: serializers.StaffLinkSerializer,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description='{"field": ["message"]}'),
            **STAFF_ERRORS,
        },
    )
    def post(self, request, championship_slug):
        championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        data = inputs.StaffInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            link = staff_links.link_create(
                championship=championship,
                name=values["name"],
                email=values["email"],
                role=values["role"],
                by=request.user,
                send=values["send_email"],
            )
        except DjangoValidationError as error:
            return Response(error.message_dict, status=status.HTTP_400_BAD_REQUEST)
        body = {
            "id": link.pk,
            "name": link.name,
            "role": link.role,
            "sign_in_url": staff_links.sign_in_url(link),
        }
        return Response(
            serializers.StaffLinkSerializer(body).data,
            status=status.HTTP_201_CREATED,
            headers={"Cache-Control": "no-store"},
        )


class JudgeView(ApiView):
    permission_classes = [IsChampionshipOrganiser]

    @extend_schema(
        tags=[TAG],
        operation_id="staff_revoke",
        summary="Revoke a person's sign-in link",
        description=(
            "The link stops working at once, and every browser signed in with it is signed "
            "out. Revoking a revoked link changes nothing. For the championship's organisers."
        ),
        parameters=[SLUG, JUDGE_ID],
        responses={
            204: OpenApiResponse(description="Revoked."),
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: OpenApiResponse(
                serializers.ErrorSerializer,
                description="Unknown championship, or no such link in it.",
            ),
        },
    )
    def delete(self, request, championship_slug, judge_id):
        championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        link = get_object_or_404(SignInLink, championship=championship, pk=judge_id)
        staff_links.link_revoke(link=link, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
