"""The URL space: fixed paths first, then one space per championship, ``/<championship_slug>/``.

Each app has one URLconf for its public pages, included once below; every
organiser's page is in ``config/manage_urls.py``, included once at
``/<championship_slug>/manage/``. So a page's view is found from its address in one
step: the prefix in the tables here names the URLconf, and the URLconf names the view.

Every URLconf and view calls the championship ``championship_slug`` and a round
``round_key``. The fixed paths are reserved slugs (``championship.models.RESERVED_SLUGS``),
so no championship hides them.
"""

from django.contrib import admin
from django.urls import include, path

from championship import password_reset, staff_views
from championship import views as championship_views
from config import login, views
from control.views import setup
from registration import calendar
from results import puzzlers

# The pages of one championship, under /<championship_slug>/.
championship_urlpatterns = [
    # The organiser's pages: the control room, rounds, tables, entries, check-in, staff, mail.
    path("manage/", include("config.manage_urls")),
    # The championship's page, registration, an entrant's private page, address links.
    path("", include("registration.urls")),
    # Results, the venue screen and the entrant's diploma: results/, screen/, venue/,
    # entries/<token>/diploma/.
    path("", include("results.urls")),
    # Where everyone sits in a round: seating/<round_key>/.
    path("", include("control.urls")),
]

urlpatterns = [
    path("", championship_views.home, name="home"),
    path("new/", setup.new, name="new"),
    path("health/", views.health, name="health"),
    # Browsers ask for /favicon.ico where a page names no icon (the health check, a PDF).
    path("favicon.ico", views.favicon, name="favicon"),
    # A staff member's personal sign-in link, printed on badges.
    path("s/<str:token>/", staff_views.sign_in, name="sign_in"),
    # Organiser accounts: asking for one, the administrators' decisions, the mailed sign-in link.
    path("organisers/", include("control.organiser_urls")),
    # A table's page, printed as the QR code on its card.
    path("t/", include("judging.urls")),
    # A puzzler's public page, across championships.
    path("puzzlers/<slug:ref>/", puzzlers.puzzler_page, name="puzzler"),
    # The site's upcoming championships, as a page and as an iCalendar feed to subscribe to.
    path("calendar/", calendar.calendar_page, name="calendar"),
    path("calendar.ics", calendar.calendar_feed, name="calendar_feed"),
    path("admin/", admin.site.urls),
    path("accounts/password_reset/", password_reset.reset, name="password_reset"),
    # Django's login, which tells a judge who scanned a table's card first to scan their badge.
    path("accounts/login/", login.LoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("api.urls")),
    path("<slug:championship_slug>/", include(championship_urlpatterns)),
]

# Under /api/, errors no view answered are JSON like the API's other answers (api.exceptions).
handler400 = "api.exceptions.bad_request"
handler403 = "api.exceptions.permission_denied"
handler404 = "api.exceptions.page_not_found"
handler500 = "api.exceptions.server_error"
