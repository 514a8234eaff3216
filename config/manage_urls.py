"""Every organiser's page, under ``/<championship_slug>/manage/`` (included once in config/urls.py).

One table for the whole back office, grouped by what the organiser is doing; each
line names the view's module. The names are in the ``manage`` namespace
(``manage:round_control``).
"""

from django.urls import path

from championship import mail_views, staff_views
from control.views import cards, dashboard, diplomas, groups, ranking, report, round, setup, tables
from judging import views as judging_views
from payments import views as payments_views
from registration import organiser, organiser_checkin, organiser_import, organiser_questions

app_name = "manage"

# The control room and the championship's settings (control/views/).
urlpatterns = [
    path("", dashboard.control_room, name="control_room"),
    path("edit/", setup.edit, name="edit"),
    path("open/", dashboard.open_registration, name="open"),
    path("screen/", dashboard.switch_screen, name="screen"),
    path("message/", dashboard.message, name="message"),
]

# A round: seat, publish, start, close, count, sign off, advance, deal a stage to its groups,
# withdraw a qualifier (control/views/round.py, groups.py,
# ranking.py, diplomas.py, report.py), and its judges' dashboard (judging/views.py).
ROUND = "rounds/<slug:round_key>/"
urlpatterns += [
    path(ROUND, round.round_control, name="round_control"),
    path(f"{ROUND}advancement/", round.round_advancement, name="round_advancement"),
    path(f"{ROUND}seat/", round.seat, name="round_seat"),
    path(f"{ROUND}publish/", round.publish, name="round_publish"),
    path(f"{ROUND}start/", round.start, name="round_start"),
    path(f"{ROUND}close/", round.close, name="round_close"),
    path(f"{ROUND}sign-off/", round.sign_off, name="round_sign_off"),
    path(f"{ROUND}advance/", round.advance, name="round_advance"),
    path(f"{ROUND}groups/deal/", groups.deal, name="round_groups_deal"),
    path(f"{ROUND}withdraw/", groups.withdraw, name="round_withdraw"),
    path(f"{ROUND}ranking/", ranking.round_ranking, name="round_ranking"),
    path(f"{ROUND}diplomas.pdf", diplomas.round_diplomas, name="round_diplomas"),
    path(f"{ROUND}report/", report.round_report_page, name="round_report"),
    path(f"{ROUND}report.csv", report.round_report_csv, name="round_report_csv"),
    path(f"{ROUND}heats/<slug:heat_key>/start/", round.start_heat, name="heat_start"),
    path(f"{ROUND}heats/<slug:heat_key>/close/", round.close_heat, name="heat_close"),
    path(f"{ROUND}seats/<int:seat>/move/", round.move_seat, name="seat_move"),
    path(f"{ROUND}seats/<int:seat>/start/", round.start_seat, name="seat_start"),
    path(f"{ROUND}dashboard/", judging_views.dashboard, name="dashboard"),
    path(f"{ROUND}dashboard/mark/", judging_views.mark, name="dashboard_mark"),
    path(f"{ROUND}dashboard/correct/", judging_views.correct, name="dashboard_correct"),
]

# The venue's tables and their cards (control/views/tables.py, cards.py).
urlpatterns += [
    path("tables/", tables.tables, name="tables"),
    path("tables/group/", tables.tables_group, name="tables_group"),
    path("tables/<int:number>/", tables.table_edit, name="table_edit"),
    path("tables/<int:number>/rotate/", tables.table_rotate, name="table_rotate"),
    path("tables/<int:number>/qr.png", tables.table_qr, name="table_qr"),
    path("cards/<slug:round_key>/", cards.table_cards, name="cards"),
]

# Entries, their import and the registration questions (registration/organiser*.py).
ENTRY = "entries/<int:pk>/"
urlpatterns += [
    path("entries/", organiser.entries, name="entries"),
    path("entries/export.csv", organiser.export, name="entries_export"),
    path("entries/import/", organiser.import_upload, name="entries_import"),
    path("entries/import/<str:token>/", organiser.import_preview, name="entries_import_preview"),
    path(
        "entries/import/<str:token>/progress/",
        organiser_import.import_progress,
        name="entries_import_progress",
    ),
    path(f"{ENTRY}promote/", organiser.promote, name="entry_promote"),
    path(f"{ENTRY}judge-note/", organiser.judge_note, name="entry_judge_note"),
    path(f"{ENTRY}release/", organiser.release, name="entry_release"),
    path(f"{ENTRY}payment/", organiser.payment, name="entry_payment"),
    path(f"{ENTRY}withdraw/", organiser.withdraw, name="entry_withdraw"),
    path(f"{ENTRY}walkover/", organiser.walkover, name="entry_walkover"),
    path(f"{ENTRY}new-link/", organiser.new_link, name="entry_new_link"),
    path("questions/", organiser_questions.questions, name="questions"),
    path("questions/<int:pk>/delete/", organiser_questions.question_delete, name="question_delete"),
]

# Bank statements read, reviewed and applied (payments/views.py).
urlpatterns += [
    path("payments/", payments_views.statements, name="payments"),
    path("payments/map/<str:token>/", payments_views.map_layout, name="payments_map"),
    path("payments/refunds/", payments_views.refunds_page, name="payments_refunds"),
    path("payments/refunds/done/", payments_views.refund_done, name="payments_refund_done"),
    path("payments/cancel/", payments_views.cancel, name="payments_cancel"),
    path(
        "payments/<int:statement_id>/",
        payments_views.statement,
        name="payments_statement",
    ),
    path(
        "payments/<int:statement_id>/apply/",
        payments_views.apply,
        name="payments_apply",
    ),
]

# Check-in at the door (registration/organiser_checkin.py).
urlpatterns += [
    path("checkin/", organiser_checkin.checkin, name="checkin"),
    path("checkin/code/<str:code>/", organiser_checkin.checkin_code, name="checkin_code"),
    path("checkin/<int:pk>/", organiser_checkin.checkin_entry, name="checkin_entry"),
]

# The staff, their sign-in links and badges, and the e-mail outbox
# (championship/staff_views.py, mail_views.py).
urlpatterns += [
    path("staff/", staff_views.staff, name="staff"),
    path("staff/badges/", staff_views.badges, name="staff_badges"),
    path("staff/<int:link>/badge/", staff_views.badges, name="staff_badge"),
    path("staff/<int:link>/revoke/", staff_views.revoke, name="staff_revoke"),
    path("staff/<int:link>/renew/", staff_views.renew, name="staff_renew"),
    path("staff/<int:link>/send/", staff_views.send, name="staff_send"),
    path("mail/", mail_views.mail, name="mail"),
    path("mail/<int:pk>/retry/", mail_views.retry, name="mail_retry"),
]
