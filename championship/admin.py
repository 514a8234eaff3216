"""The admin of championships, categories, rounds, heats, tables, seats and roles.

Superusers see everything. Other staff see and edit only what belongs to the
championships they organise: ``ChampionshipScopedMixin`` filters the change
lists, the change views and the choices of foreign keys, for every admin and
inline that names its path to the championship in ``championship_path``.
"""

import zoneinfo

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.db.models import Count
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from championship.models import (
    Category,
    Championship,
    ChampionshipRole,
    Heat,
    Round,
    Seat,
    Table,
)
from championship.permissions import championships_of
from core.form_fields import StorableJSONField

RelatedOnly = admin.RelatedOnlyFieldListFilter

RECORD_FIELDSET = (
    _("History"),
    {"fields": ("created_at", "updated_at"), "classes": ("collapse",)},
)


def scope_to_championships(queryset, user, path: str):
    """Return ``queryset`` limited to the championships ``user`` organises.

    ``path`` leads from the queryset's model to its championship
    (``"category__championship"``); an empty path means the model is the
    championship itself. Superusers keep the whole queryset.
    """
    if user.is_superuser:
        return queryset
    lookup = f"{path}__in" if path else "pk__in"
    return queryset.filter(**{lookup: championships_of(user).values("pk")})


def limit_formset_choices(formset, **querysets_filters):
    """Narrow the choices of foreign keys of an inline formset's form class.

    Each keyword names a field and gives the filter of its choices, e.g.
    ``table={"championship_id": 3}``. The form class is made afresh by every
    ``get_formset`` call, so changing its base fields touches no other request.
    """
    for name, filters in querysets_filters.items():
        field = formset.form.base_fields.get(name)
        if field is not None and hasattr(field, "queryset"):
            field.queryset = field.queryset.filter(**filters)
    return formset


class ChampionshipScopedMixin:
    """Limit an admin or an inline to the championships the user organises.

    Set ``championship_path`` to the lookup from the model to its championship
    (``""`` for ``Championship`` itself). Works for ``ModelAdmin`` and for inlines.
    """

    championship_path: str = "championship"

    def get_queryset(self, request):
        return scope_to_championships(
            super().get_queryset(request), request.user, self.championship_path
        )

    def championship_path_of(self, model) -> str | None:
        """Return the path to the championship of ``model``, if its admin is scoped."""
        if model is Championship:
            return ""
        model_admin = self.admin_site._registry.get(model)
        if isinstance(model_admin, ChampionshipScopedMixin):
            return model_admin.championship_path
        return None

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        path = self.championship_path_of(db_field.related_model)
        if formfield is not None and path is not None and "queryset" not in kwargs:
            formfield.queryset = scope_to_championships(formfield.queryset, request.user, path)
        return formfield

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        formfield = super().formfield_for_manytomany(db_field, request, **kwargs)
        path = self.championship_path_of(db_field.related_model)
        if formfield is not None and path is not None and "queryset" not in kwargs:
            formfield.queryset = scope_to_championships(formfield.queryset, request.user, path)
        return formfield


def _render_in_zone(zone: str | None, view, *args):
    """Run an admin view and render its page with ``zone`` active (dates typed and shown)."""
    try:
        tzinfo = zoneinfo.ZoneInfo(zone) if zone else None
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        tzinfo = None
    if tzinfo is None:
        return view(*args)
    with timezone.override(tzinfo):
        response = view(*args)
        # A TemplateResponse renders after the view returns: render it while the zone holds.
        if getattr(response, "is_rendered", True) is False:
            response.render()
    return response


