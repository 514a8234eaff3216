"""Make the database itself refuse to change a stored capture.

The model refuses updates too; the trigger also stops raw SQL and other clients.
Deleting a whole championship still removes its captures.
"""

from django.db import migrations

POSTGRES_UP = """
CREATE OR REPLACE FUNCTION judging_capture_refuse_update() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'judging_capture is append-only: record a correction instead'
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER judging_capture_append_only
    BEFORE UPDATE ON judging_capture
    FOR EACH ROW EXECUTE FUNCTION judging_capture_refuse_update();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS judging_capture_append_only ON judging_capture;
DROP FUNCTION IF EXISTS judging_capture_refuse_update();
"""
SQLITE_UP = """
CREATE TRIGGER judging_capture_append_only BEFORE UPDATE ON judging_capture
BEGIN
    SELECT RAISE(ABORT, 'judging_capture is append-only: record a correction instead');
END;
"""
SQLITE_DOWN = "DROP TRIGGER IF EXISTS judging_capture_append_only;"


def forwards(apps, schema_editor):
    sql = {"postgresql": POSTGRES_UP, "sqlite": SQLITE_UP}.get(schema_editor.connection.vendor)
    if sql:
        schema_editor.execute(sql)


def backwards(apps, schema_editor):
    sql = {"postgresql": POSTGRES_DOWN, "sqlite": SQLITE_DOWN}.get(schema_editor.connection.vendor)
    if sql:
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("judging", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
