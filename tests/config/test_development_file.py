"""development.env: what `make run` writes for manage.py, and what manage.py takes from it.

The whole of it, `make run` writing the file and the README's commands working in
a fresh shell beside it, is run for real in tests/config/test_make_run.py.
"""

import os
import subprocess
import sys

import pytest
from django.core import checks

from config import env
from core.checks import development_file_check
from tests.paths import ROOT

DEVELOPMENT = "# made by make run\nDEBUG=true\nSECRET_KEY=from-the-file\n"


@pytest.fixture
def development_file(tmp_path):
    path = tmp_path / env.DEVELOPMENT_FILE
    path.write_text(DEVELOPMENT)
    return path


def test_a_shell_that_sets_nothing_takes_debug_and_the_key_from_the_file(development_file):
    assert env.development_settings({"PATH": "/usr/bin"}, development_file) == {
        "DEBUG": "true",
        "SECRET_KEY": "from-the-file",
    }


def test_the_environment_wins_over_the_file_even_when_empty(development_file):
    added = env.development_settings({"SECRET_KEY": "", "DEBUG": "1"}, development_file)
    assert added == {}


def test_a_process_whose_environment_turns_debug_off_takes_nothing_from_the_file(
    development_file,
):
    assert env.development_settings({"DEBUG": "false"}, development_file) == {}


def test_a_file_that_does_not_turn_debug_on_counts_only_with_debug_from_the_environment(tmp_path):
    path = tmp_path / env.DEVELOPMENT_FILE
    path.write_text("EMAIL_HOST=smtp.example.org\n")
    assert env.development_settings({}, path) == {}
    assert env.development_settings({"DEBUG": "true"}, path) == {"EMAIL_HOST": "smtp.example.org"}


def test_without_the_file_nothing_is_added(tmp_path):
    assert env.development_settings({}, tmp_path / env.DEVELOPMENT_FILE) == {}


def test_the_file_reads_like_a_shells_assignments():
    text = """
        # a comment
        export DEBUG=true
        SITE_URL = "http://192.168.1.23:8000"
        EMAIL_HOST_USER='kari'
        EMAIL_HOST_PASSWORD=a=b
        SECRET_KEY=
    """
    assert env.parse_env_file(text, "development.env") == {
        "DEBUG": "true",
        "SITE_URL": "http://192.168.1.23:8000",
        "EMAIL_HOST_USER": "kari",
        "EMAIL_HOST_PASSWORD": "a=b",
        "SECRET_KEY": "",
    }


@pytest.mark.parametrize("line", ["DEBUG", "2FAST=1", "DE BUG=1"])
def test_a_line_that_is_no_assignment_is_refused_with_its_number(line):
    with pytest.raises(env.ConfigurationError, match=r"development\.env, line 2: expected NAME"):
        env.parse_env_file(f"DEBUG=true\n{line}\n", "development.env")


def test_make_run_writes_debug_and_a_new_key_once_readable_by_its_owner_alone(tmp_path):
    path = tmp_path / env.DEVELOPMENT_FILE
    assert env.development_file_write(path) is True
    values = env.parse_env_file(path.read_text(), path.name)
    assert values["DEBUG"] == "true"
    assert len(values["SECRET_KEY"]) >= 50
    assert path.stat().st_mode & 0o777 == 0o600
    # Written once: what is there, the developer's changes included, stays.
    path.write_text(DEVELOPMENT)
    assert env.development_file_write(path) is False
    assert path.read_text() == DEVELOPMENT
    other = tmp_path / "other.env"
    env.development_file_write(other)
    assert env.parse_env_file(other.read_text(), other.name)["SECRET_KEY"] != values["SECRET_KEY"]


def test_manage_py_reads_the_file_beside_it(tmp_path):
    """A command run by hand in the checkout gets DEBUG and the key from the file."""
    (tmp_path / "manage.py").write_text((ROOT / "manage.py").read_text())
    (tmp_path / env.DEVELOPMENT_FILE).write_text(DEVELOPMENT)
    dropped = {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environ = {name: value for name, value in os.environ.items() if name not in dropped}
    environ.update(PYTHONPATH=str(ROOT), DATABASE_URL="sqlite:///:memory:")
    code = "from django.conf import settings as s; print(s.DEBUG, s.SECRET_KEY)"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "from-the-file"]


def test_the_deploy_check_says_where_debug_comes_from_when_the_file_is_here(settings, tmp_path):
    settings.DEVELOPMENT_FILE = tmp_path / env.DEVELOPMENT_FILE
    settings.DEBUG = True
    assert development_file_check() == []
    settings.DEVELOPMENT_FILE.write_text(DEVELOPMENT)
    (warning,) = development_file_check()
    assert warning.id == "championship.W004" and warning.level == checks.WARNING
    assert "development.env" in warning.msg and "must not" in warning.hint
    assert "championship.W004" in {
        message.id for message in checks.run_checks(include_deployment_checks=True)
    }
    # With DEBUG off the file is passed by (manage.py takes nothing from it).
    settings.DEBUG = False
    assert development_file_check() == []
