"""Start and stop what a deployment is made of: databases, PostgreSQL clusters, Redis, gunicorn.

Everything here runs on 127.0.0.1 and is undone by its ``stop``/``drop``/``destroy``;
the fixtures in ``conftest.py`` make sure those run. Without PostgreSQL, Redis or
gunicorn the tests skip locally and fail in CI (``require``).
"""

from __future__ import annotations

import contextlib
import glob
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.conftest import IN_CI

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SERVER_SETTINGS = "tests.deployment.server_settings"
ROUND = "individual-prelim"
HEAT = "a"


def require(ok: bool, what: str) -> None:
    """Skip without ``what`` locally; in CI its absence is a failure."""
    if ok:
        return
    if IN_CI:
        pytest.fail(f"{what}: the deployment tests must run in CI", pytrace=False)
    pytest.skip(what)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(predicate, timeout: float, interval: float = 0.1, what: str = "condition"):
    """Return the first truthy value of ``predicate()`` within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


# ----------------------------------------------------------------------------- HTTP


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self):
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


def call(port, method, path, *, headers=None, payload=None, timeout=20) -> Answer:
    """Make one request on a new connection; connection errors are raised."""
    headers = dict(headers or {})
    body = None
    if payload is not None:
        body = json.dumps(payload)
        headers["Content-Type"] = "application/json"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        conn.close()


def status(answer) -> int | None:
    """Return the status of an answer, or None for a connection error."""
    return answer.status if isinstance(answer, Answer) else None


def try_call(port, method, path, **kwargs) -> Answer | Exception:
    """Like ``call``, but return a connection error instead of raising it."""
    try:
        return call(port, method, path, **kwargs)
    except (OSError, http.client.HTTPException) as error:
        return error


# ----------------------------------------------------------------------------- PostgreSQL


def postgres_admin_url() -> str:
    """Return the URL of the maintenance database of the PostgreSQL server the suite uses."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url.startswith(("postgres://", "postgresql://")):
        url = "postgres://postgres@127.0.0.1:5432/postgres"
    return urlunsplit(urlsplit(url)._replace(path="/postgres"))


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def postgres_answers(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3):
            return True
    except psycopg.Error:
        return False


class Database:
    """A database of its own on a PostgreSQL server, dropped (with its connections) at the end."""

    def __init__(self, admin_url: str, prefix: str):
        self.admin_url = admin_url
        self.name = f"{prefix}_{secrets.token_hex(4)}"
        self.url = with_database(admin_url, self.name)

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql)

    def create(self) -> Database:
        self._admin(f'CREATE DATABASE "{self.name}"')
        return self

    def drop(self) -> None:
        self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def connect(self, **kwargs):
        import psycopg

        return psycopg.connect(self.url, connect_timeout=5, **kwargs)


