"""The site's own answers: the health check and the icon browsers ask for at the root."""

from django.db import DatabaseError, connection
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


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


@require_GET
def favicon(request):
    """Send a browser's ``/favicon.ico`` to the site's icon (a plain-text page names none).

    A redirect, not the 404 page: that page would set a new CSRF cookie, and a late
    icon request would replace the one a form on the same browser is about to send.
    """
    return HttpResponsePermanentRedirect(static("favicon.svg"))
