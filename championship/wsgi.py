"""WSGI entry point: ``gunicorn championship.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "championship.settings")

application = get_wsgi_application()
