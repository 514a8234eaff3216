"""The loop of the site's workers (``send_mail_outbox --loop``, ``registration_deadlines --loop``).

Each worker does one step, sleeps, and does it again until it is told to stop
(SIGTERM or SIGINT, between two steps). A step that fails (the database went
away, say) is reported and tried again at the next turn: the worker keeps going.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable

from django.db import close_old_connections


def run_every(interval: float, step: Callable[[], None], report_error: Callable[[str], None]):
    """Run ``step`` every ``interval`` seconds until SIGTERM or SIGINT."""
    stopping = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.append(True))
    while not stopping:
        close_old_connections()
        try:
            step()
        except Exception as error:
            report_error(f"{type(error).__name__}: {error}")
        slept = 0.0
        while slept < interval and not stopping:
            time.sleep(min(1.0, interval - slept))
            slept += 1.0
