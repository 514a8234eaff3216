"""What the API reads from a request body or query: checked here, then given to a service."""

from __future__ import annotations

import threading

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers import STAFF_ROLES, AdvanceSerializer
from championship import bounds, presets, rulesets
from championship.models import Category, Currency, PaymentReferenceScheme


class ImportQuerySerializer(serializers.Serializer):
    replace = serializers.BooleanField(
        required=False, default=False, help_text="Replace a championship with the same slug."
    )


class MemberInputSerializer(serializers.Serializer):
    """One member of a registration, as the form asks for it."""

    name = serializers.CharField(max_length=200, allow_blank=True)
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True, default="")
    birth_date = serializers.DateField(required=False, allow_null=True, default=None)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="")
    citizenship = serializers.JSONField(required=False, default=list)
    region = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    years_in_region = serializers.IntegerField(
        min_value=0, max_value=120, required=False, allow_null=True, default=None
    )
    publish_consent = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text=(
            "This member's consent to the publication of their name, home town and age "
            "(as the preset publishes); omitted or null: the registration's `publish_consent`."
        ),
    )

    def validate_country(self, value):
        if value and not (len(value) == 2 and value.isalpha()):
            raise serializers.ValidationError(_("Give a two-letter country code, e.g. NO."))
        return value.upper()

    def validate_citizenship(self, value):
        codes = [value] if isinstance(value, str) else value
        message = bounds.citizenship_message(codes if isinstance(codes, list) else None)
        if message:
            raise serializers.ValidationError(message)
        return [code.upper() for code in codes if code]


class RegistrationInputSerializer(serializers.Serializer):
    """A registration: the entry's name, its members, consent and the accompanying adult."""

    name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    members = MemberInputSerializer(many=True, allow_empty=False)
    publish_consent = serializers.BooleanField(
        required=False,
        default=False,
        help_text=(
            "Consent to publication for every member that does not say its own; the entry's "
            "name is published only when every member consents."
        ),
    )
    adult_name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    represents = serializers.CharField(
        max_length=7,
        required=False,
        allow_blank=True,
        default="",
        help_text=(
            'The country the entry represents (ISO 3166-1 alpha-2, or "neutral" where the '
            "championship allows the neutral flag); empty: the first member's nationality "
            "(a team: most members'), where the championship's entries represent a country."
        ),
    )
    answers = serializers.DictField(
        required=False,
        default=dict,
        help_text=(
            "Answers to the championship's `questions` by their `id`: a string (text, choice), "
            "a list of strings (choices) or true/false (yes_no)."
        ),
    )


class RoundActionInputSerializer(serializers.Serializer):
    """Options of a round action; all optional.

    The championship's rules limit the `seat` options: `seating_first_round`
    `prior_ranking` (dm) and `seating_later_rounds` `previous_placement` (sm, dm)
    allow only the order `seeding`, which is every round's default; `organiser`
    (rogaland, sm) and null leave the order to the organiser; `heat_split` `equal`
    refuses `heat_sizes`; `check_in_required`
    seats only checked-in entries in a category's first round, whatever
    `checked_in_only` says. A refused option is answered 400 with the reason.
    """

    heat = serializers.SlugField(required=False, help_text="start: only this heat.")
    heats = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=100,
        help_text="seat: the number of heats (default: 1, or as many as `heat_sizes`).",
    )
    order = serializers.ChoiceField(
        choices=["seeding", "registration", "random"],
        required=False,
        help_text=(
            "seat: the seating order (default: seeding). `seeding` is the prior ranking "
            "(then registration time) in a category's first round, the placement in the "
            "previous round in a later one. Where the rules fix the order "
            "(`seating_first_round` `prior_ranking`, as dm's; `seating_later_rounds` "
            "`previous_placement`, as sm's and dm's) any other order is refused (400); "
            "`seating_first_round` `organiser` (rogaland, sm) takes every order."
        ),
    )
    seed = serializers.IntegerField(required=False, help_text="seat: the seed of a random order.")
    checked_in_only = serializers.BooleanField(
        required=False,
        default=False,
        help_text=(
            "seat: only checked-in entries (first round). Where the rules require check-in "
            "(`check_in_required`) only they are seated anyway, and the others become "
            "walk-overs when the round's first heat starts."
        ),
    )
    heat_sizes = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=100_000),
        required=False,
        allow_empty=True,
        max_length=100,
        help_text=(
            "seat: the size of each heat, e.g. [20, 14]: one per heat, adding up to the "
            "entries to seat; the best seeds are still dealt to the heats in turn. Only "
            "where the rules leave the split to the organiser (`heat_split` `organiser`); "
            "refused (400) where they make heats equal. Default: sizes differing by at "
            "most one."
        ),
    )
    provisional = serializers.BooleanField(
        required=False,
        default=False,
        help_text=(
            "advance: advance from provisional results, before the round is signed off "
            "(`publish`). Without it, advancing from a round that is not signed off is "
            "refused (409): a protest or a correction may still change who qualifies."
        ),
    )


