"""``deploy/upgrade.sh`` run on an installation rendered into a temporary directory.

The installation's code is a git clone one commit behind its origin (a bare clone of
this checkout's commit); its virtual environment is this checkout's. The commands that
act on the system (systemctl, nginx, pip) are stand-ins that write down how they were
called; everything else runs: the release is fetched and checked out, the files of the
installation are rendered again by the release's own ``render.py`` (the secret key
kept), the database is migrated and the static files collected.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.postgres import Database
from harness.servers import ROOT

pytestmark = [pytest.mark.serial]

DOMAIN = "puzzle.example.org"
DEPLOY = ROOT / "deploy"
RECORDER = """#!/bin/sh
echo "$(basename "$0") $*" >> {log}
"""


def git(*args, cwd: Path | None = None) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def stand_in(directory: Path, name: str, log: Path) -> Path:
    path = directory / name
    path.write_text(RECORDER.format(log=log))
    path.chmod(0o755)
    return path


@pytest.fixture
def behind(tmp_path, postgres_admin, shared_redis, gunicorn_installed):
    """An installation one commit behind its origin, rendered under ``tmp_path / "root"``."""
    origin = tmp_path / "origin.git"
    git("clone", "--quiet", "--bare", str(ROOT), str(origin))
    root = tmp_path / "root"
    app = root / "srv/championship/app"
    git("clone", "--quiet", str(origin), str(app))
    git("checkout", "--quiet", "--detach", "HEAD~1", cwd=app)
    (root / "srv/championship/venv").symlink_to(Path(sys.executable).parents[1])
    with contextlib.ExitStack() as cleanup:
        database = Database(postgres_admin, "championship_upgrade", unique=True).create()
        cleanup.callback(database.drop)
        tls = root / "etc/championship/tls"
        tls.mkdir(parents=True)
        for name in ("site.crt", "site.key"):
            (tls / name).write_text("made by the test; nginx is a stand-in here\n")
        subprocess.run(
            [
                *(sys.executable, DEPLOY / "render.py", DOMAIN, "--root", root, "--relocate"),
                *("--user", "root", "--workers", "3", "--no-ipv6"),
                *("--certificate", tls / "site.crt", "--key", tls / "site.key"),
                *("--database-url", database.url, "--redis-url", shared_redis),
            ],
            check=True,
            capture_output=True,
        )
        yield {"root": root, "app": app, "origin": origin, "database": database}


def test_an_upgrade_checks_out_the_release_renders_its_files_migrates_and_reloads(behind, tmp_path):
    root, app = behind["root"], behind["app"]
    web_unit = root / "etc/systemd/system/championship-web.service"
    fresh_unit = web_unit.read_text()
    web_unit.write_text("# the file of an older release\n")
    env_file = root / "etc/championship/championship.env"
    env_before = env_file.read_text()
    static_root = app / "staticfiles"
    assert not static_root.exists()

    stand_ins = tmp_path / "bin"
    stand_ins.mkdir()
    log = tmp_path / "system.log"
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "LANG": "C.UTF-8",
        "SYSTEMCTL": str(stand_in(stand_ins, "systemctl", log)),
        "NGINX": str(stand_in(stand_ins, "nginx", log)),
        "PIP": str(stand_in(stand_ins, "pip", log)),
    }
    config = root / "etc/championship/deploy.conf"
    ran = subprocess.run(
        [DEPLOY / "upgrade.sh", "main", "--config", config],
        env=env,
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr

    # The release is the origin's main.
    assert git("rev-parse", "HEAD", cwd=app) == git("rev-parse", "main", cwd=behind["origin"])
    assert "Upgraded to" in ran.stdout
    # Its files, for the same installation; the environment file (the secret key) kept.
    assert web_unit.read_text() == fresh_unit
    assert env_file.read_text() == env_before
    # Migrated and collected.
    applied = subprocess.run(
        ["psql", behind["database"].url, "-tAc", "SELECT count(*) FROM django_migrations"],
        check=True,
        capture_output=True,
        text=True,
    )
    assert int(applied.stdout) > 20
    assert (static_root / "judging").is_dir()
    # Installed into the environment, then nginx checked and everything reloaded in order.
    assert log.read_text().splitlines() == [
        f"pip install --quiet --upgrade {app}",
        "nginx -t -q",
        "systemctl daemon-reload",
        "systemctl reload nginx.service",
        "systemctl reload championship-web.service",
        "systemctl restart championship-outbox.service championship-deadlines.service "
        "championship-imports.service",
    ]


def test_render_again_needs_the_arguments_it_kept(tmp_path):
    config = tmp_path / "deploy.conf"
    config.write_text("CHAMPIONSHIP_APP=/srv/championship/app\n")
    ran = subprocess.run(
        [sys.executable, DEPLOY / "render.py", "--again", config], capture_output=True, text=True
    )
    assert ran.returncode == 1
    assert "keeps no CHAMPIONSHIP_RENDER" in ran.stderr
