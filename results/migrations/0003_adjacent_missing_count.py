"""Record how many lost pieces were adjacent; keep an imported result's judged fields.

A stored ``true`` meant that the missing pieces were adjacent: it becomes the
number of pieces lost (when two or more were lost), ``false`` becomes 0.
"""

from django.db import migrations, models

TABLE = "results_result"
CONVERTED = "CASE WHEN adjacent_missing AND missing_lost >= 2 THEN missing_lost ELSE 0 END"
FIELD = models.PositiveSmallIntegerField(
    default=0,
    help_text="Of the lost pieces, how many were missing side by side (two or more).",
    verbose_name="adjacent pieces lost",
)


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
    model = apps.get_model("results", "Result")
    new = models.PositiveSmallIntegerField(default=0)
    new.set_attributes_from_name("adjacent_missing")
    new.model = model
    schema_editor.alter_field(model, model._meta.get_field("adjacent_missing"), new)
    execute(
        f"UPDATE {TABLE} SET adjacent_missing = CASE WHEN adjacent_missing >= 1 "
        "AND missing_lost >= 2 THEN missing_lost ELSE 0 END"
    )


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
    dependencies = [("results", "0002_round_ranking")]

    operations = [
        migrations.AddField(
            model_name="result",
            name="imported",
            field=models.JSONField(
                blank=True,
                editable=False,
                help_text="The judged fields as an import gave them; captures apply on top.",
                null=True,
                verbose_name="as imported",
            ),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="result", name="adjacent_missing", field=FIELD
                ),
            ],
            database_operations=[migrations.RunPython(forwards, backwards)],
        ),
        migrations.AddConstraint(
            model_name="result",
            constraint=models.CheckConstraint(
                condition=models.Q(("adjacent_missing__lte", models.F("missing_lost"))),
                name="result_adjacent_among_lost",
            ),
        ),
    ]
