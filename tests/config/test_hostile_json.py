"""Hostile JSON where only a superuser gets to the body: never a server error, bounded."""

import pytest

from tests.config.hostile import battery_for, hostile_json_bodies

# The sweep is smaller in make test than in make test-deep (TEST_DEPTH=deep).
pytestmark = [pytest.mark.django_db, pytest.mark.deep]


def test_hostile_json_never_fails_where_only_a_superuser_gets_to_the_body(world, counted_forms):
    """The import (and the creation of a championship) read a superuser's body too."""
    battery = battery_for("superuser", world, counted_forms)
    hostile_json_bodies(battery, world, {"api:championship-import", "api:championship-list"})
    battery.check()
