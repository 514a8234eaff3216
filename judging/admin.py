"""The admin of captures: to read the judges' trail, never to change it.

Captures are append-only, so nobody (superusers included) may add, change or
delete one here; corrections are recorded as new captures by a head judge.
"""

from django.contrib import admin
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _

from championship.admin import ScopedModelAdmin
from judging.models import Capture

RelatedOnly = admin.RelatedOnlyFieldListFilter


@admin.register(Capture)
class CaptureAdmin(ScopedModelAdmin):
    championship_path = "championship"
    list_display = (
        "received_at",
        "kind",
        "entry",
        "heat_name",
        "judge",
        "device_at",
        "elapsed_ms",
        "client_id",
        "short_reason",
    )
    list_filter = (
        "kind",
        ("championship", RelatedOnly),
        ("round", RelatedOnly),
        ("judge", RelatedOnly),
    )
    list_select_related = ("entry", "heat", "judge")
    search_fields = (
        "entry__name",
        "entry__ref",
        "judge__username",
        "reason",
        "client_id",
    )
    ordering = ("-received_at", "-id")
    date_hierarchy = "received_at"
    fieldsets = (
        (
            _("Who and when"),
            {"fields": ("judge", "device_at", "received_at", "client_id")},
        ),
        (_("What"), {"fields": ("championship", "round", "heat", "entry", "kind", "reason")}),
        (
            _("Times and pieces"),
            {
                "fields": (
                    "elapsed_ms",
                    "last_piece_ms",
                    "missing_found",
                    "missing_lost",
                    "adjacent_missing",
                    "pieces_placed",
                    "pieces_remaining",
                    "second_count",
                )
            },
        ),
        (_("As received"), {"fields": ("payload",), "classes": ("collapse",)}),
    )
    readonly_fields = (
        "judge",
        "device_at",
        "received_at",
        "client_id",
        "championship",
        "round",
        "heat",
        "entry",
        "kind",
        "reason",
        "elapsed_ms",
        "last_piece_ms",
        "missing_found",
        "missing_lost",
        "adjacent_missing",
        "pieces_placed",
        "pieces_remaining",
        "second_count",
        "payload",
    )

    @admin.display(description=_("heat"), ordering="heat__order")
    def heat_name(self, obj):
        return obj.heat.label

    @admin.display(description=_("reason"))
    def short_reason(self, obj):
        return Truncator(obj.reason).chars(60)

    # Append-only: viewing is the only thing the admin allows, to everyone.
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
