"""The URL space: fixed paths first, then one space per championship under ``/<slug>/``."""

from django.contrib import admin
from django.urls import include, path

from championship import control, mail_views, setup, staff_views, views

championship_patterns = [
    path("", views.home, name="home"),
    # "new" is a reserved slug (models.RESERVED_SLUGS): no championship hides this page.
    path("new/", setup.new, name="new"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/manage/", views.manage, name="manage"),
    path("<slug:slug>/manage/edit/", setup.edit, name="edit"),
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
    # The staff and their sign-in links (championship/staff_views.py).
    path("<slug:slug>/manage/staff/", staff_views.staff, name="staff"),
    path("<slug:slug>/manage/staff/badges/", staff_views.badges, name="staff_badges"),
    path("<slug:slug>/manage/staff/<int:link>/badge/", staff_views.badges, name="staff_badge"),
    path("<slug:slug>/manage/staff/<int:link>/revoke/", staff_views.revoke, name="staff_revoke"),
    path("<slug:slug>/manage/staff/<int:link>/renew/", staff_views.renew, name="staff_renew"),
    path("<slug:slug>/manage/staff/<int:link>/send/", staff_views.send, name="staff_send"),
    # The e-mail outbox (championship/mail_views.py).
    path("<slug:slug>/manage/mail/", mail_views.mail, name="mail"),
    path("<slug:slug>/manage/mail/<int:pk>/retry/", mail_views.mail_retry, name="mail_retry"),
]

urlpatterns = [
    path("health/", views.health, name="health"),
    # A staff member's personal sign-in link ("s" is a reserved slug).
    path("s/<str:token>/", staff_views.sign_in, name="sign_in"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("championship.api.urls")),
    path("", include("judging.urls")),
    path("", include("registration.urls")),
    path("", include("results.urls")),
    path("", include((championship_patterns, "championship"))),
]