def postgres_bindir() -> Path | None:
    """Return the directory of initdb and pg_ctl, or None."""
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        found = subprocess.run(
            ["pg_config", "--bindir"], capture_output=True, text=True, check=True
        ).stdout.strip()
        if found and (Path(found) / "initdb").exists():
            return Path(found)
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if versions:
        return Path(versions[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


class ThrowawayPostgres:
    """A PostgreSQL cluster of its own in a temporary directory, on a free port.

    Run as the ``postgres`` OS user when the tests run as root (PostgreSQL refuses
    root), as the current user otherwise. ``destroy`` stops it and deletes it.
    """

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="championship-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.port = free_port()
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            shutil.chown(self.dir, "postgres", "postgres")

    @staticmethod
    def available(bindir: Path | None) -> bool:
        if bindir is None:
            return False
        if os.geteuid() != 0:
            return True
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return False
        return shutil.which("runuser") is not None

    def _run(self, *command: str, timeout: float = 60) -> None:
        if self.as_postgres:
            command = ("runuser", "-u", "postgres", "--", *command)
        result = subprocess.run(
            command, cwd=self.dir, capture_output=True, text=True, timeout=timeout
        )
        if result.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise AssertionError(
                f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}\n{log}"
            )

    def init(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def destroy(self) -> None:
        try:
            if self.running():
                self.stop("immediate")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"


# ----------------------------------------------------------------------------- Redis


def redis_base() -> tuple[str, int]:
    """Return the host and port of the Redis server the suite uses."""
    url = os.environ.get("REDIS_URL", "").strip() or "redis://127.0.0.1:6379/0"
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 6379


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


class ThrowawayRedis:
    """A redis-server of its own on a free port, without persistence."""

    def __init__(self):
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @staticmethod
    def available() -> bool:
        return shutil.which("redis-server") is not None

    def start(self) -> ThrowawayRedis:
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server"),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for(lambda: redis_answers(self.url()), 15, what="redis-server")
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"


# ----------------------------------------------------------------------------- the application


def server_env(database_url: str, redis_url: str, static_root: Path) -> dict:
    """Return the environment of a production server: DEBUG off, a secret, the given services."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
    keep.pop("CI", None)
    return {
        **keep,
        "DJANGO_SETTINGS_MODULE": SERVER_SETTINGS,
        "DEPLOYMENT_STATIC_ROOT": str(static_root),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": "deployment-test-" + secrets.token_hex(24),
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }


def manage(env: dict, *args: str, timeout: float = 180) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, (
        f"manage.py {' '.join(args)[:200]} failed ({result.returncode}):\n"
        f"{result.stdout[-2000:]}{result.stderr[-4000:]}"
    )
    return result.stdout


def championship_document(
    slug: str, *, now: datetime, entries: int, capacity: int | None, started: datetime
) -> dict:
    """Return a rogaland championship: ``entries`` confirmed entries seated in heat "a".

    The heat started at ``started`` and runs; every entry has a pending result
    (a row that says "Puzzling"). Registration is open: the championship is in
    60 days.
    """
    persons, members, seats, results = [], [], [], []
    for number in range(1, entries + 1):
        persons.append(
            {
                "id": f"p{number}",
                "name": f"Puzzler {number}",
                "birth_date": "1990-01-01",
                "region": "Rogaland",
                "citizenship": ["NO"],
                "email": f"puzzler{number}@example.org",
                "publish_consent": True,
            }
        )
        members.append(
            {
                "id": f"e{number}",
                "name": f"Puzzler {number}",
                "members": [f"p{number}"],
                "status": "confirmed",
                "publish_consent": True,
            }
        )
        seats.append({"table": number, "entry": f"e{number}"})
        results.append({"entry": f"e{number}", "status": "pending"})
    return {
        "format": "speedpuzzling-championship",
        "version": 1,
        "championship": {
            "slug": slug,
            "name": f"Deployment test {slug}",
            "ruleset": "rogaland",
            "timezone": "Europe/Oslo",
            "starts_at": (now + timedelta(days=60)).isoformat(),
            "language": "en",
        },
        "tables": [{"number": n, "seats": 1} for n in range(1, entries + 1)],
        "persons": persons,
        "competitions": [
            {
                "key": "individual",
                "category": "individual",
                "pieces": 500,
                "time_limit_minutes": 120,
                "capacity": capacity,
                "entries": members,
                "rounds": [
                    {
                        "key": ROUND,
                        "stage": "prelim",
                        "heats": [
                            {
                                "key": HEAT,
                                "started_at": started.isoformat(),
                                "seats": seats,
                                "results": results,
                            }
                        ],
                    }
                ],
            }
        ],
    }


SETUP = """
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from championship.models import Championship, ChampionshipRole
call_command("import_championship", {path!r})
user = get_user_model().objects.create_user({user!r})
championship = Championship.objects.get(slug={slug!r})
ChampionshipRole.objects.create(championship=championship, user=user, role="judge")
print("TOKEN", Token.objects.create(user=user).key)
"""


def migrate_and_load(env: dict, document: dict, workdir: Path) -> str:
    """Migrate the database, import ``document``, add a judge; return the judge's API token."""
    manage(env, "migrate", "--noinput")
    slug = document["championship"]["slug"]
    path = workdir / f"{slug}.json"
    path.write_text(json.dumps(document))
    user = f"judge-{slug}"
    out = manage(env, "shell", "-c", SETUP.format(path=str(path), user=user, slug=slug))
    return out.split("TOKEN", 1)[1].split()[0]


class AppServer:
    """A gunicorn master (``config.wsgi``) in a process group of its own."""

    def __init__(self, env: dict, logdir: Path, *, workers=2, worker_class="sync", threads=1):
        self.port = free_port()
        self.logfile = logdir / f"gunicorn-{self.port}.log"
        command = [
            str(BIN / "gunicorn"),
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(workers),
            "--worker-class",
            worker_class,
            "--threads",
            str(threads),
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
        ]
        self._log = self.logfile.open("wb")
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.workers_wanted = workers

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self, timeout: float = 60) -> AppServer:
        def ready():
            assert self.process.poll() is None, f"gunicorn exited:\n{self.log_tail()}"
            answer = try_call(self.port, "GET", "/health/", timeout=5)
            return isinstance(answer, Answer) and answer.status == 200

        try:
            wait_for(ready, timeout, interval=0.2, what=f"gunicorn on {self.port}")
        except AssertionError as error:
            raise AssertionError(f"{error}\n{self.log_tail()}") from None
        wait_for(lambda: len(self.worker_pids()) == self.workers_wanted, 30, what="all workers")
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

    def log_tail(self, size: int = 4000) -> str:
        self._log.flush()
        return self.logfile.read_text(errors="replace")[-size:]

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=15)
        # Whatever is left of the group (a worker of a killed master) goes too.
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


