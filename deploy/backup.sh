#!/usr/bin/env bash
# The nightly backup (championship-backup.service runs it as the app's user, with
# the environment file's variables): the whole database with pg_dump, and every
# championship as an interchange document, into BACKUP_ROOT/YYYY-MM-DDTHHMMSS/.
# Backups older than BACKUP_KEEP_DAYS (30) days are deleted afterwards.
#
#   backup.sh [--config /etc/championship/deploy.conf]
#
# DATABASE_URL and the rest of the application's environment come from the
# caller (the unit's EnvironmentFile=); by hand: `systemctl start championship-backup`.
set -euo pipefail

config=/etc/championship/deploy.conf
while [ $# -gt 0 ]; do
    case "$1" in
        --config) config=$2; shift 2 ;;
        *) echo "usage: backup.sh [--config FILE]" >&2; exit 2 ;;
    esac
done
# shellcheck source=/dev/null
. "$config"
: "${DATABASE_URL:?DATABASE_URL is not set (run me through championship-backup.service)}"

umask 077  # the backups hold personal data
stamp=$(date +%Y-%m-%dT%H%M%S)
mkdir -p "$BACKUP_ROOT"
partial="$BACKUP_ROOT/.partial-$stamp"
rm -rf "$partial"
mkdir "$partial"
trap 'rm -rf "$partial"' EXIT

pg_dump --format=custom --file="$partial/database.dump" "$DATABASE_URL"

cd "$CHAMPIONSHIP_APP"
python="$CHAMPIONSHIP_VENV/bin/python"
slugs=$("$python" manage.py shell --no-imports -c \
    "from championship.models import Championship
for slug in Championship.objects.order_by('slug').values_list('slug', flat=True): print('SLUG', slug)" |
    sed -n 's/^SLUG //p')
count=0
for slug in $slugs; do
    "$python" manage.py export_championship "$slug" >"$partial/$slug.json"
    count=$((count + 1))
done

# Complete: only now does it get its dated name.
mv "$partial" "$BACKUP_ROOT/$stamp"
trap - EXIT
echo "Backed up the database and $count championship(s) into $BACKUP_ROOT/$stamp"

find "$BACKUP_ROOT" -mindepth 1 -maxdepth 1 -type d -name '20*' -mtime +"$BACKUP_KEEP_DAYS" \
    -print -exec rm -rf {} + | sed 's/^/Deleted the old backup /'
