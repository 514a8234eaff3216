"""What the API shows of a championship, and the shapes its schema documents.

Read-only: the views call selectors and services; nothing here writes. Public
serializers name their fields one by one, so that no field of a person can slip
into a public answer. What the API reads from requests is in ``api.inputs``.
"""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from championship import drafts, payees
from championship.models import Category, Championship, Heat, Round
from payments.models import StatementLine
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
            "draft",
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


class RoundAdvanceSerializer(AdvanceSerializer):
    """A round's advancement as the interchange format writes it, country places included."""

    country_places = serializers.JSONField(
        required=False, help_text='K: a whole number, or "all" (every country).'
    )
    country_place_requires_completion = serializers.BooleanField(required=False)
    per_country = serializers.IntegerField(required=False)
    only_countries_without_qualifier = serializers.BooleanField(required=False)
    into = serializers.CharField(
        required=False, help_text="The key of the round the qualifiers go to."
    )


class RoundSerializer(serializers.ModelSerializer):
    """A round of a category, with its heats."""

    # Reads the category selected and the heats prefetched (selectors.rounds_with_heats).

    name = serializers.CharField(source="display_name")
    category = serializers.CharField(source="category.key")
    time_limit_minutes = serializers.IntegerField(source="effective_time_limit_minutes")
    pieces = serializers.IntegerField(
        source="pieces_per_puzzle", help_text="Pieces per puzzle: the round's, or the category's."
    )
    puzzles = serializers.IntegerField(help_text="Puzzles done in the round, counted together.")
    advance = RoundAdvanceSerializer(source="advance_settings")
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
            "pieces",
            "puzzles",
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


class QuestionSerializer(serializers.Serializer):
    """One of the organiser's own questions; a registration answers it in ``answers``."""

    id = serializers.CharField(source="ref", help_text="The key of its answer in `answers`.")
    text = serializers.CharField()
    kind = serializers.ChoiceField(
        choices=["text", "choice", "choices", "yes_no"],
        help_text="text: a string; choice: one of `choices`; choices: a list of them; "
        "yes_no: true or false.",
    )
    choices = serializers.ListField(child=serializers.CharField())
    required = serializers.BooleanField()
    categories = serializers.SerializerMethodField(
        help_text="The keys of the categories that ask it; empty: every category."
    )

    def get_categories(self, question) -> list[str]:
        return sorted(category.key for category in question.categories.all())


class ChampionshipDetailSerializer(ChampionshipSerializer):
    """A championship with its categories, and its rounds in schedule order."""

    # The categories and rounds come from the context, read by the view in constant queries.

    registration_deadline = serializers.DateTimeField(source="effective_registration_deadline")
    categories = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    questions = serializers.SerializerMethodField()

    class Meta(ChampionshipSerializer.Meta):
        fields = [
            *ChampionshipSerializer.Meta.fields,
            "address",
            "registration_deadline",
            *payees.SETTINGS,
            "categories",
            "rounds",
            "questions",
        ]
        read_only_fields = fields

    @extend_schema_field(CategorySerializer(many=True))
    def get_categories(self, championship: Championship):
        return CategorySerializer(self.context["categories"], many=True, context=self.context).data

    @extend_schema_field(RoundSerializer(many=True))
    def get_rounds(self, championship: Championship):
        return RoundSerializer(self.context["rounds"], many=True, context=self.context).data

    @extend_schema_field(QuestionSerializer(many=True))
    def get_questions(self, championship: Championship):
        questions = championship.questions.prefetch_related("categories").order_by("order", "id")
        return QuestionSerializer(questions, many=True).data


# The shapes below only document answers that are built elsewhere.


