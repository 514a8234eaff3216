from django.core.management.base import BaseCommand

from championship import outbox
from core.worker import run_every

# The sign-in link's mail is finished by staff_links (it fills in the link's secret).
from championship import staff_links  # noqa: F401  isort: skip

# With --loop, the seconds between two looks: a confirmation waits at most this long.
INTERVAL = 5.0


class Command(BaseCommand):
    help = (
        "Send the e-mail outbox's due mail, one at a time; a failure is recorded and retried "
        "later with back-off. Requests only queue mail: this command sends it. Safe to run on "
        "several servers at once: no mail is sent twice. Run it with --loop as a worker, or "
        "every minute (cron or a systemd timer)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--loop", action="store_true", help="Keep running, looking for due mail regularly."
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=INTERVAL,
            help=f"With --loop: seconds between two looks at the outbox (default {INTERVAL:g}).",
        )
        parser.add_argument(
            "--limit", type=int, default=None, help="Send at most this many mails per look."
        )

    def handle(self, *args, loop, interval, limit, **options):
        if not loop:
            self._report(outbox.send_due(limit=limit), options["verbosity"])
            return
        run_every(
            interval,
            lambda: self._report(outbox.send_due(limit=limit), options["verbosity"]),
            lambda error: self.stderr.write(f"Outbox: {error}"),
        )

    def _report(self, run: outbox.Run, verbosity: int) -> None:
        if run.sent or run.failed or run.cancelled or verbosity > 1:
            self.stdout.write(
                f"Outbox: {run.sent} sent, {run.failed} failed (to retry or given up), "
                f"{run.cancelled} cancelled."
            )
