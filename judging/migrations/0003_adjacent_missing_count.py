"""Record how many lost pieces were adjacent, instead of whether two or more were.

A stored ``true`` meant that the missing pieces were adjacent: it becomes the
number of pieces lost (when two or more were lost), ``false`` becomes 0. The
table is append-only (a trigger refuses updates), so PostgreSQL converts the
column in place; SQLite rebuilds the table, which drops the trigger, converts
the copy and makes the trigger again.
"""

import importlib

from django.db import migrations, models

TABLE = "judging_capture"
CONVERTED = "CASE WHEN adjacent_missing AND missing_lost >= 2 THEN missing_lost ELSE 0 END"
APPEND_ONLY = importlib.import_module("judging.migrations.0002_capture_append_only_trigger")


def _fields(apps):
    model = apps.get_model("judging", "Capture")
    old = model._meta.get_field("adjacent_missing")
    new = models.PositiveSmallIntegerField(default=0)
    new.set_attributes_from_name("adjacent_missing")
    new.model = model
    return model, old, new


def forwards(apps, schema_editor):
    execute = schema_editor.execute
    if schema_editor.connection.vendor == "postgresql":
        execute(
            f"ALTER TABLE {TABLE} ALTER COLUMN adjacent_missing TYPE smallint USING ({CONVERTED})"
        )
        execute(
            f"ALTER TABLE {TABLE} ADD CONSTRAINT {TABLE}_adjacent_missing_check "
            "CHECK (adjacent_missing >= 0)"
        )
        return
    model, old, new = _fields(apps)
    schema_editor.alter_field(model, old, new)
    execute(
        f"UPDATE {TABLE} SET adjacent_missing = CASE WHEN adjacent_missing >= 1 "
        "AND missing_lost >= 2 THEN missing_lost ELSE 0 END"
    )
    if schema_editor.connection.vendor == "sqlite":
        execute(APPEND_ONLY.SQLITE_DOWN)
        execute(APPEND_ONLY.SQLITE_UP)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"ALTER TABLE {TABLE} DROP CONSTRAINT IF EXISTS {TABLE}_adjacent_missing_check"
        )
        schema_editor.execute(
            f"ALTER TABLE {TABLE} ALTER COLUMN adjacent_missing TYPE boolean "
            "USING (adjacent_missing > 0)"
        )
        return
    raise NotImplementedError("Going back needs PostgreSQL.")


class Migration(migrations.Migration):
    dependencies = [("judging", "0002_capture_append_only_trigger")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="capture",
                    name="adjacent_missing",
                    field=models.PositiveSmallIntegerField(
                        default=0,
                        help_text=(
                            "Of the lost pieces, how many were missing side by side (two or more)."
                        ),
                        verbose_name="adjacent pieces lost",
                    ),
                ),
            ],
            database_operations=[migrations.RunPython(forwards, backwards)],
        ),
    ]
