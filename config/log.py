"""Filters of the site's log (``LOGGING`` in ``config/settings.py``)."""

import logging


class RefusalWithoutTraceback(logging.Filter):
    """Log a refused request (a 4xx answer) without the traceback of the exception behind it.

    Django's ``django.request`` logger writes a 403 (``PermissionDenied``) and a 400
    (``BadRequest``, an unreadable form body) as a warning together with the
    exception's traceback: dozens of lines that say only that a visitor was refused,
    as the one warning line already does. Server errors (5xx) keep their traceback.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
