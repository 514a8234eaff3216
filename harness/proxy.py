"""nginx in front of the application, with the live-results cache of docs/deploy.md.

The cache's directives are the files the deployment guide shows
(``docs/nginx/live-cache-http.conf`` and ``docs/nginx/live-cache.conf``), read as
they are: what is measured and tested is what an organiser's technician copies.
Only the cache's directory is moved into the proxy's own working directory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from pathlib import Path

from harness import HarnessError
from harness.http import HOST, WaitTimeout, free_port, status, try_call, wait_for

ROOT = Path(__file__).resolve().parents[1]
HTTP_PART = ROOT / "docs" / "nginx" / "live-cache-http.conf"
SERVER_PART = ROOT / "docs" / "nginx" / "live-cache.conf"
DOCUMENTED_CACHE = "/var/cache/nginx/championship-live"


def nginx() -> str | None:
    """Return the path of nginx, or ``None``."""
    return shutil.which("nginx") or next(
        (path for path in ("/usr/sbin/nginx",) if os.access(path, os.X_OK)), None
    )


class Proxy:
    """nginx on a free port, passing to ``upstream_port``, with the live-results cache.

    With ``static_root`` it serves ``/static/`` from there, as a deployment would.
    """

    def __init__(self, upstream_port: int, workdir: Path, *, static_root: Path | None = None):
        binary = nginx()
        if binary is None:
            raise HarnessError("nginx is not installed (apt-get install nginx-light)")
        self.port = free_port()
        self.dir = Path(workdir) / f"nginx-{self.port}"
        self.dir.mkdir(parents=True)
        (self.dir / "cache").mkdir()
        http_part = HTTP_PART.read_text().replace(DOCUMENTED_CACHE, str(self.dir / "cache"))
        static = (
            f"location /static/ {{ alias {Path(static_root).resolve()}/; expires 1h; }}"
            if static_root is not None
            else ""
        )
        temp = self.dir / "temp"
        temp.mkdir()
        # Started by root (a CI container), nginx's workers would run as another user,
        # who cannot write to this process's temporary directories.
        user = "user root root;" if os.geteuid() == 0 else ""
        config = f"""
{user}
worker_processes 1;
pid {self.dir / "nginx.pid"};
error_log {self.dir / "error.log"} warn;
daemon off;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    types {{ text/css css; application/javascript js; }}
    upstream championship {{ server {HOST}:{upstream_port}; keepalive 32; }}
{http_part}
    server {{
        listen {HOST}:{self.port};
        {static}
        location / {{
            proxy_pass http://championship;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
        }}
{SERVER_PART.read_text()}
    }}
}}
"""
        self.config = self.dir / "nginx.conf"
        self.config.write_text(config)
        self.command = [binary, "-c", str(self.config), "-p", str(self.dir)]
        checked = subprocess.run([*self.command, "-t"], capture_output=True, text=True)
        if checked.returncode != 0:
            raise HarnessError(f"nginx refuses its configuration:\n{checked.stderr}")
        self.process = subprocess.Popen(
            self.command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 20) -> Proxy:
        def ready() -> bool:
            if self.process.poll() is not None:
                raise HarnessError(f"nginx exited at start: {self.process.stderr.read()}")
            return status(try_call(self.port, "GET", "/health/", timeout=5)) == 200

        try:
            wait_for(ready, timeout, interval=0.2, what=f"nginx on port {self.port}")
        except WaitTimeout as error:
            raise WaitTimeout(f"{error}\n{self.error_log()}") from None
        return self

    def error_log(self) -> str:
        with contextlib.suppress(OSError):
            return (self.dir / "error.log").read_text()[-2000:]
        return ""

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGQUIT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
