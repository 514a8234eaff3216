"""REST API, version 1: championships, live results, and the interchange document.

Views are thin: they read through selectors, call services, and leave the shape
to ``serializers``. The URL keyword is ``championship_slug`` rather than
``slug`` on purpose: ``ChampionshipMiddleware`` resolves every view with a
``slug`` keyword with a query of its own, and the polled results endpoint has to
answer a conditional request with a single query.
"""

from dataclasses import replace

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Exists, OuterRef
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.http import parse_etags
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from api import exceptions, serializers
from api.parsers import JSONParser, holds_unstorable_text
from api.permissions import (
    IsChampionshipJudge,
    IsChampionshipOrganiser,
    IsSuperuser,
    MayCreateChampionships,
)
from championship import selectors, services
from championship.errors import RoundStateError
from championship.middleware import activate
from championship.models import Category, Championship, Heat, Round
from championship.rules import timing
from control import rounds
from interchange.export import export_document
from interchange.format import SLUG as SLUG_PATTERN
from interchange.format import InterchangeError
from interchange.write import import_document
from judging import services as judging_services
from registration import places, validation
from registration import services as registration_services
from registration.forms import member_count_message
from registration.models import Entry
from registration.notifications import manage_url
from registration.validation import MemberData
from results.selectors import format_duration, parse_duration, round_standings

TAG = "championships"

NOT_FOUND = OpenApiResponse(serializers.ErrorSerializer, description="Unknown championship.")
UNAUTHENTICATED = OpenApiResponse(
    serializers.ErrorSerializer, description="Not authenticated (a token or a session is needed)."
)
FORBIDDEN = OpenApiResponse(serializers.ErrorSerializer, description="Missing rights.")
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


def get_championship(slug: str) -> Championship:
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


class ChampionshipListView(ApiView):
    """List the public championships (no authentication), or create one (POST)."""

    permission_classes = [MayCreateChampionships]

    def initialize_request(self, request, *args, **kwargs):
        # Reading is public and authenticates nobody, as PublicApiView: see its docstring.
        self.public = request.method in ("GET", "HEAD", "OPTIONS")
        return super().initialize_request(request, *args, **kwargs)

    def get_authenticators(self):
        return [] if getattr(self, "public", False) else super().get_authenticators()

    def get_parsers(self):
        return [JSONParser()]

    @extend_schema(
        tags=[TAG],
        summary="List the publicly listed championships",
        description="The championships listed publicly, the latest start first.",
        responses=serializers.ChampionshipSerializer(many=True),
    )
    def get(self, request):
        championships = selectors.public_championships()
        return Response(
            serializers.ChampionshipSerializer(
                championships, many=True, context={"request": request}
            ).data
        )

    @extend_schema(
        tags=[TAG],
        operation_id="championship_create",
        summary="Create a championship from a preset",
        description=(
            "As the “New championship” page does: the preset (`rogaland`, `sm`, `dm`, or "
            "`neutral` for none of the national rulebooks) fills in what is left out: time "
            "zone, currency, language, and its categories with their rounds. `categories` "
            "lists the categories to create, each kind once, each overriding the preset's "
            "values for its kind; a category whose `rounds` differ from the preset's records "
            "them as a rule override (`rounds_<kind>`). A `starts_at` without an offset is "
            "the wall-clock time in the championship's time zone. The caller becomes the "
            "championship's organiser. For users with the permission "
            "`championship.add_championship` (the group Organisers).\n\n"
            "Errors name the field; a category's as `categories.<index>.<field>`, a round's "
            "as `categories.<index>.rounds.<index>.<field>`."
        ),
        request=serializers.ChampionshipCreateSerializer,
        responses={
            201: serializers.ChampionshipDetailSerializer,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description='{"field": ["message"]}'),
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            409: OpenApiResponse(
                serializers.ErrorSerializer, description="A championship with this slug exists."
            ),
        },
    )
    def post(self, request):
        data = serializers.ChampionshipCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if slug_taken(values["slug"]):
            raise exceptions.Conflict(
                _("A championship with the slug “%(slug)s” exists already.")
                % {"slug": values["slug"]}
            )
        try:
            championship = services.championship_set_up(
                by=request.user,
                preset=values["preset"],
                name=values["name"],
                slug=values["slug"],
                starts_at=values["starts_at"],
                timezone=values.get("timezone"),
                venue=values["venue"],
                currency=values.get("currency"),
                language=values.get("language"),
                categories=category_setups(values["preset"], values.get("categories")),
            )
        except DjangoValidationError as error:
            if hasattr(error, "error_dict"):
                names = {"ruleset": "preset", NON_FIELD_ERRORS: api_settings.NON_FIELD_ERRORS_KEY}
                detail = {names.get(key, key): list(m) for key, m in error.message_dict.items()}
                # Another request may have taken the slug since the check above.
                if "slug" in detail and slug_taken(values["slug"]):
                    raise exceptions.Conflict(detail["slug"][0]) from None
                raise DRFValidationError(detail) from None
            raise
        url = detail_url(request, championship.slug)
        return Response(
            championship_detail(request, championship),
            status=status.HTTP_201_CREATED,
            headers={"Location": url},
        )


