"""What the API shows of a championship, and the shapes its schema documents.

Read-only: the views call selectors and services; nothing here writes. Public
serializers name their fields one by one, so that no field of a person can slip
into a public answer.
"""

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from championship import bounds, rulesets
from championship.models import Category, Championship, Currency, Heat, Round
from registration import places
from results.models import Result

DETAIL_VIEW = "api:championship-detail"
LOOKUP_KWARG = "championship_slug"


class ChampionshipSerializer(serializers.ModelSerializer):
    """A championship, with the address of its detail in the API."""

    url = serializers.HyperlinkedIdentityField(
        view_name=DETAIL_VIEW, lookup_field="slug", lookup_url_kwarg=LOOKUP_KWARG
    )

    class Meta:
        model = Championship
        fields = [
            "slug",
            "name",
            "ruleset",
            "starts_at",
            "timezone",
            "venue",
            "currency",
            "language",
            "url",
        ]
        read_only_fields = fields


class CategorySerializer(serializers.ModelSerializer):
    """A category with its capacity, counts, fee and registration state."""

    # Reads the annotations of places.categories_with_counts plus ``puzzle_revealed``,
    # and ``now`` from the context.

    name = serializers.CharField(source="display_name")
    confirmed_count = serializers.IntegerField()
    waitlisted_count = serializers.IntegerField()
    fee = serializers.DecimalField(max_digits=8, decimal_places=2)
    currency = serializers.CharField(source="championship.currency")
    registration_state = serializers.SerializerMethodField()
    puzzle_brand = serializers.SerializerMethodField()
    puzzle_motif = serializers.SerializerMethodField()

    class Meta:
        model = Category
        fields = [
            "key",
            "kind",
            "name",
            "min_members",
            "max_members",
            "pieces",
            "time_limit_minutes",
            "capacity",
            "confirmed_count",
            "waitlisted_count",
            "fee",
            "currency",
            "registration_opens_at",
            "registration_state",
            "puzzle_brand",
            "puzzle_motif",
        ]
        read_only_fields = fields

    @extend_schema_field(
        serializers.ChoiceField(
            choices=[
                ("open", "Open"),
                ("full", "Capacity reached: new entries go on the waiting list"),
                ("closed", "The registration deadline has passed"),
                ("not_open", "Before registration_opens_at"),
            ]
        )
    )
    def get_registration_state(self, category: Category) -> str:
        return places.registration_state(category, now=self.context.get("now"))

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="Null until the first heat of the category starts, or when not given.",
        )
    )
    def get_puzzle_brand(self, category: Category):
        return (category.puzzle_brand or None) if category.puzzle_revealed else None

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="Null until the first heat of the category starts, or when not given.",
        )
    )
    def get_puzzle_motif(self, category: Category):
        return (category.puzzle_motif or None) if category.puzzle_revealed else None


class HeatSerializer(serializers.ModelSerializer):
    """A heat of a round: entries that puzzle at the same time."""

    name = serializers.SerializerMethodField()

    class Meta:
        model = Heat
        fields = ["key", "name", "state", "scheduled_start", "started_at"]
        read_only_fields = fields

    def get_name(self, heat: Heat) -> str:
        return heat.name or heat.key


class AdvanceSerializer(serializers.Serializer):
    """A round's advancement as in the interchange format; ``{}`` when nobody advances."""

    overall = serializers.IntegerField(required=False)
    per_heat = serializers.IntegerField(required=False)
    best_remaining = serializers.IntegerField(required=False)


class RoundSerializer(serializers.ModelSerializer):
    """A round of a category, with its heats."""

    # Reads the category selected and the heats prefetched (selectors.rounds_with_heats).

    name = serializers.CharField(source="display_name")
    category = serializers.CharField(source="category.key")
    time_limit_minutes = serializers.IntegerField(source="effective_time_limit_minutes")
    advance = AdvanceSerializer(source="advance_settings")
    heats = HeatSerializer(many=True)
    results_url = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "key",
            "name",
            "category",
            "stage",
            "state",
            "version",
            "time_limit_minutes",
            "advance",
            "heats",
            "results_url",
        ]
        read_only_fields = fields

    def get_results_url(self, round_: Round) -> str:
        path = reverse(
            "api:round-results",
            kwargs={LOOKUP_KWARG: self.context["championship"].slug, "round_key": round_.key},
        )
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


