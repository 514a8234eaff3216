"""Who may create championships: the group Organisers, the command, the demo's organiser."""

import importlib
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from control import demo


def run(*args) -> str:
    out = StringIO()
    call_command("create_organiser", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_migration_makes_the_group_organisers_with_the_permission():
    # Run on its own: a transactional test before it on the same worker empties the tables
    # (a flush), the migration's rows with them.
    Group.objects.filter(name="Organisers").delete()
    migration = importlib.import_module("championship.migrations.0006_organisers_group")
    state = MigrationLoader(connection).project_state(("championship", "0006_organisers_group"))
    migration.create_group(state.apps, None)
    group = Group.objects.get(name="Organisers")
    assert group.permissions.filter(
        content_type__app_label="championship", codename="add_championship"
    ).exists()


@pytest.mark.django_db
def test_the_command_creates_an_organiser_who_may_create_championships(client):
    output = run("kari", "--email", "kari@example.org")
    user = get_user_model().objects.get(username="kari")
    password = output.split("password: ")[1].strip()
    assert len(password) >= 12
    assert user.check_password(password)
    assert user.has_perm("championship.add_championship")
    assert user.is_staff and not user.is_superuser
    assert user.email == "kari@example.org"
    assert client.login(username="kari", password=password)
    assert client.get("/new/").status_code == 200


@pytest.mark.django_db
def test_the_command_updates_an_existing_account_with_the_given_password():
    get_user_model().objects.create_user("ola", password="old-password-1")
    output = run("ola", "--password", "a-new-password-2")
    user = get_user_model().objects.get(username="ola")
    assert "a-new-password-2" in output
    assert user.check_password("a-new-password-2")
    assert user.has_perm("championship.add_championship")


@pytest.mark.django_db
def test_the_command_leaves_a_superuser_alone():
    get_user_model().objects.create_superuser("root", password="root-password-1")
    with pytest.raises(CommandError, match="superuser"):
        run("root")
    assert get_user_model().objects.get(username="root").check_password("root-password-1")


@pytest.mark.django_db
def test_the_command_refuses_a_name_django_refuses():
    with pytest.raises(CommandError):
        run("no spaces allowed")
    assert not get_user_model().objects.filter(username="no spaces allowed").exists()


@pytest.mark.django_db
def test_the_demos_organiser_may_create_championships_and_is_no_superuser():
    demo.build()
    organiser = get_user_model().objects.get(username="organiser")
    assert organiser.has_perm("championship.add_championship")
    assert not organiser.is_superuser
    assert organiser.groups.filter(name="Organisers").exists()


@pytest.mark.django_db
def test_the_demos_summary_says_how_to_make_an_organiser_account():
    out = StringIO()
    call_command("demo", stdout=out)
    summary = out.getvalue()
    assert ".venv/bin/python manage.py create_organiser kari --email kari@example.org" in summary
    assert "/new/" in summary
