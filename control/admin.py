"""The admin of the championship and its categories: saving them reaches into the apps.

A new capacity goes through registration (it confirms the waiting list) and new
rules re-rank every round with results, as on the page "Edit championship"; so
these two admins live above the apps they use. The scoping of every admin to
the championships a user organises is ``championship.admin``'s.
"""

from django.contrib import admin
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from championship.admin import (
    RECORD_FIELDSET,
    CategoryInline,
    ChampionshipRoleInline,
    RelatedOnly,
    RoundInline,
    ScopedModelAdmin,
)
from championship.models import (
    Category,
    Championship,
)
from control.editing import rounds_rerank
from core.zones import known_zones
from registration.services import category_set_capacity

# Championship ---------------------------------------------------------------------


@admin.register(Championship)
class ChampionshipAdmin(ScopedModelAdmin):
    championship_path = ""
    list_display = (
        "name",
        "slug",
        "starts_at",
        "venue",
        "ruleset",
        "currency",
        "language",
        "is_public",
        "category_count",
    )
    list_filter = ("ruleset", "is_public", "currency", "language")
    search_fields = ("name", "slug", "venue", "address")
    ordering = ("-starts_at", "name")
    date_hierarchy = "starts_at"
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("name", "slug", "is_public")}),
        (
            _("When and where"),
            {"fields": ("starts_at", "timezone", "registration_deadline", "venue", "address")},
        ),
        (
            _("Rules"),
            {
                "fields": (
                    "ruleset",
                    "rule_overrides",
                    "protest_window_minutes",
                    "member_changes_days_before",
                    "offer_hours",
                    "payment_hours",
                    "release_unpaid",
                    "second_count",
                )
            },
        ),
        (
            _("Money and language"),
            {"fields": ("currency", "payment_instructions", "language")},
        ),
        (
            _("E-mails to entrants"),
            {"fields": ("mail_seating", "mail_advanced", "mail_results")},
        ),
        RECORD_FIELDSET,
    )
    inlines = (CategoryInline, RoundInline, ChampionshipRoleInline)

    def get_fieldsets(self, request, obj=None):
        fieldsets = [(name, dict(options)) for name, options in super().get_fieldsets(request, obj)]
        for _name, options in fieldsets:
            if "starts_at" in options.get("fields", ()):
                options["description"] = _(
                    "Dates and times are in the championship's time zone (the field “time "
                    "zone”), as typed."
                )
        if obj is None:
            fieldsets[0][1]["description"] = _(
                "This creates the championship alone, without categories or rounds: the page "
                "“New championship” creates them from the preset."
            )
        return fieldsets

    def form_zone(self, request, object_id=None) -> str | None:
        # The zone typed in the same form is the one its dates are typed in.
        typed = request.POST.get("timezone") if request.method == "POST" else None
        if typed in known_zones():
            return typed
        if object_id is None:
            return Championship._meta.get_field("timezone").get_default()
        return super().form_zone(request, object_id)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and {"ruleset", "rule_overrides"} & set(form.changed_data):
            # New rules apply to the results at once, as on the page "Edit championship".
            rounds_rerank(championship=obj)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_category_count=Count("categories"))

    @admin.display(description=_("categories"), ordering="_category_count")
    def category_count(self, obj):
        return obj._category_count

    def has_add_permission(self, request):
        # Organisers edit their own championships; only superusers create new ones.
        return request.user.is_superuser and super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        # Deleting a championship removes its captures too: superusers only.
        return request.user.is_superuser and super().has_delete_permission(request, obj)


# Category -------------------------------------------------------------------------


@admin.register(Category)
class CategoryAdmin(ScopedModelAdmin):
    championship_path = "championship"
    list_display = (
        "display_name_column",
        "key",
        "championship",
        "kind",
        "order",
        "pieces",
        "time_limit_minutes",
        "capacity",
        "fee",
        "confirmed_entries",
    )
    list_display_links = ("display_name_column", "key")
    list_filter = ("kind", ("championship", RelatedOnly))
    list_select_related = ("championship",)
    search_fields = ("key", "name", "championship__name", "championship__slug", "puzzle_brand")
    ordering = ("championship", "order", "key")
    autocomplete_fields = ("championship",)
    fieldsets = (
        (None, {"fields": ("championship", "key", "kind", "name", "order")}),
        (
            _("Entrants"),
            {"fields": ("min_members", "max_members", "capacity", "fee", "registration_opens_at")},
        ),
        (
            _("Puzzle"),
            {"fields": ("pieces", "time_limit_minutes", "puzzle_brand", "puzzle_motif")},
        ),
    )

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(_confirmed=Count("entries", filter=Q(entries__status="confirmed")))
        )

    @admin.display(description=_("name"), ordering="name")
    def display_name_column(self, obj):
        return obj.display_name

    def save_model(self, request, obj, form, change):
        # A new capacity goes through the registration service: it locks the category and
        # confirms waitlisted entries, in arrival order, when places have become free.
        new_capacity = obj.capacity
        if change and "capacity" in form.changed_data:
            obj.capacity = form.initial.get("capacity")
        super().save_model(request, obj, form, change)
        if change and "capacity" in form.changed_data:
            promoted = category_set_capacity(category=obj, capacity=new_capacity)
            if promoted:
                self.message_user(
                    request,
                    ngettext(
                        "%(count)s entry moved from the waiting list to confirmed.",
                        "%(count)s entries moved from the waiting list to confirmed.",
                        len(promoted),
                    )
                    % {"count": len(promoted)},
                )

    @admin.display(description=_("confirmed entries"), ordering="_confirmed")
    def confirmed_entries(self, obj):
        return obj._confirmed


# Round, heat, seat ----------------------------------------------------------------