def category_setups(preset: str, categories: list[dict] | None):
    """Return the categories to create: the preset's, with what the request gives instead."""
    if categories is None:
        return None
    defaults = {setup.kind: setup for setup in services.categories_of_preset(preset)}
    setups = []
    for given in categories:
        changes = {key: value for key, value in given.items() if key not in ("kind", "rounds")}
        if "rounds" in given:
            changes["rounds"] = tuple(round_setup(item) for item in given["rounds"])
        setups.append(replace(defaults[given["kind"]], **changes))
    return setups


def round_setup(given: dict) -> services.RoundSetUp:
    """Return a round of a new category as the request gives it."""
    advance = given.get("advance") or {}
    if "per_heat" in advance or "best_remaining" in advance:
        return services.RoundSetUp(
            stage=given["stage"],
            advance=Round.Advance.PER_HEAT,
            advance_count=advance.get("per_heat"),
            advance_best_remaining=advance.get("best_remaining"),
        )
    if "overall" in advance:
        return services.RoundSetUp(
            stage=given["stage"], advance=Round.Advance.OVERALL, advance_count=advance["overall"]
        )
    return services.RoundSetUp(stage=given["stage"])


def championship_detail(request, championship: Championship) -> dict:
    """Return a championship as the detail endpoint shows it."""
    # The same rule as Category.puzzle_is_revealed, in the same query for every category.
    revealed = Heat.objects.filter(round__category=OuterRef("pk"), started_at__isnull=False)
    categories = places.categories_with_counts(championship).annotate(
        puzzle_revealed=Exists(revealed)
    )
    context = {
        "request": request,
        "championship": championship,
        "categories": list(categories),
        "rounds": list(selectors.rounds_with_heats(championship)),
        "now": timezone.now(),
    }
    return serializers.ChampionshipDetailSerializer(championship, context=context).data


class ChampionshipDetailView(PublicApiView):
    @extend_schema(
        tags=[TAG],
        summary="Show a championship: its categories, and its rounds with their heats",
        description=(
            "Categories carry their capacity, confirmed and waitlisted counts, fee and "
            "registration state; the puzzle's brand and motif are null until the first "
            "heat of the category starts. Rounds come in schedule order."
        ),
        parameters=[SLUG],
        responses={200: serializers.ChampionshipDetailSerializer, 404: NOT_FOUND},
    )
    def get(self, request, championship_slug):
        championship = get_championship(championship_slug)
        return Response(championship_detail(request, championship))


def etag_matches(header: str, etag: str) -> bool:
    """Return whether an ``If-None-Match`` header matches ``etag`` (weak comparison)."""
    tags = parse_etags(header)
    return "*" in tags or etag in (tag.removeprefix("W/") for tag in tags)


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
            .values("id", "version", "key", "state")
            .first()
        )
        if found is None:
            raise NotFound(_("There is no such round in this championship."))
        etag = '"{id}-{version}"'.format(**found)
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if etag_matches(request.headers.get("If-None-Match", ""), etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        # The row just read is all that round_standings needs of the round; from_db takes
        # the loaded fields in the model's order and defers the others.
        names = [field.attname for field in Round._meta.concrete_fields if field.attname in found]
        round_ = Round.from_db(Round.objects.db, names, [found[name] for name in names])
        return Response(round_standings(round_), headers=headers)


class ChampionshipExportView(ApiView):
    permission_classes = [IsChampionshipOrganiser]

    @extend_schema(
        tags=[TAG],
        summary="Export a championship in the interchange format",
        description=(
            "The whole championship, persons and table tokens included, as one "
            "interchange document (format `speedpuzzling-championship`, version 1), with "
            "the computed fields of every result. For the championship's organisers."
        ),
        parameters=[SLUG],
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description="The interchange document."
            ),
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
    )
    def get(self, request, championship_slug):
        # Imported here so that the API loads even while the interchange module is missing.
        championship = get_championship(championship_slug)
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
        parameters=[serializers.ImportQuerySerializer],
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
        query = serializers.ImportQuerySerializer(data=request.query_params)
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


