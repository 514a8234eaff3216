"""PostgreSQL: databases created and dropped on a server that runs, and throwaway clusters.

A ``Database`` lives on an existing server (the benchmark's ``--pg``, the
deployment tests' ``DATABASE_URL``) and is dropped, with its connections, by
``drop``. A ``ThrowawayPostgres`` is a cluster of its own (``initdb``, ``pg_ctl``)
in a temporary directory, for a test that stops and starts PostgreSQL.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from harness import HarnessError
from harness.http import HOST, free_port

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres"


def with_database(url: str, name: str) -> str:
    """Return ``url`` with its database replaced by ``name``."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def maintenance_url(url: str) -> str:
    """Return the URL of the ``postgres`` database of ``url``'s server (or of the default one)."""
    url = (url or "").strip()
    if not url.startswith(("postgres://", "postgresql://")):
        url = DEFAULT_URL
    return with_database(url, "postgres")


def postgres_answers(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3):
            return True
    except psycopg.Error:
        return False


def admin_connection(url: str):
    """Return an autocommit connection to ``url``; a server that does not answer raises."""
    import psycopg

    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        raise HarnessError(f"PostgreSQL at {url} does not answer: {error}") from None


def server_version(url: str) -> str:
    with admin_connection(url) as conn:
        return conn.execute("SHOW server_version").fetchone()[0]


class Database:
    """A database on the PostgreSQL server of ``admin_url``, dropped (connections too) by ``drop``.

    ``unique`` appends a random suffix to ``name``; without it ``create`` replaces a
    database of that name left behind by an earlier run.
    """

    def __init__(self, admin_url: str, name: str, *, unique: bool = False):
        self.admin_url = admin_url
        self.name = f"{name}_{secrets.token_hex(4)}" if unique else name
        self.url = with_database(admin_url, self.name)

    def _admin(self, statement: str) -> None:
        from psycopg import sql

        with admin_connection(self.admin_url) as conn:
            conn.execute(sql.SQL(statement).format(sql.Identifier(self.name)))

    def create(self) -> Database:
        self._admin("DROP DATABASE IF EXISTS {} WITH (FORCE)")
        self._admin("CREATE DATABASE {}")
        return self

    def drop(self) -> None:
        self._admin("DROP DATABASE IF EXISTS {} WITH (FORCE)")

    def analyze(self) -> None:
        """Gather the planner's statistics, as autovacuum would within a minute of an import.

        A server with autovacuum off (as some test machines run it) would otherwise
        plan every query on the defaults for a table never analysed.
        """
        with self.connect(autocommit=True) as conn:
            conn.execute("ANALYZE")

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

    Run as the ``postgres`` OS user when running as root (PostgreSQL refuses
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
            raise HarnessError(
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
        options = f"-p {self.port} -k {self.dir} -c listen_addresses={HOST}"
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
        return f"postgres://postgres@{HOST}:{self.port}/{database}"
