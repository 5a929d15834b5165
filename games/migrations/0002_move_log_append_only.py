"""The move log is append-only: on PostgreSQL a row trigger refuses every UPDATE and DELETE of
a Move. Row triggers do not fire on TRUNCATE, so the test suite's flush still works."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_move_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_move is append-only: % of a move is not allowed', TG_OP
        USING ERRCODE = 'raise_exception';
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS games_move_append_only ON games_move;
CREATE TRIGGER games_move_append_only
    BEFORE UPDATE OR DELETE ON games_move
    FOR EACH ROW EXECUTE FUNCTION games_move_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS games_move_append_only ON games_move;
DROP FUNCTION IF EXISTS games_move_append_only();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
