"""The group "Organisers": its members may create championships (``championship.add_championship``).

The site's administrator puts organisers in it (the admin's Groups, or
``manage.py create_organiser``). The permission is created here if it does not
exist yet: on a new database Django creates permissions only after every
migration has run.
"""

from django.db import migrations

GROUP = "Organisers"


def create_group(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    content_type, _created = ContentType.objects.get_or_create(
        app_label="championship", model="championship"
    )
    permission, _created = Permission.objects.get_or_create(
        content_type=content_type,
        codename="add_championship",
        defaults={"name": "Can add championship"},
    )
    group, _created = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(permission)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("championship", "0005_own_start"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
