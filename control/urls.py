"""The organiser's pages: new and edit championship, the control room, tables and cards."""

from django.urls import path

from control.views import (
    cards,
    dashboard,
    diplomas,
    ranking,
    report,
    round,
    seating,
    setup,
    tables,
)

app_name = "control"

urlpatterns = [
    # "new" is a reserved slug (models.RESERVED_SLUGS): no championship hides this page.
    path("new/", setup.new, name="new"),
    path("<slug:slug>/manage/", dashboard.control_room, name="manage"),
    path("<slug:slug>/manage/edit/", setup.edit, name="edit"),
    path("<slug:slug>/manage/screen/", dashboard.switch_screen, name="screen"),
    path("<slug:slug>/manage/message/", dashboard.message, name="message"),
    # The round control room, the venue's tables and the table cards (control/views/).
    path("<slug:slug>/manage/rounds/<slug:round>/", round.round_control, name="round_control"),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/advancement/",
        round.round_advancement,
        name="round_advancement",
    ),
    path("<slug:slug>/manage/rounds/<slug:round>/seat/", round.seat, name="round_seat"),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/publish/",
        round.publish,
        name="round_publish",
    ),
    path("<slug:slug>/manage/rounds/<slug:round>/start/", round.start, name="round_start"),
    path("<slug:slug>/manage/rounds/<slug:round>/close/", round.close, name="round_close"),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/sign-off/",
        round.sign_off,
        name="round_sign_off",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/advance/",
        round.advance,
        name="round_advance",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/ranking/",
        ranking.round_ranking,
        name="round_ranking",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/diplomas.pdf",
        diplomas.round_diplomas,
        name="round_diplomas",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/report/",
        report.round_report_page,
        name="round_report",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/report.csv",
        report.round_report_csv,
        name="round_report_csv",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/heats/<slug:heat>/start/",
        round.start_heat,
        name="heat_start",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/heats/<slug:heat>/close/",
        round.close_heat,
        name="heat_close",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/seats/<int:seat>/move/",
        round.move_seat,
        name="seat_move",
    ),
    path(
        "<slug:slug>/manage/rounds/<slug:round>/seats/<int:seat>/start/",
        round.start_seat,
        name="seat_start",
    ),
    path("<slug:slug>/manage/tables/", tables.tables, name="tables"),
    path("<slug:slug>/manage/tables/group/", tables.tables_group, name="tables_group"),
    path("<slug:slug>/manage/tables/<int:number>/", tables.table_edit, name="table_edit"),
    path(
        "<slug:slug>/manage/tables/<int:number>/rotate/", tables.table_rotate, name="table_rotate"
    ),
    path("<slug:slug>/manage/tables/<int:number>/qr.png", tables.table_qr, name="table_qr"),
    path("<slug:slug>/manage/cards/<slug:round>/", cards.table_cards, name="cards"),
    path("<slug:slug>/seating/<slug:round>/", seating.seating, name="seating"),
]
