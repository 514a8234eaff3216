"""``check --deploy`` warns when the proxy is trusted but gunicorn listens where clients reach it.

Behind ``TRUSTED_PROXY_COUNT`` proxies the client's address is read from
``X-Forwarded-For``; a client that reaches gunicorn directly writes that header
itself, and escapes the login lock-out. The check sees gunicorn's bind where it
can: gunicorn's own ``GUNICORN_CMD_ARGS``.
"""

import pytest
from django.core import checks

from core.checks import gunicorn_binds, proxy_bind_check, reachable_from_anywhere
from tests.config.test_settings import run_manage


def deploy_ids() -> set[str]:
    return {
        message.id
        for message in checks.run_checks(include_deployment_checks=True)
        if message.id.startswith("championship.")
    }


@pytest.mark.parametrize(
    "args",
    [
        "--bind 0.0.0.0:8000 --workers 4",
        "--workers 4 -b :8000",
        "--bind=[::]:8000",
        "-b0.0.0.0:8000",
        "--bin 0.0.0.0:8000",
        "--bind unix:/run/championship/gunicorn.sock --bind 81.0.0.7:8000",
        "--bind tcp://0.0.0.0:8000",
    ],
)
def test_a_public_bind_behind_a_trusted_proxy_is_warned_of(settings, monkeypatch, args):
    settings.TRUSTED_PROXY_COUNT = 1
    monkeypatch.setenv("GUNICORN_CMD_ARGS", args)
    (warning,) = proxy_bind_check()
    assert warning.id == "championship.W003" and warning.level == checks.WARNING
    assert "TRUSTED_PROXY_COUNT is 1" in warning.msg and "X-Forwarded-For" in warning.msg
    assert "lock-out" in warning.msg
    assert "unix socket" in warning.hint and "GUNICORN_CMD_ARGS" in warning.hint
    assert "championship.W003" in deploy_ids()


@pytest.mark.parametrize(
    "args",
    [
        "--bind unix:/run/championship/gunicorn.sock --workers 4",
        "--bind 127.0.0.1:8000",
        "-b [::1]:8000",
        "--bind localhost:8000",
        "--bind 10.0.0.11:8000",  # a private network: a firewall decides, out of sight
        "--bind fd://3",
        "--workers 4",  # gunicorn's default is 127.0.0.1:8000
        "",
    ],
)
def test_a_bind_only_this_machine_or_its_network_reaches_is_not_warned_of(
    settings, monkeypatch, args
):
    settings.TRUSTED_PROXY_COUNT = 1
    monkeypatch.setenv("GUNICORN_CMD_ARGS", args)
    assert proxy_bind_check() == []


def test_without_gunicorn_cmd_args_nothing_is_known_and_nothing_is_warned(settings, monkeypatch):
    """A --bind on gunicorn's command line is not this process's to see."""
    settings.TRUSTED_PROXY_COUNT = 1
    monkeypatch.delenv("GUNICORN_CMD_ARGS", raising=False)
    assert proxy_bind_check() == []


def test_without_a_trusted_proxy_a_public_bind_is_no_lock_out_risk(settings, monkeypatch):
    """With TRUSTED_PROXY_COUNT 0 the connection's own address counts: nothing to forge."""
    settings.TRUSTED_PROXY_COUNT = 0
    monkeypatch.setenv("GUNICORN_CMD_ARGS", "--bind 0.0.0.0:8000")
    assert proxy_bind_check() == []
    assert "championship.W003" not in deploy_ids()


def test_the_binds_are_read_as_gunicorn_reads_them():
    environ = {"GUNICORN_CMD_ARGS": "-b a:1 --bind b:2 --bind=c:3 -bd:4 --bi e:5 --workers 4"}
    assert gunicorn_binds(environ) == ["a:1", "b:2", "c:3", "d:4", "e:5"]
    assert gunicorn_binds({"GUNICORN_CMD_ARGS": "--bind 'unclosed"}) == []
    assert gunicorn_binds({}) == []
    assert reachable_from_anywhere("0.0.0.0:8000")
    assert not reachable_from_anywhere("unix:/tmp/0.0.0.0.sock")


def test_check_deploy_warns_of_a_public_bind_with_the_app_servers_environment():
    production = {
        "DEBUG": "false",
        "SECRET_KEY": "kq8s7Jd9-a-real-looking-secret-key-for-the-deploy-check-9f8e7d6c5b4a",
        "ALLOWED_HOSTS": "puzzle.example.org",
        "SITE_URL": "https://puzzle.example.org",
        "TRUSTED_PROXY_COUNT": "1",
    }
    public = run_manage(
        "check", "--deploy", "--fail-level", "WARNING", **production,
        GUNICORN_CMD_ARGS="--bind 0.0.0.0:8000 --workers 4",
    )  # fmt: skip
    assert public.returncode != 0
    assert "championship.W003" in public.stderr + public.stdout
    socket = run_manage(
        "check", "--deploy", "--fail-level", "WARNING", **production,
        GUNICORN_CMD_ARGS="--bind unix:/run/championship/gunicorn.sock --workers 4",
    )  # fmt: skip
    assert socket.returncode == 0, socket.stderr + socket.stdout
    assert "championship.W" not in socket.stderr + socket.stdout
