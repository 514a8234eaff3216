"""The organiser's lists at 10,000 entries: the entries page and the check-in page.

A championship of its own (``lists_document``: one individual category of
``--list-entries`` entries that differ in status, payment, check-in,
officiality and age) is loaded, and an organiser of it signs in (a session).
Then each page is asked for, one request at a time, from a gunicorn of one
worker and one thread whose access log gives each request's time in the server
(``%(D)s``) and the bytes of its body; between two requests for a page the
minimal view (``/health/``) is asked for ``HEALTH_BETWEEN`` times, so that each
page's time is also given in minimal views of the same minutes. The pages are
rendered, never read from a cache: the organiser's pages are not cached.

Reported per page: the server's time (median and p90 of ``--list-samples``),
the bytes of the page (uncompressed: what Django rendered) and the median time
in minimal views. Target: every page under 1 s and under 1 MB.
"""

from __future__ import annotations

import random
import statistics
from datetime import datetime, timedelta

from bench import BenchError, log
from bench.document import championship, competition, puzzler
from bench.report import loadavg
from harness.http import call, wait_for
from harness.servers import AppServer, load_championship, manage

SLUG = "lists-bench"
ORGANISER = "lists-organiser"
HEALTH = "/health/"
HEALTH_BETWEEN = 5
# gunicorn's access log: the request's time in microseconds, its status, the body's bytes
# and the request line (with the query string).
ACCESS_FORMAT = '%(D)s %(s)s %(B)s "%(r)s"'
# A page at 10,000 entries took 17 s before the lists were paged: the client waits.
REQUEST_TIMEOUT = 300
TARGET_MS = 1000
TARGET_BYTES = 1_000_000


def pages(slug: str = SLUG) -> dict[str, tuple[str, str, dict]]:
    """Return the pages measured: name → (what the report calls it, path, headers)."""
    entries = f"/{slug}/manage/entries/"
    checkin = f"/{slug}/manage/checkin/"
    htmx = {"HX-Request": "true"}
    return {
        "entries": ("entries page, the first page", entries, {}),
        "entries_later": (
            "entries page, page 100",
            f"{entries}?category=individual&page=100",
            {},
        ),
        "entries_search": (
            "entries page, a search that many entries match (“hansen”)",
            f"{entries}?category=individual&q=hansen",
            {},
        ),
        "entries_unofficial": (
            "entries page, the unofficial entries (a filter the rulebook decides)",
            f"{entries}?category=individual&official=no",
            {},
        ),
        "entries_fragment": (
            "entries page, the list alone (HTMX, as after a row action)",
            f"{entries}?category=individual&status=confirmed&page=2",
            htmx,
        ),
        "checkin": ("check-in page", checkin, {}),
        "checkin_search": ("check-in page, a search (“hansen”)", f"{checkin}?q=hansen", {}),
        "checkin_fragment": (
            "check-in page, the results alone (HTMX, as the search field asks)",
            f"{checkin}?q=kari",
            htmx,
        ),
    }


