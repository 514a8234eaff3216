"""The URL space: fixed paths first, then one space per championship under ``/<slug>/``."""

from django.contrib import admin
from django.urls import include, path

from championship import views

championship_patterns = [
    path("", views.home, name="home"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/manage/", views.manage, name="manage"),
]

urlpatterns = [
    path("health/", views.health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("championship.api.urls")),
    path("", include("judging.urls")),
    path("", include("registration.urls")),
    path("", include("results.urls")),
    path("", include((championship_patterns, "championship"))),
]