class ScopedModelAdmin(ChampionshipScopedMixin, admin.ModelAdmin):
    """A ``ModelAdmin`` limited to the championships the user organises.

    Dates and times are typed and shown in the championship's own time zone: a
    change form in its object's championship's, an add form in the zone of the
    championship chosen in it (or of the only one the user organises), a list
    in the zone its championships share.

    A JSON field (rule overrides, a question's choices, a citizenship) takes no
    text that a database cannot store (``StorableJSONField``).
    """

    formfield_overrides = {models.JSONField: {"form_class": StorableJSONField}}

    def form_zone(self, request, object_id=None) -> str | None:
        """Return the time zone of the championship a change or add form belongs to."""
        path = self.championship_path
        try:
            if object_id is not None:
                lookup = f"{path}__timezone" if path else "timezone"
                pk = self.model._meta.pk.to_python(unquote(object_id))
                return (
                    self.get_queryset(request).filter(pk=pk).values_list(lookup, flat=True).first()
                )
            first, _sep, rest = path.partition("__")
            chosen = request.POST.get(first) or request.GET.get(first)
            if chosen:
                related = self.model._meta.get_field(first).related_model
                scoped = scope_to_championships(related.objects.all(), request.user, rest)
                lookup = f"{rest}__timezone" if rest else "timezone"
                return scoped.filter(pk=chosen).values_list(lookup, flat=True).first()
        except (ValidationError, ValueError, FieldDoesNotExist):
            return None
        return self._shared_zone(championships_of(request.user))

    @staticmethod
    def _shared_zone(championships) -> str | None:
        zones = set(championships.values_list("timezone", flat=True).distinct()[:2])
        return zones.pop() if len(zones) == 1 else None

    def changelist_zone(self, request) -> str | None:
        """Return the zone of the championships a list shows, when they share one."""
        championships = championships_of(request.user)
        path = self.championship_path
        chosen = request.GET.get(f"{path}__id__exact" if path else "id__exact")
        if chosen:
            try:
                championships = championships.filter(pk=int(chosen))
            except ValueError:
                return None
        return self._shared_zone(championships)

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        zone = self.form_zone(request, object_id)
        view = super().changeform_view
        return _render_in_zone(zone, view, request, object_id, form_url, extra_context)

    def changelist_view(self, request, extra_context=None):
        zone = self.changelist_zone(request)
        return _render_in_zone(zone, super().changelist_view, request, extra_context)


class ScopedTabularInline(ChampionshipScopedMixin, admin.TabularInline):
    """A tabular inline limited to the championships the user organises."""


# Inlines of a championship ----------------------------------------------------------


class CategoryInline(ScopedTabularInline):
    model = Category
    championship_path = "championship"
    fields = (
        "key",
        "kind",
        "name",
        "order",
        "min_members",
        "max_members",
        "pieces",
        "time_limit_minutes",
        "capacity",
        "fee",
    )
    extra = 0
    show_change_link = True


class RoundInline(ScopedTabularInline):
    model = Round
    fk_name = "championship"
    championship_path = "championship"
    fields = (
        "category",
        "key",
        "name",
        "order",
        "stage",
        "state",
        "advance",
        "advance_count",
        "advance_best_remaining",
    )
    # A round's state changes only by the control room's actions.
    readonly_fields = ("state",)
    extra = 0
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("category")

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        # A round belongs to a category of the championship it is shown in.
        return limit_formset_choices(formset, category={"championship": obj})


class ChampionshipRoleInline(ScopedTabularInline):
    model = ChampionshipRole
    championship_path = "championship"
    fields = ("user", "role", "created_at")
    readonly_fields = ("created_at",)
    extra = 0

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")


# A heat's start, time-up and state are the round's clock: every result is timed by them,
# and only the control room's actions move them (and re-rank the round). The scheduled
# start is a plan and stays editable.
HEAT_CLOCK = ("started_at", "ended_at", "state")


class HeatInline(ScopedTabularInline):
    model = Heat
    championship_path = "round__championship"
    fields = ("key", "name", "order", "scheduled_start", "started_at", "ended_at", "state")
    readonly_fields = HEAT_CLOCK
    extra = 0
    show_change_link = True


@admin.register(Round)
class RoundAdmin(ScopedModelAdmin):
    championship_path = "championship"
    list_display = (
        "name",
        "key",
        "category",
        "order",
        "stage",
        "state",
        "advance",
        "effective_time_limit",
        "heat_count",
    )
    list_filter = ("stage", "state", "advance", ("championship", RelatedOnly))
    list_select_related = ("category__championship",)
    search_fields = ("name", "key", "category__name", "category__key", "championship__name")
    ordering = ("championship", "category__order", "order")
    autocomplete_fields = ("category",)
    # The state changes only by the control room's actions (seat, start, close, advance).
    readonly_fields = ("championship", "state", "version", "created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("category", "championship", "key", "name", "order", "stage")}),
        (_("Running"), {"fields": ("state", "time_limit_minutes", "version")}),
        (
            _("Advancement"),
            {"fields": ("advance", "advance_count", "advance_best_remaining")},
        ),
        RECORD_FIELDSET,
    )
    inlines = (HeatInline,)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_heat_count=Count("heats"))

    @admin.display(description=_("time limit (minutes)"))
    def effective_time_limit(self, obj):
        return obj.effective_time_limit_minutes

    @admin.display(description=_("heats"), ordering="_heat_count")
    def heat_count(self, obj):
        return obj._heat_count


