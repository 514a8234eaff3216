#!/usr/bin/env bash
# Bring the installation to a release, as root:
#
#   upgrade.sh [REF] [--config /etc/championship/deploy.conf]
#
# REF is a tag, branch or commit of the code's git remote (default: the newest
# tag v*, or the remote's default branch when there is no tag). Fetch and check
# out REF, install it into the virtual environment, write the release's systemd
# units and nginx site for this installation (render.py --again; the environment
# file and its secret key are kept), migrate, collect the static files, then
# reload nginx and gunicorn: on HUP it starts workers on the new code before
# it stops the old ones, which finish the requests they hold, so no judge's
# capture is dropped. The workers are restarted (they finish what they do first).
set -euo pipefail

usage="usage: upgrade.sh [REF] [--config FILE]"
config=/etc/championship/deploy.conf
ref=
while [ $# -gt 0 ]; do
    case "$1" in
        --config) config=$2; shift 2 ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *) [ -z "$ref" ] || { echo "$usage" >&2; exit 2; }; ref=$1; shift ;;
    esac
done
# shellcheck source=/dev/null
. "$config"
# The commands that act on the system (the deployment tests give stand-ins).
systemctl=${SYSTEMCTL:-systemctl}
nginx=${NGINX:-nginx}
pip=${PIP:-$CHAMPIONSHIP_VENV/bin/pip}

app=$CHAMPIONSHIP_APP
python="$CHAMPIONSHIP_VENV/bin/python"
git() { command git -c safe.directory="$app" -C "$app" "$@"; }
as_app() {
    if [ "$(id -u)" = 0 ] && [ "$CHAMPIONSHIP_USER" != root ]; then
        runuser -u "$CHAMPIONSHIP_USER" -- "$@"
    else
        "$@"
    fi
}
manage() {
    (cd "$app" && as_app "$python" "$app/deploy/envfile.py" exec "$CHAMPIONSHIP_ENV_FILE" -- \
        "$python" manage.py "$@")
}

git fetch --tags --prune origin
if [ -z "$ref" ]; then
    ref=$(git tag --list 'v*' --sort=-version:refname | head -n 1)
    if [ -z "$ref" ]; then
        ref=origin/$(git symbolic-ref --short refs/remotes/origin/HEAD 2>/dev/null |
            sed 's#^origin/##' || echo main)
    fi
fi
if git rev-parse --verify --quiet "origin/$ref^{commit}" >/dev/null; then
    ref=origin/$ref  # a branch: its newest commit on the remote, not the local copy
fi
before=$(git rev-parse --short HEAD)
git checkout --quiet --detach "$ref"
after=$(git rev-parse --short HEAD)
echo "Code: $before -> $after ($ref)"

"$pip" install --quiet --upgrade "$app"
"$python" "$app/deploy/render.py" --again "$config"
manage migrate --noinput
manage collectstatic --noinput --verbosity 0
manage check --deploy

"$nginx" -t -q
"$systemctl" daemon-reload
"$systemctl" reload nginx.service
"$systemctl" reload championship-web.service
"$systemctl" restart championship-outbox.service championship-deadlines.service \
    championship-imports.service
echo "Upgraded to $after. gunicorn reloaded its workers; the requests they held were answered."
