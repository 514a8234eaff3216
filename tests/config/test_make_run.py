"""`make run` runs what a championship day needs, and what it prints works as printed.

The server and the three workers (the outbox's, the registration deadlines', the
imports') run together and stop together: on Ctrl-C (SIGINT to make's process
group, as a terminal sends it) and on SIGTERM to make. Every ``manage.py`` command
the README's "Try it" and the demo's summary print runs as printed, from a shell
that sets no variable, in the checkout ``make run`` set up.

Each test runs ``make run`` for real, on a free port, in a copy of the project
(with the project's virtual environment): the copy has its own ``db.sqlite3`` and
``development.env``, and the developer's are never touched. ``-o`` keeps make from
installing into the shared environment. Marked ``serial``: the servers and workers
run in processes of their own.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from harness.http import free_port, status, try_call, wait_for
from tests.deployment.harness import require
from tests.paths import ROOT

pytestmark = [pytest.mark.serial]

MAKE = shutil.which("make")
VENV = ROOT / ".venv"
# The processes Procfile.dev runs, by what their command lines say.
SERVER = "manage.py runserver 127.0.0.1:{port}"
WORKERS = (
    "manage.py send_mail_outbox --loop",
    "manage.py registration_deadlines --loop",
    "manage.py run_import_jobs --loop",
)
# A manage.py command in prose or in a code block; it ends with its line, code span or
# parenthesis, and the sentence's full stop is not part of it.
COMMAND = re.compile(r"[\w./-]*python[\w.]* manage\.py [^`\n()]*")
RULE = "=" * 72
# How honcho names them in front of each line they print: itself, and Procfile.dev's four.
PROCESS_NAMES = r"system|web\.1|outbox\.1|deadlines\.1|imports\.1"


def shell_env() -> dict[str, str]:
    """Return the environment of a shell that sets none of the application's variables."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(Path.home())}


