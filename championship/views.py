"""Public pages of the championships, the organiser's area and the health check."""

from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from championship import selectors, staff
from championship.permissions import get_championship, organiser_required


@require_GET
def home(request):
    """List the championships; first, to their staff, theirs with the screens their role opens."""
    return render(
        request,
        "championship/home.html",
        {
            "staff": staff.staff_championships(request.user),
            "championships": selectors.public_championships(),
        },
    )


@require_GET
def detail(request, slug):
    """Show a championship: categories with their registration dates, schedule and entry lists."""
    championship = get_championship(request, slug)
    categories = selectors.public_entry_lists(championship)
    return render(
        request,
        "championship/detail.html",
        {
            "categories": categories,
            "rounds": selectors.rounds_with_heats(championship),
            "rules": championship.rules,
            "deadline": championship.effective_registration_deadline(),
        },
    )


@require_GET
@organiser_required
def manage(request, championship):
    """Show the organiser's control room of a championship."""
    return render(
        request,
        "championship/manage.html",
        {
            "categories": selectors.categories_with_counts(championship),
            "rounds": selectors.rounds_with_heats(championship),
            "table_count": championship.tables.count(),
            "roles": championship.roles.select_related("user").order_by("role", "user__username"),
        },
    )


@never_cache
@require_GET
def health(request):
    """Answer 200 when the database answers, 503 otherwise."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return HttpResponse("database unavailable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")