class ChampionshipDetailSerializer(ChampionshipSerializer):
    """A championship with its categories, and its rounds in schedule order."""

    # The categories and rounds come from the context, read by the view in constant queries.

    registration_deadline = serializers.DateTimeField(source="effective_registration_deadline")
    categories = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()

    class Meta(ChampionshipSerializer.Meta):
        fields = [
            *ChampionshipSerializer.Meta.fields,
            "address",
            "registration_deadline",
            "categories",
            "rounds",
        ]
        read_only_fields = fields

    @extend_schema_field(CategorySerializer(many=True))
    def get_categories(self, championship: Championship):
        return CategorySerializer(self.context["categories"], many=True, context=self.context).data

    @extend_schema_field(RoundSerializer(many=True))
    def get_rounds(self, championship: Championship):
        return RoundSerializer(self.context["rounds"], many=True, context=self.context).data


# The shapes below only document answers that are built elsewhere.


class StandingEntrySerializer(serializers.Serializer):
    """An entry as the public sees it."""

    id = serializers.CharField(help_text="The entry's id, as in the interchange format.")
    name = serializers.CharField(
        allow_null=True, help_text="Null unless every member consented to publication."
    )
    members = serializers.ListField(
        child=serializers.CharField(),
        help_text="The names of the members who consented to publication.",
    )


class StandingRowSerializer(serializers.Serializer):
    """An entry's result: where it sat, the judges' inputs and what the rules made of them."""

    entry = StandingEntrySerializer()
    heat = serializers.CharField(help_text="The heat's key.")
    table = serializers.IntegerField(allow_null=True, help_text="The table's number.")
    time = serializers.CharField(allow_null=True, help_text="H:MM:SS, before penalties.")
    missing_found = serializers.IntegerField()
    missing_lost = serializers.IntegerField()
    adjacent_missing = serializers.IntegerField(
        help_text="Of the lost pieces, how many were adjacent (dm: no penalty for them)."
    )
    last_piece_time = serializers.CharField(allow_null=True, help_text="H:MM:SS.")
    pieces_placed = serializers.IntegerField(allow_null=True)
    incorrect = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Result.Status.choices)
    place = serializers.IntegerField(allow_null=True)
    official_place = serializers.IntegerField(allow_null=True)
    official = serializers.BooleanField()
    outcome = serializers.ChoiceField(
        choices=Result.Outcome.choices,
        allow_null=True,
        help_text="Null while the entry is still puzzling.",
    )
    final_seconds = serializers.IntegerField(allow_null=True)
    penalty_seconds = serializers.IntegerField()
    counted_pieces = serializers.IntegerField(allow_null=True)
    qualified = serializers.BooleanField()
    prize = serializers.IntegerField(allow_null=True, help_text="1, 2, 3 or null.")


class RoundStandingsSerializer(serializers.Serializer):
    """The standings of a round, all heats together, in place order."""

    round = serializers.CharField(help_text="The round's key.")
    version = serializers.IntegerField(help_text="Changes whenever the results change.")
    # A plain string: a second enum named "state" would collide in the schema's enum names.
    state = serializers.CharField(help_text="The round's state, as in the championship's rounds.")
    rows = StandingRowSerializer(many=True)


class ImportQuerySerializer(serializers.Serializer):
    replace = serializers.BooleanField(
        required=False, default=False, help_text="Replace a championship with the same slug."
    )


class ImportedSerializer(serializers.Serializer):
    """The championship an import created or replaced."""

    slug = serializers.SlugField()
    url = serializers.URLField(help_text="The championship's address in the API.")


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()