def registration_errors(error: DjangoValidationError) -> dict:
    """Return a registration service's errors in the API's shape, with the form's messages.

    ``members.N.field`` becomes ``{"members": [{}, …, {"field": [...]}]}`` (by the
    member's position); ``__all__`` becomes ``non_field_errors``; a wrong number
    of members is ``{"members": ["…"]}`` unless members have errors of their own,
    when it joins ``non_field_errors``.
    """
    detail: dict = {}
    general = list(error.message_dict.get(NON_FIELD_ERRORS, []))
    members: list[dict] = []
    for key, messages in error.message_dict.items():
        if key.startswith("members."):
            _members, index, field = key.split(".")
            members.extend({} for _ in range(int(index) + 1 - len(members)))
            members[int(index)].setdefault(field, []).extend(messages)
        elif key not in (NON_FIELD_ERRORS, "members"):
            detail[key] = list(messages)
    count = list(error.message_dict.get("members", []))
    if members:
        detail["members"] = members
        general += count
    elif count:
        detail["members"] = count
    if general:
        detail[api_settings.NON_FIELD_ERRORS_KEY] = general
    return detail


class EntryRegisterView(ApiView):
    """Register an entry in a category: the same rules and messages as the form."""

    parser_classes = [JSONParser]

    @extend_schema(
        tags=[TAG],
        operation_id="entry_register",
        parameters=[SLUG, CATEGORY],
        request=serializers.RegistrationInputSerializer,
        responses={
            201: serializers.RegisteredSerializer,
            400: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description='Invalid input: {"field": ["message"]}, members by position.',
            ),
            404: NOT_FOUND,
        },
    )
    def post(self, request, championship_slug, category_key):
        category = get_object_or_404(
            Category.objects.select_related("championship"),
            championship__slug=championship_slug,
            key=category_key,
        )
        given = request.data.get("members") if isinstance(request.data, dict) else None
        if isinstance(given, list) and len(given) > category.max_members:
            # Refused before a serializer is built for each of them.
            raise DRFValidationError({"members": [member_count_message(category)]})
        data = serializers.RegistrationInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        members = [
            MemberData(
                name=member["name"],
                email=member["email"],
                birth_date=member["birth_date"],
                city=member["city"],
                country=member["country"],
                citizenship=tuple(member["citizenship"]),
                region=member["region"],
                years_in_region=member["years_in_region"],
                publish_consent=member["publish_consent"],
            )
            for member in data.validated_data["members"]
        ]
        try:
            entry = registration_services.entry_register(
                category=category,
                members=members,
                name=data.validated_data["name"],
                publish_consent=data.validated_data["publish_consent"],
                adult_name=data.validated_data["adult_name"],
                language=get_language(),
            )
        except DjangoValidationError as error:
            return Response(registration_errors(error), status=status.HTTP_400_BAD_REQUEST)
        explained = validation.explain_officiality(category, members)
        body = {
            "id": entry.ref,
            "status": entry.status,
            "official": explained.official,
            "fee": entry.fee,
            "currency": category.championship.currency,
            "manage_url": manage_url(entry),
        }
        return Response(serializers.RegisteredSerializer(body).data, status=status.HTTP_201_CREATED)


ROUND_ACTIONS = ("seat", "start", "close", "advance")


