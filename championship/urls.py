"""The championship's own pages: the list of championships, its staff and its e-mail outbox."""

from django.urls import path

from championship import mail_views, staff_views, views

app_name = "championship"

urlpatterns = [
    path("", views.home, name="home"),
    # The staff and their sign-in links (championship/staff_views.py).
    path("<slug:slug>/manage/staff/", staff_views.staff, name="staff"),
    path("<slug:slug>/manage/staff/badges/", staff_views.badges, name="staff_badges"),
    path("<slug:slug>/manage/staff/<int:link>/badge/", staff_views.badges, name="staff_badge"),
    path("<slug:slug>/manage/staff/<int:link>/revoke/", staff_views.revoke, name="staff_revoke"),
    path("<slug:slug>/manage/staff/<int:link>/renew/", staff_views.renew, name="staff_renew"),
    path("<slug:slug>/manage/staff/<int:link>/send/", staff_views.send, name="staff_send"),
    # The e-mail outbox (championship/mail_views.py).
    path("<slug:slug>/manage/mail/", mail_views.mail, name="mail"),
    path("<slug:slug>/manage/mail/<int:pk>/retry/", mail_views.retry, name="mail_retry"),
]
