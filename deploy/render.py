#!/usr/bin/env python3
"""Write the server's files for a domain: systemd units, nginx site, environment.

``deploy/install.sh`` runs it with ``--root /``. The files go under ``--root``;
with ``--relocate`` the paths written in them (the code, the virtual
environment, the socket, the certificate, the cache, the backups) lie under
``--root`` too, so that a test renders a whole installation into a temporary
directory and runs it there. The environment file holds the secret key: it is
written only when it does not exist yet, never overwritten.

``deploy.conf`` keeps the arguments of the render (``CHAMPIONSHIP_RENDER``), so
that ``render.py --again /etc/championship/deploy.conf`` (``deploy/upgrade.sh``)
writes a new release's files for the same installation.

Only the standard library: it runs before the virtual environment exists.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shlex
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
CHECKOUT = HERE.parent
LIVE_CACHE_HTTP = CHECKOUT / "docs" / "nginx" / "live-cache-http.conf"
LIVE_CACHE_SERVER = CHECKOUT / "docs" / "nginx" / "live-cache.conf"
DOCUMENTED_CACHE = "/var/cache/nginx/championship-live"

UNITS = (
    "championship-web.service",
    "championship-outbox.service",
    "championship-deadlines.service",
    "championship-imports.service",
    "championship-backup.service",
    "championship-backup.timer",
)
# Where everything lives on the server (the prefix of --relocate goes before each).
PATHS = {
    "app": "/srv/championship/app",
    "venv": "/srv/championship/venv",
    "env_file": "/etc/championship/championship.env",
    "deploy_conf": "/etc/championship/deploy.conf",
    "socket": "/run/championship/gunicorn.sock",
    "acme_root": "/var/www/championship-acme",
    "backup_root": "/var/backups/championship",
    "cache": DOCUMENTED_CACHE,
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="render.py --again DEPLOY_CONF renders with the arguments kept there.",
    )
    parser.add_argument("domain", help="the site's host name, e.g. puzzle.example.org")
    parser.add_argument("--root", default="/", help="where the files are written (default /)")
    parser.add_argument(
        "--relocate",
        action="store_true",
        help="let the paths inside the files lie under --root too (for tests)",
    )
    parser.add_argument("--user", default="championship", help="the system user of the app")
    parser.add_argument("--certificate", help="TLS certificate (default: certbot's for DOMAIN)")
    parser.add_argument("--key", help="its private key (default: certbot's for DOMAIN)")
    parser.add_argument(
        "--database-url",
        default="postgres://championship@%2Fvar%2Frun%2Fpostgresql/championship",
        help="DATABASE_URL for a new environment file (default: the local server, peer auth)",
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    # gunicorn's advice for sync workers behind a buffering proxy: two per core, and one.
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--http-port", type=int, default=80)
    parser.add_argument("--https-port", type=int, default=443)
    parser.add_argument("--no-ipv6", action="store_true", help="let nginx listen on IPv4 only")
    return parser.parse_args(argv)


def indent(text: str, spaces: int) -> str:
    pad = " " * spaces
    return "\n".join(pad + line if line.strip() else "" for line in text.strip().splitlines())


def fill(template: str, values: dict[str, str]) -> str:
    """Replace each ``{{name}}``; a name without a value is an error, not a blank."""
    for name, value in values.items():
        template = template.replace("{{" + name + "}}", value)
    if "{{" in template:
        start = template.index("{{")
        raise SystemExit(f"render.py: no value for {template[start : start + 40]!r}")
    return template


def values_for(args: argparse.Namespace) -> dict[str, str]:
    prefix = str(Path(args.root).resolve()).rstrip("/") if args.relocate else ""
    paths = {name: prefix + path for name, path in PATHS.items()}
    live = f"/etc/letsencrypt/live/{args.domain}"
    certificate = args.certificate or prefix + f"{live}/fullchain.pem"
    key = args.key or prefix + f"{live}/privkey.pem"
    http_part = LIVE_CACHE_HTTP.read_text().replace(DOCUMENTED_CACHE, paths["cache"])
    values = {
        **paths,
        "domain": args.domain,
        "user": args.user,
        "group": args.user,
        "workers": str(args.workers),
        "certificate": certificate,
        "certificate_key": key,
        "http_port": str(args.http_port),
        "https_port": str(args.https_port),
        "ipv6_http": "" if args.no_ipv6 else f"\n    listen [::]:{args.http_port};",
        "ipv6_https": "" if args.no_ipv6 else f"\n    listen [::]:{args.https_port} ssl http2;",
        "live_cache_http": http_part.strip(),
        "live_cache_server": indent(LIVE_CACHE_SERVER.read_text(), 4),
        "database_url": args.database_url,
        "redis_url": args.redis_url,
        "secret_key": secrets.token_urlsafe(50),
    }
    for name in ("user", *PATHS):
        values[f"{name}_sh"] = shlex.quote(values[name])
    values["render_sh"] = shlex.quote(shlex.join(args.argv))
    return values


def write(path: Path, text: str, *, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    print(f"  wrote {path}")


def render(args: argparse.Namespace) -> None:
    root = Path(args.root)
    values = values_for(args)

    def template(name: str) -> str:
        return fill((TEMPLATES / name).read_text(), values)

    for unit in UNITS:
        write(root / "etc/systemd/system" / unit, template(unit))
    site = root / "etc/nginx/sites-available/championship.conf"
    write(site, template("nginx-site.conf"))
    enabled = root / "etc/nginx/sites-enabled/championship.conf"
    enabled.parent.mkdir(parents=True, exist_ok=True)
    if not enabled.is_symlink():
        enabled.symlink_to(Path("/") / site.relative_to(root) if not args.relocate else site)
    write(root / "etc/championship/deploy.conf", template("deploy.conf"))
    write(root / "usr/local/bin/championship-manage", template("championship-manage"), mode=0o755)
    env_file = root / "etc/championship/championship.env"
    if env_file.exists():
        print(f"  kept {env_file} (it holds the secret key; edit it by hand)")
    else:
        write(env_file, template("championship.env"), mode=0o640)


def kept_arguments(deploy_conf: Path) -> list[str]:
    """Return the arguments of the render that wrote ``deploy_conf`` (``CHAMPIONSHIP_RENDER``)."""
    for line in deploy_conf.read_text().splitlines():
        name, _, value = line.partition("=")
        if name == "CHAMPIONSHIP_RENDER":
            return shlex.split(shlex.split(value)[0])
    raise SystemExit(f"render.py: {deploy_conf} keeps no CHAMPIONSHIP_RENDER (install.sh again)")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--again"]:
        if len(argv) != 2:
            raise SystemExit("usage: render.py --again DEPLOY_CONF")
        argv = kept_arguments(Path(argv[1]))
    args = parse_args(argv)
    args.argv = argv
    print(f"Rendering the files for {args.domain} under {args.root}:")
    render(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
