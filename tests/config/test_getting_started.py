"""Getting started: `make run` installs only what running needs, and phones on the LAN get in."""

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
    """Return the commands `make` would run in ``directory``, without running them."""
    result = subprocess.run(
        [MAKE, "--no-print-directory", "-n", *args],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout


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
    assert fresh.strip().splitlines()[-1].endswith("runserver 0.0.0.0:8000")


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
def test_make_run_runs_the_outbox_worker_beside_the_server_and_stops_it_with_it(checkout):
    """Requests only queue mail: the worker sends it, started after the demo's summary."""
    stamp(checkout, ".installed-run")
    lines = dry_run(checkout, "run").strip().splitlines()
    (demo,) = [n for n, line in enumerate(lines) if "manage.py demo" in line]
    (worker,) = [n for n, line in enumerate(lines) if "manage.py send_mail_outbox --loop &" in line]
    assert demo < worker
    # One shell: the worker in the background, a trap that ends it, the server in front.
    shell = " ".join(line.rstrip("\\") for line in lines[worker:])
    assert "trap 'kill $worker" in shell and "EXIT" in shell
    assert lines[-1].endswith("runserver 127.0.0.1:8000")


@needs_make
def test_make_run_runs_the_import_worker_beside_the_server_and_stops_it_with_it(checkout):
    """A large CSV import is imported by its worker: started and ended as the outbox's."""
    stamp(checkout, ".installed-run")
    lines = dry_run(checkout, "run").strip().splitlines()
    (demo,) = [n for n, line in enumerate(lines) if "manage.py demo" in line]
    (imports,) = [n for n, line in enumerate(lines) if "manage.py run_import_jobs --loop &" in line]
    assert demo < imports
    shell = " ".join(line.rstrip("\\") for line in lines[imports:])
    assert "$imports" in shell.split("trap", 1)[1].split("EXIT", 1)[0]
    assert lines[-1].endswith("runserver 127.0.0.1:8000")
