"""A round's live results, answered 304 while the round's version is unchanged."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from api import serializers
from api.views.base import ROUND, SLUG, TAG, PublicApiView
from championship.models import Round
from results.live_poll import Version, etag_matches, not_modified, with_poll_headers
from results.selectors import cached_once, round_standings, standings_head, standings_rows_json
from results.views import LIVE_RENDERS_PER_SECOND


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
        found = (
            Round.objects.filter(championship__slug=championship_slug, key=round_key)
            .values("id", "version", "key", "state", "official_at", "corrections")
            .first()
        )
        if found is None:
            raise NotFound(_("There is no such round in this championship."))
        etag = '"{id}-{version}"'.format(**found)
        asked = request.headers.get("If-None-Match", "")
        if etag_matches(asked, etag):
            return with_poll_headers(not_modified(), etag)
        # The row just read is all that round_standings needs of the round; from_db takes
        # the loaded fields in the model's order and defers the others.
        names = [field.attname for field in Round._meta.concrete_fields if field.attname in found]
        round_ = Round.from_db(Round.objects.db, names, [found[name] for name in names])
        if request.accepted_renderer.format != "json":
            return with_poll_headers(Response(round_standings(round_)), etag)

        def render_it():
            return Version.of(etag, standings_json(round_))

        # As the results pages' fragments do: while one request builds a new version, the
        # others are answered at once with the version before (its own ETag), and a round
        # under a stream of captures is built a few times a second, not once per capture.
        # The JSON is rendered (and gzipped) once per version, not once per poller.
        name = f"api-standings:v2:{found['id']}"
        served = cached_once(
            f"{name}:{found['version']}",
            render_it,
            lock=name,
            latest=f"{name}:latest",
            per_second=LIVE_RENDERS_PER_SECOND,
        )
        if etag_matches(asked, served.etag):
            return with_poll_headers(not_modified(), served.etag)
        return with_poll_headers(served.answer(request, "application/json"), served.etag)
