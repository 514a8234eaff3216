from django.urls import path

from results import diploma_views, venue, views

app_name = "results"

# The championship is named ``championship_slug`` here, not ``slug``: these views find
# it themselves in the one query an unchanged poll may cost (see the middleware).
urlpatterns = [
    path("<slug:championship_slug>/results/", views.index, name="index"),
    path(
        "<slug:championship_slug>/results/category/<slug:category_key>.csv",
        views.category_csv,
        name="category_csv",
    ),
    path("<slug:championship_slug>/results/<slug:round_key>/", views.round_results, name="round"),
    path(
        "<slug:championship_slug>/results/<slug:round_key>.csv", views.round_csv, name="round_csv"
    ),
    # One entry's result, as a diploma's QR code opens it (".csv" above has no slash).
    path(
        "<slug:championship_slug>/results/<slug:round_key>/<str:entry_ref>/",
        diploma_views.result_detail,
        name="result_detail",
    ),
    path("<slug:championship_slug>/screen/<slug:round_key>/", views.screen, name="screen"),
    # The venue screen: one address for the projector, showing what the control room chose.
    path("<slug:championship_slug>/screen/", venue.venue, name="venue"),
    path("<slug:championship_slug>/venue/state/", venue.state, name="venue_state"),
    path("<slug:championship_slug>/venue/message/", venue.message, name="venue_message"),
    path(
        "<slug:championship_slug>/venue/podium/<slug:category_key>/",
        venue.podium,
        name="venue_podium",
    ),
    # The entrant's diploma, through the entry's private link.
    path(
        "<slug:slug>/entries/<str:token>/diploma/<slug:round_key>.pdf",
        diploma_views.entry_diploma,
        name="entry_diploma",
    ),
]