class AdjacentMissingField(serializers.IntegerField):
    """A count of adjacent lost pieces; a boolean (an earlier release's) is kept as it came."""

    def to_internal_value(self, data):
        if isinstance(data, bool):
            return data
        return super().to_internal_value(data)


class FieldsOncePerThread:
    """A serializer whose fields are copied once per thread, not for every instance.

    DRF deep-copies a serializer's declared fields for each instance, which for
    a capture's 15 fields cost half of its validation (0.45 ms) on the path of
    every tap. The copies are bound to the instance that uses them; an input
    serializer that is only validated, by one instance at a time in a thread,
    can take the same copies each time (one set per language): nothing of a
    validation stays in them.
    """

    _copies = threading.local()

    def get_fields(self):
        cls = type(self)
        # A copy per language too: DRF keeps some messages (min_value, max_length) in
        # the language they were first written in.
        key = (cls, translation.get_language())
        fields = self._copies.__dict__.get(key)
        if fields is None:
            fields = self._copies.__dict__[key] = super().get_fields()
            if any(field.source is not None for field in fields.values()):
                raise TypeError(f"{cls.__name__}: a field with a source is bound anew each time")
        for field in fields.values():
            # Binding gives a field without a source its name as its source: again here.
            field.source = None
        return fields


class CaptureInputSerializer(FieldsOncePerThread, serializers.Serializer):
    """One judge's capture, as the phone sends it."""

    id = serializers.UUIDField(help_text="Generated on the phone; the same id again is a retry.")
    round = serializers.SlugField(help_text="The round's key.")
    entry = serializers.CharField(max_length=40, help_text="The entry's id.")
    kind = serializers.ChoiceField(
        choices=["finish", "confirm", "pieces", "incorrect", "dns", "dsq", "warning", "correction"]
    )
    at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The instant of the tap (ISO 8601), by the phone's corrected clock.",
    )
    missing_found = serializers.IntegerField(required=False, default=0, min_value=0)
    missing_lost = serializers.IntegerField(required=False, default=0, min_value=0)
    adjacent_missing = AdjacentMissingField(
        required=False,
        default=0,
        min_value=0,
        help_text=(
            "Of the lost pieces, how many were missing side by side (0, or 2 and more; dm "
            "charges no penalty for them). true and false, as phones of an earlier release "
            "send, mean all the lost pieces and none."
        ),
    )
    last_piece_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    pieces_placed = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0
    )
    pieces_remaining = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0
    )
    time = serializers.RegexField(
        r"^\d+:[0-5]\d:[0-5]\d$",
        max_length=20,
        required=False,
        allow_null=True,
        default=None,
        help_text="correction: the corrected time H:MM:SS.",
    )
    status = serializers.ChoiceField(
        choices=["", "finished", "unfinished", "dns", "dsq"],
        required=False,
        default="",
        help_text="correction: the corrected status.",
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class StaffInputSerializer(serializers.Serializer):
    """A person to add to the championship's staff, who signs in with a personal link."""

    name = serializers.CharField(max_length=150)
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True, default="")
    role = serializers.ChoiceField(
        choices=STAFF_ROLES, help_text="`organiser` invites a co-organiser."
    )
    send_email = serializers.BooleanField(
        required=False,
        default=True,
        help_text="Mail the link to `email` (when one is given).",
    )


