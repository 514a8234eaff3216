from django.urls import path

from registration import views

app_name = "registration"

urlpatterns = [
    path("<slug:slug>/register/<slug:category>/", views.register, name="register"),
    path("<slug:slug>/register/<slug:category>/check/", views.check, name="check"),
    path("<slug:slug>/entries/<str:token>/", views.manage, name="manage"),
    path("<slug:slug>/entries/<str:token>/withdraw/", views.withdraw, name="withdraw"),
]
