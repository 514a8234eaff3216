from django.core.management.base import BaseCommand

from core.worker import run_every
from registration.deadlines import Done, deadlines_run


class Command(BaseCommand):
    help = (
        "Do what registration deadlines make due: lapse offered places not accepted in time "
        "(the place goes to the next on the waiting list), remind unpaid entries before "
        "their payment deadline, release overdue ones where the championship says so. Safe "
        "to run on several servers at once. Run it every minute (cron or a systemd timer), "
        "or with --loop as a worker."
    )

    def add_arguments(self, parser):
        parser.add_argument("--loop", action="store_true", help="Keep running, looking regularly.")
        parser.add_argument(
            "--interval",
            type=float,
            default=60.0,
            help="With --loop: seconds between two looks (default 60).",
        )

    def handle(self, *args, loop, interval, **options):
        if not loop:
            self._report(deadlines_run(), options["verbosity"])
            return
        run_every(
            interval,
            lambda: self._report(deadlines_run(), options["verbosity"]),
            lambda error: self.stderr.write(f"Deadlines: {error}"),
        )

    def _report(self, done: Done, verbosity: int) -> None:
        if done.offers_lapsed or done.reminded or done.released or verbosity > 1:
            self.stdout.write(
                f"Deadlines: {len(done.offers_lapsed)} offers lapsed, {len(done.reminded)} "
                f"payment reminders, {len(done.released)} unpaid entries released."
            )
