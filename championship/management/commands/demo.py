from django.core.management.base import BaseCommand

from championship import demo


class Command(BaseCommand):
    help = (
        "Create (or recreate) the demo championship 'demo' on the rogaland preset, with "
        "entries in all three categories, tables with QR tokens, a round in progress, and "
        "the users 'organiser' and 'judge' (their new passwords are printed)."
    )

    def handle(self, *args, **options):
        result = demo.build()
        championship = result.championship
        self.stdout.write(self.style.SUCCESS(f"Demo championship ready: /{championship.slug}/"))
        counts = ", ".join(
            f"{category.key}: {category.entries.count()}"
            for category in championship.categories.all()
        )
        self.stdout.write(f"  entries: {counts}; tables: {championship.tables.count()}")
        for username, password in result.passwords.items():
            self.stdout.write(f"  user {username!r} password: {password}")
        self.stdout.write(f"  organiser area: /{championship.slug}/manage/  admin: /admin/")
