"""Benchmark live-results polling and judge captures against gunicorn + PostgreSQL + Redis.

    make bench                       # or: .venv/bin/python bench/run.py [options]

What it does, all on 127.0.0.1, and undone at the end even on failure:

1. creates a fresh database ``championship_bench`` on the PostgreSQL server at
   ``--pg`` (default ``postgres://postgres@127.0.0.1:5432/postgres``) and empties
   Redis db 14; installs ``wrk`` with apt-get when it is missing;
2. ``migrate``, ``collectstatic``, then ``import_championship`` of a generated
   document of WJPC size: one individual category, one round of nine heats of 180
   seated entries (1,620 entries), every heat running, most entries with a result,
   the others still puzzling (``pending``) (``--layout rounds``: nine rounds of one
   heat each; ``--layout stages``: the WJPC's individual stages, six groups of 185
   run one after another with country places, A-E over, F running, two
   semifinals and a final planned; see ``bench/document.py``); a judge user with
   an API token and the judge role;
3. starts gunicorn (``config.wsgi``) with production settings: DEBUG off,
   a SECRET_KEY, ALLOWED_HOSTS=127.0.0.1, SECURE_SSL_REDIRECT=false;
4. measures with wrk: a static file, ``/health/`` (the minimal Django view),
   unchanged polls (304) and changed polls (200, the fragment of one heat, 180
   rows, cache warm), the API's unchanged poll; the cold render of one version; then
   judge captures (finish taps of distinct entries, fresh UUIDs), first alone
   (on a gunicorn of one worker and one thread, whose access log gives the
   server's time of each), then paced and in a closed loop while 200
   spectators poll; every spectator's
   request asks for gzip (``Accept-Encoding``), as browsers do;
5. the day (``day.py``): a championship of its own, ``day-bench`` (one round of
   four heats of 150 running), loaded next to the first; 20 judges finish and
   confirm its entries, about 7 captures a second for 60 s, sending a capture
   again when no answer came within 5 s and a few acknowledged ones again
   anyway, while 300 HTML spectators, 100 API spectators and a projector poll,
   each with its own ETag; then the database must hold each capture once and
   every acknowledged one, and the API's results must place every entry
   finished, or the run fails (``--day-seconds``, ``--day-judges``,
   ``--day-html``, ``--day-api``; ``--only-day`` leaves out the WJPC
   championship's import in step 2 and the measurements of step 4);
6. the organiser's lists (``lists.py``): a championship of ``--list-entries``
   entries (10,000) of its own, ``lists-bench``; its entries page and check-in
   page, each asked for one at a time from a gunicorn of one worker and one
   thread, with the minimal view between: the server's time, the bytes, the
   time in minimal views (``--only-lists``: this alone, after step 1;
   ``--list-entries 0``: none);
7. the imports (``imports.py``, measured in the application by
   ``import_costs.py``): a CSV file of ``--import-rows`` entries (2,000)
   uploaded, previewed and confirmed through the organiser's pages until the
   import worker is done, into a category of 3 places and into one without a
   limit; an interchange document of ``--import-entries`` entries (10,000)
   loaded with ``import_document`` (``--only-imports``: this alone, after
   step 1, in a database of its own; ``0``: none);
8. prints a Markdown table and writes everything to ``benchmark-results/``.

The figures are ratios to the static file and to the minimal view of the same
server in the same run; see docs/performance.md for what they mean. The databases,
Redis and gunicorn are started through the harness (``harness/``), as in the
deployment tests; the rest of the benchmark is in the modules next to this one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

# Run as a script (`make bench`), this file's directory is on the path, not the repository's.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import BenchError, log
from bench.captures import (
    Judge,
    captures_closed,
    captures_paced,
    captures_sequential,
    say,
    screen_latency,
    session_headers,
)
from bench.day import run_day
from bench.document import LAYOUTS, SLUG, Field, wjpc_field
from bench.imports import imports_rows, run_imports
from bench.lists import lists_rows, run_lists
from bench.report import (
    HEALTH,
    STATIC,
    loadavg,
    machine,
    markdown,
    summary_ms,
    targets,
    versions,
)
from bench.wrk import combine, ensure_nginx, ensure_wrk, run_wrk, stop_wrk, wrk_command
from harness import HarnessError
from harness.http import call
from harness.postgres import Database
from harness.proxy import Proxy
from harness.redis import redis_client
from harness.servers import ROOT, AppServer, load_championship, manage, production_env

DATABASE = "championship_bench"
LISTS_DATABASE = "championship_bench_lists"  # --only-lists
IMPORTS_DATABASE = "championship_bench_imports"  # --only-imports
REDIS_DB = 14


def table_rows(html: bytes) -> int:
    """Return the rows of the fragment's results table (its print copy, further on, not counted)."""
    tables = html.split(b"<table")
    return len(re.findall(rb'<tr class="outcome-', tables[1])) if len(tables) > 1 else 0


