"""Control's one public page, under ``/<championship_slug>/`` (config/urls.py): the seating."""

from django.urls import path

from control.views import seating

app_name = "control"

urlpatterns = [
    path("seating/<slug:round_key>/", seating.seating, name="seating"),
]
