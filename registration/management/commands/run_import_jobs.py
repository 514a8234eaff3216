from django.core.management.base import BaseCommand

from core.worker import run_every
from registration.csv_jobs import import_jobs_run
from registration.models import StoredImport

# With --loop, the seconds between two looks: a queued import waits at most this long.
INTERVAL = 2.0


class Command(BaseCommand):
    help = (
        "Import the confirmed CSV imports of entries that are too large for the confirmation's "
        "request, batch by batch, and go on with any that stopped midway (where it stopped: no "
        "row is saved twice). Safe to run on several servers at once. Run it with --loop as a "
        "worker, or every minute (cron or a systemd timer)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--loop", action="store_true", help="Keep running, looking regularly.")
        parser.add_argument(
            "--interval",
            type=float,
            default=INTERVAL,
            help=f"With --loop: seconds between two looks (default {INTERVAL:g}).",
        )

    def handle(self, *args, loop, interval, **options):
        if not loop:
            self._report(import_jobs_run(), options["verbosity"])
            return
        run_every(
            interval,
            lambda: self._report(import_jobs_run(), options["verbosity"]),
            lambda error: self.stderr.write(f"Imports: {error}"),
        )

    def _report(self, jobs: list[StoredImport], verbosity: int) -> None:
        for job in jobs:
            self.stdout.write(
                f"Import {job.pk} ({job.filename or job.token}): {job.state}, "
                f"{job.rows_done} of {job.rows_total} rows, {job.confirmed} confirmed, "
                f"{job.waitlisted} waitlisted, {len(job.refused)} refused."
                + (f" {job.error}" if job.error and job.state != job.State.DONE else "")
            )
        if not jobs and verbosity > 1:
            self.stdout.write("Imports: none waiting.")