# ----------------------------------------------------------------------------- judging


@dataclass
class Tap:
    """One capture as a judge's phone queues it: the id is fixed when the judge taps."""

    entry: str
    at: datetime
    started: datetime
    id: str = field(default_factory=lambda: str(uuid.uuid4()))

    @property
    def expected_ms(self) -> int:
        return (self.at - self.started) // timedelta(milliseconds=1)

    @property
    def expected_time(self) -> str:
        seconds = self.expected_ms // 1000
        return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

    def payload(self) -> dict:
        return {
            "id": self.id,
            "round": ROUND,
            "entry": self.entry,
            "kind": "finish",
            "at": self.at.isoformat(),
            "missing_found": 0,
            "missing_lost": 0,
            "adjacent_missing": 0,
        }


def post_capture(port: int, slug: str, token: str, tap: Tap, timeout=30) -> Answer | Exception:
    return try_call(
        port,
        "POST",
        f"/api/v1/championships/{slug}/captures/",
        headers={"Authorization": f"Token {token}"},
        payload=tap.payload(),
        timeout=timeout,
    )


def acknowledged(answer) -> bool:
    return isinstance(answer, Answer) and answer.status == 201


def describe(answer) -> str:
    if isinstance(answer, Answer):
        return f"{answer.status} {answer.text[:300]}"
    return f"{type(answer).__name__}: {answer}"


def fragment_path(slug: str, heat: str = HEAT) -> str:
    return f"/{slug}/results/{ROUND}/?heat={heat}"


def fragment_row(html: str, name: str) -> str:
    """Return the table row of the entry called ``name`` in a results fragment."""
    for row in html.split("<tr ")[1:]:
        if f">{name}</span>" in row:
            return row.split("</tr>", 1)[0]
    raise AssertionError(f"no row for {name!r} in the fragment")


def shown_time(ms: int) -> str:
    """Return a final time as the results table shows it (M:SS, or H:MM:SS from an hour)."""
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
