"""The admin of persons and entries, with an entry's members inline."""

from django import forms
from django.contrib import admin, messages
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from championship.admin import RECORD_FIELDSET, ScopedModelAdmin, ScopedTabularInline
from registration import services
from registration.models import Entry, EntryMember, Person, Question

RelatedOnly = admin.RelatedOnlyFieldListFilter


@admin.register(Person)
class PersonAdmin(ScopedModelAdmin):
    championship_path = "championship"
    list_display = (
        "name",
        "email",
        "championship",
        "birth_date",
        "city",
        "country",
        "region",
        "publish_consent",
    )
    list_filter = ("publish_consent", "country", ("championship", RelatedOnly))
    list_select_related = ("championship",)
    search_fields = ("name", "email", "ref", "city", "entries__name")
    ordering = ("championship", "name")
    autocomplete_fields = ("championship",)
    readonly_fields = ("created_at", "updated_at")
    fieldsets = (
        (None, {"fields": ("championship", "ref", "name", "email")}),
        (
            _("Eligibility"),
            {
                "fields": (
                    "birth_date",
                    "city",
                    "country",
                    "citizenship",
                    "region",
                    "years_in_region",
                )
            },
        ),
        (_("Publication"), {"fields": ("publish_consent",)}),
        RECORD_FIELDSET,
    )

    # A correction of a residence or citizenship re-ranks the person's results (the service).
    def save_model(self, request, obj, form, change):
        if not change:
            super().save_model(request, obj, form, change)
            return
        changes = {name: getattr(obj, name) for name in form.changed_data}
        services.person_update(person=obj, by=request.user, **changes)

    def delete_model(self, request, obj):
        services.persons_delete(persons=[obj], by=request.user)

    def delete_queryset(self, request, queryset):
        services.persons_delete(persons=list(queryset), by=request.user)


class EntryMemberInline(ScopedTabularInline):
    model = EntryMember
    championship_path = "entry__category__championship"
    fields = ("position", "person")
    autocomplete_fields = ("person",)
    extra = 0
    ordering = ("position",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("person")

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        field = formset.form.base_fields.get("person")
        if obj is not None and field is not None:
            # Members are persons of the entry's own championship.
            field.queryset = field.queryset.filter(championship_id=obj.category.championship_id)
        return formset


class EntryAdminForm(forms.ModelForm):
    def clean(self):
        cleaned = super().clean()
        # Withdrawn by hand: now, unless the organiser gives the time.
        if cleaned.get("status") == Entry.Status.WITHDRAWN and not cleaned.get("withdrawn_at"):
            cleaned["withdrawn_at"] = timezone.now()
        return cleaned


@admin.register(Entry)
class EntryAdmin(ScopedModelAdmin):
    championship_path = "category__championship"
    form = EntryAdminForm
    list_display = (
        "name",
        "ref",
        "category",
        "member_names",
        "status",
        "payment_status",
        "fee",
        "registered_at",
        "checked_in_at",
    )
    list_filter = (
        "status",
        "payment_status",
        ("category", RelatedOnly),
        ("category__championship", RelatedOnly),
    )
    list_select_related = ("category__championship",)
    search_fields = (
        "name",
        "ref",
        "members__name",
        "members__email",
        "contact_email",
        "payment_reference",
    )
    ordering = ("category", "registered_at", "id")
    date_hierarchy = "registered_at"
    autocomplete_fields = ("category",)
    readonly_fields = ("created_at", "updated_at")
    actions = ("mark_as_paid",)
    inlines = (EntryMemberInline,)
    fieldsets = (
        (None, {"fields": ("category", "ref", "name", "status", "language")}),
        (
            _("Dates"),
            {
                "fields": (
                    "registered_at",
                    "confirmed_at",
                    "offer_expires_at",
                    "withdrawn_at",
                    "lapsed",
                    "checked_in_at",
                )
            },
        ),
        (
            _("Payment"),
            {"fields": ("fee", "payment_status", "payment_reference", "payment_due_at")},
        ),
        (
            _("Contact and consent"),
            {"fields": ("contact_email", "adult_name", "publish_consent")},
        ),
        (_("Seating"), {"fields": ("prior_ranking",)}),
        (_("Organiser's notes"), {"fields": ("notes",)}),
        RECORD_FIELDSET,
    )

    def get_queryset(self, request):
        members = EntryMember.objects.select_related("person").order_by("position")
        return (
            super()
            .get_queryset(request)
            .prefetch_related(Prefetch("memberships", queryset=members))
        )

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # Withdrawn here, or back from a withdrawal: a withdrawn entry is never ranked.
        if change and "status" in form.changed_data:
            services.entry_status_changed(entry=obj, before=form.initial.get("status"))

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # Members added, removed or replaced change whether the entry is official.
        if change and any(formset.has_changed() for formset in formsets):
            services.entry_members_changed(entry=form.instance, by=request.user)

    @admin.display(description=_("members"))
    def member_names(self, obj):
        return ", ".join(membership.person.name for membership in obj.memberships.all())

    @admin.action(description=_("Mark as paid"), permissions=["change"])
    def mark_as_paid(self, request, queryset):
        count = services.entries_mark_paid(entries=queryset)
        self.message_user(
            request,
            ngettext(
                "%(count)d entry was marked as paid.",
                "%(count)d entries were marked as paid.",
                count,
            )
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(Question)
class QuestionAdmin(ScopedModelAdmin):
    championship_path = "championship"
    list_display = ("text", "kind", "required", "championship", "order")
    list_filter = ("kind", "required", ("championship", RelatedOnly))
    list_select_related = ("championship",)
    search_fields = ("text", "ref")
    ordering = ("championship", "order", "id")
    autocomplete_fields = ("championship",)
    filter_horizontal = ("categories",)
