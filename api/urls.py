from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from api import staff, views

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("time/", views.ServerTimeView.as_view(), name="time"),
    path("championships/", views.ChampionshipListView.as_view(), name="championship-list"),
    # Before the championship's own paths, which would take "import" for a slug.
    path(
        "championships/import/",
        views.ChampionshipImportView.as_view(),
        name="championship-import",
    ),
    path(
        "championships/<slug:championship_slug>/",
        views.ChampionshipDetailView.as_view(),
        name="championship-detail",
    ),
    path(
        "championships/<slug:championship_slug>/rounds/<slug:round_key>/results/",
        views.RoundResultsView.as_view(),
        name="round-results",
    ),
    path(
        "championships/<slug:championship_slug>/categories/<slug:category_key>/entries/",
        views.EntryRegisterView.as_view(),
        name="entry-register",
    ),
    path(
        "championships/<slug:championship_slug>/rounds/<slug:round_key>/<slug:action>/",
        views.RoundActionView.as_view(),
        name="round-action",
    ),
    path(
        "championships/<slug:championship_slug>/captures/",
        views.CaptureView.as_view(),
        name="captures",
    ),
    path(
        "championships/<slug:championship_slug>/judges/",
        staff.JudgesView.as_view(),
        name="judges",
    ),
    path(
        "championships/<slug:championship_slug>/judges/<int:judge_id>/",
        staff.JudgeView.as_view(),
        name="judge",
    ),
    path(
        "championships/<slug:championship_slug>/export/",
        views.ChampionshipExportView.as_view(),
        name="championship-export",
    ),
    # Anything else under the API (an id with characters no slug has, an unknown path)
    # is a JSON 404 like the API's other errors, not the site's HTML page.
    re_path(r"^[\s\S]*$", views.not_found, name="not-found"),
]
