"""The application as it is deployed: its environment, ``manage.py``, gunicorn and its workers.

Everything runs from the repository root with the Python of this process (the
project's virtualenv), in subprocesses: nothing of the application is imported here.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from harness import HarnessError
from harness.http import HOST, WaitTimeout, free_port, status, try_call, wait_for

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
GUNICORN = BIN / "gunicorn"
HEALTH = "/health/"


def production_env(
    database_url: str,
    redis_url: str,
    *,
    settings: str = "config.settings",
    extra: dict[str, str] | None = None,
) -> dict[str, str]:
    """Return the environment of a production server: DEBUG off, a fresh secret, these services.

    The caller's environment is kept but for Django's, pytest's and ``CI``, which
    would change the settings the server runs with.
    """
    keep = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "PYTEST_")) and name != "CI"
    }
    return {
        **keep,
        "DJANGO_SETTINGS_MODULE": settings,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "false",
        "ALLOWED_HOSTS": HOST,
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        **(extra or {}),
    }


def manage(env: dict, *args: str, stdin: str | None = None, timeout: float = 600) -> str:
    """Run ``manage.py *args`` in ``env``; return its output, or raise with it on a failure."""
    shown = " ".join(args)[:200]
    try:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise HarnessError(f"manage.py {shown} did not finish within {timeout} s") from None
    if result.returncode != 0:
        raise HarnessError(
            f"manage.py {shown} failed ({result.returncode}):\n"
            f"{result.stdout[-2000:]}{result.stderr[-4000:]}"
        )
    return result.stdout


# One Django start-up for the import and the judge: the judge's role needs the championship.
LOAD = """
import io, json
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from championship.models import Championship, ChampionshipRole
out = io.StringIO()
call_command("import_championship", {path!r}, stdout=out)
user = get_user_model().objects.create_user({user!r})
championship = Championship.objects.get(slug={slug!r})
ChampionshipRole.objects.create(championship=championship, user=user, role="judge")
print("LOADED", json.dumps([out.getvalue(), Token.objects.create(user=user).key]))
"""


@dataclass
class Loaded:
    summary: str  # the last line of import_championship: what it loaded
    token: str  # the judge's API token


def load_championship(env: dict, document: dict, workdir: Path, *, judge: str) -> Loaded:
    """Import ``document`` (an interchange document) and add ``judge`` with the judge role.

    The database must be migrated. The document is written to ``workdir``.
    """
    slug = document["championship"]["slug"]
    path = Path(workdir) / f"{slug}.json"
    path.write_text(json.dumps(document))
    out = manage(env, "shell", "-c", LOAD.format(path=str(path), user=judge, slug=slug))
    imported, token = json.loads(out.rsplit("LOADED", 1)[1])
    lines = [line.strip() for line in imported.splitlines() if line.strip()]
    return Loaded(summary=lines[-1] if lines else "", token=token)


class AppServer:
    """A gunicorn master (``config.wsgi``) on a free port, in a process group of its own.

    The options left at None are gunicorn's defaults and not on the command line
    (``command`` holds it). Its output goes to ``gunicorn-<port>.log`` in ``logdir``.
    ``stop`` ends the master and whatever is left of its group.
    """

    def __init__(
        self,
        env: dict,
        logdir: Path,
        *,
        wsgi: str = "config.wsgi",
        workers: int = 2,
        worker_class: str = "sync",
        threads: int = 1,
        keep_alive: int | None = None,
        backlog: int | None = None,
        timeout: int = 60,
        graceful_timeout: int | None = None,
        log_level: str | None = None,
        access_log: str | None = None,
    ):
        self.port = free_port()
        self.workers_wanted = workers
        self.logfile = Path(logdir) / f"gunicorn-{self.port}.log"
        # gunicorn's access log, in the format ``access_log``, when one is asked for.
        self.access_logfile = Path(logdir) / f"access-{self.port}.log" if access_log else None
        options = {
            "--bind": f"{HOST}:{self.port}",
            "--workers": workers,
            "--worker-class": worker_class,
            "--threads": threads,
            "--keep-alive": keep_alive,
            "--backlog": backlog,
            "--timeout": timeout,
            "--graceful-timeout": graceful_timeout,
            "--log-level": log_level,
            "--access-logfile": self.access_logfile,
            "--access-logformat": access_log,
        }
        self.command = [str(GUNICORN), wsgi]
        for option, value in options.items():
            if value is not None:
                self.command += [option, str(value)]
        self._log = self.logfile.open("wb")
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self, timeout: float = 60) -> AppServer:
        """Wait until ``/health/`` answers 200 and every worker runs; a master that exits raises."""

        def ready() -> bool:
            if self.process.poll() is not None:
                raise HarnessError(
                    f"gunicorn exited at start ({self.process.returncode}):\n{self.log_tail()}"
                )
            return status(try_call(self.port, "GET", HEALTH, timeout=5)) == 200

        try:
            wait_for(ready, timeout, interval=0.2, what=f"gunicorn on port {self.port}")
            wait_for(
                lambda: len(self.worker_pids()) == self.workers_wanted,
                30,
                what=f"gunicorn's {self.workers_wanted} workers",
            )
        except WaitTimeout as error:
            raise WaitTimeout(f"{error}\n{self.log_tail()}") from None
        return self

    def worker_pids(self) -> list[int]:
        """Return the pids of the master's worker processes (its children)."""
        children = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                # The command name is in parentheses and may hold spaces: split after it.
                fields = stat.rsplit(")", 1)[1].split()
                if int(fields[1]) == self.pid and fields[0] != "Z":
                    children.append(int(entry))
        return sorted(children)

    def access_lines(self) -> list[str]:
        """Return the lines of the access log so far (``access_log``)."""
        if self.access_logfile is None or not self.access_logfile.exists():
            return []
        return self.access_logfile.read_text(errors="replace").splitlines()

    def log_tail(self, size: int = 4000) -> str:
        self._log.flush()
        return self.logfile.read_text(errors="replace")[-size:]

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=15)
        # Whatever is left of the group (the workers of a killed master) goes too.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self._log.close()


def pid_of_local_port(port: int, candidates: list[int]) -> int | None:
    """Return which of ``candidates`` owns the TCP socket whose local port is ``port``."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    for pid in candidates:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                        return pid
    return None
