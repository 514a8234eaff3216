#!/usr/bin/env bash
# Install the championship on a fresh Debian 12 or Ubuntu 24.04 server, as root, in one command:
#
#   deploy/install.sh puzzle.example.org --email you@example.org
#   deploy/install.sh puzzle.example.org --certificate site.crt --key site.key
#   deploy/install.sh puzzle.example.org --no-certbot     # keep a self-signed certificate
#
# Run it from a git checkout of the project: the code is installed as a `git clone`
# of that checkout's current commit (uncommitted changes are not taken), whose
# origin is the checkout's own origin, so deploy/upgrade.sh fetches releases
# from there. Running it again is safe: what exists is kept (the environment
# file with its secret key, the database, the certificate), the rest is redone.
# docs/deploy.md tells what each step does.
set -euo pipefail

usage="usage: install.sh DOMAIN [--email E] [--certificate CRT --key KEY] [--no-certbot]"
domain='' email='' certificate='' key='' certbot=yes
while [ $# -gt 0 ]; do
    case "$1" in
        --email) email=$2; shift 2 ;;
        --certificate) certificate=$2; shift 2 ;;
        --key) key=$2; shift 2 ;;
        --no-certbot) certbot=no; shift ;;
        -h | --help) echo "$usage"; exit 0 ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *) [ -z "$domain" ] || { echo "$usage" >&2; exit 2; }; domain=$1; shift ;;
    esac
done
[ -n "$domain" ] || { echo "$usage" >&2; exit 2; }
if [ -n "$certificate" ] || [ -n "$key" ]; then
    if [ ! -f "$certificate" ] || [ ! -f "$key" ]; then
        echo "install.sh: give --certificate and --key, both files" >&2
        exit 2
    fi
    certificate=$(readlink -f "$certificate") key=$(readlink -f "$key")
    certbot=no
fi
[ "$(id -u)" = 0 ] || { echo "install.sh: run me as root (sudo)" >&2; exit 1; }

user=championship
home=/srv/championship
app=$home/app
venv=$home/venv
etc=/etc/championship
source_checkout=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
step() { printf '\n== %s\n' "$*"; }
# On a machine without systemd (CI's), a stand-in (SYSTEMCTL=...): the units are
# written and checked all the same, and started by whoever runs the script.
systemctl=${SYSTEMCTL:-systemctl}

step "System packages"
export DEBIAN_FRONTEND=noninteractive
packages=(postgresql redis-server nginx git openssl ca-certificates python3-venv)
[ "$certbot" = no ] || packages+=(certbot)
apt-get update -qq
apt-get install -y -qq "${packages[@]}" >/dev/null
# The distribution's Python: Debian 12's 3.11, Ubuntu 24.04's 3.12, Debian 13's 3.13
# (pyproject.toml's requires-python).
# /usr/bin's, not one of root's own (pyenv's, say): the app's user must be able to run it.
python=/usr/bin/python3.11
[ -x "$python" ] || python=/usr/bin/python3
"$python" -c 'import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 13))' ||
    { echo "install.sh: Python 3.11 to 3.13 is needed; $python is $("$python" -V)" >&2; exit 1; }

step "The user $user and the code in $app"
id "$user" >/dev/null 2>&1 ||
    useradd --system --home-dir "$home" --shell /usr/sbin/nologin --user-group "$user"
mkdir -p "$home"
if [ ! -d "$app/.git" ]; then
    git clone --quiet "$source_checkout" "$app"
    origin=$(git -C "$source_checkout" remote get-url origin 2>/dev/null || echo "$source_checkout")
    git -C "$app" remote set-url origin "$origin"
else
    echo "kept $app (deploy/upgrade.sh changes it)"
fi
# The code belongs to root: the app's user runs it and cannot change it. The static files
# are the user's: it collects them (again on a second run, into what the first collected).
chown -R root:root "$app"
mkdir -p "$app/staticfiles"
chown -R "$user:$user" "$app/staticfiles"

step "The virtual environment $venv"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/pip" install --quiet --upgrade pip
"$venv/bin/pip" install --quiet --upgrade "$app"

step "PostgreSQL and Redis"
"$systemctl" enable --now postgresql redis-server
psql_admin() { runuser -u postgres -- psql -v ON_ERROR_STOP=1 -tAq "$@"; }
[ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$user'")" = 1 ] ||
    psql_admin -c "CREATE ROLE $user LOGIN CREATEDB"
[ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = 'championship'")" = 1 ] ||
    runuser -u postgres -- createdb --owner="$user" championship

step "The certificate"
live=/etc/letsencrypt/live/$domain
if [ -z "$certificate" ] && [ -f "$live/fullchain.pem" ]; then
    certificate=$live/fullchain.pem key=$live/privkey.pem
fi
if [ -z "$certificate" ]; then
    # Until certbot has one (or for good, with --no-certbot): nginx needs one to start.
    certificate=$etc/tls/self-signed.crt key=$etc/tls/self-signed.key
    if [ ! -f "$certificate" ]; then
        mkdir -p "$etc/tls"
        openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=$domain" \
            -addext "subjectAltName=DNS:$domain" -keyout "$key" -out "$certificate" 2>/dev/null
        chmod 600 "$key"
    fi
fi

render() {
    "$venv/bin/python" "$app/deploy/render.py" "$domain" --root / --user "$user" \
        --certificate "$certificate" --key "$key"
}
step "The files: systemd units, nginx site, $etc"
render
chown root:"$user" "$etc/championship.env"
chmod 640 "$etc/championship.env"
mkdir -p /var/www/championship-acme /var/cache/nginx
install -d -o "$user" -g "$user" -m 700 /var/backups/championship

step "The database and the static files"
manage() { /usr/local/bin/championship-manage "$@"; }
manage migrate --noinput
manage collectstatic --noinput --verbosity 0
manage check --deploy

step "The services"
"$systemctl" daemon-reload
for unit in championship-web.service championship-outbox.service \
    championship-deadlines.service championship-imports.service championship-backup.timer; do
    "$systemctl" enable --quiet "$unit"
    "$systemctl" restart "$unit"
done
nginx -t
"$systemctl" enable --quiet nginx
"$systemctl" reload-or-restart nginx

if [ "$certbot" = yes ] && [ "$certificate" != "$live/fullchain.pem" ]; then
    step "A certificate from Let's Encrypt for $domain"
    contact=(--register-unsafely-without-email)
    [ -z "$email" ] || contact=(--email "$email")
    certbot certonly --webroot --webroot-path /var/www/championship-acme --domain "$domain" \
        --non-interactive --agree-tos "${contact[@]}" --deploy-hook "systemctl reload nginx"
    certificate=$live/fullchain.pem key=$live/privkey.pem
    render
    nginx -t
    "$systemctl" reload nginx
fi

cat <<DONE

The championship runs at https://$domain/
  services:  systemctl status 'championship-*'    logs: journalctl -u championship-web
  settings:  $etc/championship.env (e-mail: EMAIL_HOST and the rest; then restart the units)
  backups:   every night into /var/backups/championship (kept 30 days)
             restore: $app/deploy/restore.sh /var/backups/championship/<date>
  upgrade:   $app/deploy/upgrade.sh [TAG]

Next: the first administrator (a superuser, for /admin/ and approving organisers):
  championship-manage createsuperuser
or an organiser, who signs in with a link mailed to them:
  championship-manage create_organiser kari --email kari@example.org
DONE
