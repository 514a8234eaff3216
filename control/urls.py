"""Control's public pages, under ``/<championship_slug>/`` (config/urls.py): the seating,
on the website and on the venue's projector."""

from django.urls import path

from control.views import seating

app_name = "control"

urlpatterns = [
    path("seating/<slug:round_key>/", seating.seating, name="seating"),
    path("seating/<slug:round_key>/screen/", seating.seating_screen, name="seating_screen"),
]
