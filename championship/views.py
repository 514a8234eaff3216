"""The list of championships, the site's home page."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from championship import selectors, staff


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
