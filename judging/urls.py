"""A table's pages for its judge, under ``/t/`` (config/urls.py): the address on its card."""

from django.urls import path

from judging import views

app_name = "judging"

urlpatterns = [
    # The service worker of the table pages, at /t/ so that its scope covers them all.
    path("sw.js", views.service_worker, name="service_worker"),
    path("<str:token>/", views.table, name="table"),
    path("<str:token>/state/", views.table_state, name="table_state"),
    path("<str:token>/start/", views.start_now, name="start_now"),
]
