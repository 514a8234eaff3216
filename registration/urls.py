"""Registration's public pages, under ``/<championship_slug>/`` (config/urls.py).

The championship's own page and its iCalendar feed, registering in a category, what
an entrant does with their private link (the page itself, which shows results too, is
results'), and a co-entrant's address link. The organiser's entry pages are in
config/manage_urls.py.
"""

from django.urls import path

from registration import address_views, calendar, views

app_name = "registration"

urlpatterns = [
    path("", views.championship_page, name="championship"),
    path("calendar.ics", calendar.championship_feed, name="calendar_feed"),
    path("register/<slug:category_key>/", views.register, name="register"),
    path("register/<slug:category_key>/check/", views.check, name="check"),
    path("entries/<str:token>/withdraw/", views.withdraw, name="withdraw"),
    path("entries/<str:token>/accept/", views.accept, name="accept"),
    path("entries/<str:token>/pay.png", views.payment_code, name="payment_code"),
    path("entries/<str:token>/judge-note/", views.judge_note, name="judge_note"),
    path("entries/<str:token>/represents/", views.represents, name="represents"),
    path(
        "entries/<str:token>/address/<int:person>/",
        views.send_address_link,
        name="send_address_link",
    ),
    path("address/<str:token>/", address_views.confirm_address, name="confirm_address"),
]
