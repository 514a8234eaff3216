"""Register an entry with the registration form's rules; the organiser's list of entries."""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.response import Response
from rest_framework.settings import api_settings

from api import inputs, serializers
from api.parsers import JSONParser
from api.permissions import IsChampionshipOrganiser
from api.views.base import (
    CATEGORY,
    NOT_FOUND,
    SLUG,
    STAFF_ERRORS,
    TAG,
    ApiView,
    championship_or_404,
)
from championship.models import Category
from registration import payment, validation
from registration import services as registration_services
from registration.forms import member_count_message
from registration.models import Entry
from registration.notifications import manage_url
from registration.validation import MemberData


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
        if key.startswith("answers."):
            detail.setdefault("answers", {})[key.split(".", 1)[1]] = list(messages)
        elif key.startswith("members."):
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
        request=inputs.RegistrationInputSerializer,
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
        # A draft takes no registrations, and is shown to nobody here: as unknown.
        category = get_object_or_404(
            Category.objects.select_related("championship"),
            championship__slug=championship_slug,
            championship__draft=False,
            key=category_key,
        )
        given = request.data.get("members") if isinstance(request.data, dict) else None
        if isinstance(given, list) and len(given) > category.max_members:
            # Refused before a serializer is built for each of them.
            raise DRFValidationError({"members": [member_count_message(category)]})
        data = inputs.RegistrationInputSerializer(data=request.data)
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
                answers=data.validated_data["answers"],
                represents=data.validated_data["represents"],
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
            "waiting_position": entry.waiting_position(),
            "offer_expires_at": entry.offer_expires_at,
            "payment_due_at": entry.payment_due_at,
        }
        return Response(serializers.RegisteredSerializer(body).data, status=status.HTTP_201_CREATED)


class EntryListView(ApiView):
    """The championship's entries as the organiser sees them, with what each owes."""

    permission_classes = [IsChampionshipOrganiser]

    @extend_schema(
        tags=[TAG],
        operation_id="entry_list",
        summary="List the entries, with their payment",
        description=(
            "Every entry of every category, by category and name: its status, payment status "
            "and fee, the `payment_reference` its entrant marks the payment with, and "
            "`payment_qr` (while the fee is due, where the championship has a Swish number in "
            "kronor or an IBAN in euro: the address of the PNG code that pays it). For the "
            "championship's organisers."
        ),
        parameters=[SLUG],
        responses={200: serializers.EntryListItemSerializer(many=True), **STAFF_ERRORS},
    )
    def get(self, request, championship_slug):
        championship = championship_or_404(championship_slug)
        self.check_object_permissions(request, championship)
        entries = (
            Entry.objects.filter(category__championship=championship)
            .select_related("category__championship")
            .order_by("category__order", "name", "pk")
        )
        body = [
            {
                "id": entry.ref,
                "name": entry.name,
                "category": entry.category.key,
                "status": entry.status,
                "fee": entry.fee,
                "currency": championship.currency,
                "payment_status": entry.payment_status,
                "payment_reference": payment.reference(entry),
                "payment_qr": payment.code_url(entry),
                "contact_email": entry.contact_email,
                "checked_in_at": entry.checked_in_at,
            }
            for entry in entries
        ]
        return Response(
            serializers.EntryListItemSerializer(body, many=True).data,
            headers={"Cache-Control": "no-store"},
        )
