from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from championship.models import Round, Table
from control import demo
from core import lan

RULE = "=" * 72
ANY_ADDRESS = {"0.0.0.0", "::", "[::]"}
# As the README prints it: it runs as it stands, in this checkout, from any shell.
CREATE_ORGANISER = ".venv/bin/python manage.py create_organiser kari --email kari@example.org"


class Command(BaseCommand):
    help = (
        "Create (or recreate) the demo: the championship 'demo' on the rogaland preset, with "
        "entries in all three categories, tables with QR tokens and a round in progress; the "
        "championship 'demo-sm' whose registration is open; and the users 'organiser' and "
        "'judge' (their new passwords are printed). With --keep, what exists is kept as it "
        "was, passwords included, and only what is missing is built."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--keep",
            action="store_true",
            help="Keep the demo and the users' passwords if they exist (phones stay logged in).",
        )
        parser.add_argument(
            "--address",
            default="127.0.0.1:8000",
            metavar="HOST:PORT",
            help="Where the server will listen, for the addresses printed at the end "
            "(0.0.0.0:PORT also prints the address for phones on the local network).",
        )

    def handle(self, *args, keep, address, **options):
        host, _sep, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise CommandError(f"--address must be HOST:PORT, not {address!r}.")
        result = demo.build(keep=keep)
        self.summary(result, host=host, port=port, keep=keep)

    def summary(self, result, *, host, port, keep):
        """Print where to go and how to log in, framed, as the last thing before the server."""
        lan_address = lan.lan_address() if host in ANY_ADDRESS else None
        here = f"http://{'127.0.0.1' if host in ANY_ADDRESS else host}:{port}"
        championship, open_championship = result.championship, result.open_championship
        running = Round.objects.filter(championship=championship, state=Round.State.RUNNING)
        table = Table.objects.filter(championship=championship).order_by("number").first()
        counts = ", ".join(
            f"{category.key}: {category.entries.count()}"
            for category in championship.categories.all()
        )
        write = self.stdout.write
        write("")
        write(RULE)
        if result.kept:
            write(self.style.SUCCESS("The demo is ready, kept as it was."))
            write("  (Start it afresh: make run FRESH=1, or .venv/bin/python manage.py demo.)")
        else:
            write(self.style.SUCCESS("The demo is ready, built afresh."))
        write("")
        write(f"  {championship.name}")
        write(f"    {here}{championship.get_absolute_url()}")
        write(f"    entries: {counts}; tables: {championship.tables.count()}")
        for round_ in running:
            write(
                f"    cards of the running round: "
                f"{here}{reverse('manage:cards', args=[championship.slug, round_.key])}"
            )
        if table is not None:
            table_url = here + table.get_absolute_url()
            write(f"    table {table.number}, as its QR code opens it: {table_url}")
        deadline = open_championship.effective_registration_deadline()
        write(f"  {open_championship.name}: registration open until {deadline:%Y-%m-%d}")
        write(f"    {here}{open_championship.get_absolute_url()}")
        write(f"  organiser area: {here}/{championship.slug}/manage/   admin: {here}/admin/")
        write(f"  new championship (as 'organiser'): {here}{reverse('new')}")
        write("")
        write(f"  Log in at {here}/accounts/login/ as")
        for username, password in result.passwords.items():
            write(self.style.WARNING(f"    user {username!r} password: {password}"))
        write("")
        write("  An organiser's own account, who may create championships (the command prints")
        write("  its password; --password sets one):")
        write(f"    {CREATE_ORGANISER}")
        write("")
        if settings.SITE_URL:
            write(f"  QR codes and links in e-mails lead to SITE_URL: {settings.SITE_URL}/")
        if host not in ANY_ADDRESS:
            write("  Phones on the same network: make run HOST=0.0.0.0")
        elif lan_address:
            phones = f"http://{lan_address}:{port}"
            write(self.style.SUCCESS(f"  Phones on the same network open: {phones}/"))
            if not settings.SITE_URL:
                write(
                    f"  For QR codes the phones can scan, open the cards at {phones}/ here too,\n"
                    f"  or put that address in SITE_URL: make run HOST=0.0.0.0 SITE_URL={phones}"
                )
        else:
            write(
                "  Phones on the same network: this machine's address on it was not found;\n"
                f"  find it (ip addr, or the network settings) and open http://ADDRESS:{port}/\n"
                f"  on the phones. For QR codes they can scan: SITE_URL=http://ADDRESS:{port}"
            )
        write(RULE)
        write("")
