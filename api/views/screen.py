"""REST API of the venue screen: switch what ``/<slug>/screen/`` shows (``control.screen``)."""

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from api import inputs, serializers
from api.parsers import JSONParser
from api.permissions import IsChampionshipOrganiser
from api.views.base import SLUG, STAFF_ERRORS, ApiView, championship_or_404
from control import screen


class ScreenView(ApiView):
    """Switch the venue screen."""

    permission_classes = [IsChampionshipOrganiser]
    parser_classes = [JSONParser]

    @extend_schema(
        tags=["screen"],
        operation_id="screen_switch",
        summary="Switch what the venue screen shows",
        description=(
            "The venue screen (`/<slug>/screen/`, opened once on the projector) follows "
            'within seconds. `{"show": "round", "round": key}` (optionally `"heat": key`): '
            'the round\'s board and clock; `{"show": "seating", "round": key}`: its seating, '
            "once published; "
            '`{"show": "podium", "category": key}`: the prizes of the category\'s last round; '
            '`{"show": "message", "text": "…"}` (at most 280 characters). Organisers only.'
        ),
        parameters=[SLUG],
        request=inputs.ScreenInputSerializer,
        responses={
            200: serializers.ScreenSerializer,
            400: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="Unknown round or category, or a seating not published yet.",
            ),
            **STAFF_ERRORS,
        },
    )
    def post(self, request, championship_slug):
        championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        data = inputs.ScreenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            state = screen.screen_set(
                championship=championship,
                show=values["show"],
                round_key=values.get("round", ""),
                heat=values.get("heat", ""),
                category_key=values.get("category", ""),
                text=values.get("text", ""),
            )
        except DjangoValidationError as error:
            return Response(error.message_dict, status=status.HTTP_400_BAD_REQUEST)
        return Response(serializers.ScreenSerializer(state).data)
