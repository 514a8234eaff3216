"""An entrant's private link is stored as a hash; the links already sent keep working.

Each entry gets a nonce, from which its link's token is derived with the site's
key (``core.tokens``), and the hash of that token. The plain token of the link
sent so far is kept only as its hash (``legacy_token_hash``), so that the
address in every mail already sent still opens the entry's page, until the
organiser makes the entry a new link. Then the plain column goes.

Backwards, the plain column is filled with each entry's derived token: the
links made since keep working; the ones sent before cannot be restored from
their hash and stop.
"""

import hashlib

from django.db import migrations, models

import registration.models
from core import tokens

# ``registration.models.MANAGE_LINK_SALT`` when this migration was written.
SALT = "registration.Entry.manage_link"
BATCH = 500


def hash_plain_tokens(apps, schema_editor):
    Entry = apps.get_model("registration", "Entry")
    entries = Entry.objects.using(schema_editor.connection.alias).order_by("pk")
    batch = []
    for entry in entries.iterator(chunk_size=BATCH):
        entry.legacy_token_hash = hashlib.sha256(entry.manage_token.encode()).hexdigest()
        entry.manage_nonce = tokens.new_nonce()
        entry.manage_token_hash = tokens.token_hash(
            tokens.derived_token(entry.manage_nonce, salt=SALT)
        )
        batch.append(entry)
        if len(batch) >= BATCH:
            Entry.objects.bulk_update(
                batch, ["legacy_token_hash", "manage_nonce", "manage_token_hash"]
            )
            batch = []
    if batch:
        Entry.objects.bulk_update(batch, ["legacy_token_hash", "manage_nonce", "manage_token_hash"])


def restore_plain_tokens(apps, schema_editor):
    Entry = apps.get_model("registration", "Entry")
    entries = Entry.objects.using(schema_editor.connection.alias).order_by("pk")
    batch = []
    for entry in entries.iterator(chunk_size=BATCH):
        entry.manage_token = tokens.stored_token(
            entry.manage_nonce, entry.manage_token_hash, salt=SALT
        ) or tokens.new_token()
        batch.append(entry)
        if len(batch) >= BATCH:
            Entry.objects.bulk_update(batch, ["manage_token"])
            batch = []
    if batch:
        Entry.objects.bulk_update(batch, ["manage_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("registration", "0010_puzzler_addresses_confirmed"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="manage_nonce",
            field=models.CharField(default="", editable=False, max_length=32),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="entry",
            name="manage_token_hash",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="entry",
            name="legacy_token_hash",
            field=models.CharField(
                blank=True, editable=False, max_length=64, null=True, unique=True
            ),
        ),
        migrations.AlterField(
            model_name="entry",
            name="manage_token",
            field=models.CharField(editable=False, max_length=64, null=True, unique=True),
        ),
        migrations.RunPython(hash_plain_tokens, restore_plain_tokens, elidable=False),
        migrations.AlterField(
            model_name="entry",
            name="manage_nonce",
            field=models.CharField(
                default=registration.models.new_manage_nonce, editable=False, max_length=32
            ),
        ),
        migrations.AlterField(
            model_name="entry",
            name="manage_token_hash",
            field=registration.models.ManageTokenHashField(
                editable=False, max_length=64, unique=True
            ),
        ),
        migrations.RemoveField(
            model_name="entry",
            name="manage_token",
        ),
    ]
