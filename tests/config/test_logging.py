"""The log: a refused request is one warning line, a server error keeps its traceback."""

import logging
import sys

import pytest
from django.urls import reverse

from championship.models import ChampionshipRole
from config.log import RefusalWithoutTraceback
from tests import factories

Role = ChampionshipRole.Role


def request_records(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == "django.request"]


@pytest.mark.django_db
def test_a_403_is_logged_as_one_warning_without_a_traceback(client, championship, caplog):
    client.force_login(factories.role(championship, Role.JUDGE))
    with caplog.at_level(logging.INFO):
        response = client.get(
            reverse("manage:control_room", kwargs={"championship_slug": championship.slug})
        )
    assert response.status_code == 403
    (record,) = request_records(caplog)
    assert record.levelno == logging.WARNING
    assert record.getMessage() == f"Forbidden (Permission denied): /{championship.slug}/manage/"
    assert record.exc_info is None and record.exc_text is None
    assert "Traceback" not in caplog.text and "PermissionDenied" not in caplog.text


@pytest.mark.django_db
def test_a_404_stays_one_line_too(client, caplog):
    with caplog.at_level(logging.INFO):
        assert client.get("/no-such-championship/manage/").status_code == 404
    (record,) = request_records(caplog)
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "Traceback" not in caplog.text


def record(status: int) -> logging.LogRecord:
    try:
        raise RuntimeError("the database went away")
    except RuntimeError:
        exc_info = sys.exc_info()
    made = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "x", (), exc_info)
    made.status_code = status
    return made


def test_a_server_error_keeps_its_traceback():
    kept = record(500)
    assert RefusalWithoutTraceback().filter(kept) is True
    assert kept.exc_info is not None
    refused = record(403)
    assert RefusalWithoutTraceback().filter(refused) is True
    assert refused.exc_info is None
