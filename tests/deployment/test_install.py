"""The one-command server install (``deploy/``), its files rendered for a test domain and run.

``deploy/install.sh`` needs root, apt and systemd, so it is not run here; its
pieces are. ``deploy/render.py --relocate`` writes the installation's files into
a temporary directory with every path in them under it, the code and the
virtual environment are this checkout's (linked there), and then: nginx accepts
the site, ``systemd-analyze verify`` accepts the units, each unit's ``ExecStart``
runs as it stands with the environment file's variables (gunicorn answers on its
unix socket, through nginx over HTTPS too, and reloads without dropping a
request; the workers run and stop on SIGTERM), and a backup restored into an
empty database exports the same championships.
"""

from __future__ import annotations

import configparser
import contextlib
import http.client
import importlib.util
import json
import os
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from harness.http import free_port, wait_for
from harness.postgres import Database
from harness.proxy import nginx
from harness.servers import ROOT
from tests.deployment import harness as h

pytestmark = [pytest.mark.serial]

DOMAIN = "puzzle.example.org"
DEPLOY = ROOT / "deploy"
SCRIPTS = sorted(DEPLOY.glob("*.sh"))
UNITS = ("web", "outbox", "deadlines", "imports")
WORKERS = {
    "outbox": "send_mail_outbox",
    "deadlines": "registration_deadlines",
    "imports": "run_import_jobs",
}
SYSTEMD_ANALYZE = "/usr/bin/systemd-analyze"


def load_envfile():
    spec = importlib.util.spec_from_file_location("deploy_envfile", DEPLOY / "envfile.py")
    module = importlib.util.module_from_spec(spec)
    # deploy/ is no package of the project: leave no __pycache__ in it.
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = writes
    return module


envfile = load_envfile()


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float = 10):
        super().__init__("localhost", timeout=timeout)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def get_unix(sock: Path, path: str, host: str = DOMAIN) -> int:
    connection = UnixHTTPConnection(str(sock))
    try:
        connection.request("GET", path, headers={"Host": host})
        return connection.getresponse().status
    finally:
        connection.close()


