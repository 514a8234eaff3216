"""Organiser accounts, under ``/organisers/`` (config/urls.py): asking, deciding, signing in.

``organisers`` is a reserved slug (``championship.models.RESERVED_SLUGS``): no
championship hides these pages.
"""

from django.urls import path

from control.views import organisers

app_name = "organisers"

urlpatterns = [
    path("request/", organisers.request_account, name="request"),
    path("request/sent/", organisers.request_sent, name="request_sent"),
    path("requests/", organisers.requests, name="requests"),
    path("requests/<int:request_id>/approve/", organisers.approve, name="approve"),
    path("requests/<int:request_id>/refuse/", organisers.refuse, name="refuse"),
    path("sign-in/", organisers.link, name="link"),
    # Before the link's own path: "sent" is no token (a token holds colons).
    path("sign-in/sent/", organisers.link_sent, name="link_sent"),
    path("sign-in/<str:token>/", organisers.sign_in, name="sign_in"),
]