# Creating a championship ---------------------------------------------------------------------


@extend_schema_field(
    {
        "type": "string",
        "example": "2026-11-14T10:00",
        "description": (
            "ISO 8601. Without an offset, the wall-clock time in the championship's time zone."
        ),
    }
)
class WallClockOrAwareField(serializers.Field):
    """A date and time with an offset, or without one (then local to the championship)."""

    default_error_messages = {
        "invalid": _("Give a date and time such as 2026-11-14T10:00, with or without an offset.")
    }

    def to_internal_value(self, data):
        from django.utils.dateparse import parse_datetime

        try:
            value = parse_datetime(data) if isinstance(data, str) else None
        except ValueError:
            value = None
        if value is None:
            self.fail("invalid")
        return value

    def to_representation(self, value):
        return value.isoformat()


class RoundAdvanceInputSerializer(AdvanceSerializer):
    """A new round's advancement, country places and the round it feeds, as the format spells it."""

    country_places = serializers.JSONField(
        required=False, help_text='K: a whole number, or "all" (every country).'
    )
    country_place_requires_completion = serializers.BooleanField(required=False)
    per_country = serializers.IntegerField(min_value=1, max_value=100, required=False)
    only_countries_without_qualifier = serializers.BooleanField(required=False)
    into = serializers.SlugField(max_length=30, required=False)

    def validate_country_places(self, value):
        if value == "all" or (
            isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000
        ):
            return value
        raise serializers.ValidationError(_('A whole number from 0, or "all".'))

    def validate(self, data):
        country = {"country_places", "country_place_requires_completion", "per_country"}
        country |= {"only_countries_without_qualifier"}
        if country & set(data) and "country_places" not in data:
            raise serializers.ValidationError(_("Country places need “country_places”."))
        if "country_places" in data and "overall" not in data:
            raise serializers.ValidationError(_("Country places need “overall”: the places."))
        return data


class RoundSetUpInputSerializer(serializers.Serializer):
    """A round of a new category: its stage and, before the final, who advances."""

    stage = serializers.ChoiceField(choices=list(rulesets.STAGES))
    key = serializers.SlugField(
        max_length=30,
        required=False,
        help_text="The round's key after the category's (group-a); left out: the stage.",
    )
    pieces = serializers.IntegerField(
        min_value=1,
        max_value=bounds.PIECES_MAX,
        required=False,
        help_text="Left out: the category's.",
    )
    puzzles = serializers.IntegerField(
        min_value=1,
        max_value=bounds.PUZZLES_MAX,
        required=False,
        help_text="Puzzles counted together.",
    )
    time_limit_minutes = serializers.IntegerField(
        min_value=bounds.TIME_LIMIT_MINUTES_MIN,
        max_value=bounds.TIME_LIMIT_MINUTES_MAX,
        required=False,
        help_text="Left out: the category's.",
    )
    advance = RoundAdvanceInputSerializer(
        required=False,
        help_text='{"overall": N}, or {"per_heat": N, "best_remaining": M}, or country places '
        '({"overall": T, "country_places": K or "all", ...}); "into": the key (after the '
        "category's) of the round the qualifiers go to; none: nobody yet.",
    )


class CategorySetUpInputSerializer(serializers.Serializer):
    """A category of a new championship; what is left out comes from the preset."""

    kind = serializers.ChoiceField(choices=Category.Kind.choices)
    name = serializers.CharField(max_length=100, required=False, allow_blank=True)
    min_members = serializers.IntegerField(min_value=1, max_value=20, required=False)
    max_members = serializers.IntegerField(min_value=1, max_value=20, required=False)
    pieces = serializers.IntegerField(min_value=1, max_value=bounds.PIECES_MAX, required=False)
    time_limit_minutes = serializers.IntegerField(
        min_value=bounds.TIME_LIMIT_MINUTES_MIN,
        max_value=bounds.TIME_LIMIT_MINUTES_MAX,
        required=False,
    )
    capacity = serializers.IntegerField(
        min_value=0, max_value=100_000, required=False, allow_null=True, help_text="Null: no limit."
    )
    fee = serializers.DecimalField(
        max_digits=8, decimal_places=2, min_value=0, required=False, coerce_to_string=True
    )
    rounds = RoundSetUpInputSerializer(
        many=True,
        required=False,
        min_length=1,
        max_length=3,
        help_text="In order, ending in the final. Left out: the preset's rounds.",
    )


