from django.urls import path

from registration import (
    address_views,
    organiser,
    organiser_checkin,
    organiser_import,
    organiser_questions,
    views,
)

app_name = "registration"

urlpatterns = [
    path("<slug:slug>/", views.championship_page, name="championship"),
    path("<slug:slug>/register/<slug:category>/", views.register, name="register"),
    path("<slug:slug>/register/<slug:category>/check/", views.check, name="check"),
    path("<slug:slug>/entries/<str:token>/", views.manage, name="manage"),
    path("<slug:slug>/entries/<str:token>/withdraw/", views.withdraw, name="withdraw"),
    path("<slug:slug>/entries/<str:token>/accept/", views.accept, name="accept"),
    path("<slug:slug>/entries/<str:token>/judge-note/", views.judge_note, name="judge_note"),
    path(
        "<slug:slug>/entries/<str:token>/address/<int:person>/",
        views.send_address_link,
        name="send_address_link",
    ),
    path(
        "<slug:slug>/address/<str:token>/",
        address_views.confirm_address,
        name="confirm_address",
    ),
]

# The organiser's entry tools.
urlpatterns += [
    path("<slug:slug>/manage/entries/", organiser.entries, name="organiser_entries"),
    path("<slug:slug>/manage/entries/export.csv", organiser.export, name="organiser_export"),
    path("<slug:slug>/manage/entries/import/", organiser.import_upload, name="organiser_import"),
    path(
        "<slug:slug>/manage/entries/import/<str:token>/",
        organiser.import_preview,
        name="organiser_import_preview",
    ),
    path(
        "<slug:slug>/manage/entries/import/<str:token>/progress/",
        organiser_import.import_progress,
        name="organiser_import_progress",
    ),
    path(
        "<slug:slug>/manage/entries/<int:pk>/promote/",
        organiser.promote,
        name="organiser_promote",
    ),
    path(
        "<slug:slug>/manage/entries/<int:pk>/judge-note/",
        organiser.judge_note,
        name="organiser_judge_note",
    ),
    path(
        "<slug:slug>/manage/entries/<int:pk>/release/",
        organiser.release,
        name="organiser_release",
    ),
    path(
        "<slug:slug>/manage/entries/<int:pk>/payment/",
        organiser.payment,
        name="organiser_payment",
    ),
    path(
        "<slug:slug>/manage/entries/<int:pk>/withdraw/",
        organiser.withdraw,
        name="organiser_withdraw",
    ),
    path(
        "<slug:slug>/manage/entries/<int:pk>/walkover/",
        organiser.walkover,
        name="organiser_walkover",
    ),
    path(
        "<slug:slug>/manage/entries/<int:pk>/new-link/",
        organiser.new_link,
        name="organiser_new_link",
    ),
    path("<slug:slug>/manage/checkin/", organiser_checkin.checkin, name="organiser_checkin"),
    path(
        "<slug:slug>/manage/questions/",
        organiser_questions.questions,
        name="organiser_questions",
    ),
    path(
        "<slug:slug>/manage/questions/<int:pk>/delete/",
        organiser_questions.question_delete,
        name="organiser_question_delete",
    ),
    path(
        "<slug:slug>/manage/checkin/code/<str:code>/",
        organiser_checkin.checkin_code,
        name="organiser_checkin_code",
    ),
    path(
        "<slug:slug>/manage/checkin/<int:pk>/",
        organiser_checkin.checkin_entry,
        name="organiser_checkin_entry",
    ),
]
