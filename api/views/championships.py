"""The championships: list, create from a preset, and one championship's categories and rounds."""

from __future__ import annotations

from dataclasses import replace

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.response import Response
from rest_framework.settings import api_settings

from api import exceptions, inputs, serializers
from api.parsers import JSONParser
from api.permissions import IsChampionshipOrganiser, MayCreateChampionships
from api.views.base import (
    FORBIDDEN,
    NOT_FOUND,
    SLUG,
    STAFF_ERRORS,
    TAG,
    UNAUTHENTICATED,
    ApiView,
    PublicApiView,
    championship_or_404,
    detail_url,
    slug_taken,
)
from championship import drafts, payees, selectors, services
from championship.models import Championship, Heat, Round
from championship.permissions import sees_draft
from registration import places


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
            "As the “New championship” page does: the preset (`rogaland`, `sm`, `dm`, `wjpc` "
            "for the world championship, or `neutral` for none of these rulebooks) fills in "
            "what is left out: time "
            "zone, currency, language, and its categories with their rounds. `categories` "
            "lists the categories to create, each kind once, each overriding the preset's "
            "values for its kind; a category whose `rounds` differ from the preset's records "
            "them as a rule override (`rounds_<kind>`). A `starts_at` without an offset is "
            "the wall-clock time in the championship's time zone. The caller becomes the "
            "championship's organiser. It starts as a draft (`draft: true`: not listed, "
            "registration closed, its public pages shown only to its staff) until "
            "`POST …/open/` opens it. For users with the permission "
            "`championship.add_championship` (the group Organisers).\n\n"
            "Errors name the field; a category's as `categories.<index>.<field>`, a round's "
            "as `categories.<index>.rounds.<index>.<field>`."
        ),
        request=inputs.ChampionshipCreateSerializer,
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
        data = inputs.ChampionshipCreateSerializer(data=request.data)
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
                payment_instructions=values["payment_instructions"],
                registration_deadline=values.get("registration_deadline"),
                payment={name: values[name] for name in payees.SETTINGS if name in values},
                draft=True,
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
    advance = dict(given.get("advance") or {})
    shape = {
        name: given[name]
        for name in ("key", "pieces", "puzzles", "time_limit_minutes")
        if name in given
    }
    shape["into"] = advance.pop("into", "")
    if "per_heat" in advance or "best_remaining" in advance:
        return services.RoundSetUp(
            stage=given["stage"],
            advance=Round.Advance.PER_HEAT,
            advance_count=advance.get("per_heat"),
            advance_best_remaining=advance.get("best_remaining"),
            **shape,
        )
    if "country_places" in advance:
        places = advance["country_places"]
        return services.RoundSetUp(
            stage=given["stage"],
            advance=Round.Advance.COUNTRY,
            advance_count=advance["overall"],
            advance_country_places=None if places == "all" else places,
            advance_country_requires_completion=advance.get(
                "country_place_requires_completion", False
            ),
            advance_per_country=advance.get("per_country", 1),
            advance_only_countries_without_qualifier=advance.get(
                "only_countries_without_qualifier", False
            ),
            **shape,
        )
    if "overall" in advance:
        return services.RoundSetUp(
            stage=given["stage"],
            advance=Round.Advance.OVERALL,
            advance_count=advance["overall"],
            **shape,
        )
    return services.RoundSetUp(stage=given["stage"], **shape)


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
    # Read by the public, who need no authentication; a draft is shown only to its staff,
    # so the caller is authenticated (lazily, as DRF does on reading ``request.user``) only
    # for a draft.
    authentication_classes = ApiView.authentication_classes

    def perform_authentication(self, request):
        pass

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
        championship = championship_or_404(championship_slug)
        if not sees_draft(request.user, championship):
            raise NotFound(_("Not found."))
        return Response(championship_detail(request, championship))


class ChampionshipOpenView(ApiView):
    """Publish a draft and open its registration, or say what it still lacks."""

    permission_classes = [IsChampionshipOrganiser]
    parser_classes = [JSONParser]

    @extend_schema(
        tags=[TAG],
        operation_id="championship_open",
        summary="Open a draft championship: publish it and open its registration",
        description=(
            "A championship created through the API or the browser is a draft "
            "(`draft: true`): not listed, registration closed, its public pages shown only "
            "to its staff. This publishes it and opens registration, once its checklist "
            "holds: `categories`, `fees` (and the currency), `payment_instructions` (when a "
            "fee is charged), `deadline` (the registration deadline still ahead) and "
            "`rounds` (every category has its rounds). Otherwise 409 with `missing`, the "
            "keys still lacking. Tables and judges are on the control room's checklist "
            "too, but are needed on the day, not to open registration. Opening an open "
            "championship changes nothing. For the championship's organisers."
        ),
        request=None,
        parameters=[SLUG],
        responses={
            200: serializers.ChampionshipDetailSerializer,
            **STAFF_ERRORS,
            409: OpenApiResponse(
                serializers.MissingSerializer, description="What the checklist still lacks."
            ),
        },
    )
    def post(self, request, championship_slug):
        championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        # Opening reads nothing: a body, if any, is JSON (415 otherwise) and empty.
        if request.data:
            raise DRFValidationError({"detail": [_("Opening takes no body: send none.")]})
        try:
            championship = drafts.championship_open(championship=championship)
        except DjangoValidationError as error:
            return Response(
                {"detail": error.messages[0], "missing": error.params["missing"]},
                status=status.HTTP_409_CONFLICT,
            )
        return Response(championship_detail(request, championship))