class ChampionshipCreateSerializer(serializers.Serializer):
    """A new championship from a preset; what is left out comes from the preset."""

    preset = serializers.ChoiceField(choices=list(presets.PRESET_KEYS))
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=64)
    starts_at = WallClockOrAwareField()
    timezone = serializers.CharField(
        max_length=64,
        required=False,
        help_text="IANA, e.g. Europe/Stockholm. Default: the preset's.",
    )
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    currency = serializers.ChoiceField(choices=Currency.choices, required=False)
    language = serializers.ChoiceField(choices=settings.LANGUAGES, required=False)
    payment_instructions = serializers.CharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        default="",
        help_text="How entrants pay the fee, shown on their entry page and in their e-mails.",
    )
    registration_deadline = WallClockOrAwareField(
        required=False,
        help_text="When registration closes. Default: the preset's rule (rogaland: 5 days "
        "before the start).",
    )
    payment_reference_scheme = serializers.ChoiceField(
        choices=PaymentReferenceScheme.choices,
        required=False,
        help_text="The form of the entries' payment references. Default: the currency's.",
    )
    payee_name = serializers.CharField(
        max_length=70,
        required=False,
        allow_blank=True,
        help_text="Who the account belongs to. Default: the championship's name.",
    )
    swish_number = serializers.CharField(
        max_length=20, required=False, allow_blank=True, help_text="Sweden: a Swish number."
    )
    vipps_number = serializers.CharField(
        max_length=20, required=False, allow_blank=True, help_text="Norway: a Vipps number."
    )
    mobilepay_number = serializers.CharField(
        max_length=20, required=False, allow_blank=True, help_text="Denmark: a MobilePay number."
    )
    bank_account = serializers.CharField(
        max_length=42,
        required=False,
        allow_blank=True,
        help_text="An account in the currency's country (checked as that country writes it).",
    )
    iban = serializers.CharField(max_length=42, required=False, allow_blank=True)
    bic = serializers.CharField(max_length=14, required=False, allow_blank=True)
    refund_days_before = serializers.IntegerField(
        min_value=0,
        max_value=365,
        required=False,
        allow_null=True,
        help_text="Withdrawals up to this many days before the start get their fee back.",
    )
    categories = CategorySetUpInputSerializer(
        many=True,
        required=False,
        min_length=1,
        max_length=3,
        help_text=(
            "The categories to create, each kind once, each overriding the preset's values "
            "for its kind. Left out: the preset's three categories."
        ),
    )


class ScreenInputSerializer(serializers.Serializer):
    """What the venue screen is to show."""

    show = serializers.ChoiceField(choices=["round", "seating", "podium", "message"])
    round = serializers.SlugField(required=False, help_text="round, seating: the round's key.")
    heat = serializers.SlugField(required=False, help_text="round: only this heat's board.")
    category = serializers.SlugField(required=False, help_text="podium: the category's key.")
    text = serializers.CharField(
        required=False, max_length=280, help_text="message: the text, at most 280 characters."
    )


class OrganiserRequestInputSerializer(serializers.Serializer):
    """A request for an organiser account, as the form asks for it."""

    name = serializers.CharField(max_length=150, help_text="The requester's name.")
    email = serializers.EmailField(
        max_length=254, help_text="Where the answer and the sign-in link are sent."
    )
    club = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text="The club or association, if any.",
    )
    message = serializers.CharField(
        max_length=2000,
        help_text="The championship planned: where and when, how large, which rules.",
    )
