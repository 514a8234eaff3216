from django.urls import path

from judging import views

app_name = "judging"

urlpatterns = [
    # The service worker of the table pages, at /t/ so that its scope covers them all.
    path("t/sw.js", views.service_worker, name="service_worker"),
    path("t/<str:token>/", views.table, name="table"),
    path("t/<str:token>/state/", views.table_state, name="table_state"),
    path("t/<str:token>/start/", views.start_now, name="start_now"),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/dashboard/",
        views.dashboard,
        name="dashboard",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/dashboard/mark/",
        views.mark,
        name="mark",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/dashboard/correct/",
        views.correct,
        name="correct",
    ),
]