class DocumentErrorSerializer(serializers.Serializer):
    """Why an interchange document was refused."""

    path = serializers.CharField(help_text='Where in the document, e.g. "persons[3].email".')
    detail = serializers.CharField()


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
        if not isinstance(codes, list) or not all(
            isinstance(code, str) and len(code) == 2 and code.isalpha() for code in codes
        ):
            raise serializers.ValidationError(
                _('Give two-letter country codes, e.g. "SE" or ["SE", "FI"].')
            )
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


class RegisteredSerializer(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.ChoiceField(choices=["confirmed", "waitlisted"])
    official = serializers.BooleanField()
    fee = serializers.DecimalField(max_digits=8, decimal_places=2)
    currency = serializers.CharField()
    manage_url = serializers.URLField()


class RoundActionInputSerializer(serializers.Serializer):
    """Options of a round action; all optional.

    The championship's rules limit the `seat` options: `seating_first_round`
    `prior_ranking` and `seating_later_rounds` `previous_placement` allow only the
    order `seeding`; `heat_split` `equal` refuses `heat_sizes`; `check_in_required`
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
            "(`seating_first_round` `prior_ranking`, `seating_later_rounds` "
            "`previous_placement`) any other order is refused (400)."
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


class RoundActionSerializer(serializers.Serializer):
    round = serializers.CharField()
    state = serializers.CharField()
    version = serializers.IntegerField()
    heats = HeatSerializer(many=True)


class AdjacentMissingField(serializers.IntegerField):
    """A count of adjacent lost pieces; a boolean (an earlier release's) is kept as it came."""

    def to_internal_value(self, data):
        if isinstance(data, bool):
            return data
        return super().to_internal_value(data)


class CaptureInputSerializer(serializers.Serializer):
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


class CaptureResultSerializer(serializers.Serializer):
    entry = serializers.CharField()
    status = serializers.CharField()
    time = serializers.CharField(allow_null=True)
    final_seconds = serializers.IntegerField(allow_null=True)
    penalty_seconds = serializers.IntegerField()
    counted_pieces = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(
        allow_null=True,
        help_text=(
            "Always null: a capture does not rank the round. The round is ranked on the "
            "next read of its results, where the entry's place shows."
        ),
    )
    confirmed = serializers.BooleanField()


class CaptureSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.CharField()
    received_at = serializers.DateTimeField()
    elapsed_ms = serializers.IntegerField(allow_null=True)
    result = CaptureResultSerializer()


class ServerTimeSerializer(serializers.Serializer):
    now_ms = serializers.IntegerField(help_text="The server's clock, milliseconds since 1970.")


STAFF_ROLES = ["judge", "head_judge", "organiser"]


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


class StaffLinkSerializer(serializers.Serializer):
    """A person added to the staff, with the link that signs them in."""

    id = serializers.IntegerField(help_text="The link's id, to revoke it.")
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=STAFF_ROLES)
    sign_in_url = serializers.URLField(
        help_text="Opening it signs the browser in as this person; keep it secret."
    )


class StaffMemberSerializer(StaffLinkSerializer):
    """A person of the staff with their latest link, working or revoked."""

    email = serializers.CharField(source="user.email")
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)
    sign_in_url = serializers.URLField(
        allow_null=True, help_text="Null once revoked. Opening it signs the browser in."
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


class RoundSetUpInputSerializer(serializers.Serializer):
    """A round of a new category: its stage and, before the final, who advances."""

    stage = serializers.ChoiceField(choices=list(rulesets.STAGES))
    advance = AdvanceSerializer(
        required=False,
        help_text='{"overall": N}, or {"per_heat": N, "best_remaining": M}; none: nobody yet.',
    )


class CategorySetUpInputSerializer(serializers.Serializer):
    """A category of a new championship; what is left out comes from the preset."""

    kind = serializers.ChoiceField(choices=Category.Kind.choices)
    name = serializers.CharField(max_length=100, required=False, allow_blank=True)
    min_members = serializers.IntegerField(min_value=1, max_value=20, required=False)
    max_members = serializers.IntegerField(min_value=1, max_value=20, required=False)
    pieces = serializers.IntegerField(min_value=1, max_value=100_000, required=False)
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

    preset = serializers.ChoiceField(choices=list(rulesets.PRESET_KEYS))
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
