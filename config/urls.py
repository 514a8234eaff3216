"""The URL space: fixed paths first, then one space per championship under ``/<slug>/``.

The organiser's pages come before the apps' (``new/`` is a reserved slug that the
championship page, ``<slug>/``, would otherwise take).
"""

from django.contrib import admin
from django.urls import include, path

from championship import staff_views
from config import views
from results import puzzlers

urlpatterns = [
    path("health/", views.health, name="health"),
    # Browsers ask for /favicon.ico where a page names no icon (the health check, a PDF).
    path("favicon.ico", views.favicon, name="favicon"),
    # A staff member's personal sign-in link ("s" is a reserved slug).
    path("s/<str:token>/", staff_views.sign_in, name="sign_in"),
    # A puzzler's public page, across championships ("puzzlers" is a reserved slug).
    path("puzzlers/<slug:ref>/", puzzlers.puzzler_page, name="puzzler"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("api.urls")),
    path("", include("control.urls")),
    path("", include("judging.urls")),
    path("", include("registration.urls")),
    path("", include("results.urls")),
    path("", include("championship.urls")),
]

# Under /api/, errors no view answered are JSON like the API's other answers (api.exceptions).
handler400 = "api.exceptions.bad_request"
handler403 = "api.exceptions.permission_denied"
handler404 = "api.exceptions.page_not_found"
handler500 = "api.exceptions.server_error"
