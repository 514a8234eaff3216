"""SQLite written by several processes (`make run`): a writer waits its turn, never "locked".

Each test opens its own SQLite file through Django's backend with the options
``config.env`` gives it, on connections of its own: one per thread, as one per
process under ``make run``.
"""

import threading
import time
from pathlib import Path

import pytest
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections, transaction

from config import env

ALIAS = "sqlite_file"
HOLD = 1.0  # seconds the first writer keeps its transaction open


def test_the_sqlite_default_takes_the_write_lock_at_begin_waits_and_runs_in_wal_mode(tmp_path):
    options = env.database_config({}, tmp_path)["OPTIONS"]
    assert options == {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    url = {"DATABASE_URL": f"sqlite:///{tmp_path / 'other.sqlite3'}"}
    assert env.database_config(url, tmp_path)["OPTIONS"] == options


def test_postgresql_gets_none_of_the_sqlite_options():
    options = env.database_config({"DATABASE_URL": "postgres://x@h:5432/x"}, Path("/srv"))
    assert not {"transaction_mode", "timeout", "init_command"} & set(options["OPTIONS"])


@pytest.fixture
def sqlite_file(tmp_path, django_db_blocker):
    """Add a database alias for an SQLite file as ``config.env`` configures the default one.

    Yield its settings: a test may change their ``OPTIONS`` before it connects.
    """
    database = env.database_config({}, tmp_path)
    # Django fills in what a database's settings leave out; it wants a default beside.
    filled = connections.configure_settings({DEFAULT_DB_ALIAS: dict(database), ALIAS: database})
    connections.settings[ALIAS] = filled[ALIAS]
    with django_db_blocker.unblock():
        with connections[ALIAS].cursor() as cursor:
            cursor.execute("CREATE TABLE tap (n integer)")
        connections[ALIAS].close()
        yield connections.settings[ALIAS]
        connections[ALIAS].close()
    del connections[ALIAS]
    del connections.settings[ALIAS]


def pragma(name: str):
    with connections[ALIAS].cursor() as cursor:
        cursor.execute(f"PRAGMA {name}")
        return cursor.fetchone()[0]


def test_every_connection_is_in_wal_mode_syncs_normally_and_waits_20_s_for_a_lock(sqlite_file):
    assert pragma("journal_mode") == "wal"
    assert pragma("synchronous") == 1  # NORMAL
    assert pragma("busy_timeout") == 20_000


def hold_the_write_lock(started: threading.Event, errors: list) -> None:
    """In a connection of its own, write in a transaction and keep it open ``HOLD`` seconds."""
    try:
        with transaction.atomic(using=ALIAS), connections[ALIAS].cursor() as cursor:
            cursor.execute("INSERT INTO tap VALUES (1)")
            started.set()
            time.sleep(HOLD)
    except Exception as error:
        errors.append(error)
        started.set()
    finally:
        connections[ALIAS].close()


def read_then_write_beside_another_writer() -> float:
    """Start a writer in another thread; meanwhile read, then write, in one transaction.

    Return how long the transaction took.
    """
    started, errors = threading.Event(), []
    writer = threading.Thread(target=hold_the_write_lock, args=(started, errors))
    writer.start()
    try:
        assert started.wait(10)
        began = time.monotonic()
        with transaction.atomic(using=ALIAS), connections[ALIAS].cursor() as cursor:
            cursor.execute("SELECT count(*) FROM tap")
            cursor.execute("INSERT INTO tap VALUES (2)")
        return time.monotonic() - began
    finally:
        writer.join()
        assert not errors, errors


def test_a_deferred_transaction_beside_another_writer_fails_with_database_is_locked(sqlite_file):
    """Without IMMEDIATE: what the options prevent, a page's error under `make run`."""
    sqlite_file["OPTIONS"]["transaction_mode"] = None
    with pytest.raises(OperationalError, match="database is locked"):
        read_then_write_beside_another_writer()


def test_an_immediate_transaction_waits_for_the_other_writer_and_succeeds(sqlite_file):
    took = read_then_write_beside_another_writer()
    assert took >= HOLD / 2
    with connections[ALIAS].cursor() as cursor:
        cursor.execute("SELECT n FROM tap ORDER BY n")
        assert cursor.fetchall() == [(1,), (2,)]
