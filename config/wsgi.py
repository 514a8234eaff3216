"""WSGI entry point: ``gunicorn config.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# Import the URL configuration, and with it every view, as the worker starts: otherwise
# each worker's first request pays for it (about 0.3 s), and after a restart in the
# middle of a heat that is a judge's capture.
get_resolver().url_patterns  # noqa: B018 (loaded for its import)