def unit(root: Path, name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str
    parser.read(root / "etc/systemd/system" / name)
    return parser


def unit_environment(root: Path, service: configparser.ConfigParser) -> dict[str, str]:
    """Return the environment systemd gives the service: a bare PATH and HOME, and its file."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(root), "LANG": "C.UTF-8"}
    return {**env, **envfile.read(service["Service"]["EnvironmentFile"])}


def start(root: Path, name: str, log: Path) -> subprocess.Popen:
    """Start the unit's ExecStart as it stands, in its working directory and environment."""
    service = unit(root, f"championship-{name}.service")["Service"]
    return subprocess.Popen(
        shlex.split(service["ExecStart"]),
        cwd=service["WorkingDirectory"],
        env=unit_environment(root, unit(root, f"championship-{name}.service")),
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(process: subprocess.Popen) -> int | None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            return process.wait(timeout=60)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    return process.returncode


def export(env: dict, slug: str) -> dict:
    result = subprocess.run(
        [sys.executable, "manage.py", "export_championship", slug],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def installation(tmp_path_factory, postgres_admin, shared_redis, gunicorn_installed):
    """The files rendered for DOMAIN under a temporary root; a migrated database with the demo."""
    root = tmp_path_factory.mktemp("install")
    with contextlib.ExitStack() as cleanup:
        database = Database(postgres_admin, "championship_install", unique=True).create()
        cleanup.callback(database.drop)
        tls = root / "etc/championship/tls"
        tls.mkdir(parents=True)
        subprocess.run(
            [
                *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
                *("-subj", f"/CN={DOMAIN}", "-keyout", tls / "site.key", "-out", tls / "site.crt"),
            ],
            check=True,
            capture_output=True,
        )
        http_port, https_port = free_port(), free_port()
        render = [
            *(sys.executable, DEPLOY / "render.py", DOMAIN, "--root", root, "--relocate"),
            *("--user", "root", "--workers", "2", "--no-ipv6"),
            *("--http-port", str(http_port), "--https-port", str(https_port)),
            *("--certificate", tls / "site.crt", "--key", tls / "site.key"),
            *("--database-url", database.url, "--redis-url", shared_redis),
        ]
        subprocess.run(render, check=True, capture_output=True)
        # The code and the virtual environment are this checkout's.
        (root / "srv/championship").mkdir(parents=True)
        (root / "srv/championship/app").symlink_to(ROOT)
        (root / "srv/championship/venv").symlink_to(Path(sys.executable).parents[1])
        (root / "run/championship").mkdir(parents=True)  # systemd's RuntimeDirectory=
        env = unit_environment(root, unit(root, "championship-web.service"))
        h.manage({**env, "PATH": os.environ["PATH"]}, "migrate", "--noinput")
        h.manage({**env, "PATH": os.environ["PATH"]}, "demo")
        yield {
            "root": root,
            "database": database,
            "env": {**env, "PATH": os.environ["PATH"]},
            "ports": (http_port, https_port),
            "admin": postgres_admin,
            "render": render,
        }


def test_every_script_is_valid_bash_and_shellcheck_clean():
    assert {path.name for path in SCRIPTS} >= {
        "install.sh",
        "upgrade.sh",
        "backup.sh",
        "restore.sh",
    }
    for script in SCRIPTS:
        checked = subprocess.run(["bash", "-n", script], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        assert os.access(script, os.X_OK), f"{script.name} is not executable"
    shellcheck = shutil.which("shellcheck")
    h.require(shellcheck is not None, "shellcheck is not installed (apt-get install shellcheck)")
    checked = subprocess.run([shellcheck, *SCRIPTS], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout


def test_the_environment_file_says_what_the_guide_asks(installation):
    root = installation["root"]
    text = (root / "etc/championship/championship.env").read_text()
    variables = envfile.parse(text)
    assert variables["DEBUG"] == "false"
    assert len(variables["SECRET_KEY"]) >= 50
    assert variables["ALLOWED_HOSTS"] == DOMAIN
    assert variables["CSRF_TRUSTED_ORIGINS"] == variables["SITE_URL"] == f"https://{DOMAIN}"
    assert variables["TRUSTED_PROXY_COUNT"] == "1"
    socket_path = root / "run/championship/gunicorn.sock"
    assert variables["GUNICORN_CMD_ARGS"] == f"--bind unix:{socket_path}"
    # systemd keeps a "# ..." after a value as part of it: comments only on their own lines.
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            assert "#" not in line, line


def test_rendering_again_changes_nothing_and_keeps_the_secret_key(installation):
    """install.sh renders at each run: a second run writes the same files, the key kept."""
    root = installation["root"]

    def files() -> dict[str, str]:
        return {
            str(path.relative_to(root)): path.read_text()
            for path in sorted(root.glob("etc/**/*")) + sorted(root.glob("usr/**/*"))
            if path.is_file() and "tls" not in path.parts
        }

    before = files()
    assert "etc/championship/championship.env" in before
    subprocess.run(installation["render"], check=True, capture_output=True)
    assert files() == before


def test_systemd_accepts_every_unit(installation):
    h.require(os.access(SYSTEMD_ANALYZE, os.X_OK), f"{SYSTEMD_ANALYZE} is not installed")
    units = sorted((installation["root"] / "etc/systemd/system").glob("championship-*"))
    assert [u.name for u in units] == sorted(
        [f"championship-{name}.service" for name in (*UNITS, "backup")]
        + ["championship-backup.timer"]
    )
    verified = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", *units], capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stderr
    assert verified.stderr == "", verified.stderr
    web = unit(installation["root"], "championship-web.service")["Service"]
    assert web["ExecReload"] == "/bin/kill -s HUP $MAINPID"
    timer = unit(installation["root"], "championship-backup.timer")["Timer"]
    assert timer["OnCalendar"] == "*-*-* 03:30:00"


@pytest.fixture(scope="module")
def site(installation):
    """nginx with the rendered site, as the http block of a configuration of the test's own."""
    binary = nginx()
    h.require(binary is not None, "nginx is not installed (apt-get install nginx-light)")
    root = installation["root"]
    workdir = root / "nginx"
    (workdir / "temp").mkdir(parents=True)
    (root / "var/cache/nginx").mkdir(parents=True, exist_ok=True)
    user = "user root root;" if os.geteuid() == 0 else ""
    config = workdir / "nginx.conf"
    config.write_text(
        f"""{user}
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/error.log warn;
daemon off;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {workdir}/temp/body;
    proxy_temp_path {workdir}/temp/proxy;
    fastcgi_temp_path {workdir}/temp/fastcgi;
    uwsgi_temp_path {workdir}/temp/uwsgi;
    scgi_temp_path {workdir}/temp/scgi;
    include {root}/etc/nginx/sites-enabled/*.conf;
}}
"""
    )
    return [binary, "-c", str(config), "-p", str(workdir)]


def test_nginx_accepts_the_site(site, installation):
    text = (installation["root"] / "etc/nginx/sites-available/championship.conf").read_text()
    assert "client_max_body_size 20m;" in text
    assert "proxy_cache championship_live;" in text
    checked = subprocess.run([*site, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr and "test is successful" in checked.stderr


def test_every_unit_runs_as_it_says(installation, site, tmp_path):
    """gunicorn answers on its socket and through nginx over HTTPS; the workers run and stop."""
    root = installation["root"]
    sock = root / "run/championship/gunicorn.sock"
    processes = {}
    try:
        for name in UNITS:
            processes[name] = start(root, name, tmp_path / f"{name}.log")
        nginx_process = subprocess.Popen(site, stderr=subprocess.PIPE, start_new_session=True)
        processes["nginx"] = nginx_process

        def answers() -> bool:
            assert processes["web"].poll() is None, (tmp_path / "web.log").read_text()
            with contextlib.suppress(OSError):
                return get_unix(sock, "/health/") == 200
            return False

        wait_for(answers, 60, interval=0.3, what="gunicorn on its unix socket")
        http_port, https_port = installation["ports"]

        tls = ssl.create_default_context()
        tls.check_hostname = False
        tls.verify_mode = ssl.CERT_NONE
        secure = http.client.HTTPSConnection("127.0.0.1", https_port, context=tls, timeout=10)
        # The championships through nginx over HTTPS: the application sees HTTPS (no redirect).
        # (Pages need the collected static files, which this test does not write into the
        # checkout; the API does not.)
        secure.request("GET", "/api/v1/championships/", headers={"Host": DOMAIN})
        page = secure.getresponse()
        body = page.read()
        assert page.status == 200, body[:500]
        assert "demo" in body.decode()
        secure.close()

        plain = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
        plain.request("GET", "/demo/", headers={"Host": DOMAIN})
        redirect = plain.getresponse()
        assert (redirect.status, redirect.getheader("Location")) == (
            301,
            f"https://{DOMAIN}/demo/",
        )
        plain.close()

        # The workers keep running (a worker that cannot start exits at once).
        time.sleep(3)
        for name in WORKERS:
            assert processes[name].poll() is None, (tmp_path / f"{name}.log").read_text()
        for name, command in WORKERS.items():
            assert stop(processes[name]) == 0, (tmp_path / f"{name}.log").read_text()
            assert command in " ".join(processes[name].args)
    finally:
        for process in processes.values():
            stop(process)


def test_a_backup_restored_into_an_empty_database_exports_the_same(installation):
    root = installation["root"]
    backups = root / "var/backups/championship"
    old = backups / "2020-01-01T033000"
    recent = backups / time.strftime("%Y-%m-%dT000000", time.localtime(time.time() - 10 * 86400))
    for kept in (old, recent):
        kept.mkdir(parents=True)
        (kept / "database.dump").write_text("")
    forty_days_ago = time.time() - 40 * 86400
    os.utime(old, (forty_days_ago, forty_days_ago))
    os.utime(recent, (time.time() - 10 * 86400,) * 2)

    backup = unit(root, "championship-backup.service")
    service = backup["Service"]
    ran = subprocess.run(
        shlex.split(service["ExecStart"]),
        cwd=service["WorkingDirectory"],
        env=unit_environment(root, backup),
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert not old.exists() and recent.exists()
    made = [p for p in backups.iterdir() if p not in (recent,)]
    assert len(made) == 1, made
    made = made[0]
    slugs = sorted(p.stem for p in made.glob("*.json"))
    assert slugs == ["demo", "demo-sm"], ran.stdout
    assert (made / "database.dump").stat().st_size > 0

    config = root / "etc/championship/deploy.conf"
    restored = Database(installation["admin"], "championship_restored", unique=True)
    try:
        ran = subprocess.run(
            [DEPLOY / "restore.sh", made, "--database", restored.name, "--config", config],
            capture_output=True,
            text=True,
        )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        env = installation["env"]
        restored_env = {**env, "DATABASE_URL": restored.url}
        for slug in slugs:
            original = export(env, slug)
            assert export(restored_env, slug) == original
            assert json.loads((made / f"{slug}.json").read_text()) == original
        # Not into a database that holds tables.
        again = subprocess.run(
            [DEPLOY / "restore.sh", made, "--database", restored.name, "--config", config],
            capture_output=True,
            text=True,
        )
        assert again.returncode == 1 and "not empty" in again.stderr
    finally:
        restored.drop()


def children(pid: int) -> set[int]:
    """Return the pids of the processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                    found.add(int(entry.name))
    return found


def test_a_reload_answers_every_request(installation, site, tmp_path):
    """upgrade.sh's reload (HUP) while phones read and post through nginx: none goes unanswered.

    Each client keeps its connection to nginx open, as a phone does, and alternates a read
    with a post whose body the application must read to refuse. Three reloads replace every
    worker; a reset connection, a timeout or a 502 from nginx is a dropped request.
    """
    root = installation["root"]
    sock = root / "run/championship/gunicorn.sock"
    web = start(root, "web", tmp_path / "web.log")
    proxy = subprocess.Popen(site, stderr=subprocess.PIPE, start_new_session=True)
    try:

        def answers() -> bool:
            assert web.poll() is None, (tmp_path / "web.log").read_text()
            with contextlib.suppress(OSError):
                return get_unix(sock, "/health/") == 200
            return False

        wait_for(answers, 60, interval=0.3, what="gunicorn on its unix socket")
        https_port = installation["ports"][1]
        tls = ssl.create_default_context()
        tls.check_hostname = False
        tls.verify_mode = ssl.CERT_NONE
        done = threading.Event()
        dropped: list[str] = []
        answered = {"GET": 0, "POST": 0}
        requests = (
            ("GET", "/api/v1/championships/", None),
            ("POST", "/api/v1/organiser-requests/", b"{not json"),
        )

        def phone():
            connection = None
            while not done.is_set():
                for method, path, body in requests:
                    connection = connection or http.client.HTTPSConnection(
                        "127.0.0.1", https_port, context=tls, timeout=20
                    )
                    headers = {"Host": DOMAIN, "Content-Type": "application/json"}
                    try:
                        connection.request(method, path, body=body, headers=headers)
                        response = connection.getresponse()
                        response.read()
                    except (OSError, http.client.HTTPException) as error:
                        dropped.append(f"{method} {path}: {error!r}")
                        connection.close()
                        connection = None
                        continue
                    if response.status >= 500:
                        dropped.append(f"{method} {path}: {response.status}")
                    else:
                        answered[method] += 1
            if connection:
                connection.close()

        phones = [threading.Thread(target=phone) for _ in range(4)]
        for thread in phones:
            thread.start()
        try:
            wait_for(lambda: answered["POST"] >= 20, 30, what="the phones' first requests")
            for _ in range(3):
                old = children(web.pid)
                assert old, (tmp_path / "web.log").read_text()
                before = dict(answered)
                os.kill(web.pid, signal.SIGHUP)
                wait_for(
                    lambda old=old: (now := children(web.pid)) and not now & old,
                    60,
                    interval=0.1,
                    what="every worker replaced",
                )
                wait_for(
                    lambda before=before: answered["POST"] > before["POST"] + 20,
                    30,
                    what="requests answered by the new workers",
                )
        finally:
            done.set()
            for thread in phones:
                thread.join(timeout=30)
        assert dropped == [], f"{len(dropped)} dropped of {sum(answered.values())}: {dropped[:5]}"
        assert answered["GET"] >= 60 and answered["POST"] >= 60, answered
    finally:
        stop(proxy)
        stop(web)
