"""The time of the imports, measured inside the application (``bench/imports.py`` runs it).

Run in ``manage.py shell`` against the benchmark's database, with the production
settings of the benchmark's gunicorn:

- **CSV**: an organiser's file of ``rows`` individuals (2,000, the most a file may
  have: name, e-mail, birth date, town, country, region, consent, payment) goes
  through the organiser's pages as a browser sends it, through Django's test
  client: the upload (read and checked), the preview page, the confirmation;
  then, for a file the confirmation leaves to the worker, the worker's step
  (``csv_jobs.import_jobs_run``, what ``run_import_jobs`` runs) until it is done.
  Twice, each into a championship of its own (dm's rules: one entry per person,
  ages): into a category of 3 places, where the rows go to the waiting list, and
  into one without a limit. Then a file of a quarter of the rows, which the
  confirmation imports itself.
- **Interchange**: ``import_document`` of a generated document of ``entries``
  entries (10,000): one individual competition, a preliminary round in heats of
  200 with every result in and time up (the ranking's dearest case), its read
  and check (``_read``), the ranking (``standings_recompute``) and the rest (the
  writes) timed apart.

Times are wall-clock (the database works in another process). Before each
measurement the minimal view (``/health/``) is asked for 20 times in the same
process, and each time is also given in minimal views: the machine's speed
moves from one minute to the next. Prints one line, ``IMPORTS`` and JSON.
"""

from __future__ import annotations

import functools
import json
import random
import statistics
import time
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from bench.document import FIRST, LAST, championship, competition, finished, puzzler
from championship.models import Category, ChampionshipRole
from championship.services import championship_create
from interchange import write
from registration import csv_jobs
from registration.models import Entry, StoredImport

MINIMAL_VIEW_REQUESTS = 20
PER_HEAT = 200
CSV_HEADER = (
    "name,email,birth_date,city,country,region,publish_consent,payment_status,payment_reference"
)


def _minimal_view_ms(client: Client) -> float:
    """Return the wall-clock time of one request of the minimal view, in this process.

    The first requests of a process (and of a client) are left out: they set things up.
    """
    for _ in range(MINIMAL_VIEW_REQUESTS):
        client.get("/health/")
    begin = time.perf_counter()
    for _ in range(MINIMAL_VIEW_REQUESTS):
        if client.get("/health/").status_code != 200:
            raise RuntimeError("the minimal view did not answer 200")
    return (time.perf_counter() - begin) * 1000 / MINIMAL_VIEW_REQUESTS


def csv_text(rows: int, seed: int = 2026) -> str:
    """Return an organiser's file of ``rows`` individuals, every one a different person.

    At most 2,000: the birth dates run a week apart from 1950 on.
    """
    rnd = random.Random(seed)
    lines = [CSV_HEADER]
    for number in range(1, rows + 1):
        paid = rnd.random() < 0.3
        lines.append(
            ",".join(
                [
                    f"{rnd.choice(FIRST)} {rnd.choice(LAST)}",
                    f"csv{number}@example.org",
                    # A birth date of its own: no two rows are the same person.
                    (date(1950, 1, 1) + timedelta(days=7 * number)).isoformat(),
                    rnd.choice(["Odense", "Aarhus", "Malmö", "Stavanger", "Aalborg"]),
                    rnd.choice(["DK", "SE", "NO"]),
                    rnd.choice(["Syddanmark", "Midtjylland", "Skåne"]),
                    rnd.choice(["yes", "no"]),
                    "paid" if paid else "unpaid",
                    f"REF-{number}" if paid else "",
                ]
            )
        )
    return "\n".join(lines)


def _organiser(slug: str, capacity: int | None):
    """Return a dm championship whose individual category has ``capacity``, and its organiser."""
    created = championship_create(
        slug=slug,
        name=f"CSV import ({slug})",
        ruleset="dm",
        starts_at=datetime.now(UTC).replace(microsecond=0) + timedelta(days=200),
        language="en",
    )
    Category.objects.filter(championship=created, key="individual").update(capacity=capacity)
    user = get_user_model().objects.create_user(f"{slug}-organiser")
    ChampionshipRole.objects.create(championship=created, user=user, role="organiser")
    return created, user


