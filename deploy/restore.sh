#!/usr/bin/env bash
# Restore a backup of backup.sh into an empty database, then migrate it (a newer
# release may have added migrations). Run as root (or as the app's user):
#
#   restore.sh /var/backups/championship/2027-03-14T033012 [--database NAME]
#              [--config /etc/championship/deploy.conf]
#
# NAME (default championship_restored) is created when it does not exist, on the
# server of DATABASE_URL in the environment file, and must hold no tables. The
# site keeps running on its own database: to move it to the restored one, set
# DATABASE_URL's database to NAME in the environment file and restart the units.
set -euo pipefail

usage="usage: restore.sh BACKUP_DIR [--database NAME] [--config FILE]"
config=/etc/championship/deploy.conf
database=championship_restored
backup=
while [ $# -gt 0 ]; do
    case "$1" in
        --database) database=$2; shift 2 ;;
        --config) config=$2; shift 2 ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *) [ -z "$backup" ] || { echo "$usage" >&2; exit 2; }; backup=$1; shift ;;
    esac
done
[ -n "$backup" ] || { echo "$usage" >&2; exit 2; }
[ -f "$backup/database.dump" ] || { echo "restore.sh: no database.dump in $backup" >&2; exit 1; }
# shellcheck source=/dev/null
. "$config"

python="$CHAMPIONSHIP_VENV/bin/python"
envfile="$CHAMPIONSHIP_APP/deploy/envfile.py"
# As the app's user (peer authentication, and what it creates is its own).
as_app() {
    if [ "$(id -u)" = 0 ] && [ "$CHAMPIONSHIP_USER" != root ]; then
        runuser -u "$CHAMPIONSHIP_USER" -- "$@"
    else
        "$@"
    fi
}
live_url=$("$python" "$envfile" get "$CHAMPIONSHIP_ENV_FILE" DATABASE_URL)
target_url=$("$python" "$envfile" database-url "$live_url" "$database")
if [ "$target_url" = "$live_url" ]; then
    echo "restore.sh: $database is the site's own database; stop the units and drop it first" >&2
    exit 1
fi

exists=$(as_app psql "$live_url" -tAc "SELECT 1 FROM pg_database WHERE datname = '${database//\'/\'\'}'")
if [ "$exists" != 1 ]; then
    as_app psql "$live_url" -q -c "CREATE DATABASE \"${database//\"/\"\"}\""
    echo "Created the database $database"
fi
tables=$(as_app psql "$target_url" -tAc \
    "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')")
if [ "$tables" != 0 ]; then
    echo "restore.sh: the database $database is not empty ($tables tables)" >&2
    exit 1
fi

# The dump is read by the app's user, who may not read root's directories: through stdin.
as_app pg_restore --no-owner --no-privileges --exit-on-error --dbname="$target_url" \
    <"$backup/database.dump"
cd "$CHAMPIONSHIP_APP"
as_app "$python" "$envfile" exec "$CHAMPIONSHIP_ENV_FILE" "DATABASE_URL=$target_url" -- \
    "$python" manage.py migrate --noinput
echo "Restored $backup into the database $database."
echo "To serve it: set DATABASE_URL to $target_url in $CHAMPIONSHIP_ENV_FILE, then"
echo "  systemctl restart championship-web championship-outbox championship-deadlines championship-imports"
