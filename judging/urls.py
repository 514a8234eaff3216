from django.urls import path

from judging import views

app_name = "judging"

urlpatterns = [
    path("t/<str:token>/", views.table, name="table"),
]
