"""An entry as its holder sees it, through the private link's token: read, accept, withdraw."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from api import serializers
from api.views.base import SLUG, TAG, ApiView
from registration import checkin, deadlines, payment, services, validation
from registration.models import Entry, entry_for_manage_token
from registration.notifications import manage_url

TOKEN = OpenApiParameter(
    "token",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="The token of the entry's private link (the last part of its manage_url).",
)
NO_ENTRY = OpenApiResponse(
    serializers.ErrorSerializer, description="No entry of this championship has this token."
)
REFUSED = OpenApiResponse(
    serializers.ErrorSerializer, description="Not possible now; `detail` says why."
)


def entry_by_token(slug: str, token: str) -> Entry:
    entry = entry_for_manage_token(token, championship_slug=slug)
    if entry is None:
        raise NotFound(_("This link does not lead to an entry. Check the link in your e-mail."))
    return entry


def entry_body(entry: Entry) -> dict:
    """Return the entry as its holder sees it."""
    members = list(entry.members.order_by("memberships__position"))
    category = entry.category
    explained = validation.explain_officiality(
        category, [validation.member_data_of(member) for member in members]
    )
    return {
        "id": entry.ref,
        "name": entry.name,
        "category": category.key,
        "status": entry.status,
        "lapsed": entry.lapsed or None,
        "official": explained.official,
        "members": [{"name": member.name} for member in members],
        "fee": entry.fee,
        "currency": category.championship.currency,
        "payment_status": entry.payment_status,
        "payment_reference": payment.reference(entry),
        "payment_qr": payment.code_url(entry),
        "waiting_position": entry.waiting_position(),
        "offer_expires_at": entry.offer_expires_at,
        "payment_due_at": entry.payment_due_at,
        "manage_url": manage_url(entry),
        "answers": entry.answers,
        "check_in_url": (
            checkin.checkin_url(entry) if entry.status == Entry.Status.CONFIRMED else None
        ),
    }


def _answer(entry: Entry) -> Response:
    entry.refresh_from_db()
    return Response(serializers.EntryOwnSerializer(entry_body(entry)).data)


def _refused(error: DjangoValidationError) -> Response:
    return Response({"detail": " ".join(error.messages)}, status=status.HTTP_409_CONFLICT)


@method_decorator(never_cache, name="dispatch")
class EntryTokenView(ApiView):
    """A view of the entry whose private link's token is in the path: kept by no cache."""

    authentication_classes = []


class EntryOwnView(EntryTokenView):
    @extend_schema(
        tags=[TAG],
        operation_id="entry_own",
        summary="Show an entry to its holder",
        description="The private link's token authorises: no account is needed.",
        parameters=[SLUG, TOKEN],
        responses={200: serializers.EntryOwnSerializer, 404: NO_ENTRY},
    )
    def get(self, request, championship_slug, token):
        return _answer(entry_by_token(championship_slug, token))


class EntryAcceptView(EntryTokenView):
    @extend_schema(
        tags=[TAG],
        operation_id="entry_accept",
        summary="Accept the place offered to an entry",
        description="Only while a place is offered (`status` offered) and before "
        "`offer_expires_at`; the entry is then confirmed.",
        parameters=[SLUG, TOKEN],
        request=None,
        responses={200: serializers.EntryOwnSerializer, 404: NO_ENTRY, 409: REFUSED},
    )
    def post(self, request, championship_slug, token):
        entry = entry_by_token(championship_slug, token)
        try:
            deadlines.offer_accept(entry=entry)
        except DjangoValidationError as error:
            return _refused(error)
        return _answer(entry)


class EntryWithdrawView(EntryTokenView):
    @extend_schema(
        tags=[TAG],
        operation_id="entry_withdraw",
        summary="Withdraw an entry",
        description="Until a heat of the category's first round starts; a place it held "
        "goes to the waiting list.",
        parameters=[SLUG, TOKEN],
        request=None,
        responses={200: serializers.EntryOwnSerializer, 404: NO_ENTRY, 409: REFUSED},
    )
    def post(self, request, championship_slug, token):
        entry = entry_by_token(championship_slug, token)
        if entry.status != Entry.Status.WITHDRAWN:
            try:
                services.entry_withdraw(entry=entry, by_entrant=True)
            except DjangoValidationError as error:
                return _refused(error)
        return _answer(entry)
