"""Puzzlers: one person across championships, recognised by e-mail address."""

import django.db.models.deletion
from django.db import migrations, models

import registration.models


def link_persons(apps, schema_editor):
    """Make every existing person the puzzler of their e-mail address (or one of their own)."""
    Person = apps.get_model("registration", "Person")
    Puzzler = apps.get_model("registration", "Puzzler")
    by_key = {}
    for person in Person.objects.order_by("pk").iterator():
        key = person.email.strip().casefold()
        if key and key in by_key:
            puzzler = by_key[key]
        else:
            puzzler = Puzzler.objects.create(
                ref=registration.models.new_puzzler_ref(), email_key=key or None
            )
            if key:
                by_key[key] = puzzler
        Person.objects.filter(pk=person.pk).update(puzzler=puzzler)


class Migration(migrations.Migration):
    dependencies = [
        ("registration", "0004_stored_import"),
    ]

    operations = [
        migrations.CreateModel(
            name="Puzzler",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "ref",
                    models.CharField(
                        default=registration.models.new_puzzler_ref,
                        max_length=16,
                        unique=True,
                        verbose_name="id",
                    ),
                ),
                (
                    "email_key",
                    models.CharField(
                        blank=True,
                        max_length=254,
                        null=True,
                        unique=True,
                        verbose_name="e-mail address (compared)",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name": "puzzler",
                "verbose_name_plural": "puzzlers",
            },
        ),
        migrations.AddField(
            model_name="person",
            name="puzzler",
            field=models.ForeignKey(
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="persons",
                to="registration.puzzler",
                verbose_name="puzzler",
            ),
        ),
        migrations.RunPython(link_persons, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="person",
            name="puzzler",
            field=models.ForeignKey(
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="persons",
                to="registration.puzzler",
                verbose_name="puzzler",
            ),
        ),
    ]
