"""The round's lifecycle from the API: seat, start, close, sign off (publish), advance."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from api import exceptions, inputs, serializers
from api.parsers import JSONParser
from api.permissions import MayActOnRound
from api.views.base import (
    ROUND,
    SLUG,
    STAFF_ERRORS,
    TAG,
    ApiView,
    championship_or_404,
)
from championship.errors import RoundStateError
from championship.models import Round
from control import rounds

ROUND_ACTIONS = ("seat", "start", "close", "publish", "advance")


class RoundActionView(ApiView):
    """Seat a round, start or close its heats, sign its results off, or advance its qualified."""

    permission_classes = [MayActOnRound]
    parser_classes = [JSONParser]

    @extend_schema(
        tags=[TAG],
        operation_id="round_action",
        summary="Seat, start, close, sign off or advance a round",
        description=(
            "`seat`: form heats and allocate tables (`heats`, `order`, `seed`, "
            "`checked_in_only`, `heat_sizes`); `start`: start the clock of every heat not yet "
            'started, or `{"heat": key}`; `close`: time is up in every running heat; `publish`: '
            "sign the results off (head judges and organisers): from then on they are official "
            "(`official` and `official_at` in the round's results) and only a head judge's "
            "correction, with its reason, changes them; refused (409) before every entry has a "
            "result, within the championship's protest window after time-up, and while the "
            "next round (seated, not started) seats others than the round's qualifiers, "
            "naming them; `advance`: "
            "seat the qualified in the next round by placement, from provisional results only "
            'with `{"provisional": true}`. A request the round\'s state does not allow is '
            "answered 409 (starting twice, advancing before the results are final).\n\n"
            "The championship's rules drive `seat`. `check_in_required`: a category's first "
            "round seats only checked-in entries, whatever `checked_in_only` says, and when "
            "its first heat starts the confirmed entries left out become walk-overs (until "
            "then, an entry checked in late is seated by seating again). "
            "`seating_first_round` `prior_ranking` (dm) and `seating_later_rounds` "
            "`previous_placement` (sm, dm) allow only the order `seeding` (prior ranking then "
            "registration time; placement in the previous round); `organiser` (rogaland, sm: "
            "the first round) and null leave the order to the organiser, `seeding` being the "
            "default. `heat_split` `equal` deals the entries to the heats "
            "in serpentine order, sizes differing by at most one, and refuses `heat_sizes`; "
            "`organiser` also takes `heat_sizes` (one per heat, each at least 1, adding up "
            "to the entries to seat), dealt in serpentine order passing over full heats. "
            "Tables reserved for guests (at most `reserved_guest_tables_max` per heat) take "
            "unofficial entries first; every other entry, guests without a reserved table "
            "included, takes the ordinary tables in seating order (an unofficial second sits "
            "second), and entries that do not fit there take the reserved tables left free, "
            "so the best seeds keep the ordinary tables. "
            "Refused options are answered 400 with the reason (`order`, `heat_sizes`, or "
            "not enough tables)."
        ),
        parameters=[
            SLUG,
            ROUND,
            OpenApiParameter(
                "action", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(ROUND_ACTIONS)
            ),
        ],
        request=inputs.RoundActionInputSerializer,
        responses={
            200: serializers.RoundActionSerializer,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="Invalid options."),
            **STAFF_ERRORS,
            409: OpenApiResponse(serializers.ErrorSerializer, description="Not in this state."),
        },
    )
    def post(self, request, championship_slug, round_key, action):
        if action not in ROUND_ACTIONS:
            raise NotFound(_("Unknown action “%(action)s”.") % {"action": action})
        championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        round_ = get_object_or_404(Round, championship=championship, key=round_key)
        options = inputs.RoundActionInputSerializer(data=request.data or {})
        options.is_valid(raise_exception=True)
        data = options.validated_data
        try:
            if action == "seat":
                sizes = data.get("heat_sizes") or []
                rounds.round_seat(
                    round_=round_,
                    plan=rounds.SeatingPlan(
                        heats=data.get("heats", len(sizes) or 1),
                        order=data.get("order", "seeding"),
                        seed=data.get("seed"),
                        checked_in_only=data["checked_in_only"],
                        heat_sizes=tuple(sizes),
                    ),
                )
            elif action == "start":
                rounds.round_start(round_=round_, heat_key=data.get("heat"))
            elif action == "close":
                rounds.round_close(round_=round_)
            elif action == "publish":
                rounds.round_sign_off(round_=round_, by=request.user)
            else:
                provisional = not round_.is_official and rounds.results_final(round_)
                if provisional and not data["provisional"]:
                    raise RoundStateError(
                        _(
                            "The results are provisional: sign them off first (publish), or "
                            'advance with {"provisional": true}.'
                        )
                    )
                round_ = rounds.round_advance(round_=round_)
        except RoundStateError as error:
            raise exceptions.Conflict(error.message) from None
        round_.refresh_from_db()
        body = {
            "round": round_.key,
            "state": round_.state,
            "version": round_.version,
            "heats": round_.heats.order_by("order", "key"),
        }
        return Response(serializers.RoundActionSerializer(body).data)
