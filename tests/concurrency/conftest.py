import pytest
from django.db import connection


@pytest.fixture(autouse=True)
def postgresql_only(db):
    """Row locks and real concurrency need PostgreSQL (CI refuses any other database)."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrency tests need PostgreSQL: set DATABASE_URL=postgres://...")
