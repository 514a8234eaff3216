"""Print a championship as an interchange document (``docs/interchange.md``)."""

import json

from django.core.management.base import BaseCommand, CommandError

from championship.models import Championship
from interchange.export import export_document


class Command(BaseCommand):
    help = (
        "Print the championship SLUG as a JSON document in the interchange format, "
        "version 2, with the computed result fields. The document holds personal data "
        "and the tables' QR tokens: it is for organisers only."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the championship's slug")

    def handle(self, *args, slug, **options):
        try:
            championship = Championship.objects.get(slug=slug)
        except Championship.DoesNotExist:
            raise CommandError(f'unknown championship "{slug}"', returncode=2) from None
        document = export_document(championship)
        self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