class SeatInline(ScopedTabularInline):
    model = Seat
    championship_path = "round__championship"
    fields = ("table", "position", "entry", "started_at")
    # An own start is set in the round's control room, which re-ranks the round.
    readonly_fields = ("started_at",)
    extra = 0

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("table", "entry")

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        if obj is None:
            return formset
        # Tables of the heat's championship, entries of the heat's category.
        return limit_formset_choices(
            formset,
            table={"championship_id": obj.round.championship_id},
            entry={"category_id": obj.round.category_id},
        )


@admin.register(Heat)
class HeatAdmin(ScopedModelAdmin):
    championship_path = "round__championship"
    list_display = (
        "key",
        "name",
        "round",
        "order",
        "scheduled_start",
        "started_at",
        "ended_at",
        "state",
        "seat_count",
    )
    list_filter = ("state", ("round__championship", RelatedOnly))
    list_select_related = ("round__category__championship",)
    search_fields = ("key", "name", "round__name", "round__key", "round__category__name")
    ordering = ("round__championship", "round__category__order", "round__order", "order", "key")
    autocomplete_fields = ("round",)
    readonly_fields = HEAT_CLOCK
    fieldsets = (
        (None, {"fields": ("round", "key", "name", "order")}),
        (_("Timing"), {"fields": ("scheduled_start", "started_at", "ended_at", "state")}),
    )
    inlines = (SeatInline,)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_seat_count=Count("seats"))

    @admin.display(description=_("seats"), ordering="_seat_count")
    def seat_count(self, obj):
        return obj._seat_count


@admin.register(Seat)
class SeatAdmin(ScopedModelAdmin):
    championship_path = "round__championship"
    list_display = ("entry", "table", "position", "heat", "started_at")
    list_filter = (("round__championship", RelatedOnly), ("round", RelatedOnly))
    list_select_related = ("entry", "table", "heat__round__category__championship")
    search_fields = ("entry__name", "entry__ref", "table__label", "table__number__exact")
    ordering = ("heat__round__championship", "heat", "table__number", "position")
    autocomplete_fields = ("heat", "table", "entry")
    # An own start is set in the round's control room, which re-ranks the round.
    readonly_fields = ("round", "started_at")
    fieldsets = (
        (None, {"fields": ("heat", "round", "table", "position", "entry")}),
        (_("Own start"), {"fields": ("started_at",)}),
    )


# Table ----------------------------------------------------------------------------


@admin.register(Table)
class TableAdmin(ScopedModelAdmin):
    championship_path = "championship"
    list_display = (
        "number",
        "label",
        "group",
        "championship",
        "seats",
        "reserved_for_guests",
        "seating_count",
        "qr_link",
    )
    list_display_links = ("number", "label")
    list_filter = ("seats", "reserved_for_guests", "group", ("championship", RelatedOnly))
    list_select_related = ("championship",)
    search_fields = ("number__exact", "label", "group", "token", "championship__name")
    ordering = ("championship", "number")
    autocomplete_fields = ("championship",)
    readonly_fields = ("token", "qr_link")
    fieldsets = (
        (None, {"fields": ("championship", "number", "label", "group")}),
        (_("Use"), {"fields": ("seats", "reserved_for_guests")}),
        (_("QR code"), {"fields": ("token", "qr_link")}),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_seating_count=Count("seatings"))

    @admin.display(description=_("seatings in heats"), ordering="_seating_count")
    def seating_count(self, obj):
        return getattr(obj, "_seating_count", None)

    @admin.display(description=_("judging page"))
    def qr_link(self, obj):
        if obj is None or not obj.pk:
            return None
        return format_html('<a href="{}">{}</a>', obj.get_absolute_url(), _("open"))


# Roles ----------------------------------------------------------------------------


@admin.register(ChampionshipRole)
class ChampionshipRoleAdmin(ScopedModelAdmin):
    championship_path = "championship"
    list_display = ("user", "role", "championship", "created_at")
    list_filter = ("role", ("championship", RelatedOnly))
    list_select_related = ("user", "championship")
    search_fields = (
        "user__username",
        "user__email",
        "user__first_name",
        "user__last_name",
        "championship__name",
    )
    ordering = ("championship", "role", "user__username")
    autocomplete_fields = ("championship",)
    readonly_fields = ("created_at",)
    fieldsets = ((None, {"fields": ("championship", "user", "role", "created_at")}),)
