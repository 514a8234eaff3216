"""The project: settings read from the environment, the URL space, WSGI/ASGI and ``/health/``.

``urls.py`` mounts every app's public URLconf once under ``/<championship_slug>/``
and ``manage_urls.py`` holds every organiser's page under
``/<championship_slug>/manage/``: from an address, these two tables name the view.
It is the top of the import-linter layers: it may import every app, none imports it.
"""