def measure(
    args,
    wrk: str,
    port: int,
    token: str,
    session_key: str,
    pending,
    field: Field,
    redis,
    proxy: Proxy,
    judges_port: int | None = None,
    capture_server: AppServer | None = None,
) -> dict:
    base = f"http://127.0.0.1:{port}"
    fragment = field.fragment
    through_proxy = f"http://127.0.0.1:{proxy.port}"
    polled_round = fragment.split("/")[3]
    api = f"/api/v1/championships/{SLUG}/rounds/{polled_round}/results/"
    # Browsers ask for gzip: a server that compresses pays for it here as in the field.
    gzip = {"Accept-Encoding": "gzip"}
    htmx = {"HX-Request": "true", **gzip}

    answer = call(port, "GET", fragment, headers=htmx)
    rows = table_rows(answer.body)
    if answer.status != 200 or rows != field.rows:
        raise BenchError(
            f"the fragment answered {answer.status} with {rows} rows, not 200 with {field.rows}"
        )
    etag = answer.headers["ETag"]
    if call(port, "GET", fragment, headers={**htmx, "If-None-Match": etag}).status != 304:
        raise BenchError("the fragment did not answer 304 to its own ETag")
    api_etag = call(port, "GET", api, headers=gzip).headers["ETag"]
    if call(port, "GET", api, headers={**gzip, "If-None-Match": api_etag}).status != 304:
        raise BenchError("the API did not answer 304 to its own ETag")
    if call(port, "GET", STATIC).status != 200:
        raise BenchError(f"{STATIC} is not served")
    fragment_bytes = len(answer.body)
    log(f"fragment: {rows} rows, {fragment_bytes} bytes, ETag {etag}")

    def hdr(mapping):
        return [f"{name}: {value}" for name, value in mapping.items()]

    if call(proxy.port, "GET", fragment, headers={**htmx, "If-None-Match": etag}).status != 304:
        raise BenchError("the proxy did not answer 304 to the fragment's ETag")
    phases = {
        "static": (base, STATIC, []),
        "health": (base, HEALTH, []),
        "poll304": (base, fragment, hdr({**htmx, "If-None-Match": etag})),
        "poll200": (base, fragment, hdr(htmx)),
        "api304": (base, api, hdr({**gzip, "If-None-Match": api_etag})),
        # docs/deploy.md's proxy cache in front: the same polls, and the static file
        # served by nginx itself.
        "proxy_static": (through_proxy, STATIC, []),
        "proxy_poll304": (through_proxy, fragment, hdr({**htmx, "If-None-Match": etag})),
        "proxy_api304": (through_proxy, api, hdr({**gzip, "If-None-Match": api_etag})),
    }
    results = {}
    load = {"before": loadavg()}
    log(f"warming up ({args.warmup} s)")
    for origin, path, headers_ in phases.values():
        run_wrk(
            wrk, origin + path, connections=args.connections, duration=args.warmup, headers=headers_
        )
    # Each URL in turn, several times over: a change of load on the machine during the
    # run then weighs on every URL alike, and the ratios stay fair.
    runs = {name: [] for name in phases}
    slice_ = max(1, math.ceil(args.duration / args.repeat))
    for repeat in range(args.repeat):
        for name, (origin, path, headers_) in phases.items():
            runs[name].append(
                run_wrk(
                    wrk,
                    origin + path,
                    connections=args.connections,
                    duration=slice_,
                    headers=headers_,
                )
            )
        load[f"after repeat {repeat + 1}"] = loadavg()
    for name, parts in runs.items():
        results[name] = row = combine(parts)
        log(
            f"{name}: {row['rps']:.0f} req/s, p99 {row['p99_ms']:.1f} ms, "
            f"{row['errors']} errors, {row['bytes_per_response']:.0f} B/response, "
            f"per repeat {[round(part['rps']) for part in parts]}"
        )

    # The cold render of one version: both caches empty, then the fragment alone.
    both, fragment_only = [], []
    for _ in range(args.cold_runs):
        redis.flushdb()
        begin = time.perf_counter()
        answer = call(port, "GET", fragment, headers=htmx)
        both.append(time.perf_counter() - begin)
        if answer.status != 200 or table_rows(answer.body) != field.rows:
            raise BenchError(f"cold render answered {answer.status}")
        for key in redis.scan_iter(match="*fragment:v3:*"):
            redis.delete(key)
        begin = time.perf_counter()
        call(port, "GET", fragment, headers=htmx)
        fragment_only.append(time.perf_counter() - begin)
    cold = {
        "runs": args.cold_runs,
        "both_ms": summary_ms(both),
        "fragment_ms": summary_ms(fragment_only),
    }
    log(f"cold render: {cold}")

    judge = Judge(port, token, pending, timeout=args.capture_timeout)
    load["before captures"] = loadavg()
    judge.port = capture_server.port
    captures = [captures_sequential(judge, args.alone, args.alone_seconds, warm=CAPTURES_TO_WARM)]
    judge.port = port
    captures[-1]["server_ms"] = server_times(capture_server, judge.path, CAPTURES_TO_WARM)
    captures[-1]["minimal_view_server_ms"] = minimal_view_server_times(capture_server, args.alone)
    say(captures[-1])
    log(
        f"captures alone, the server's time: {captures[-1]['server_ms']}; the minimal view's: "
        f"{captures[-1]['minimal_view_server_ms']}"
    )
    # The same again, signed in as the judges' phones are: with a session and its CSRF token.
    token_headers, logged = judge.headers, len(capture_server.access_lines())
    judge.headers, judge.port = session_headers(session_key), capture_server.port
    captures.append(captures_sequential(judge, args.alone, args.alone_seconds, warm=0))
    judge.headers, judge.port = token_headers, port
    captures[-1]["name"] = "captures alone, signed in with a session (as the phones)"
    captures[-1]["server_ms"] = server_times(capture_server, judge.path, 0, after=logged)
    say(captures[-1])
    log(f"captures alone with a session, the server's time: {captures[-1]['server_ms']}")
    screen_path = f"/{SLUG}/screen/{polled_round}/"
    screen = screen_latency(judge, screen_path, polled_round, args.screen_samples, args.screen_poll)
    log(f"{screen['name']}: p50 {screen['p50_ms']:.0f} ms, max {screen['max_ms']:.0f} ms")

    # Before the pollers below: the crowd goes through the proxy, they come to the app.
    crowd = None
    if args.crowd:
        crowd = crowd_through_proxy(args, wrk, proxy, fragment, api, htmx, gzip, judge, judges_port)
        captures.extend(crowd.pop("captures"))
        load["after the crowd"] = loadavg()

    pollers_cmd = wrk_command(
        wrk, base + fragment, args.pollers, 3600, hdr(htmx), args.poll_interval_ms, 1
    )
    log(f"starting {args.pollers} pollers (one poll every {args.poll_interval_ms} ms each)")
    pollers = subprocess.Popen(
        pollers_cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        time.sleep(3)
        captures.append(captures_paced(judge, args.capture_rate, args.capture_seconds))
        say(captures[-1])
        if args.stress_rate:
            captures.append(captures_paced(judge, args.stress_rate, args.stress_seconds))
            say(captures[-1])
        captures.append(captures_closed(judge, args.judges, args.closed_seconds))
        say(captures[-1])
    finally:
        poll_load = stop_wrk(pollers)
    load["after captures"] = loadavg()
    log(
        f"pollers: {poll_load['rps']:.0f} req/s, p99 {poll_load['p99_ms']:.0f} ms, "
        f"{poll_load['errors']} errors"
    )
    return {
        "crowd": crowd,
        "fragment_bytes": fragment_bytes,
        "load": load,
        "attempted": judge.attempted,
        "wrk": results,
        "cold": cold,
        "captures": captures,
        "screen": screen,
        "pollers": poll_load,
        "pollers_label": (
            f"{args.pollers} pollers, one changed poll (200) every {args.poll_interval_ms} ms "
            "each, during the captures"
        ),
    }


def crowd_through_proxy(args, wrk, proxy, fragment, api, htmx, gzip, judge, judges_port) -> dict:
    """Captures paced at ``--crowd-rate`` while ``--crowd`` clients poll through the proxy cache.

    Three quarters poll the heat's fragment, a quarter the API's results, each
    every 4 s without an ETag (a busy round: every poll finds a new version), all
    through docs/deploy.md's proxy cache. The judges post to the application
    itself, as the proxy passes captures through: first to the app server behind
    the proxy, then (``judges_port``, unless ``None``) to a gunicorn of their own
    on the same database and Redis, as docs/deploy.md suggests for big crowds.
    """
    base = f"http://127.0.0.1:{proxy.port}"
    html_clients = args.crowd * 3 // 4
    commands = {
        "html": wrk_command(
            wrk,
            base + fragment,
            html_clients,
            3600,
            [f"{name}: {value}" for name, value in htmx.items()],
            args.poll_interval_ms,
            1,
        ),
        "api": wrk_command(
            wrk,
            base + api,
            args.crowd - html_clients,
            3600,
            [f"{name}: {value}" for name, value in gzip.items()],
            args.poll_interval_ms,
            1,
        ),
    }
    log(f"the crowd: {args.crowd} clients polling through the proxy cache")
    running = {
        name: subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        for name, command in commands.items()
    }
    summaries, captures = {}, []
    try:
        time.sleep(5)
        own = " (judges on a gunicorn of their own)"
        for where, port in (("", judge.port), (own, judges_port)):
            if port is None:
                continue
            judge.port, app_port = port, judge.port
            try:
                row = captures_paced(judge, args.crowd_rate, args.crowd_seconds)
            finally:
                judge.port = app_port
            row["name"] = (
                f"captures paced at {args.crowd_rate:g}/s while {args.crowd} clients poll "
                f"through the proxy cache{where}"
            )
            say(row)
            captures.append(row)
    finally:
        for name, process in running.items():
            summaries[name] = stop_wrk(process)
    for name, row in summaries.items():
        log(f"the crowd, {name}: {row['rps']:.0f} req/s, p99 {row['p99_ms']:.0f} ms")
    return {"clients": args.crowd, "captures": captures, **summaries}


def check_stored(
    database: Database, attempted: int, acknowledged: int, *, stored_before: int = 0
) -> dict:
    """Return what the database holds once the server is done: one capture per tap at most.

    A capture whose answer did not come within the client's timeout may still be
    stored by the server: stored lies between the acknowledged and the attempted.
    ``stored_before`` captures were in the database before the judges began (the
    CPU of a new version measured before them stores its own).
    """

    def count(conn, sql):
        return conn.execute(sql).fetchone()[0]

    with database.connect(autocommit=True) as conn:
        stored, stable_since, deadline = -1, time.monotonic(), time.monotonic() + 120
        while time.monotonic() < deadline:
            now = count(conn, "SELECT count(*) FROM judging_capture") - stored_before
            if now != stored:
                stored, stable_since = now, time.monotonic()
            elif time.monotonic() - stable_since > 3:
                break
            time.sleep(0.5)
        doubled = count(
            conn,
            "SELECT count(*) FROM (SELECT entry_id FROM judging_capture GROUP BY entry_id "
            "HAVING count(*) > 1) d",
        )
    return {
        "attempted": attempted,
        "acknowledged": acknowledged,
        "captures": stored,
        "doubled": doubled,
        "consistent": acknowledged <= stored <= attempted and doubled == 0,
    }


VERSION_SAMPLES = 15
# The same right after the import, when 360 of the round's 1,620 have a result: reported.
EARLY_VERSION_SAMPLES = 9
# gunicorn's access log of the captures alone: the request's time in microseconds
# (from the request read to the answer sent), its method, path and status.
SERVER_TIME_FORMAT = "%(D)s %(m)s %(U)s %(s)s"
# The first captures of the captures' server, left out of its figures: its database
# connection is opened, its statements are prepared, and PostgreSQL plans a prepared
# statement five times before it keeps a generic plan. A connection then serves on for
# CONN_MAX_AGE (600 s).
CAPTURES_TO_WARM = 8


def server_times(
    server: AppServer,
    path: str,
    warm: int,
    *,
    method: str = "POST",
    status: str = "201",
    after: int = 0,
) -> dict:
    """Return the median and p90 of the server's time (ms) of ``path``'s requests after ``warm``.

    By default the stored captures (``POST``, 201), of the access log's lines
    from line ``after`` on.
    """
    times = []
    for line in server.access_lines()[after:]:
        micros, asked, url, answered = line.split()
        if asked == method and url == path and answered == status:
            times.append(int(micros) / 1000)
    times = times[warm:]
    if not times:
        raise BenchError(f"no {method} {path} in the access log of {server.access_logfile}")
    return {
        "p50_ms": statistics.median(times),
        "p90_ms": sorted(times)[int(0.9 * (len(times) - 1))],
        "count": len(times),
    }


def minimal_view_server_times(server: AppServer, count: int) -> dict:
    """Ask ``server`` for the minimal view ``count`` times in turn; return its server times.

    On the captures' server, right after them: the machine's speed in the same minute.
    """
    for _ in range(count + CAPTURES_TO_WARM):
        answer = call(server.port, "GET", HEALTH)
        if answer.status != 200:
            raise BenchError(f"the minimal view answered {answer.status}")
    return server_times(server, HEALTH, CAPTURES_TO_WARM, method="GET", status="200")


def app_server(
    args, env: dict, workdir, workers: int, cleanup, *, threads: int | None = None, access_log=None
) -> AppServer:
    """Start gunicorn as the options say with ``workers`` workers; stop it with ``cleanup``."""
    server = AppServer(
        env,
        workdir,
        wsgi=args.wsgi,
        workers=workers,
        worker_class=args.worker_class,
        threads=threads or args.threads,
        keep_alive=args.keep_alive,
        backlog=2048,
        timeout=60,
        log_level="warning",
        access_log=access_log,
    )
    cleanup.callback(server.stop)
    return server.wait_ready()


def judge_session(env: dict, username: str) -> str:
    """Sign ``username`` in as the login page does; return the session's key (``sessionid``)."""
    code = (
        "from importlib import import_module; from django.conf import settings; "
        "from django.contrib import auth; "
        f"user = auth.get_user_model().objects.get(username={username!r}); "
        "store = import_module(settings.SESSION_ENGINE).SessionStore(); "
        "store[auth.SESSION_KEY] = user._meta.pk.value_to_string(user); "
        "store[auth.BACKEND_SESSION_KEY] = 'django.contrib.auth.backends.ModelBackend'; "
        "store[auth.HASH_SESSION_KEY] = user.get_session_auth_hash(); "
        "store.create(); print('SESSION', store.session_key)"
    )
    output = manage(env, "shell", "-c", code)
    line = next((line for line in output.splitlines() if line.startswith("SESSION ")), None)
    if line is None:
        raise BenchError(f"the judge was not signed in: {output[-500:]}")
    return line.split()[1]


def version_cost(env: dict, reserved: list[tuple[str, str]], heat: str) -> dict:
    """Return the CPU a new version costs, measured in the application (``bench/version_cost.py``).

    ``reserved`` are entries of the polled heat (``heat``) still puzzling, which the judges
    left alone.
    """
    round_key = reserved[0][0]
    entries = [entry for _round, entry in reserved]
    code = (
        "from bench import version_cost; "
        f"version_cost.main({SLUG!r}, {round_key!r}, {heat!r}, 'bench-judge', {entries!r})"
    )
    output = manage(env, "shell", "-c", code)
    line = next((line for line in output.splitlines() if line.startswith("VERSION_COST ")), None)
    if line is None:
        raise BenchError(f"the CPU of a new version was not measured: {output[-500:]}")
    measured = json.loads(line.split(" ", 1)[1])
    if measured["samples"] != len(entries):
        raise BenchError(f"a new version measured {measured['samples']} times of {len(entries)}")
    return measured


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default=f"redis://127.0.0.1:6379/{REDIS_DB}")
    parser.add_argument("--layout", choices=sorted(LAYOUTS), default="heats")
    parser.add_argument("--wsgi", default="config.wsgi", help="the WSGI module (for experiments)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--worker-class", default="gthread", choices=["sync", "gthread"])
    parser.add_argument("--threads", type=int, default=4, help="per worker (gthread)")
    parser.add_argument(
        "--keep-alive", type=int, default=10, help="seconds an idle connection stays open"
    )
    parser.add_argument("--connections", type=int, default=64, help="wrk connections")
    parser.add_argument("--duration", type=int, default=12, help="seconds per URL in all")
    parser.add_argument("--repeat", type=int, default=3, help="the URLs in turn, this often")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of warm-up per URL")
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--alone", type=int, default=20, help="captures without load")
    parser.add_argument("--alone-seconds", type=float, default=20, help="at most this long")
    parser.add_argument("--capture-timeout", type=float, default=30, help="seconds per capture")
    parser.add_argument("--pollers", type=int, default=200)
    parser.add_argument("--screen-samples", type=int, default=10, help="captures the screen shows")
    parser.add_argument(
        "--screen-poll", type=float, default=1.0, help="seconds between the screen's polls"
    )
    parser.add_argument(
        "--poll-interval-ms", type=int, default=4000, help="each poller's (the page's: 4 s)"
    )
    parser.add_argument(
        "--capture-rate",
        type=float,
        default=5.0,
        help="paced captures/s (the latency target's run: a WJPC's busiest minute, nine rounds)",
    )
    parser.add_argument("--capture-seconds", type=float, default=60)
    parser.add_argument(
        "--stress-rate", type=float, default=15.0, help="a second paced run (0: none)"
    )
    parser.add_argument("--stress-seconds", type=float, default=20)
    parser.add_argument("--judges", type=int, default=4, help="closed-loop capture threads")
    parser.add_argument("--closed-seconds", type=float, default=10)
    parser.add_argument(
        "--crowd", type=int, default=1000, help="clients polling through the proxy (0: none)"
    )
    parser.add_argument("--crowd-rate", type=float, default=15.0, help="captures a second")
    parser.add_argument("--crowd-seconds", type=float, default=15, help="each of its two runs")
    parser.add_argument(
        "--judges-workers", type=int, default=2, help="the judges' own gunicorn (0: none)"
    )
    parser.add_argument(
        "--day-seconds", type=float, default=60, help="the day: how long the judges tap"
    )
    parser.add_argument("--day-judges", type=int, default=20, help="the day: judges (threads)")
    parser.add_argument("--day-html", type=int, default=300, help="the day: HTML spectators")
    parser.add_argument("--day-api", type=int, default=100, help="the day: API spectators")
    parser.add_argument(
        "--only-day", action="store_true", help="the day alone, without the other measurements"
    )
    parser.add_argument(
        "--list-entries", type=int, default=10_000, help="the lists' championship (0: none)"
    )
    parser.add_argument("--list-samples", type=int, default=7, help="requests per list page")
    parser.add_argument(
        "--list-pages", default="", help="only these pages of the lists, comma-separated names"
    )
    parser.add_argument(
        "--only-lists",
        action="store_true",
        help="the organiser's lists alone (no wrk, nginx or gunicorn under load)",
    )
    parser.add_argument(
        "--import-rows", type=int, default=2000, help="the CSV import's rows (0: none)"
    )
    parser.add_argument(
        "--import-entries",
        type=int,
        default=10_000,
        help="the interchange import's entries (0: none)",
    )
    parser.add_argument(
        "--only-imports",
        action="store_true",
        help="the imports alone (no wrk, nginx or gunicorn)",
    )
    parser.add_argument("--output", default=str(ROOT / "benchmark-results"))
    args = parser.parse_args(argv)

    # A SIGTERM (e.g. from make or CI) unwinds like Ctrl-C, so that everything is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with contextlib.ExitStack() as cleanup:
        try:
            return run(args, cleanup)
        except (BenchError, HarnessError) as error:
            log(f"FAILED: {error}")
            return 1
        except (KeyboardInterrupt, SystemExit):
            log("interrupted: stopping gunicorn, dropping the database")
            raise


