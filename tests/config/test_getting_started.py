"""Getting started: `make run` installs only what running needs, and phones on the LAN get in."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from config import env
from core import lan
from tests.paths import ROOT

MAKE = shutil.which("make")
needs_make = pytest.mark.skipif(MAKE is None, reason="make is not installed")


def dry_run(directory: Path, *args: str) -> str:
    """Return the commands `make` would run in ``directory``, without running them.

    A command continued on the next line (``\\``) is one line here.
    """
    result = subprocess.run(
        [MAKE, "--no-print-directory", "-n", *args],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return re.sub(r" *\\\n\s*", " ", result.stdout)


def pip_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if "pip install" in line]


@pytest.fixture
def checkout(tmp_path):
    """A copy of the Makefile and pyproject.toml with a virtual environment that exists."""
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy2(ROOT / name, tmp_path / name)
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.touch(mode=0o755)
    return tmp_path


def stamp(checkout: Path, *names: str) -> None:
    for name in names:
        (checkout / ".venv" / name).touch()


@needs_make
def test_make_run_installs_the_runtime_dependencies_only_and_quietly(checkout):
    (pip,) = pip_lines(dry_run(checkout, "run"))
    assert pip.endswith(" -e .")
    assert "[dev]" not in pip
    assert "--quiet --quiet" in pip and "--disable-pip-version-check" in pip


@needs_make
def test_make_test_after_make_run_adds_the_dev_extras(checkout):
    stamp(checkout, ".installed-run")
    assert pip_lines(dry_run(checkout, "run")) == []
    (pip,) = pip_lines(dry_run(checkout, "test"))
    assert pip.endswith(" -e '.[dev]'")


@needs_make
def test_make_run_after_make_test_installs_nothing_more(checkout):
    output = dry_run(checkout, "test")
    assert ".installed-run" in output, "the dev install stamps the runtime install too"
    stamp(checkout, ".installed-dev", ".installed-run")
    assert pip_lines(dry_run(checkout, "run")) == []
    assert pip_lines(dry_run(checkout, "test")) == []


@needs_make
def test_make_run_keeps_the_demo_and_fresh_rebuilds_it(checkout):
    stamp(checkout, ".installed-run")
    (kept,) = [line for line in dry_run(checkout, "run").splitlines() if "manage.py demo" in line]
    assert "--keep --address 127.0.0.1:8000" in kept
    fresh = dry_run(checkout, "run", "FRESH=1", "HOST=0.0.0.0")
    (demo,) = [line for line in fresh.splitlines() if "manage.py demo" in line]
    assert "--keep" not in demo and "--address 0.0.0.0:8000" in demo
    assert "HOST=0.0.0.0 " in fresh.strip().splitlines()[-1]


def test_in_debug_the_lan_address_is_an_allowed_host():
    hosts = env.allowed_hosts({}, True, lambda: "192.168.1.23")
    assert hosts == ["localhost", "127.0.0.1", "[::1]", "192.168.1.23"]


def test_without_debug_the_lan_address_is_not_allowed():
    assert "192.168.1.23" not in env.allowed_hosts({}, False, lambda: "192.168.1.23")


def test_an_explicit_allowed_hosts_is_taken_as_it_is():
    hosts = env.allowed_hosts({"ALLOWED_HOSTS": "a.example"}, True, lambda: "192.168.1.23")
    assert hosts == ["a.example"]
    assert env.allowed_hosts({}, True, lambda: None) == ["localhost", "127.0.0.1", "[::1]"]


def test_the_lan_address_is_a_usable_ipv4_address_or_none():
    address = lan.lan_address()
    assert address is None or lan._usable(address)
    assert not lan._usable("127.0.0.1") and not lan._usable("169.254.3.4")
    assert lan._usable("192.168.1.23") and not lan._usable("fd00::2")


def test_without_a_network_the_lan_address_is_none(monkeypatch):
    class NoRoute:
        def __init__(self, *args):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def connect(self, address):
            raise OSError("Network is unreachable")

    monkeypatch.setattr(lan.socket, "socket", NoRoute)
    monkeypatch.setattr(lan, "_interface_addresses", lambda: [])
    assert lan.lan_address() is None
    monkeypatch.setattr(lan, "_interface_addresses", lambda: ["10.0.0.7"])
    assert lan.lan_address() == "10.0.0.7"


@needs_make
def test_make_run_runs_the_server_and_the_workers_after_the_demos_summary(checkout):
    """honcho runs Procfile.dev in make's place (exec): SIGTERM to make reaches it.

    tests/config/test_make_run.py runs it for real.
    """
    stamp(checkout, ".installed-run")
    lines = dry_run(checkout, "run", "PORT=8123").strip().splitlines()
    (demo,) = [n for n, line in enumerate(lines) if "manage.py demo" in line]
    (honcho,) = [n for n, line in enumerate(lines) if "honcho start" in line]
    assert demo < honcho == len(lines) - 1
    assert lines[honcho].startswith("exec env DEBUG=true DATABASE_URL= PYTHONUNBUFFERED=1 ")
    assert "HOST=127.0.0.1 " in lines[honcho]
    assert lines[honcho].endswith("honcho start -f Procfile.dev -p 8123")


def test_procfile_runs_the_server_and_the_three_workers_a_site_needs():
    procfile = (ROOT / "Procfile.dev").read_text()
    processes = dict(
        line.split(": ", 1) for line in procfile.splitlines() if line and line[0] != "#"
    )
    assert processes == {
        # honcho gives the first process the port of -p.
        "web": 'python manage.py runserver "$HOST:$PORT"',
        "outbox": "python manage.py send_mail_outbox --loop",
        "deadlines": "python manage.py registration_deadlines --loop",
        "imports": "python manage.py run_import_jobs --loop",
    }


@needs_make
def test_make_run_writes_the_development_file_once(checkout):
    stamp(checkout, ".installed-run")
    (write,) = [line for line in dry_run(checkout, "run").splitlines() if "development.env" in line]
    assert "development_file_write" in write
    (checkout / "development.env").touch()
    assert "development.env" not in dry_run(checkout, "run")
