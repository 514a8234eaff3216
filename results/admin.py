"""The admin of results: view-only, since results are derived from the judges' captures."""

from django.contrib import admin
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from championship.admin import ScopedModelAdmin, scope_to_championships
from championship.models import Round
from championship.scoring import JUDGED_FIELDS
from results.models import Result
from results.services import standings_ensure_all

RelatedOnly = admin.RelatedOnlyFieldListFilter

# What the rules derive: shown, never typed in.
DERIVED_FIELDS = (
    "outcome",
    "penalty_ms",
    "final_ms",
    "counted_pieces",
    "place",
    "official_place",
    "official",
    "qualified",
    "prize",
)


def format_ms(ms: int | None) -> str | None:
    """Return a duration in milliseconds as ``H:MM:SS.mmm`` (``None`` when unknown)."""
    if ms is None:
        return None
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}.{millis:03d}"


@admin.register(Result)
class ResultAdmin(ScopedModelAdmin):
    championship_path = "round__championship"
    list_display = (
        "entry",
        "round",
        "heat_name",
        "status",
        "time",
        "penalty",
        "final_time",
        "outcome",
        "place",
        "official_place",
        "qualified",
        "prize",
    )
    list_filter = (
        "status",
        "outcome",
        "official",
        "qualified",
        ("round__championship", RelatedOnly),
        ("round", RelatedOnly),
    )
    list_select_related = ("entry", "heat", "round__category__championship")
    search_fields = ("entry__name", "entry__ref", "entry__members__name", "round__name")
    ordering = ("round", F("place").asc(nulls_last=True), "entry__name")
    readonly_fields = (*DERIVED_FIELDS, "updated_at")
    fieldsets = (
        (None, {"fields": ("round", "heat", "entry")}),
        (
            _("Judges' inputs"),
            {"fields": JUDGED_FIELDS},
        ),
        (_("Derived by the rules"), {"fields": (*DERIVED_FIELDS, "updated_at")}),
    )

    def changelist_view(self, request, extra_context=None):
        # Places of rounds with captures since their last ranking are ranked first.
        standings_ensure_all(
            scope_to_championships(Round.objects.all(), request.user, "championship")
        )
        return super().changelist_view(request, extra_context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if str(object_id).isdigit():
            standings_ensure_all(Round.objects.filter(results__pk=object_id))
        return super().change_view(request, object_id, form_url, extra_context)

    # Results are derived from the judges' captures: a wrong result is corrected by a
    # head judge's correction (a new capture with a reason), never edited here.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("heat"), ordering="heat__order")
    def heat_name(self, obj):
        return obj.heat.label

    @admin.display(description=_("recorded time"), ordering="time_ms")
    def time(self, obj):
        return format_ms(obj.time_ms)

    @admin.display(description=_("penalty"), ordering="penalty_ms")
    def penalty(self, obj):
        return format_ms(obj.penalty_ms)

    @admin.display(description=_("final time"), ordering="final_ms")
    def final_time(self, obj):
        return format_ms(obj.final_ms)