class RoundActionView(ApiView):
    """Seat a round, start or close its heats, or advance its qualified to the next round."""

    permission_classes = [IsChampionshipOrganiser]
    parser_classes = [JSONParser]

    @extend_schema(
        tags=[TAG],
        operation_id="round_action",
        summary="Seat, start, close or advance a round",
        description=(
            "`seat`: form heats and allocate tables (`heats`, `order`, `seed`, "
            "`checked_in_only`, `heat_sizes`); `start`: start the clock of every heat not yet "
            'started, or `{"heat": key}`; `close`: time is up in every running heat; `advance`: '
            "seat the qualified in the next round by placement. A request the round's state "
            "does not allow is answered 409 (starting twice, advancing before the results are "
            "final).\n\n"
            "The championship's rules drive `seat`. `check_in_required`: a category's first "
            "round seats only checked-in entries, whatever `checked_in_only` says, and when "
            "its first heat starts the confirmed entries left out become walk-overs (until "
            "then, an entry checked in late is seated by seating again). "
            "`seating_first_round` `prior_ranking` and `seating_later_rounds` "
            "`previous_placement` allow only the order `seeding` (prior ranking then "
            "registration time; placement in the previous round); `organiser` and null leave "
            "the order to the organiser. `heat_split` `equal` deals the entries to the heats "
            "in serpentine order, sizes differing by at most one, and refuses `heat_sizes`; "
            "`organiser` also takes `heat_sizes` (one per heat, each at least 1, adding up "
            "to the entries to seat), dealt in serpentine order passing over full heats. "
            "Tables reserved for guests (at most `reserved_guest_tables_max` per heat) take "
            "unofficial entries first; official entries that do not fit at the ordinary "
            "tables take those left free, so the best seeds keep the ordinary tables. "
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
        request=serializers.RoundActionInputSerializer,
        responses={
            200: serializers.RoundActionSerializer,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="Invalid options."),
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: OpenApiResponse(serializers.ErrorSerializer, description="Not in this state."),
        },
    )
    def post(self, request, championship_slug, round_key, action):
        if action not in ROUND_ACTIONS:
            raise NotFound(_("Unknown action “%(action)s”.") % {"action": action})
        championship = get_championship(championship_slug)
        self.check_object_permissions(request, championship)
        round_ = get_object_or_404(Round, championship=championship, key=round_key)
        options = serializers.RoundActionInputSerializer(data=request.data or {})
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
            else:
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
            # A capture does not rank the round: the place shows in the round's results.
            "place": None,
            "confirmed": result.confirmed_at is not None,
        },
    }


class CaptureView(ApiView):
    """Record a judge's capture; the same id again is answered as the first time."""

    permission_classes = [IsChampionshipJudge]
    parser_classes = [JSONParser]

    def initial(self, request, *args, **kwargs):
        # Before authentication and permissions, so that every answer to the judge's phone
        # (a refusal, a 403) speaks the table page's language: the championship's, unless
        # the judge chose one with the language switcher.
        championship = Championship.objects.filter(slug=kwargs.get("championship_slug")).first()
        if championship is not None:
            activate(request, championship)
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
        request=serializers.CaptureInputSerializer,
        responses={
            201: serializers.CaptureSerializer,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description='{"field": ["message"]}'),
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: OpenApiResponse(serializers.ErrorSerializer, description="A conflict."),
        },
    )
    def post(self, request, championship_slug):
        championship = get_championship(championship_slug)
        self.check_object_permissions(request, championship)
        if holds_unstorable_text(request.data):
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
        data = serializers.CaptureInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        round_ = Round.objects.filter(championship=championship, key=values["round"]).first()
        if round_ is None:
            raise DRFValidationError({"round": [_("Unknown round.")]})
        round_.championship = championship
        entry = Entry.objects.filter(category=round_.category_id, ref=values["entry"]).first()
        if entry is None:
            raise DRFValidationError({"entry": [_("Unknown entry in this round's category.")]})
        time_ms = parse_duration(values["time"]) if values["time"] else None
        capture = judging_services.CaptureInput(
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
            recorded = judging_services.capture_record(
                round_=round_, entry=entry, judge=request.user, data=capture
            )
        except judging_services.CaptureConflict as error:
            raise exceptions.Conflict(error.message) from None
        except judging_services.CaptureForbidden:
            raise PermissionDenied(_("Only a head judge may record this.")) from None
        body = serializers.CaptureSerializer(capture_body(recorded)).data
        return Response(body, status=status.HTTP_201_CREATED)


class ServerTimeView(PublicApiView):
    """The server's clock, for phones to measure their offset (NTP-style)."""

    @extend_schema(tags=["judging"], responses={200: serializers.ServerTimeSerializer})
    def get(self, request):
        now = timezone.now()
        return Response(
            {"now_ms": int(now.timestamp() * 1000)}, headers={"Cache-Control": "no-store"}
        )


@csrf_exempt
def not_found(request, *args, **kwargs):
    """Answer any other path under the API with a JSON 404, as the API's errors are."""
    from django.http import JsonResponse

    return JsonResponse({"detail": _("Not found.")}, status=404)
