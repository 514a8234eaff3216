"""The organiser's pages: new and edit championship, the control room, tables and cards."""

from django.urls import path

from control import setup, views

app_name = "control"

urlpatterns = [
    # "new" is a reserved slug (models.RESERVED_SLUGS): no championship hides this page.
    path("new/", setup.new, name="new"),
    path("<slug:slug>/manage/", views.manage, name="manage"),
    path("<slug:slug>/manage/edit/", setup.edit, name="edit"),
    # The round control room, the venue's tables and the table cards (championship/views.py).
    path("<slug:slug>/manage/rounds/<slug:round>/", views.round_control, name="round_control"),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/advancement/",
        views.round_advancement,
        name="round_advancement",
    ),
    path("<slug:slug>/manage/rounds/<slug:round>/seat/", views.round_seat, name="round_seat"),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/publish/",
        views.round_publish,
        name="round_publish",
    ),
    path("<slug:slug>/manage/rounds/<slug:round>/start/", views.round_start, name="round_start"),
    path("<slug:slug>/manage/rounds/<slug:round>/close/", views.round_close, name="round_close"),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/advance/",
        views.round_advance,
        name="round_advance",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/ranking/",
        views.round_ranking,
        name="round_ranking",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/heats/<slug:heat>/start/",
        views.heat_start,
        name="heat_start",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/heats/<slug:heat>/close/",
        views.heat_close,
        name="heat_close",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/seats/<int:seat>/move/",
        views.seat_move,
        name="seat_move",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/seats/<int:seat>/start/",
        views.seat_start,
        name="seat_start",
    ),
    path("<slug:slug>/manage/tables/", views.tables, name="tables"),
    path("<slug:slug>/manage/tables/<int:number>/", views.table_edit, name="table_edit"),
    path("<slug:slug>/manage/tables/<int:number>/rotate/", views.table_rotate, name="table_rotate"),
    path("<slug:slug>/manage/tables/<int:number>/qr.png", views.table_qr, name="table_qr"),
    path("<slug:slug>/manage/cards/<slug:round>/", views.table_cards, name="cards"),
    path("<slug:slug>/seating/<slug:round>/", views.seating, name="seating"),
]