class PersonLinkSerializer(serializers.Serializer):
    """A member who consented to publication, and their page across championships."""

    name = serializers.CharField()
    url = serializers.CharField(
        help_text="The address of the puzzler's page on this site, as a path (/puzzlers/<id>/)."
    )


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
    people = PersonLinkSerializer(
        many=True,
        help_text="The members who consented to publication, with their puzzler's page.",
    )
    represents = serializers.CharField(
        allow_null=True,
        help_text='The country the entry represents: an ISO 3166-1 alpha-2 code, or "neutral" '
        "for the neutral flag; null: none.",
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
    qualified_by = serializers.ChoiceField(
        choices=Result.QualifiedBy.choices,
        allow_null=True,
        help_text="How a qualifier went on where the round gives country places; else null.",
    )
    prize = serializers.IntegerField(allow_null=True, help_text="1, 2, 3 or null.")
    pieces_per_minute = serializers.FloatField(
        allow_null=True,
        help_text="The puzzle's pieces per minute of the final time, one decimal; null unless "
        "completed.",
    )


class CorrectionSerializer(serializers.Serializer):
    """A head judge's correction of a result after the round was signed off."""

    at = serializers.DateTimeField()
    reason = serializers.CharField()


class RoundStandingsSerializer(serializers.Serializer):
    """The standings of a round, all heats together, in place order."""

    round = serializers.CharField(help_text="The round's key.")
    version = serializers.IntegerField(help_text="Changes whenever the results change.")
    # A plain string: a second enum named "state" would collide in the schema's enum names.
    state = serializers.CharField(help_text="The round's state, as in the championship's rounds.")
    official = serializers.BooleanField(
        help_text=(
            "Whether the results are official: signed off by a head judge or organiser. "
            "Until then they are provisional and may still change."
        )
    )
    official_at = serializers.DateTimeField(
        allow_null=True, help_text="When the results were signed off; null while provisional."
    )
    corrections = CorrectionSerializer(
        many=True,
        help_text="Corrections of official results, each with its reason: the round is corrected.",
    )
    rows = StandingRowSerializer(many=True)


class ImportedSerializer(serializers.Serializer):
    """The championship an import created or replaced."""

    slug = serializers.SlugField()
    url = serializers.URLField(help_text="The championship's address in the API.")


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()


class MissingSerializer(serializers.Serializer):
    """Why a draft cannot open yet: the checklist's items it still lacks."""

    detail = serializers.CharField()
    missing = serializers.ListField(
        child=serializers.ChoiceField(choices=list(drafts.NEEDED)),
        help_text="The checklist's keys still missing, in the checklist's order.",
    )


class DocumentErrorSerializer(serializers.Serializer):
    """Why an interchange document was refused."""

    path = serializers.CharField(help_text='Where in the document, e.g. "persons[3].email".')
    detail = serializers.CharField()


class RegisteredSerializer(serializers.Serializer):
    id = serializers.CharField()
    status = serializers.ChoiceField(choices=["confirmed", "waitlisted"])
    official = serializers.BooleanField()
    fee = serializers.DecimalField(max_digits=8, decimal_places=2)
    currency = serializers.CharField()
    manage_url = serializers.URLField()
    waiting_position = serializers.IntegerField(
        allow_null=True,
        help_text="While on the waiting list: the entry's place in it (1 is next); else null.",
    )
    offer_expires_at = serializers.DateTimeField(
        allow_null=True, help_text="While a place is offered: accept it before this time."
    )
    payment_due_at = serializers.DateTimeField(
        allow_null=True, help_text="Where the championship sets one: pay before this time."
    )


class EntryMemberSerializer(serializers.Serializer):
    name = serializers.CharField()


class EntryOwnSerializer(serializers.Serializer):
    """An entry as the holder of its private link sees it."""

    id = serializers.CharField()
    name = serializers.CharField()
    category = serializers.CharField(help_text="The category's key.")
    status = serializers.ChoiceField(choices=["confirmed", "waitlisted", "offered", "withdrawn"])
    lapsed = serializers.ChoiceField(
        choices=["offer", "unpaid"],
        allow_null=True,
        help_text="Why a withdrawn entry lapsed: an offer not accepted, a fee not paid in time.",
    )
    official = serializers.BooleanField()
    members = EntryMemberSerializer(many=True)
    fee = serializers.DecimalField(max_digits=8, decimal_places=2)
    currency = serializers.CharField()
    payment_status = serializers.ChoiceField(choices=["unpaid", "paid", "refunded", "waived"])
    payment_reference = serializers.CharField(help_text="What to mark the payment with.")
    payment_qr = serializers.URLField(
        allow_null=True,
        help_text=(
            "While the fee is due, where the championship has a Swish number (kronor) or an "
            "IBAN (euro): the address of a PNG QR code that pays it with the reference filled in."
        ),
    )
    waiting_position = serializers.IntegerField(
        allow_null=True, help_text="While waitlisted: the place in the waiting list (1 is next)."
    )
    offer_expires_at = serializers.DateTimeField(
        allow_null=True, help_text="While a place is offered: accept it before this time."
    )
    payment_due_at = serializers.DateTimeField(
        allow_null=True, help_text="Where the championship sets one: pay before this time."
    )
    manage_url = serializers.URLField()
    answers = serializers.DictField(help_text="The answers to the championship's questions, by id.")
    check_in_url = serializers.URLField(
        allow_null=True,
        help_text="While confirmed: what the entry's check-in QR code holds, for the desk to scan.",
    )


class RoundActionSerializer(serializers.Serializer):
    round = serializers.CharField()
    state = serializers.CharField()
    version = serializers.IntegerField()
    heats = HeatSerializer(many=True)


class CaptureResultSerializer(serializers.Serializer):
    entry = serializers.CharField()
    status = serializers.CharField()
    time = serializers.CharField(allow_null=True)
    final_seconds = serializers.IntegerField(allow_null=True)
    penalty_seconds = serializers.IntegerField()
    counted_pieces = serializers.IntegerField(
        allow_null=True,
        help_text="Null until the count is final: with two judges counting, until `agreed` or "
        "`decided`.",
    )
    count_state = serializers.ChoiceField(
        choices=[("", "no piece count"), *Result.CountState.choices],
        help_text="Where the piece count at time-up stands: `single` (one judge counts), "
        "`awaiting_second`, `agreed`, `disputed` (the head judge decides) or `decided` (by a "
        "head judge's correction); empty without a count.",
    )
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


class ScreenSerializer(serializers.Serializer):
    """What the venue screen shows now."""

    show = serializers.CharField()
    round = serializers.CharField(required=False)
    heat = serializers.CharField(required=False)
    category = serializers.CharField(required=False)
    text = serializers.CharField(required=False)
    version = serializers.IntegerField(help_text="Moves on with every switch.")


class OrganiserRequestCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The request's id.")
    status = serializers.ChoiceField(
        choices=["pending"],
        help_text="Always pending: the site's administrators decide, and tell the requester "
        "by e-mail.",
    )


class StatementLineSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="The credit's place in the file, from 1.")
    booked_on = serializers.DateField(allow_null=True)
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    reference = serializers.CharField(help_text="The structured reference (KID, OCR, FIK, RF).")
    message = serializers.CharField(help_text="The payer's message.")
    payer = serializers.CharField()
    status = serializers.ChoiceField(choices=StatementLine.Status.choices)
    entry = serializers.CharField(allow_null=True, help_text="The id of the entry it pays.")
    suggested_entry = serializers.CharField(
        allow_null=True, help_text="Unknown: the entry its amount and payer suggest, to confirm."
    )


class StatementSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    file_name = serializers.CharField()
    kind = serializers.CharField(help_text="camt.053, camt.054, sparebank1, swedbank, … or csv.")
    account = serializers.CharField()
    currency = serializers.CharField()
    uploaded_at = serializers.DateTimeField()
    applied_at = serializers.DateTimeField(allow_null=True)
    lines = StatementLineSerializer(many=True)


class StatementAppliedSerializer(StatementSerializer):
    paid = serializers.IntegerField(help_text="How many entries became paid.")


class EntryListItemSerializer(serializers.Serializer):
    """An entry in the organiser's list."""

    id = serializers.CharField()
    name = serializers.CharField()
    category = serializers.CharField(help_text="The category's key.")
    status = serializers.ChoiceField(choices=["confirmed", "waitlisted", "offered", "withdrawn"])
    fee = serializers.DecimalField(max_digits=8, decimal_places=2)
    currency = serializers.CharField()
    payment_status = serializers.ChoiceField(choices=["unpaid", "paid", "refunded", "waived"])
    payment_reference = serializers.CharField()
    payment_qr = serializers.URLField(allow_null=True)
    contact_email = serializers.CharField()
    checked_in_at = serializers.DateTimeField(allow_null=True)