def lists_document(now: datetime, entries: int, seed: int = 2026) -> dict:
    """Return a championship of ``entries`` individual entries that differ as a real one's do.

    rogaland rules (official: lives in Rogaland; an accompanying adult below 16).
    Registered over the 60 days before; about 88 % confirmed, 10 % on the waiting
    list and 2 % withdrawn; of the confirmed, 60 % paid (with a reference), 5 %
    waived and the rest unpaid, a third checked in; 15 % live outside Rogaland and
    3 % are under 16, with an adult named.
    """
    rnd = random.Random(seed)
    persons, rows = [], []
    first_registration = now - timedelta(days=60)
    for number in range(1, entries + 1):
        person, entry = puzzler(rnd, number)
        person["region"] = "Rogaland" if rnd.random() < 0.85 else "Vestland"
        if rnd.random() < 0.03:
            person["birth_date"] = f"{now.year - rnd.randint(9, 15)}-{rnd.randint(1, 12):02d}-10"
            entry["adult_name"] = "Forelder " + person["name"].split()[-1]
        draw = rnd.random()
        status = "confirmed" if draw < 0.88 else "waitlisted" if draw < 0.98 else "withdrawn"
        entry["status"] = status
        entry["registered_at"] = (
            first_registration + timedelta(seconds=number * 60 * 60 * 24 * 60 // entries)
        ).isoformat()
        if status == "confirmed":
            paid = rnd.random()
            if paid < 0.6:
                entry["payment_status"] = "paid"
                entry["payment_reference"] = f"VIPPS-{100000 + number}"
            elif paid < 0.65:
                entry["payment_status"] = "waived"
            if rnd.random() < 1 / 3:
                entry["checked_in_at"] = (now - timedelta(minutes=rnd.randint(5, 90))).isoformat()
        elif status == "withdrawn":
            entry["payment_status"] = "refunded"
        persons.append(person)
        rows.append(entry)
    category = competition(rows, [])
    category.update(capacity=len(rows), fee="300.00")
    return {
        "format": "speedpuzzling-championship",
        "version": 1,
        "championship": {
            **championship(SLUG, "Lists at scale (benchmark)", now),
            "starts_at": (now + timedelta(days=30)).isoformat(),
            "timezone": "Europe/Oslo",
            "currency": "NOK",
        },
        "tables": [],
        "persons": persons,
        "competitions": [category],
    }


# The organiser's user, role and session, in one Django start-up.
SIGN_IN = """
from importlib import import_module
from django.conf import settings
from django.contrib import auth
from championship.models import Championship, ChampionshipRole
user = auth.get_user_model().objects.create_user({user!r})
ChampionshipRole.objects.create(
    championship=Championship.objects.get(slug={slug!r}), user=user, role="organiser"
)
store = import_module(settings.SESSION_ENGINE).SessionStore()
store[auth.SESSION_KEY] = user._meta.pk.value_to_string(user)
store[auth.BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
store[auth.HASH_SESSION_KEY] = user.get_session_auth_hash()
store.create()
print("SESSION", store.session_key)
"""


def organiser_session(env: dict) -> str:
    """Create the organiser of the lists' championship and sign them in; return the session key."""
    output = manage(env, "shell", "-c", SIGN_IN.format(user=ORGANISER, slug=SLUG))
    line = next((line for line in output.splitlines() if line.startswith("SESSION ")), None)
    if line is None:
        raise BenchError(f"the organiser was not signed in: {output[-500:]}")
    return line.split()[1]


def access_times(server: AppServer, after: int) -> list[tuple[str, int, float, int]]:
    """Return (method and path, status, ms, body bytes) of the access log's lines from ``after``."""
    found = []
    for line in server.access_lines()[after:]:
        micros, answered, size, request = line.split(" ", 3)
        method_path = request.strip('"').rsplit(" ", 1)[0]  # without the protocol
        found.append(
            (method_path, int(answered), int(micros) / 1000, int(size) if size != "-" else 0)
        )
    return found


def p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


def measure_pages(server: AppServer, session_key: str, samples: int, only=None) -> dict:
    """Ask for each page ``samples`` times (after one warm-up) with the minimal view between."""
    cookie = {"Cookie": f"sessionid={session_key}"}
    measured = {}
    for name, (label, path, headers) in pages().items():
        if only and name not in only:
            continue
        before = len(server.access_lines())
        # A first request to warm up (left out): the view's first queries on this connection.
        first = call(
            server.port, "GET", path, headers={**cookie, **headers}, timeout=REQUEST_TIMEOUT
        )
        if first.status != 200:
            raise BenchError(f"{path} answered {first.status}: {first.text[:300]}")
        sizes = []
        for _ in range(samples):
            for _ in range(HEALTH_BETWEEN):
                if call(server.port, "GET", HEALTH).status != 200:
                    raise BenchError("the minimal view did not answer 200")
            answer = call(
                server.port, "GET", path, headers={**cookie, **headers}, timeout=REQUEST_TIMEOUT
            )
            if answer.status != 200:
                raise BenchError(f"{path} answered {answer.status}")
            sizes.append(len(answer.body))

        # gunicorn writes a request's line once its answer is sent, so a line may come after
        # the client has its answer: wait for this page's lines, then leave out the first
        # (the warm-up). A late line of the minimal view from before is one sample more.
        def page_lines(before=before, path=path):
            return [line for line in access_times(server, before) if line[0] == f"GET {path}"]

        wait_for(
            lambda: len(page_lines()) > samples,
            10,
            what=f"{samples + 1} requests for {path} in gunicorn's access log",
        )
        page_ms = [ms for _request, _status, ms, _bytes in page_lines()[1:]]
        health_ms = [
            ms
            for request, _status, ms, _bytes in access_times(server, before)
            if request == f"GET {HEALTH}"
        ]
        median = statistics.median(page_ms)
        health = statistics.median(health_ms)
        measured[name] = row = {
            "name": label,
            "path": path,
            "htmx": bool(headers),
            "samples": samples,
            "p50_ms": median,
            "p90_ms": p90(page_ms),
            "max_ms": max(page_ms),
            "bytes": max(sizes),
            "minimal_view_p50_ms": health,
            "minimal_views": median / health if health else float("nan"),
        }
        log(
            f"lists, {label}: {median:.1f} ms (p90 {row['p90_ms']:.1f}), {row['bytes']:,} bytes, "
            f"{row['minimal_views']:.0f} minimal views of {health:.2f} ms"
        )
    return measured


def run_lists(args, env: dict, workdir, cleanup, database) -> dict:
    """Load the lists' championship, sign its organiser in and measure its pages."""
    document = lists_document(datetime.now().astimezone(), args.list_entries)
    log(f"lists: importing {args.list_entries:,} entries")
    loaded = load_championship(env, document, workdir, judge="lists-judge")
    database.analyze()
    log(f"lists: {loaded.summary}")
    session_key = organiser_session(env)
    server = AppServer(
        env,
        workdir,
        wsgi=args.wsgi,
        workers=1,
        worker_class="gthread",
        threads=1,
        timeout=REQUEST_TIMEOUT,
        log_level="warning",
        access_log=ACCESS_FORMAT,
    )
    cleanup.callback(server.stop)
    server.wait_ready()
    load = {"before": loadavg()}
    only = set(args.list_pages.split(",")) if args.list_pages else None
    measured = measure_pages(server, session_key, args.list_samples, only)
    load["after"] = loadavg()
    server.stop()
    return {
        "entries": args.list_entries,
        "imported": loaded.summary,
        "load": load,
        "pages": measured,
        "met": all(
            row["p50_ms"] < TARGET_MS and row["bytes"] < TARGET_BYTES for row in measured.values()
        ),
    }


def lists_rows(lists: dict) -> list[str]:
    """Return the lists' table: each page's server time, bytes and minimal views."""
    lines = [
        f"| the organiser's lists, {lists['entries']:,} entries | server p50 ms | p90 ms | "
        "bytes | × minimal view (time) |",
        "|---|---:|---:|---:|---:|",
    ]
    for row in lists["pages"].values():
        lines.append(
            f"| {row['name']} | {row['p50_ms']:.1f} | {row['p90_ms']:.1f} | {row['bytes']:,} | "
            f"{row['minimal_views']:.1f} |"
        )
    health = [row["minimal_view_p50_ms"] for row in lists["pages"].values()]
    if health:
        lines.append(
            f"| minimal Django view `/health/`, between the pages | "
            f"{statistics.median(health):.2f} | | | 1.0 |"
        )
    verdict = "met" if lists["met"] else "MISSED"
    lines += [
        "",
        f"Target: every page under {TARGET_MS} ms and {TARGET_BYTES // 1_000_000} MB: {verdict}. "
        f"Load average {lists['load']['before']} before, {lists['load']['after']} after.",
    ]
    return lines
