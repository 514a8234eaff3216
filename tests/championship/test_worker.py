"""The workers' loop: a step that fails is reported and the loop goes on; SIGTERM stops it."""

import os
import signal

import pytest

from core.worker import run_every

pytestmark = pytest.mark.django_db


def test_the_loop_survives_a_failing_step_and_stops_on_sigterm():
    calls, errors = [], []
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}

    def step():
        calls.append(len(calls) + 1)
        if len(calls) == 2:
            raise ConnectionError("the database went away")
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGTERM)

    try:
        run_every(0, step, errors.append)
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
    assert calls == [1, 2, 3]
    assert errors == ["ConnectionError: the database went away"]
