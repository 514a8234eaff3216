"""The REST API under ``/api/v1/``: the same services as the pages, as JSON, with its schema.

Views per resource (``views/``), serializers and input checks (``inputs.py``,
``parsers.py``), token and session authentication (``authentication.py``), and the
OpenAPI schema drf-spectacular builds. It holds no rule of its own: a capture, a
registration or a round's action goes through the service the pages call.
"""
