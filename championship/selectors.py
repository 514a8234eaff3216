"""Read the championship's data for pages and the API (no writes here)."""

from django.db.models import Count, Prefetch, Q

from championship.models import Category, Championship, Heat, Round
from registration.models import Entry


def public_championships():
    """Return the publicly listed championships, the next first."""
    return Championship.objects.filter(is_public=True).order_by("-starts_at")


def categories_with_counts(championship: Championship):
    """Return the categories with confirmed, waitlisted and unpaid confirmed counts."""
    confirmed = Q(entries__status=Entry.Status.CONFIRMED)
    return championship.categories.annotate(
        confirmed_count=Count("entries", filter=confirmed),
        waitlisted_count=Count("entries", filter=Q(entries__status=Entry.Status.WAITLISTED)),
        unpaid_count=Count(
            "entries", filter=confirmed & Q(entries__payment_status=Entry.Payment.UNPAID)
        ),
    ).order_by("order", "key")


def rounds_with_heats(championship: Championship):
    """Return the rounds in schedule order, with their heats prefetched."""
    return (
        Round.objects.filter(championship=championship)
        .select_related("category")
        .prefetch_related(Prefetch("heats", queryset=Heat.objects.order_by("order", "key")))
        .order_by("category__order", "order")
    )


def confirmed_entries(category: Category):
    """Return the confirmed entries of a category, in registration order, with members."""
    return (
        category.entries.filter(status=Entry.Status.CONFIRMED)
        .prefetch_related("members")
        .order_by("registered_at", "id")
    )
