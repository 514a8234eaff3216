from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from api.views import (
    base,
    captures,
    championships,
    documents,
    entries,
    entry_own,
    organiser_requests,
    payments,
    results,
    rounds,
    screen,
    staff,
)

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("time/", captures.ServerTimeView.as_view(), name="time"),
    path("championships/", championships.ChampionshipListView.as_view(), name="championship-list"),
    # Before the championship's own paths, which would take "import" for a slug.
    path(
        "championships/import/",
        documents.ChampionshipImportView.as_view(),
        name="championship-import",
    ),
    path(
        "championships/<slug:championship_slug>/",
        championships.ChampionshipDetailView.as_view(),
        name="championship-detail",
    ),
    path(
        "championships/<slug:championship_slug>/open/",
        championships.ChampionshipOpenView.as_view(),
        name="championship-open",
    ),
    path(
        "championships/<slug:championship_slug>/rounds/<slug:round_key>/results/",
        results.RoundResultsView.as_view(),
        name="round-results",
    ),
    path(
        "championships/<slug:championship_slug>/categories/<slug:category_key>/entries/",
        entries.EntryRegisterView.as_view(),
        name="entry-register",
    ),
    path(
        "championships/<slug:championship_slug>/entries/",
        entries.EntryListView.as_view(),
        name="entry-list",
    ),
    path(
        "championships/<slug:championship_slug>/entries/<str:token>/",
        entry_own.EntryOwnView.as_view(),
        name="entry-own",
    ),
    path(
        "championships/<slug:championship_slug>/entries/<str:token>/accept/",
        entry_own.EntryAcceptView.as_view(),
        name="entry-accept",
    ),
    path(
        "championships/<slug:championship_slug>/entries/<str:token>/withdraw/",
        entry_own.EntryWithdrawView.as_view(),
        name="entry-withdraw",
    ),
    path(
        "championships/<slug:championship_slug>/rounds/<slug:round_key>/<slug:action>/",
        rounds.RoundActionView.as_view(),
        name="round-action",
    ),
    path(
        "championships/<slug:championship_slug>/captures/",
        captures.CaptureView.as_view(),
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
        "championships/<slug:championship_slug>/screen/",
        screen.ScreenView.as_view(),
        name="screen",
    ),
    path(
        "championships/<slug:championship_slug>/payments/statements/",
        payments.StatementsView.as_view(),
        name="statements",
    ),
    path(
        "championships/<slug:championship_slug>/payments/statements/<int:statement_id>/apply/",
        payments.StatementApplyView.as_view(),
        name="statement-apply",
    ),
    path(
        "championships/<slug:championship_slug>/export/",
        documents.ChampionshipExportView.as_view(),
        name="championship-export",
    ),
    path(
        "organiser-requests/",
        organiser_requests.OrganiserRequestView.as_view(),
        name="organiser-requests",
    ),
    # Anything else under the API (an id with characters no slug has, an unknown path)
    # is a JSON 404 like the API's other errors, not the site's HTML page.
    re_path(r"^[\s\S]*$", base.not_found, name="not-found"),
]
