from django.urls import path

from judging import views

app_name = "judging"

urlpatterns = [
    path("t/<str:token>/", views.table, name="table"),
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
]
