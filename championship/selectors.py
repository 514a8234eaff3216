"""Read the championships for pages and the API (no writes here)."""

from django.db.models import Prefetch

from championship.models import Championship, Heat, Round


def public_championships():
    """Return the publicly listed championships (listed, and no longer drafts), the next first."""
    return Championship.objects.filter(is_public=True, draft=False).order_by("-starts_at")


def rounds_with_heats(championship: Championship):
    """Return the rounds in schedule order, with their heats prefetched."""
    return (
        Round.objects.filter(championship=championship)
        .select_related("category")
        .prefetch_related(Prefetch("heats", queryset=Heat.objects.order_by("order", "key")))
        .order_by("category__order", "order")
    )
