"""REST API of bank statements: read one (matching its credits to entries), apply one."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers as drf
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from api import serializers
from api.parsers import JSONParser
from api.permissions import IsChampionshipOrganiser
from api.views.base import SLUG, STAFF_ERRORS, ApiView, championship_or_404
from payments import services
from payments.models import Statement

TAG = "payments"
# A bank statement of a championship's season is small; a larger upload is not one.
STATEMENT_MAX_BYTES = 5 * 1024 * 1024
STATEMENT_ID = OpenApiParameter(
    "statement_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The statement's id."
)
REFUSED = OpenApiResponse(
    serializers.ErrorSerializer,
    description="Not a statement this reads, of another account or currency, or a CSV layout "
    "nobody mapped yet (map it once on the control room's Payments page): `detail` says which.",
)


class StatementUploadSerializer(drf.Serializer):
    file = drf.FileField(help_text="camt.053, camt.054, or a bank's or Swish's CSV export.")


class ApplySerializer(drf.Serializer):
    confirm = drf.ListField(
        child=drf.IntegerField(min_value=1),
        required=False,
        default=list,
        max_length=5000,
        help_text="Positions of unknown lines whose suggested entry is confirmed.",
    )


def statement_body(outcome: services.Outcome) -> dict:
    statement = outcome.statement
    return {
        "id": statement.pk,
        "file_name": statement.file_name,
        "kind": statement.kind,
        "account": statement.account,
        "currency": statement.currency,
        "uploaded_at": statement.uploaded_at,
        "applied_at": statement.applied_at,
        "lines": [
            {
                "position": line.position,
                "booked_on": line.booked_on,
                "amount": line.amount,
                "reference": line.reference,
                "message": line.message,
                "payer": line.payer,
                "status": line.status,
                "entry": line.entry.ref if line.entry else None,
                "suggested_entry": line.suggested.ref if line.suggested else None,
            }
            for line in outcome.lines()
        ],
    }


class StatementsView(ApiView):
    permission_classes = [IsChampionshipOrganiser]
    parser_classes = [MultiPartParser]

    @extend_schema(
        tags=[TAG],
        operation_id="statement_read",
        summary="Read a bank statement and match its credits to entries",
        description=(
            "Multipart `file`: ISO 20022 camt.053 or camt.054, or a CSV export (SpareBank 1, "
            "Swedbank, Danske Bank, a Swish or Vipps report, or a layout mapped once on the "
            "Payments page). Each credit is answered with its `status`: `matched` (its "
            "reference names an entry and pays its fee), `partial`, `overpaid`, `unknown` (no "
            "reference: `suggested_entry` by amount and name, to confirm when applying) or "
            "`duplicate` (read before). Nothing is marked paid until the statement is applied. "
            "The same file again answers 200 with every line `duplicate` and changes nothing."
        ),
        parameters=[SLUG],
        request={"multipart/form-data": StatementUploadSerializer},
        responses={
            201: serializers.StatementSerializer,
            200: serializers.StatementSerializer,
            400: REFUSED,
            **STAFF_ERRORS,
        },
    )
    def post(self, request, championship_slug):
        championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        upload = StatementUploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        file = upload.validated_data["file"]
        if file.size > STATEMENT_MAX_BYTES:
            return Response(
                {"detail": _("A statement file has at most 5 MB.")},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            outcome = services.statement_read(
                championship=championship, data=file.read(), file_name=file.name, by=request.user
            )
        except services.Refused as error:
            return Response({"detail": error.message}, status=status.HTTP_400_BAD_REQUEST)
        except services.NeedsMapping:
            detail = _(
                "This CSV layout is new: map its columns once on the control room's Payments "
                "page, then upload it again."
            )
            return Response({"detail": detail}, status=status.HTTP_400_BAD_REQUEST)
        return Response(
            serializers.StatementSerializer(statement_body(outcome)).data,
            status=status.HTTP_200_OK if outcome.again else status.HTTP_201_CREATED,
        )


class StatementApplyView(ApiView):
    permission_classes = [IsChampionshipOrganiser]
    parser_classes = [JSONParser]

    @extend_schema(
        tags=[TAG],
        operation_id="statement_apply",
        summary="Mark the entries a statement pays paid",
        description=(
            "The entries of `matched` and `overpaid` lines, and of the `unknown` lines whose "
            "`suggested_entry` is confirmed (`confirm`: their positions), become paid, each "
            "with the line as evidence; `partial` lines count towards their entry's fee. "
            "Applying again changes nothing (`paid`: 0)."
        ),
        parameters=[SLUG, STATEMENT_ID],
        request=ApplySerializer,
        responses={200: serializers.StatementAppliedSerializer, 400: REFUSED, **STAFF_ERRORS},
    )
    def post(self, request, championship_slug, statement_id):
        championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        statement = get_object_or_404(Statement, pk=statement_id, championship=championship)
        data = ApplySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            paid = services.statement_apply(
                statement=statement, by=request.user, confirm=data.validated_data["confirm"]
            )
        except services.Refused as error:
            return Response({"detail": error.message}, status=status.HTTP_400_BAD_REQUEST)
        statement.refresh_from_db()
        body = {"paid": paid, **statement_body(services.Outcome(statement))}
        return Response(serializers.StatementAppliedSerializer(body).data)