def measure_csv(slug: str, rows: int, capacity: int | None) -> dict:
    """Upload, preview and confirm a file of ``rows`` rows; return each step's time (s)."""
    created, user = _organiser(slug, capacity)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    minimal = _minimal_view_ms(client)
    text = csv_text(rows)
    steps = {}
    begin = time.perf_counter()
    answer = client.post(
        f"/{slug}/manage/entries/import/",
        {
            "file": SimpleUploadedFile("entries.csv", text.encode(), content_type="text/csv"),
            "category": "individual",
        },
    )
    steps["upload_s"] = time.perf_counter() - begin
    if answer.status_code != 302:
        raise RuntimeError(f"the upload answered {answer.status_code}")
    preview_url = answer.url
    begin = time.perf_counter()
    page = client.get(preview_url)
    steps["preview_s"] = time.perf_counter() - begin
    steps["preview_bytes"] = len(page.content)
    begin = time.perf_counter()
    answer = client.post(preview_url, {"action": "import"})
    steps["confirm_answer_s"] = time.perf_counter() - begin
    begin = time.perf_counter()
    worker_runs = _run_worker()
    steps["worker_s"] = time.perf_counter() - begin if worker_runs else 0.0
    steps["confirmed_s"] = steps["confirm_answer_s"] + steps["worker_s"]
    entries = Entry.objects.filter(category__championship=created)
    statuses = dict.fromkeys(("confirmed", "waitlisted"), 0)
    for status in entries.values_list("status", flat=True):
        statuses[status] = statuses.get(status, 0) + 1
    if sum(statuses.values()) != rows:
        raise RuntimeError(f"{sum(statuses.values())} entries imported of {rows}: {statuses}")
    return {
        "rows": rows,
        "capacity": capacity,
        "by_the_worker": bool(worker_runs),
        "statuses": statuses,
        "minimal_view_ms": minimal,
        "confirmed_minimal_views": steps["confirmed_s"] * 1000 / minimal,
        **steps,
    }


def _run_worker() -> int:
    """Run the import worker's step until no import waits; return how many it ran."""
    ran = 0
    while StoredImport.objects.filter(state__in=csv_jobs.UNFINISHED).exists():
        ran += len(csv_jobs.import_jobs_run())
    return ran


def interchange_document(entries: int, seed: int = 2024) -> dict:
    """Return a document of ``entries`` entries: one round in heats of 200, every result in."""
    rnd = random.Random(seed)
    now = datetime.now(UTC).replace(microsecond=0)
    started, ended = now - timedelta(hours=3), now - timedelta(hours=1, minutes=25)
    persons, rows, heats = [], [], []
    for number in range(1, entries + 1):
        person, entry = puzzler(rnd, number)
        person["id"], entry["id"] = f"p{number:05d}", f"e{number:05d}"
        entry["members"] = [person["id"]]
        persons.append(person)
        rows.append(entry)
    for first in range(0, entries, PER_HEAT):
        chunk = rows[first : first + PER_HEAT]
        heats.append(
            {
                "key": f"h{first // PER_HEAT + 1}",
                "started_at": started.isoformat(),
                "ended_at": ended.isoformat(),
                "seats": [{"table": n, "entry": e["id"]} for n, e in enumerate(chunk, start=1)],
                "results": [finished(rnd, e["id"], 30 * 60, 89 * 60) for e in chunk],
            }
        )
    document_round = {
        "key": "individual-prelim",
        "name": "Preliminary round",
        "stage": "prelim",
        "advance": {"overall": 100},
        "heats": heats,
    }
    return {
        "format": "speedpuzzling-championship",
        "version": 1,
        "championship": championship("interchange-bench", "Interchange import (benchmark)", now),
        "tables": [{"number": n, "seats": 1} for n in range(1, PER_HEAT + 1)],
        "persons": persons,
        "competitions": [competition(rows, [document_round])],
    }


def _timed(module, name: str, spent: dict) -> None:
    """Add the time of each call of ``module.name`` to ``spent[name]``."""
    real = getattr(module, name)

    @functools.wraps(real)
    def timed(*args, **kwargs):
        begin = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.perf_counter() - begin

    setattr(module, name, timed)


def measure_interchange(entries: int) -> dict:
    """Import a document of ``entries`` entries; return the time of the whole and of its parts."""
    client = Client(HTTP_HOST="127.0.0.1")
    minimal = _minimal_view_ms(client)
    document = interchange_document(entries)
    spent: dict[str, float] = {}
    _timed(write, "_read", spent)
    _timed(write, "standings_recompute", spent)
    begin = time.perf_counter()
    write.import_document(document)
    total = time.perf_counter() - begin
    return {
        "entries": entries,
        "import_s": total,
        "read_and_check_s": spent["_read"],
        "ranking_s": spent["standings_recompute"],
        "writes_s": total - spent["_read"] - spent["standings_recompute"],
        "minimal_view_ms": minimal,
        "import_minimal_views": total * 1000 / minimal,
    }


def main(rows: int, entries: int) -> None:
    measured: dict = {"csv": [], "interchange": None}
    if rows:
        for slug, capacity in (("csv-waiting", 3), ("csv-open", None)):
            measured["csv"].append(measure_csv(slug, rows, capacity))
        measured["csv"].append(measure_csv("csv-small", max(1, rows // 4), None))
        measured["csv_median_minimal_view_ms"] = statistics.median(
            each["minimal_view_ms"] for each in measured["csv"]
        )
    if entries:
        measured["interchange"] = measure_interchange(entries)
    print("IMPORTS " + json.dumps(measured))
