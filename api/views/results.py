"""A round's live results, answered 304 while the round's version is unchanged."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from api import serializers
from api.views.base import ROUND, SLUG, TAG, PublicApiView
from championship.models import Round
from results.live_poll import API_STANDINGS, Polled, answer_poll
from results.selectors import round_standings, standings_head, standings_rows_json


def standings_json(round_: Round) -> bytes:
    """Return a round's standings as JSON text: ``round_standings`` as the renderer writes it.

    The rows' text is joined from what this process keeps of each row
    (``results.public_rows``); the rest is rendered around it.
    """
    rows = standings_rows_json(round_)
    around = JSONRenderer().render({**standings_head(round_), "rows": []})
    # The rows come last: an empty list, then the object's end.
    if not around.endswith(b"[]}"):
        raise ValueError("the standings' rows are not their last field")
    return around[:-3] + rows + b"}"


class RoundResultsView(PublicApiView):
    @extend_schema(
        tags=[TAG],
        summary="Show a round's standings",
        description=(
            'Answers carry `ETag: "<round id>-<version>"`; send it back in `If-None-Match` '
            "to get 304 Not Modified while the results are unchanged. Names appear only "
            "for entries that consented to publication."
        ),
        parameters=[
            SLUG,
            ROUND,
            OpenApiParameter(
                "If-None-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="The ETag of an earlier answer.",
            ),
        ],
        responses={
            200: serializers.RoundStandingsSerializer,
            304: OpenApiResponse(description="Not modified since the answer with this ETag."),
            404: OpenApiResponse(
                serializers.ErrorSerializer, description="Unknown championship or round."
            ),
        },
    )
    def get(self, request, championship_slug, round_key):
        # One cheap query, before anything else: a poller with a fresh copy gets 304 from it.
        # As the results pages' fragments do: while one request builds a new version, the
        # others are answered at once with the version before (its own ETag), and a round
        # under a stream of captures is built a few times a second, not once per capture.
        # The JSON is rendered (and gzipped) once per version, not once per poller; another
        # format (the browsable API) is rendered for each request.
        as_json = request.accepted_renderer.format == "json"
        try:
            return answer_poll(
                request,
                championship_slug,
                round_key,
                Polled(API_STANDINGS),
                render=_json if as_json else _browsable,
                content_type="application/json",
                kept=as_json,
            )
        except Http404:
            raise NotFound(_("There is no such round in this championship.")) from None


def _json(round_: Round, etag: str) -> bytes:
    return standings_json(round_)


def _browsable(round_: Round, etag: str) -> Response:
    return Response(round_standings(round_))
