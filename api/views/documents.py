"""The interchange document of a championship: export and import."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from api import exceptions, inputs, serializers
from api.parsers import JSONParser
from api.permissions import (
    IsChampionshipOrganiser,
    IsSuperuser,
)
from api.views.base import (
    FORBIDDEN,
    SLUG,
    STAFF_ERRORS,
    TAG,
    UNAUTHENTICATED,
    ApiView,
    championship_or_404,
    detail_url,
    slug_taken,
)
from interchange.export import export_document
from interchange.format import InterchangeError
from interchange.write import import_document


class ChampionshipExportView(ApiView):
    permission_classes = [IsChampionshipOrganiser]

    @extend_schema(
        tags=[TAG],
        summary="Export a championship in the interchange format",
        description=(
            "The whole championship, persons and table tokens included, as one "
            "interchange document (format `speedpuzzling-championship`, version 4), with "
            "the computed fields of every result. For the championship's organisers."
        ),
        parameters=[SLUG],
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description="The interchange document."
            ),
            **STAFF_ERRORS,
        },
    )
    def get(self, request, championship_slug):
        # Imported here so that the API loads even while the interchange module is missing.
        championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        # Persons' data and table tokens: no shared cache may keep this.
        return Response(export_document(championship), headers={"Cache-Control": "no-store"})


# An interchange document holds a whole championship: more than the API's other bodies.
IMPORT_BODY_MAX_BYTES = 20 * 1024 * 1024


class ChampionshipImportView(ApiView):
    permission_classes = [IsSuperuser]
    parser_classes = [JSONParser]
    json_body_max_bytes = IMPORT_BODY_MAX_BYTES
    # The import refuses NUL and lone surrogates itself, naming their path.
    checks_its_text = True

    @extend_schema(
        tags=[TAG],
        summary="Import a championship from an interchange document",
        description=(
            "Loads the document as `manage.py import_championship` does: all or nothing. "
            "An existing slug is refused with 409 unless `replace=true`. For superusers."
        ),
        parameters=[inputs.ImportQuerySerializer],
        request={"application/json": OpenApiTypes.OBJECT},
        responses={
            201: serializers.ImportedSerializer,
            400: OpenApiResponse(
                serializers.DocumentErrorSerializer,
                description="The document is invalid; `path` says where.",
            ),
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            409: OpenApiResponse(
                serializers.ErrorSerializer, description="A championship with this slug exists."
            ),
        },
    )
    def post(self, request):
        # Imported here so that the API loads even while the interchange module is missing.
        query = inputs.ImportQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        replace = query.validated_data["replace"]
        document = request.data
        if not isinstance(document, dict):
            return Response(
                {"path": "", "detail": _("The document must be a JSON object.")},
                status=status.HTTP_400_BAD_REQUEST,
            )
        head = document.get("championship")
        slug = head.get("slug") if isinstance(head, dict) else None
        if not replace and slug_taken(slug):
            raise exceptions.Conflict(
                _("A championship with the slug “%(slug)s” exists; import with replace=true.")
                % {"slug": slug}
            )
        try:
            championship = import_document(document, replace=replace)
        except InterchangeError as error:
            # Another import may have taken the slug since the check above.
            if error.path == "championship.slug" and not replace and slug_taken(slug):
                raise exceptions.Conflict(error.message) from None
            return Response(
                {"path": error.path, "detail": error.message}, status=status.HTTP_400_BAD_REQUEST
            )
        url = detail_url(request, championship.slug)
        return Response(
            {"slug": championship.slug, "url": url},
            status=status.HTTP_201_CREATED,
            headers={"Location": url},
        )
