"""What the deployment tests add to the harness (``harness/``): their heat, taps and pages.

The harness starts the databases, Redis and gunicorn; this module holds what only
these tests need: the skip-or-fail rule, the production settings with a static
root of the test run, the championship they load, a judge's taps and the rows of
a results fragment. Without PostgreSQL, Redis or gunicorn the tests skip locally
and fail in CI (``require``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from core.l10n import format_duration
from harness.http import Answer, try_call
from harness.servers import load_championship, manage, production_env
from tests.conftest import IN_CI

SERVER_SETTINGS = "tests.deployment.server_settings"
ROUND = "individual-prelim"
HEAT = "a"


def require(ok: bool, what: str) -> None:
    """Skip without ``what`` locally; in CI its absence is a failure."""
    if ok:
        return
    if IN_CI:
        pytest.fail(f"{what}: the deployment tests must run in CI", pytrace=False)
    pytest.skip(what)


def server_env(database_url: str, redis_url: str, static_root: Path) -> dict:
    """Return the environment of a production server whose static files are in ``static_root``."""
    return production_env(
        database_url,
        redis_url,
        settings=SERVER_SETTINGS,
        extra={"DEPLOYMENT_STATIC_ROOT": str(static_root)},
    )


def championship_document(
    slug: str, *, now: datetime, entries: int, capacity: int | None, started: datetime
) -> dict:
    """Return a rogaland championship: ``entries`` confirmed entries seated in heat "a".

    The heat started at ``started`` and runs; every entry has a pending result
    (a row that says "Puzzling"). Registration is open: the championship is in
    60 days.
    """
    persons, members, seats, results = [], [], [], []
    for number in range(1, entries + 1):
        persons.append(
            {
                "id": f"p{number}",
                "name": f"Puzzler {number}",
                "birth_date": "1990-01-01",
                "region": "Rogaland",
                "citizenship": ["NO"],
                "email": f"puzzler{number}@example.org",
                "publish_consent": True,
            }
        )
        members.append(
            {
                "id": f"e{number}",
                "name": f"Puzzler {number}",
                "members": [f"p{number}"],
                "status": "confirmed",
                "publish_consent": True,
            }
        )
        seats.append({"table": number, "entry": f"e{number}"})
        results.append({"entry": f"e{number}", "status": "pending"})
    return {
        "format": "speedpuzzling-championship",
        "version": 1,
        "championship": {
            "slug": slug,
            "name": f"Deployment test {slug}",
            "ruleset": "rogaland",
            "timezone": "Europe/Oslo",
            "starts_at": (now + timedelta(days=60)).isoformat(),
            "language": "en",
        },
        "tables": [{"number": n, "seats": 1} for n in range(1, entries + 1)],
        "persons": persons,
        "competitions": [
            {
                "key": "individual",
                "category": "individual",
                "pieces": 500,
                "time_limit_minutes": 120,
                "capacity": capacity,
                "entries": members,
                "rounds": [
                    {
                        "key": ROUND,
                        "stage": "prelim",
                        "heats": [
                            {
                                "key": HEAT,
                                "started_at": started.isoformat(),
                                "seats": seats,
                                "results": results,
                            }
                        ],
                    }
                ],
            }
        ],
    }


def migrate_and_load(env: dict, document: dict, workdir: Path) -> str:
    """Migrate the database, import ``document``, add a judge; return the judge's API token."""
    manage(env, "migrate", "--noinput")
    slug = document["championship"]["slug"]
    return load_championship(env, document, workdir, judge=f"judge-{slug}").token


# ----------------------------------------------------------------------------- judging


@dataclass
class Tap:
    """One capture as a judge's phone queues it: the id is fixed when the judge taps."""

    entry: str
    at: datetime
    started: datetime
    id: str = field(default_factory=lambda: str(uuid.uuid4()))

    @property
    def expected_ms(self) -> int:
        return (self.at - self.started) // timedelta(milliseconds=1)

    @property
    def expected_time(self) -> str:
        seconds = self.expected_ms // 1000
        return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"

    def payload(self) -> dict:
        return {
            "id": self.id,
            "round": ROUND,
            "entry": self.entry,
            "kind": "finish",
            "at": self.at.isoformat(),
            "missing_found": 0,
            "missing_lost": 0,
            "adjacent_missing": 0,
        }


def post_capture(port: int, slug: str, token: str, tap: Tap, timeout=30) -> Answer | Exception:
    return try_call(
        port,
        "POST",
        f"/api/v1/championships/{slug}/captures/",
        headers={"Authorization": f"Token {token}"},
        payload=tap.payload(),
        timeout=timeout,
    )


def acknowledged(answer) -> bool:
    return isinstance(answer, Answer) and answer.status == 201


def fragment_path(slug: str, heat: str = HEAT) -> str:
    return f"/{slug}/results/{ROUND}/?heat={heat}"


def fragment_row(html: str, name: str) -> str:
    """Return the table row of the entry called ``name`` in a results fragment."""
    for row in html.split("<tr ")[1:]:
        # The name is plain text, or the link to the puzzler's page.
        if f">{name}</span>" in row or f">{name}</a>" in row:
            return row.split("</tr>", 1)[0]
    raise AssertionError(f"no row for {name!r} in the fragment")


def shown_time(ms: int) -> str:
    """Return a final time as the results table shows it (``core.l10n.format_duration``)."""
    return format_duration(ms)