def run(args, cleanup: contextlib.ExitStack) -> int:
    if args.only_lists:
        return run_only_lists(args, cleanup)
    if args.only_imports:
        return run_only_imports(args, cleanup)
    wrk = ensure_wrk()
    ensure_nginx()
    redis = redis_client(args.redis)
    workdir = Path(tempfile.mkdtemp(prefix="championship-bench-"))
    cleanup.callback(shutil.rmtree, workdir, ignore_errors=True)

    log(f"database {DATABASE}, Redis {args.redis}")
    database = Database(args.pg, DATABASE).create()
    cleanup.callback(database.drop)
    redis.flushdb()
    cleanup.callback(redis.flushdb)
    env = production_env(database.url, args.redis)

    log("migrate, collectstatic")
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    if not args.only_day:
        field = wjpc_field(datetime.now(UTC), args.layout)
        pending, polled = field.pending, field.polled
        # A few entries of the polled heat, kept from the judges for the CPU of a new version.
        reserved = polled[-VERSION_SAMPLES:]
        # And a few for a new version's CPU before the captures, with most still puzzling.
        early = polled[-VERSION_SAMPLES - EARLY_VERSION_SAMPLES : -VERSION_SAMPLES]
        pending = [entry for entry in pending if entry not in reserved and entry not in early]
        began = time.perf_counter()
        loaded = load_championship(env, field.document, workdir, judge="bench-judge")
        database.analyze()
        log(f"imported in {time.perf_counter() - began:.1f} s: {loaded.summary}")
        early_cost = version_cost(env, early, field.heat)
        log(f"a new version's CPU mid-heat: {early_cost['median_ms']}")

    server = app_server(args, env, workdir, args.workers, cleanup)
    port = server.port
    log(f"gunicorn on port {port}: {' '.join(server.command[1:])}")
    judges_port = capture_server = None
    if args.judges_workers and not args.only_day:
        # The judges' own app server, for the crowd phase: does keeping them apart help?
        judges_port = app_server(args, env, workdir, args.judges_workers, cleanup).port
    if not args.only_day:
        # The captures alone, on a server of one worker and one thread that logs each
        # request's time: the server's time, apart from the judge's round trip.
        capture_server = app_server(
            args, env, workdir, 1, cleanup, threads=1, access_log=SERVER_TIME_FORMAT
        )
    proxy = Proxy(port, workdir, static_root=ROOT / "staticfiles")
    cleanup.callback(proxy.stop)
    proxy.wait_ready()
    log(f"nginx with docs/deploy.md's proxy cache on port {proxy.port}")

    report = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "versions": versions(wrk, args.pg, redis),
        "settings": {
            "gunicorn": " ".join(server.command[1:]),
            "database": f"PostgreSQL, {DATABASE}, CONN_MAX_AGE 600 with health checks",
            "cache": args.redis,
        },
        "args": vars(args),
    }
    if not args.only_day:
        report["settings"].update(
            wrk=(
                f"1 thread, {args.connections} connections, {args.duration} s per URL "
                f"in {args.repeat} turns"
            ),
            championship=field.description,
            imported=loaded.summary,
        )
        report["round_size"] = field.round_size
        report["fragment_rows"] = field.rows
        report.update(
            measure(
                args,
                wrk,
                port,
                loaded.token,
                judge_session(env, "bench-judge"),
                pending,
                field,
                redis,
                proxy,
                judges_port,
                capture_server,
            )
        )
        # The screen's captures are stored too.
        acknowledged = sum(c["stored"] for c in report["captures"]) + report["screen"]["stored"]
        report["stored"] = check_stored(
            database, report["attempted"], acknowledged, stored_before=early_cost["samples"]
        )
        report["version_cost"] = version_cost(env, reserved, field.heat)
        report["version_cost_mid_heat"] = early_cost
        log(f"a new version's CPU: {report['version_cost']['median_ms']}")
        report["targets"] = targets(report)
    # After check_stored, which counts every capture of the database.
    report["day"] = run_day(args, env, workdir, port, database)
    errors_in_log = server.log_tail()
    report["server_log_tail"] = errors_in_log[-2000:]
    if args.list_entries:
        report["lists"] = run_lists(args, env, workdir, cleanup, database)
    if args.import_rows or args.import_entries:
        report["imports"] = run_imports(env, rows=args.import_rows, entries=args.import_entries)

    write_report(args, report)
    if report["day"]["failures"]:
        raise BenchError("the day: " + "; ".join(report["day"]["failures"]))
    return 0


