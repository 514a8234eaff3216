"""``deploy/install.sh`` run for real on this machine, as root: CI's machine, thrown away after.

It changes the machine (a system user, ``/srv/championship``, ``/etc/championship``, the
units, the nginx site, a PostgreSQL role and database), so it runs only where asked:
``pytest -m installs`` (``.ci/run`` does, as root); ``make test`` leaves it out. The
machine has no systemd running, so ``systemctl`` is a stand-in that writes down its
calls; the test then starts what each unit says, as the unit's user, and reaches the
site through the machine's nginx over HTTPS.
"""

from __future__ import annotations

import configparser
import contextlib
import http.client
import os
import pwd
import shlex
import signal
import ssl
import stat
import subprocess
from pathlib import Path

import pytest

from harness.http import wait_for
from harness.servers import ROOT
from tests.deployment import harness as h

pytestmark = [pytest.mark.installs, pytest.mark.serial]

DOMAIN = "puzzle.example.org"
APP = Path("/srv/championship/app")
ETC = Path("/etc/championship")
UNITS = Path("/etc/systemd/system")
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
RECORDER = """#!/bin/sh
echo "systemctl $*" >> {log}
"""


def install(tmp_path: Path) -> subprocess.CompletedProcess:
    stand_in = tmp_path / "systemctl"
    stand_in.write_text(RECORDER.format(log=tmp_path / "systemctl.log"))
    stand_in.chmod(0o755)
    return subprocess.run(
        [ROOT / "deploy/install.sh", DOMAIN, "--no-certbot"],
        # As sudo gives it: none of the test run's settings (DJANGO_SETTINGS_MODULE).
        env={
            "PATH": SYSTEM_PATH,
            "HOME": "/root",
            "LANG": "C.UTF-8",
            "SYSTEMCTL": str(stand_in),
        },
        capture_output=True,
        text=True,
        timeout=1200,
    )


def service(name: str) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str
    parser.read(UNITS / name)
    return parser["Service"]


def start(name: str, log: Path) -> subprocess.Popen:
    """Start the unit's ExecStart as its user, in its directory and environment file."""
    unit = service(name)
    runtime = unit.get("RuntimeDirectory")
    if runtime:
        directory = Path("/run") / runtime
        directory.mkdir(exist_ok=True)
        user = pwd.getpwnam(unit["User"])
        os.chown(directory, user.pw_uid, user.pw_gid)
    venv_python = "/srv/championship/venv/bin/python"
    command = [
        *("runuser", "-u", unit["User"], "--", venv_python, str(APP / "deploy/envfile.py")),
        *("exec", unit["EnvironmentFile"], "--", *shlex.split(unit["ExecStart"])),
    ]
    return subprocess.Popen(
        command,
        cwd=unit["WorkingDirectory"],
        env={"PATH": SYSTEM_PATH, "LANG": "C.UTF-8"},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=40)
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def nginx_serves_the_site() -> bool:
    """Load the site into the machine's nginx: reload the running one, or start it (True)."""
    running = Path("/run/nginx.pid")
    if running.exists():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(running.read_text()), 0)
            subprocess.run(["/usr/sbin/nginx", "-s", "reload"], check=True)
            return False
    subprocess.run(["/usr/sbin/nginx"], check=True)
    return True


def get(path: str) -> tuple[int, bytes]:
    tls = ssl.create_default_context()
    tls.check_hostname = False
    tls.verify_mode = ssl.CERT_NONE
    connection = http.client.HTTPSConnection("127.0.0.1", 443, context=tls, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": DOMAIN})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_install_sh_installs_the_site_and_again_changes_nothing(tmp_path):
    h.require(os.geteuid() == 0, "deploy/install.sh runs as root")
    fresh = not APP.exists()
    first = install(tmp_path)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    assert f"The championship runs at https://{DOMAIN}/" in first.stdout

    # The code: a clone of this checkout's commit (kept if it was there: upgrade.sh changes
    # it), root's; the app's user cannot change it.
    if fresh:
        head = subprocess.run(
            ["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout
        installed = subprocess.run(
            ["git", "-c", f"safe.directory={APP}", "-C", APP, "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert installed == head
    else:
        assert f"kept {APP}" in first.stdout
    assert APP.stat().st_uid == 0
    user = pwd.getpwnam("championship")
    env_file = ETC / "championship.env"
    assert (env_file.stat().st_gid, stat.S_IMODE(env_file.stat().st_mode)) == (user.pw_gid, 0o640)
    key = [line for line in env_file.read_text().splitlines() if line.startswith("SECRET_KEY=")]
    units = sorted(path.name for path in UNITS.glob("championship-*"))
    assert len(units) == 6, units
    calls = (tmp_path / "systemctl.log").read_text()
    for unit in units:
        if unit != "championship-backup.service":  # the timer starts it
            assert f"systemctl restart {unit}" in calls

    # What the summary prints works as printed.
    organiser = subprocess.run(
        ["championship-manage", "create_organiser", "kari", "--email", "kari@example.org"],
        env={"PATH": SYSTEM_PATH, "LANG": "C.UTF-8"},
        capture_output=True,
        text=True,
    )
    assert organiser.returncode == 0, organiser.stdout + organiser.stderr

    # The units' commands, as their user: the site answers through nginx over HTTPS.
    logs = tmp_path / "logs"
    logs.mkdir()
    processes = {}
    started_nginx = False
    try:
        for name in ("web", "outbox", "deadlines", "imports"):
            processes[name] = start(f"championship-{name}.service", logs / f"{name}.log")
        started_nginx = nginx_serves_the_site()

        def answers():
            assert processes["web"].poll() is None, (logs / "web.log").read_text()
            with contextlib.suppress(OSError):
                return get("/health/")[0] == 200
            return False

        wait_for(answers, 60, interval=0.5, what="the site through nginx")
        status, body = get("/")
        assert status == 200, body[:500]
        status, body = get("/static/judging/dashboard.js")
        assert status == 200 and body, status
        for name in ("outbox", "deadlines", "imports"):
            assert processes[name].poll() is None, (logs / f"{name}.log").read_text()
        backup = service("championship-backup.service")
        made = subprocess.run(
            [
                *("runuser", "-u", backup["User"], "--"),
                *("/srv/championship/venv/bin/python", str(APP / "deploy/envfile.py")),
                *("exec", backup["EnvironmentFile"], "--", *shlex.split(backup["ExecStart"])),
            ],
            cwd=backup["WorkingDirectory"],
            env={"PATH": SYSTEM_PATH, "LANG": "C.UTF-8"},
            capture_output=True,
            text=True,
        )
        assert made.returncode == 0, made.stdout + made.stderr
        assert list(Path("/var/backups/championship").glob("*/database.dump"))
    finally:
        for process in processes.values():
            stop(process)
        if started_nginx:
            subprocess.run(["/usr/sbin/nginx", "-s", "quit"], check=False)

    # Again: safe, and the secret key kept.
    second = install(tmp_path)
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    assert "kept /srv/championship/app" in second.stdout
    assert [
        line for line in env_file.read_text().splitlines() if line.startswith("SECRET_KEY=")
    ] == key
