"""The API tests' fixtures: a client of the API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def api():
    return APIClient()