# What is not copied: the tests, and what a checkout makes as it runs (.gitignore).
NOT_COPIED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "tests",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "*.egg-info",
    "db.sqlite3*",
    "development.env",
    "staticfiles",
    "test-results",
    "benchmark-results",
    "*.log",
)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A copy of the project's files beside the project's virtual environment."""
    require(MAKE is not None, "make is not installed")
    require((VENV / "bin" / "honcho").exists(), f"honcho is not installed in {VENV}")
    root = tmp_path_factory.mktemp("make-run") / "checkout"
    shutil.copytree(ROOT, root, ignore=NOT_COPIED, symlinks=True)
    (root / ".venv").symlink_to(VENV)
    return root


# ----------------------------------------------------------------------------- processes


def _parents() -> dict[int, list[int]]:
    children = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command's name, in parentheses, may hold spaces: the fields follow the last ")".
        children[int(stat.rsplit(")", 1)[1].split()[1])].append(int(entry.name))
    return children


def descendants(pid: int) -> dict[int, str]:
    """Return the processes below ``pid`` (its children, theirs …) with their command lines."""
    children, found, todo = _parents(), {}, [pid]
    while todo:
        for child in children[todo.pop()]:
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            found[child] = command.replace(b"\0", b" ").decode(errors="replace").strip()
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Return whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@dataclass
class MakeRun:
    process: subprocess.Popen
    port: int
    log: Path
    # Every process seen below make, so that none is left behind, whatever a test does.
    seen: dict[int, str] = field(default_factory=dict)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def processes(self) -> dict[int, str]:
        found = descendants(self.process.pid)
        self.seen.update(found)
        return found

    def running(self, pattern: str) -> list[int]:
        """Return the Pythons below make whose command lines hold ``pattern`` (not their shells)."""
        return [
            pid
            for pid, command in self.processes().items()
            if pattern in command and Path(command.split()[0]).name.startswith("python")
        ]


@contextlib.contextmanager
def make_run(checkout: Path):
    """Run ``make run`` in ``checkout`` on a free port until /health/ answers; yield it.

    Whatever is left of it at the end is killed.
    """
    port = free_port()
    log = checkout / f"make-run-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [MAKE, "--no-print-directory", "-o", ".venv/.installed-run", "run", f"PORT={port}"],
            cwd=checkout,
            env=shell_env(),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            # A process group of its own, as a terminal's job: Ctrl-C goes to the group.
            start_new_session=True,
        )
    run = MakeRun(process, port, log)
    try:
        wait_for(
            lambda: (
                status(try_call(port, "GET", "/health/", timeout=5)) == 200
                or process.poll() is not None
            ),
            timeout=300,
            interval=0.5,
            what="make run's server",
        )
        assert process.poll() is None, f"make run stopped:\n{run.output()[-4000:]}"
        # Wait for all four, each started by its shell.
        wait_for(
            lambda: (
                run.running(SERVER.format(port=port))
                and all(run.running(worker) for worker in WORKERS)
            ),
            timeout=30,
            what="the server and the three workers",
        )
        yield run
    finally:
        if process.poll() is None:
            run.processes()
        for pid in [process.pid, *run.seen]:
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        process.wait(timeout=30)


def queue_mail(checkout: Path, subject: str) -> None:
    """Queue a mail in the checkout's database as a page does: only the outbox's worker sends it."""
    code = (
        "from championship import outbox; "
        f"outbox.queue(to='kari@example.org', subject={subject!r}, body='Hello', kind='message')"
    )
    result = subprocess.run(
        [".venv/bin/python", "manage.py", "shell", "--no-imports", "-c", code],
        cwd=checkout,
        env=shell_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def stopped(run: MakeRun, processes: dict[int, str]) -> None:
    """Assert that make and every process it started end within a few seconds."""
    run.process.wait(timeout=15)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(pid) for pid in processes):
        time.sleep(0.1)
    left = {pid: command for pid, command in processes.items() if alive(pid)}
    assert not left, f"still running after make stopped: {left}\n{run.output()[-3000:]}"


# ----------------------------------------------------------------------------- the tests


def test_make_run_runs_the_server_and_the_three_workers_and_ctrl_c_stops_them_all(checkout):
    with make_run(checkout) as run:
        processes = run.processes()
        assert len(run.running(SERVER.format(port=run.port))) >= 1
        for worker in WORKERS:
            assert len(run.running(worker)) == 1, (worker, processes)

        # The outbox's worker sends what a page queued, to the console (no EMAIL_HOST).
        subject = f"make run {uuid.uuid4().hex}"
        queue_mail(checkout, subject)
        wait_for(
            lambda: re.search(rf"^\S+ outbox\.1 +\| Subject: {subject}$", run.output(), re.M),
            timeout=30,
            what="the outbox's worker to send the mail",
        )

        # The summary comes before the processes' lines, which say whose each is.
        output = run.output()
        assert RULE in output and "password:" in output
        lines = output[output.rindex(RULE) :].splitlines()[1:]
        named = [line for line in lines if line.strip()]
        assert named and all(
            re.match(
                r"^\d\d:\d\d:\d\d (system|web\.1|outbox\.1|deadlines\.1|imports\.1) +\| ", line
            )
            for line in named
        ), named[:10]

        # Ctrl-C in the terminal: SIGINT to make's process group.
        processes = run.processes()
        os.killpg(run.process.pid, signal.SIGINT)
        stopped(run, processes)


def test_sigterm_to_make_stops_the_server_and_the_workers(checkout):
    """As ``kill`` or a service manager stops it: the signal goes to make alone."""
    with make_run(checkout) as run:
        processes = run.processes()
        run.process.send_signal(signal.SIGTERM)
        stopped(run, processes)


def try_it_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("\n## Try it\n", 1)[1].split("\n## ", 1)[0]


def printed_commands(text: str) -> list[str]:
    return [command.rstrip(" .,;:") for command in COMMAND.findall(text)]


def test_every_command_the_readme_and_the_summary_print_runs_as_printed(checkout):
    """From a shell that sets no variable, beside ``make run`` (as in a second terminal)."""
    with make_run(checkout) as run:
        output = run.output()
        summary = output[output.index(RULE) : output.rindex(RULE)]
        readme, printed = printed_commands(try_it_section()), printed_commands(summary)
        assert ".venv/bin/python manage.py create_organiser kari --email kari@example.org" in (
            readme
        )
        assert any("create_organiser" in command for command in printed), summary
        commands = list(dict.fromkeys(readme + printed))
        # Without the virtual environment's Python a command fails in a fresh shell.
        assert all(command.startswith(".venv/bin/python manage.py ") for command in commands), (
            commands
        )
        for command in commands:
            result = subprocess.run(
                command,
                shell=True,
                cwd=checkout,
                env=shell_env(),
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert result.returncode == 0, f"{command}\n{result.stdout}{result.stderr}"
            if "create_organiser" in command:
                assert "password: " in result.stdout


def test_the_development_file_is_for_manage_py_and_gunicorn_does_not_read_it(checkout):
    """The file make run writes turns DEBUG on for manage.py; the WSGI application ignores it."""
    subprocess.run(
        [MAKE, "--no-print-directory", "-o", ".venv/.installed-run", "development.env"],
        cwd=checkout,
        env=shell_env(),
        check=True,
        timeout=120,
    )
    path = checkout / "development.env"
    assert "DEBUG=true" in path.read_text().splitlines()
    assert path.stat().st_mode & 0o777 == 0o600

    def python(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [".venv/bin/python", *args],
            cwd=checkout,
            env=shell_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )

    debug = "from django.conf import settings; print(settings.DEBUG)"
    manage = python("manage.py", "shell", "--no-imports", "-c", debug)
    assert (manage.returncode, manage.stdout.strip()) == (0, "True"), manage.stderr
    wsgi = python("-c", "import config.wsgi")
    assert wsgi.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in wsgi.stderr
