"""A judge's captures, and the server's clock the phones measure their offset against."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.fields import DateTimeField
from rest_framework.response import Response
from rest_framework.settings import api_settings

from api import exceptions, inputs, serializers
from api.authentication import championship_with_caller
from api.parsers import JSONParser
from api.permissions import (
    IsChampionshipJudge,
)
from api.views.base import (
    SLUG,
    STAFF_ERRORS,
    ApiView,
    PublicApiView,
    championship_or_404,
)
from championship.middleware import activate
from championship.rules import timing
from core import jsonbounds
from core.l10n import format_duration, parse_duration
from judging import capture_kinds
from judging import services as judging_services


def capture_body(recorded) -> dict:
    capture, result = recorded.capture, recorded.result
    return {
        "id": capture.client_id,
        "kind": capture.kind,
        "received_at": capture.received_at,
        "elapsed_ms": capture.elapsed_ms,
        "result": {
            "entry": result.entry.ref,
            "status": result.status,
            "time": format_duration(result.time_ms),
            "final_seconds": result.final_seconds,
            "penalty_seconds": result.penalty_ms // 1000,
            "counted_pieces": result.counted_pieces,
            "count_state": result.count_state,
            # A capture does not rank the round: the place shows in the round's results.
            "place": None,
            "confirmed": result.confirmed_at is not None,
        },
    }


# How CaptureSerializer writes an instant (``capture_answer``); a field of no serializer.
_INSTANT = DateTimeField()


def capture_answer(recorded) -> dict:
    """Return the answer to a capture: ``capture_body`` as ``CaptureSerializer`` writes it.

    Written from the values (a test holds it to the serializer's ``data``): the
    serializer copies its fields anew for every answer, which cost more CPU than
    the rest of the answer, on the path every tap takes.
    """
    body = capture_body(recorded)
    result = body["result"]
    return {
        **body,
        "id": str(body["id"]),
        "kind": str(body["kind"]),
        "received_at": _INSTANT.to_representation(body["received_at"]),
        "result": {
            **result,
            "entry": str(result["entry"]),
            "status": str(result["status"]),
            "count_state": str(result["count_state"]),
        },
    }


class CaptureView(ApiView):
    """Record a judge's capture; the same id again is answered as the first time."""

    permission_classes = [IsChampionshipJudge]
    parser_classes = [JSONParser]

    def initial(self, request, *args, **kwargs):
        # Before authentication and permissions, so that every answer to the judge's phone
        # (a refusal, a 403) speaks the table page's language: the championship's, unless
        # the judge chose one with the language switcher. Who calls (a token's user or
        # the session's) and the user's roles are read with the championship.
        slug = kwargs.get("championship_slug")
        championship = championship_with_caller(request, slug) if slug else None
        if championship is not None:
            activate(request, championship)
        self.championship = championship  # read once for the whole request
        super().initial(request, *args, **kwargs)

    @extend_schema(
        tags=["judging"],
        operation_id="capture_record",
        summary="Record a judge's capture",
        description=(
            "`finish` (the tap on TIME, with the missing pieces), `confirm` (the entrant "
            "confirmed), `pieces` (`pieces_placed` or `pieces_remaining` at time-up), "
            "`incorrect` (TIME with misplaced pieces, with the count); head judges also "
            "`correction` (with `reason`), `dns`, `dsq`, `warning`. The same `id` again stores "
            "nothing new and gets the first answer. A capture that contradicts a confirmed "
            "result, or another judge's time, is 409."
        ),
        parameters=[SLUG],
        request=inputs.CaptureInputSerializer,
        responses={
            201: serializers.CaptureSerializer,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description='{"field": ["message"]}'),
            **STAFF_ERRORS,
            409: OpenApiResponse(serializers.ErrorSerializer, description="A conflict."),
        },
    )
    def post(self, request, championship_slug):
        championship = self.championship
        if championship is None:
            championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        if jsonbounds.bad_text(request.data):
            raise DRFValidationError(
                {
                    api_settings.NON_FIELD_ERRORS_KEY: [
                        _(
                            "The capture holds text that cannot be stored: "
                            "a NUL character or an unpaired surrogate."
                        )
                    ]
                }
            )
        data = inputs.CaptureInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        time_ms = parse_duration(values["time"]) if values["time"] else None
        capture = capture_kinds.CaptureInput(
            client_id=values["id"],
            kind=values["kind"],
            at=values["at"],
            missing_found=values["missing_found"],
            missing_lost=values["missing_lost"],
            adjacent_missing=timing.adjacent_count(
                values["adjacent_missing"], values["missing_lost"]
            ),
            last_piece_at=values["last_piece_at"],
            pieces_placed=values["pieces_placed"],
            pieces_remaining=values["pieces_remaining"],
            time_ms=time_ms,
            status=values["status"],
            reason=values["reason"],
            payload=dict(request.data),
        )
        try:
            recorded = judging_services.capture_record_by_keys(
                championship=championship,
                round_key=values["round"],
                entry_ref=values["entry"],
                judge=request.user,
                data=capture,
            )
        except capture_kinds.CaptureConflict as error:
            raise exceptions.Conflict(error.message) from None
        except capture_kinds.CaptureForbidden:
            raise PermissionDenied(_("Only a head judge may record this.")) from None
        return Response(capture_answer(recorded), status=status.HTTP_201_CREATED)


class ServerTimeView(PublicApiView):
    """The server's clock, for phones to measure their offset (NTP-style)."""

    @extend_schema(tags=["judging"], responses={200: serializers.ServerTimeSerializer})
    def get(self, request):
        now = timezone.now()
        return Response(
            {"now_ms": int(now.timestamp() * 1000)}, headers={"Cache-Control": "no-store"}
        )
