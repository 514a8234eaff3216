"""The organiser's control room of a championship: its categories, rounds, tables and staff."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from championship import selectors as championship_selectors
from championship.permissions import organiser_required
from registration import places


@require_GET
@organiser_required
def control_room(request, championship):
    """Show the organiser's control room of a championship."""
    return render(
        request,
        "championship/manage.html",
        {
            "categories": places.categories_with_counts(championship),
            "rounds": championship_selectors.rounds_with_heats(championship),
            "table_count": championship.tables.count(),
            "roles": championship.roles.select_related("user").order_by("role", "user__username"),
        },
    )
