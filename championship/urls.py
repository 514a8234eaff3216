"""The URL space: fixed paths first, then one space per championship under ``/<slug>/``."""

from django.contrib import admin
from django.urls import include, path

from championship import control, views

championship_patterns = [
    path("", views.home, name="home"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/manage/", views.manage, name="manage"),
    # The round control room, the venue's tables and the table cards (championship/control.py).
    path("<slug:slug>/manage/rounds/<slug:round>/", control.round_control, name="round_control"),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/advancement/",
        control.round_advancement,
        name="round_advancement",
    ),
    path("<slug:slug>/manage/rounds/<slug:round>/seat/", control.round_seat, name="round_seat"),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/publish/",
        control.round_publish,
        name="round_publish",
    ),
    path("<slug:slug>/manage/rounds/<slug:round>/start/", control.round_start, name="round_start"),
    path("<slug:slug>/manage/rounds/<slug:round>/close/", control.round_close, name="round_close"),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/advance/",
        control.round_advance,
        name="round_advance",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/ranking/",
        control.round_ranking,
        name="round_ranking",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/heats/<slug:heat>/start/",
        control.heat_start,
        name="heat_start",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/heats/<slug:heat>/close/",
        control.heat_close,
        name="heat_close",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/seats/<int:seat>/move/",
        control.seat_move,
        name="seat_move",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/seats/<int:seat>/start/",
        control.seat_start,
        name="seat_start",
    ),
    path("<slug:slug>/manage/tables/", control.tables, name="tables"),
    path("<slug:slug>/manage/tables/<int:number>/", control.table_edit, name="table_edit"),
    path(
        "<slug:slug>/manage/tables/<int:number>/rotate/", control.table_rotate, name="table_rotate"
    ),
    path("<slug:slug>/manage/tables/<int:number>/qr.png", control.table_qr, name="table_qr"),
    path("<slug:slug>/manage/cards/<slug:round>/", control.table_cards, name="cards"),
    path("<slug:slug>/seating/<slug:round>/", control.seating, name="seating"),
]

urlpatterns = [
    path("health/", views.health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("championship.api.urls")),
    path("", include("judging.urls")),
    path("", include("registration.urls")),
    path("", include("results.urls")),
    path("", include((championship_patterns, "championship"))),
]
