from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from championship import services


class Command(BaseCommand):
    help = (
        "Create an organiser's account, or update it: it may log in, create championships "
        "(it is in the group 'Organisers', with the permission championship.add_championship) "
        "and becomes the organiser of each one it creates; it is no superuser. Prints the "
        "password, a new one unless --password gives it."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="", help="The organiser's e-mail address.")
        parser.add_argument(
            "--password", default=None, help="The password to set (default: a new random one)."
        )

    def handle(self, *args, username, email, password, **options):
        try:
            user, password = services.organiser_account_set(
                username=username, email=email, password=password
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(f"Organiser {user.get_username()!r} may now create championships.")
        self.stdout.write(f"  password: {password}")
