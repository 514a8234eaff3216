"""Load a championship from an interchange document (``docs/interchange.md``)."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from championship.models import Heat, Round
from core import jsonbounds
from interchange.format import InterchangeError
from interchange.write import import_document
from registration.models import Entry
from results.models import Result


class Command(BaseCommand):
    help = (
        "Load a championship from a JSON document in the interchange format (versions 1 and 2) "
        "(FILE, or - for standard input). An existing slug is refused unless --replace. "
        "Invalid input is reported with its path in the document, exit code 2, and "
        "nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON document, or - to read standard input")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete an existing championship with the same slug first (its staff "
            "roles are kept)",
        )

    def handle(self, *args, file, replace, **options):
        data = self.read(file)
        try:
            championship = import_document(data, replace=replace)
        except InterchangeError as error:
            raise CommandError(str(error), returncode=2) from None
        rounds = Round.objects.filter(championship=championship)
        counts = {
            "competitions": championship.categories.count(),
            "tables": championship.tables.count(),
            "persons": championship.persons.count(),
            "entries": Entry.objects.filter(category__championship=championship).count(),
            "rounds": rounds.count(),
            "heats": Heat.objects.filter(round__in=rounds).count(),
            "results": Result.objects.filter(round__in=rounds).count(),
        }
        summary = ", ".join(f"{name}: {count}" for name, count in counts.items())
        self.stdout.write(
            self.style.SUCCESS(f'Loaded championship "{championship.slug}" ({championship.name})')
        )
        self.stdout.write(f"  {summary}")

    def read(self, file: str):
        """Return the parsed document; refuse an unreadable file or bad JSON with exit code 2.

        The JSON is read within ``core.jsonbounds``: a document nested too
        deep is refused before it is parsed, and a number out of range is left for
        the import to refuse with its path.
        """
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{file}: cannot read the file: {error}", returncode=2) from None
        try:
            return jsonbounds.loads(text)
        except jsonbounds.TooDeep as error:
            raise CommandError(f"{file}: {error}", returncode=2) from None
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{file}: not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}",
                returncode=2,
            ) from None
