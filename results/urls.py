"""The public results, under ``/<championship_slug>/`` (config/urls.py).

A championship's results and CSV files, the live round pages, a diploma's QR
target, the venue screen the projector follows, and an entrant's diploma.
"""

from django.urls import path

from results import diploma_views, entry_page, venue, views

app_name = "results"

urlpatterns = [
    path("results/", views.index, name="index"),
    path("results/category/<slug:category_key>.csv", views.category_csv, name="category_csv"),
    path("results/<slug:round_key>/", views.round_results, name="round"),
    path("results/<slug:round_key>.csv", views.round_csv, name="round_csv"),
    # One entry's result, as a diploma's QR code opens it (".csv" above has no slash).
    path(
        "results/<slug:round_key>/<str:entry_ref>/",
        diploma_views.result_detail,
        name="result_detail",
    ),
    path("screen/<slug:round_key>/", views.screen, name="screen"),
    # The venue screen: one address for the projector, showing what the control room chose.
    path("screen/", venue.venue, name="venue"),
    path("venue/state/", venue.state, name="venue_state"),
    path("venue/message/", venue.message, name="venue_message"),
    path("venue/podium/<slug:category_key>/", venue.podium, name="venue_podium"),
    # The entrant's private page, the link in every mail to the entrant, and their diploma.
    path("entries/<str:token>/", entry_page.entry_page, name="entry_page"),
    path(
        "entries/<str:token>/diploma/<slug:round_key>.pdf",
        diploma_views.entry_diploma,
        name="entry_diploma",
    ),
]
