"""Puzzlers follow confirmed addresses only: what becomes of persons joined by a typed address.

Until now a person joined the puzzler of whatever address was typed. From now on
only a confirmed address joins (``registration.addresses``). The persons already
joined are grandfathered as confirmed, but not all of them: in each puzzler with
an address, the persons whose name is that of the puzzler's first person (the
first to use the address on this site) stay; a person under another name (the
takeover "Ingrid Tjelta cheats", an import's made-up name) becomes a puzzler of
their own, unconfirmed, and may confirm their address with a link as anyone
new. docs/data-model.md says why.
"""

import secrets
import unicodedata

from django.db import migrations


def _name_key(name: str) -> str:
    # As championship.rules.identity.name_key: one space between words, case and form folded.
    collapsed = " ".join(unicodedata.normalize("NFC", name).split())
    return unicodedata.normalize("NFC", collapsed.casefold())


def split_other_names(apps, schema_editor):
    """Give every person of an address's puzzler not named as its first person a puzzler of their own."""
    Person = apps.get_model("registration", "Person")
    Puzzler = apps.get_model("registration", "Puzzler")
    first: dict[int, str] = {}
    split: list[int] = []
    persons = (
        Person.objects.filter(puzzler__email_key__isnull=False)
        .order_by("puzzler_id", "pk")
        .values_list("pk", "puzzler_id", "name")
    )
    for pk, puzzler_id, name in persons.iterator():
        key = _name_key(name)
        if first.setdefault(puzzler_id, key) != key:
            split.append(pk)
    for start in range(0, len(split), 500):
        chunk = split[start : start + 500]
        own = Puzzler.objects.bulk_create([Puzzler(ref=secrets.token_hex(8)) for _pk in chunk])
        for pk, puzzler in zip(chunk, own, strict=True):
            Person.objects.filter(pk=pk).update(puzzler_id=puzzler.pk)


def join_by_typed_address(apps, schema_editor):
    """Undo: every person the puzzler of their typed address again, as migration 0005 made them."""
    Person = apps.get_model("registration", "Person")
    Puzzler = apps.get_model("registration", "Puzzler")
    by_key = dict(Puzzler.objects.filter(email_key__isnull=False).values_list("email_key", "pk"))
    left = set()
    for pk, email, puzzler_id in list(
        Person.objects.filter(puzzler__email_key__isnull=True)
        .exclude(email="")
        .order_by("pk")
        .values_list("pk", "email", "puzzler_id")
    ):
        key = email.strip().casefold()
        if not key:
            continue
        if key not in by_key:
            Puzzler.objects.filter(pk=puzzler_id).update(email_key=key)
            by_key[key] = puzzler_id
            continue
        Person.objects.filter(pk=pk).update(puzzler_id=by_key[key])
        left.add(puzzler_id)
    Puzzler.objects.filter(pk__in=left, persons__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("registration", "0009_stored_import_job"),
    ]

    operations = [
        migrations.RunPython(split_other_names, join_by_typed_address, elidable=False),
    ]