def write_report(args, report: dict) -> None:
    """Write the report to ``--output`` (JSON and Markdown) and print its table."""
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    (output / f"bench-{stamp}.json").write_text(json.dumps(report, indent=2, default=str))
    parts = [markdown(report)] if "wrk" in report or "day" in report else []
    if "lists" in report:
        parts.append("\n".join(lists_rows(report["lists"])))
    if "imports" in report:
        parts.append("\n".join(imports_rows(report["imports"])))
    text = "\n\n".join(parts)
    (output / f"bench-{stamp}.md").write_text(text + "\n")
    print(json.dumps({"machine": report["machine"], "versions": report["versions"]}, indent=2))
    print(json.dumps(report["settings"], indent=2))
    print(text)
    log(f"written to {output}/bench-{stamp}.json and .md")


def run_only_lists(args, cleanup: contextlib.ExitStack) -> int:
    """Measure the organiser's lists alone: a database, migrations, the lists' championship."""
    redis = redis_client(args.redis)
    workdir = Path(tempfile.mkdtemp(prefix="championship-bench-"))
    cleanup.callback(shutil.rmtree, workdir, ignore_errors=True)
    # A database of its own, and Redis left as it is (the lists read no cache): a whole
    # run of the benchmark at the same time is not disturbed.
    log(f"database {LISTS_DATABASE}, Redis {args.redis}")
    database = Database(args.pg, LISTS_DATABASE).create()
    cleanup.callback(database.drop)
    env = production_env(database.url, args.redis)
    log("migrate, collectstatic")
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    report = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "versions": versions(None, args.pg, redis),
        "settings": {
            "gunicorn": "config.wsgi, 1 worker (gthread), 1 thread, access log",
            "database": f"PostgreSQL, {LISTS_DATABASE}, CONN_MAX_AGE 600 with health checks",
            "cache": args.redis,
        },
        "args": vars(args),
        "lists": run_lists(args, env, workdir, cleanup, database),
    }
    write_report(args, report)
    return 0


def run_only_imports(args, cleanup: contextlib.ExitStack) -> int:
    """Measure the imports alone: a database of their own, migrations, the measurements."""
    redis = redis_client(args.redis)
    log(f"database {IMPORTS_DATABASE}")
    database = Database(args.pg, IMPORTS_DATABASE).create()
    cleanup.callback(database.drop)
    env = production_env(database.url, args.redis)
    log("migrate, collectstatic")
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    log(f"imports: {args.import_rows} CSV rows, {args.import_entries} interchange entries")
    report = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "versions": versions(None, args.pg, redis),
        "settings": {
            "database": f"PostgreSQL, {IMPORTS_DATABASE}",
            "application": "manage.py shell with the production settings, Django's test client",
        },
        "args": vars(args),
        "imports": run_imports(env, rows=args.import_rows, entries=args.import_entries),
    }
    write_report(args, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
