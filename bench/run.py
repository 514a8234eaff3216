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
   heat each, like the WJPC's groups); a judge user with a DRF token
   (``drf_create_token``) and the judge role;
3. starts gunicorn (``config.wsgi``) with production settings: DEBUG off,
   a SECRET_KEY, ALLOWED_HOSTS=127.0.0.1, SECURE_SSL_REDIRECT=false;
4. measures with wrk: a static file, ``/health/`` (the minimal Django view),
   unchanged polls (304) and changed polls (200, the 180-row fragment of one heat,
   cache warm), the API's unchanged poll; the cold render of one version; then
   judge captures (finish taps of distinct entries, fresh UUIDs), first alone,
   then paced and in a closed loop while 200 spectators poll;
5. prints a Markdown table and writes everything to ``benchmark-results/``.

The figures are ratios to the static file and to the minimal view of the same
server in the same run; see docs/performance.md for what they mean.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import os
import platform
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
LUA = Path(__file__).resolve().parent / "wrk" / "request.lua"
BIN = Path(sys.executable).parent

DATABASE = "championship_bench"
REDIS_DB = 14
SLUG = "wjpc-bench"
ROUND = "individual-prelim"
HEATS = "abcdefghi"
PER_HEAT = 180
PENDING_PER_HEAT = 140  # still puzzling: the captures finish them
LAYOUTS = {
    "heats": "one round of nine heats of 180 (the whole round ranked together)",
    "rounds": "nine rounds (groups) of one heat of 180 each",
}
STATIC = "/static/css/app.css"
HEALTH = "/health/"

FIRST = [
    *("Ana", "Lucía", "Kari", "Ingrid", "Emma", "Olga", "Marta", "Sofie", "Aino", "Eva"),
    *("Maja", "Nora", "Léa", "Zoë", "Jana", "Petra", "Ilse", "Hugo", "Lars", "Ole", "Mateo"),
    *("Pablo", "Jonas", "Erik", "Timo", "Jan", "Noah", "Tomás", "Pieter", "Luca", "Milan"),
]
LAST = [
    *("García", "Hansen", "Johansson", "Nielsen", "Virtanen", "Müller", "Rossi", "Dubois"),
    *("Novák", "Kowalska", "Silva", "Jensen", "Berg", "Lindqvist", "Haugen", "Tjelta", "Bore"),
    *("Sele", "Martín", "López", "Fernández", "Smit", "Horvat"),
]
COUNTRIES = ["ES", "NO", "SE", "DK", "FI", "DE", "IT", "FR", "CZ", "PL", "PT", "NL", "GB", "US"]


class BenchError(Exception):
    """Something the benchmark needs is missing or broke: the message says what."""


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- the document


def wjpc_document(now: datetime, layout: str = "heats", seed: int = 2024):
    """Return a document of WJPC size, the entries still puzzling, and the fragment to poll.

    Nine heats of 180 entries at 180 single tables, all started 75 minutes ago
    (90-minute limit); in each heat 40 entries have a result (finished between
    30 and 75 minutes, a few with a missing piece) and 140 are still puzzling.
    ``layout`` "heats" puts the nine heats in one round, "rounds" makes each heat
    a round of its own (like the WJPC's preliminary groups). The entries still
    puzzling come as (round, entry), interleaved over the heats; the fragment is
    the 180 rows of the first heat.
    """
    rnd = random.Random(seed)
    started = now - timedelta(minutes=75)
    persons, entries, heats, waiting = [], [], [], []
    number = 0
    for heat_index, heat_key in enumerate(HEATS):
        round_key = ROUND if layout == "heats" else f"individual-{heat_key}"
        seats, results = [], []
        for table in range(1, PER_HEAT + 1):
            number += 1
            person, entry = f"p{number:04d}", f"e{number:04d}"
            name = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
            persons.append(
                {
                    "id": person,
                    "name": name,
                    "birth_date": f"{rnd.randint(1950, 2006)}-{rnd.randint(1, 12):02d}-15",
                    "country": rnd.choice(COUNTRIES),
                    "citizenship": [rnd.choice(COUNTRIES)],
                    "email": f"puzzler{number}@example.org",
                    "publish_consent": True,
                }
            )
            entries.append(
                {
                    "id": entry,
                    "name": name,
                    "members": [person],
                    "status": "confirmed",
                    "publish_consent": True,
                }
            )
            seats.append({"table": table, "entry": entry})
            if table <= PER_HEAT - PENDING_PER_HEAT:
                seconds = rnd.randint(30 * 60, 75 * 60 - 1)
                missing = 1 if rnd.random() < 0.05 else 0
                results.append(
                    {
                        "entry": entry,
                        "status": "finished",
                        "time": f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}",
                        "missing_found": missing,
                    }
                )
            else:
                results.append({"entry": entry, "status": "pending"})
                waiting.append((table, heat_index, round_key, entry))
        heats.append(
            {"key": heat_key, "started_at": started.isoformat(), "seats": seats, "results": results}
        )
    pending = [(round_key, entry) for _t, _h, round_key, entry in sorted(waiting)]
    if layout == "heats":
        rounds = [
            {
                "key": ROUND,
                "name": "Preliminary round",
                "stage": "prelim",
                "advance": {"per_heat": 10, "best_remaining": 10},
                "heats": heats,
            }
        ]
        polled = f"/{SLUG}/results/{ROUND}/?heat={HEATS[0]}"
    else:
        rounds = [
            {
                "key": f"individual-{heat['key']}",
                "name": f"Group {heat['key'].upper()}",
                "stage": "prelim",
                "advance": {"overall": 20},
                "heats": [heat],
            }
            for heat in heats
        ]
        polled = f"/{SLUG}/results/individual-{HEATS[0]}/"
    document = {
        "format": "speedpuzzling-championship",
        "version": 1,
        "championship": {
            "slug": SLUG,
            "name": "World Jigsaw Puzzle Championship (benchmark)",
            "ruleset": "rogaland",
            "timezone": "Europe/Madrid",
            "starts_at": (now - timedelta(hours=2)).isoformat(),
            "currency": "EUR",
            "language": "en",
            "venue": "Valladolid",
        },
        "tables": [{"number": n, "seats": 1} for n in range(1, PER_HEAT + 1)],
        "persons": persons,
        "competitions": [
            {
                "key": "individual",
                "category": "individual",
                "pieces": 500,
                "time_limit_minutes": 90,
                "capacity": None,
                "fee": "0.00",
                "entries": entries,
                "rounds": rounds,
            }
        ],
    }
    return document, pending, polled


# ----------------------------------------------------------------------------- services


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def pg_admin(url: str):
    import psycopg

    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        raise BenchError(f"PostgreSQL at {url} does not answer: {error}") from None


def database_create(admin_url: str) -> None:
    with pg_admin(admin_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DATABASE}"')


def database_drop(admin_url: str) -> None:
    with pg_admin(admin_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


def redis_client(url: str):
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        raise BenchError(f"Redis at {url} does not answer: {error}") from None
    return client


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    log("wrk is missing: apt-get install wrk")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", "wrk"]
    if subprocess.run(install, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True)
        result = subprocess.run(install, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise BenchError(f"could not install wrk: {result.stderr.strip()[-500:]}")
    found = shutil.which("wrk")
    if not found:
        raise BenchError("wrk is still missing after apt-get install wrk")
    return found


def manage(env: dict, *args: str, stdin: str | None = None) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise BenchError(
            f"manage.py {' '.join(args)} failed ({result.returncode}):\n"
            f"{result.stdout[-2000:]}{result.stderr[-4000:]}"
        )
    return result.stdout


class Gunicorn:
    """A gunicorn master in its own process group; ``stop`` ends the group."""

    def __init__(self, env: dict, port: int, args: argparse.Namespace, logfile: Path):
        self.port = port
        self.logfile = logfile
        command = [
            str(BIN / "gunicorn"),
            args.wsgi,
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.workers),
            "--worker-class",
            args.worker_class,
            "--threads",
            str(args.threads),
            "--keep-alive",
            str(args.keep_alive),
            "--backlog",
            "2048",
            "--timeout",
            "60",
            "--log-level",
            "warning",
        ]
        self.command = command
        self.log_handle = logfile.open("wb")
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=self.log_handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(f"gunicorn exited at start:\n{self.log_tail()}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                if fetch(self.port, HEALTH, timeout=2)[0] == 200:
                    return
            time.sleep(0.2)
        raise BenchError(f"gunicorn did not answer /health/ within {timeout} s:\n{self.log_tail()}")

    def log_tail(self) -> str:
        self.log_handle.flush()
        return self.logfile.read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        # Workers left behind by a killed master are in the same group.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.log_handle.close()


# ----------------------------------------------------------------------------- HTTP


def fetch(port, path, *, method="GET", headers=None, body=None, timeout=30):
    """Return (status, headers, body) of one request on a new connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def table_rows(html: bytes) -> int:
    return len(re.findall(rb'<tr class="outcome-', html))


def percentile(values: list[float], p: float) -> float:
    """Return the nearest-rank percentile (``p`` in 0..100) of ``values``."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def run_wrk(wrk, url, *, connections, duration, headers=(), delay_ms=None, threads=1):
    command = wrk_command(wrk, url, connections, duration, headers, delay_ms, threads)
    result = subprocess.run(command, capture_output=True, text=True, timeout=duration + 60)
    return wrk_summary(result.stdout, result.stderr, result.returncode)


def wrk_command(wrk, url, connections, duration, headers, delay_ms, threads):
    command = [
        wrk,
        "-t",
        str(threads),
        "-c",
        str(connections),
        "-d",
        f"{duration}s",
        "--timeout",
        "10s",
        "-s",
        str(LUA),
        url,
        "--",
        *headers,
    ]
    if delay_ms:
        command.append(f"delay={delay_ms}")
    return command


def wrk_summary(stdout: str, stderr: str, returncode: int) -> dict:
    match = re.search(r"^WRK_JSON (.*)$", stdout, re.M)
    if not match:
        raise BenchError(f"wrk gave no summary (exit {returncode}):\n{stdout}\n{stderr}")
    data = json.loads(match.group(1))
    seconds = data["duration_us"] / 1e6
    errors = sum(
        data[k]
        for k in ("connect_errors", "read_errors", "write_errors", "status_errors", "timeouts")
    )
    return {
        **data,
        "rps": data["requests"] / seconds if seconds else 0.0,
        "errors": errors,
        "bytes_per_response": data["bytes"] / data["requests"] if data["requests"] else 0,
        "p50_ms": data["p50_us"] / 1000,
        "p99_ms": data["p99_us"] / 1000,
    }


def combine(parts: list[dict]) -> dict:
    """Return the runs of one URL as one: requests over time, the median p50, the worst p99."""
    requests = sum(p["requests"] for p in parts)
    seconds = sum(p["duration_us"] for p in parts) / 1e6
    return {
        "requests": requests,
        "seconds": seconds,
        "rps": requests / seconds if seconds else 0.0,
        "errors": sum(p["errors"] for p in parts),
        "bytes_per_response": sum(p["bytes"] for p in parts) / requests if requests else 0,
        "p50_ms": sorted(p["p50_ms"] for p in parts)[len(parts) // 2],
        "p99_ms": max(p["p99_ms"] for p in parts),
        "runs": parts,
    }


# ----------------------------------------------------------------------------- captures


class Judge:
    """Posts finish captures of distinct entries, each with a fresh UUID."""

    def __init__(self, port: int, token: str, entries: list[tuple[str, str]], timeout=30.0):
        self.port = port
        self.timeout = timeout
        self.attempted = 0
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.entries = iter(entries)
        self.lock = threading.Lock()
        self.path = f"/api/v1/championships/{SLUG}/captures/"

    def next_entry(self) -> tuple[str, str] | None:
        with self.lock:
            entry = next(self.entries, None)
            self.attempted += entry is not None
            return entry

    def post(self, target: tuple[str, str]) -> tuple[int, str]:
        round_key, entry = target
        body = {
            "id": str(uuid.uuid4()),
            "round": round_key,
            "entry": entry,
            "kind": "finish",
            "at": datetime.now(UTC).isoformat(),
            "missing_found": 0,
            "missing_lost": 0,
            "adjacent_missing": 0,
        }
        try:
            status, _headers, data = fetch(
                self.port,
                self.path,
                method="POST",
                headers=self.headers,
                body=json.dumps(body),
                timeout=self.timeout,
            )
        except (OSError, http.client.HTTPException) as error:
            return 0, f"{type(error).__name__}: {error}"
        return status, "" if status == 201 else data[:300].decode(errors="replace")


def capture_stats(name: str, outcomes: list[tuple[float, int, str]], seconds: float) -> dict:
    latencies = [latency for latency, status, _ in outcomes if status == 201]
    failures = [f"{status} {detail}" for _, status, detail in outcomes if status != 201]
    return {
        "name": name,
        "captures": len(outcomes),
        "stored": len(latencies),
        "errors": len(failures),
        "error_samples": failures[:5],
        "seconds": seconds,
        "rps": len(latencies) / seconds if seconds else 0.0,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "max_ms": max(latencies, default=float("nan")) * 1000,
        "latencies_ms": sorted(round(latency * 1000, 1) for latency in latencies),
    }


def say(row: dict) -> None:
    log(
        f"{row['name']}: {row['stored']}/{row['captures']} stored, {row['rps']:.2f}/s, "
        f"p50 {row['p50_ms']:.0f} ms, p99 {row['p99_ms']:.0f} ms, errors {row['error_samples']}"
    )


def captures_sequential(judge: Judge, count: int, budget: float) -> dict:
    """Post up to ``count`` captures one after the other, for at most ``budget`` seconds."""
    outcomes = []
    started = time.perf_counter()
    while len(outcomes) < count and time.perf_counter() - started < budget:
        entry = judge.next_entry()
        if entry is None:
            break
        begin = time.perf_counter()
        status, detail = judge.post(entry)
        outcomes.append((time.perf_counter() - begin, status, detail))
    return capture_stats(
        "captures alone (one judge, sequential, no pollers)",
        outcomes,
        time.perf_counter() - started,
    )


def captures_paced(judge: Judge, rate: float, duration: float) -> dict:
    """Post ``rate`` captures a second for ``duration`` seconds (open loop).

    Latency is counted from the instant a capture was due, so a late start counts.
    A capture without an answer within the request timeout counts as an error.
    """
    outcomes, lock = [], threading.Lock()
    count = max(1, int(rate * duration))

    def one(due: float, entry: str) -> None:
        status, detail = judge.post(entry)
        with lock:
            outcomes.append((time.perf_counter() - due, status, detail))

    started = time.perf_counter() + 0.1
    with ThreadPoolExecutor(max_workers=64) as pool:
        for index in range(count):
            entry = judge.next_entry()
            if entry is None:
                break
            due = started + index / rate
            time.sleep(max(0.0, due - time.perf_counter()))
            pool.submit(one, due, entry)
    return capture_stats(
        f"captures paced at {rate:g}/s with the pollers", outcomes, time.perf_counter() - started
    )


def captures_closed(judge: Judge, judges: int, duration: float) -> dict:
    """Let ``judges`` threads post back to back for ``duration`` seconds: the throughput."""
    outcomes, lock = [], threading.Lock()
    deadline = time.perf_counter() + duration

    def judge_loop() -> None:
        while time.perf_counter() < deadline:
            entry = judge.next_entry()
            if entry is None:
                return
            begin = time.perf_counter()
            status, detail = judge.post(entry)
            with lock:
                outcomes.append((time.perf_counter() - begin, status, detail))

    started = time.perf_counter()
    threads = [threading.Thread(target=judge_loop) for _ in range(judges)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return capture_stats(
        f"captures, {judges} judges back to back, with the pollers",
        outcomes,
        time.perf_counter() - started,
    )


# ----------------------------------------------------------------------------- the run


def machine() -> dict:
    cpu = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = ""
    with contextlib.suppress(OSError):
        kb = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
        memory = f"{kb / 1024 / 1024:.1f} GiB"
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory": memory,
        "kernel": platform.release(),
        "os": (
            re.search(r'PRETTY_NAME="([^"]+)"', Path("/etc/os-release").read_text()).group(1)
            if Path("/etc/os-release").exists()
            else platform.platform()
        ),
    }


def versions(wrk: str, admin_url: str, redis) -> dict:
    import django
    import gunicorn
    import psycopg

    with pg_admin(admin_url) as conn:
        pg = conn.execute("SHOW server_version").fetchone()[0]
    wrk_version = subprocess.run([wrk, "-v"], capture_output=True, text=True).stdout.split()
    return {
        "python": platform.python_version(),
        "django": django.get_version(),
        "gunicorn": gunicorn.__version__,
        "psycopg": psycopg.__version__,
        "postgresql": pg,
        "redis": redis.info("server")["redis_version"],
        "wrk": wrk_version[1] if len(wrk_version) > 1 else "?",
    }


def loadavg() -> str:
    """Return the 1-, 5- and 15-minute load averages: other work on the machine shows here."""
    with contextlib.suppress(OSError):
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return "?"


def ratio(value: float, base: float) -> float:
    return value / base if base else float("nan")


def markdown(report: dict) -> str:
    static = report["wrk"]["static"]["rps"]
    health = report["wrk"]["health"]["rps"]
    lines = [
        "| measurement | req/s | p50 ms | p99 ms | errors | × static | × minimal view |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for key, label in (
        ("static", f"static file `{STATIC}`"),
        ("health", "minimal Django view `/health/`"),
        ("poll304", "unchanged poll, 304 (fragment of 180 rows)"),
        ("poll200", "changed poll, 200 (180 rows, fragment cache warm)"),
        ("api304", "API results poll, 304"),
    ):
        row = report["wrk"][key]
        lines.append(
            f"| {label} | {row['rps']:.0f} | {row['p50_ms']:.1f} | {row['p99_ms']:.1f} | "
            f"{row['errors']} | {ratio(row['rps'], static):.2f} | {ratio(row['rps'], health):.2f} |"
        )
    pollers = report["pollers"]
    lines.append(
        f"| {report['pollers_label']} | {pollers['rps']:.0f} | {pollers['p50_ms']:.1f} | "
        f"{pollers['p99_ms']:.1f} | {pollers['errors']} | {ratio(pollers['rps'], static):.2f} | "
        f"{ratio(pollers['rps'], health):.2f} |"
    )
    for row in report["captures"]:
        lines.append(
            f"| {row['name']} | {row['rps']:.1f} | {row['p50_ms']:.1f} | {row['p99_ms']:.1f} | "
            f"{row['errors']} | {ratio(row['rps'], static):.3f} | {ratio(row['rps'], health):.3f} |"
        )
    cold = report["cold"]
    lines += [
        "",
        f"Cold render of one version (standings of the round's {report['round_size']:,} "
        f"results computed, 180-row fragment rendered, both caches empty): median "
        f"{cold['both_ms']['median']:.0f} ms "
        f"(min {cold['both_ms']['min']:.0f}, max {cold['both_ms']['max']:.0f}, "
        f"{cold['runs']} runs); fragment only (standings cached): median "
        f"{cold['fragment_ms']['median']:.0f} ms.",
        "",
        "Targets:",
    ]
    for target in report["targets"]:
        mark = "met" if target["met"] else "MISSED"
        lines.append(f"- {target['what']}: {target['value']} (target {target['target']}): {mark}")
    return "\n".join(lines)


def summary_ms(values: list[float]) -> dict:
    ordered = sorted(values)
    return {
        "median": ordered[len(ordered) // 2] * 1000,
        "min": ordered[0] * 1000,
        "max": ordered[-1] * 1000,
    }


def measure(args, wrk: str, port: int, token: str, pending, fragment: str, redis) -> dict:
    base = f"http://127.0.0.1:{port}"
    polled_round = fragment.split("/")[3]
    api = f"/api/v1/championships/{SLUG}/rounds/{polled_round}/results/"
    htmx = {"HX-Request": "true"}

    status, headers, body = fetch(port, fragment, headers=htmx)
    rows = table_rows(body)
    if status != 200 or rows != PER_HEAT:
        raise BenchError(f"the fragment answered {status} with {rows} rows, not 200 with 180")
    etag = headers["ETag"]
    if fetch(port, fragment, headers={**htmx, "If-None-Match": etag})[0] != 304:
        raise BenchError("the fragment did not answer 304 to its own ETag")
    api_etag = fetch(port, api)[1]["ETag"]
    if fetch(port, api, headers={"If-None-Match": api_etag})[0] != 304:
        raise BenchError("the API did not answer 304 to its own ETag")
    if fetch(port, STATIC)[0] != 200:
        raise BenchError(f"{STATIC} is not served")
    fragment_bytes = len(body)
    log(f"fragment: 180 rows, {fragment_bytes} bytes, ETag {etag}")

    def hdr(mapping):
        return [f"{name}: {value}" for name, value in mapping.items()]

    phases = {
        "static": (STATIC, []),
        "health": (HEALTH, []),
        "poll304": (fragment, hdr({**htmx, "If-None-Match": etag})),
        "poll200": (fragment, hdr(htmx)),
        "api304": (api, hdr({"If-None-Match": api_etag})),
    }
    results = {}
    load = {"before": loadavg()}
    log(f"warming up ({args.warmup} s)")
    for path, headers_ in phases.values():
        run_wrk(
            wrk, base + path, connections=args.connections, duration=args.warmup, headers=headers_
        )
    # Each URL in turn, several times over: a change of load on the machine during the
    # run then weighs on every URL alike, and the ratios stay fair.
    runs = {name: [] for name in phases}
    slice_ = max(1, math.ceil(args.duration / args.repeat))
    for repeat in range(args.repeat):
        for name, (path, headers_) in phases.items():
            runs[name].append(
                run_wrk(
                    wrk,
                    base + path,
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
        status, _h, body = fetch(port, fragment, headers=htmx)
        both.append(time.perf_counter() - begin)
        if status != 200 or table_rows(body) != PER_HEAT:
            raise BenchError(f"cold render answered {status}")
        for key in redis.scan_iter(match="*fragment:v2:*"):
            redis.delete(key)
        begin = time.perf_counter()
        fetch(port, fragment, headers=htmx)
        fragment_only.append(time.perf_counter() - begin)
    cold = {
        "runs": args.cold_runs,
        "both_ms": summary_ms(both),
        "fragment_ms": summary_ms(fragment_only),
    }
    log(f"cold render: {cold}")

    judge = Judge(port, token, pending, timeout=args.capture_timeout)
    load["before captures"] = loadavg()
    captures = [captures_sequential(judge, args.alone, args.alone_seconds)]
    say(captures[-1])

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
        if pollers.poll() is None:
            pollers.send_signal(signal.SIGINT)
        try:
            out, err = pollers.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            pollers.kill()
            out, err = pollers.communicate()
    load["after captures"] = loadavg()
    poll_load = wrk_summary(out, err, pollers.returncode)
    log(
        f"pollers: {poll_load['rps']:.0f} req/s, p99 {poll_load['p99_ms']:.0f} ms, "
        f"{poll_load['errors']} errors"
    )
    return {
        "fragment_bytes": fragment_bytes,
        "load": load,
        "attempted": judge.attempted,
        "wrk": results,
        "cold": cold,
        "captures": captures,
        "pollers": poll_load,
        "pollers_label": (
            f"{args.pollers} pollers, one changed poll (200) every {args.poll_interval_ms} ms "
            "each, during the captures"
        ),
    }


def check_stored(db_url: str, attempted: int, acknowledged: int) -> dict:
    """Return what the database holds once the server is done: one capture per tap at most.

    A capture whose answer did not come within the client's timeout may still be
    stored by the server: stored lies between the acknowledged and the attempted.
    """
    import psycopg

    def count(conn, sql):
        return conn.execute(sql).fetchone()[0]

    with psycopg.connect(db_url, connect_timeout=5, autocommit=True) as conn:
        stored, stable_since, deadline = -1, time.monotonic(), time.monotonic() + 120
        while time.monotonic() < deadline:
            now = count(conn, "SELECT count(*) FROM judging_capture")
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


def targets(report: dict) -> list[dict]:
    wrk = report["wrk"]
    health = wrk["health"]["rps"]
    # The latency target is read at the stated load (the first paced run, open loop); the
    # closed loop measures throughput, its latency is the length of its own queue.
    paced = next(c for c in report["captures"] if c["name"].startswith("captures paced"))
    p99 = paced["p99_ms"]
    errors = (
        sum(row["errors"] for row in wrk.values())
        + report["pollers"]["errors"]
        + sum(c["errors"] for c in report["captures"])
    )
    stored = report["stored"]
    return [
        {
            "what": "unchanged polls (304) / minimal view",
            "value": f"{ratio(wrk['poll304']['rps'], health):.3f}×",
            "target": "≥ 0.8×",
            "met": ratio(wrk["poll304"]["rps"], health) >= 0.8,
        },
        {
            "what": "changed polls (200, 180 rows) / minimal view",
            "value": f"{ratio(wrk['poll200']['rps'], health):.3f}×",
            "target": "≥ 0.25×",
            "met": ratio(wrk["poll200"]["rps"], health) >= 0.25,
        },
        {
            "what": f"capture p99, {paced['name'][9:]}",
            "value": f"{p99:.0f} ms",
            "target": "≤ 150 ms",
            "met": p99 <= 150,
        },
        {
            "what": "errors (all runs), captures stored once",
            "value": (
                f"{errors} errors; {stored['captures']} captures stored for "
                f"{stored['acknowledged']} acknowledged of {stored['attempted']} sent, "
                f"{stored['doubled']} doubled"
            ),
            "target": "0 errors, stored = acknowledged",
            "met": errors == 0
            and stored["captures"] == stored["acknowledged"]
            and stored["consistent"],
        },
    ]


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
    parser.add_argument("--output", default=str(ROOT / "benchmark-results"))
    args = parser.parse_args(argv)

    # A SIGTERM (e.g. from make or CI) unwinds like Ctrl-C, so that everything is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with contextlib.ExitStack() as cleanup:
        try:
            return run(args, cleanup)
        except BenchError as error:
            log(f"FAILED: {error}")
            return 1
        except (KeyboardInterrupt, SystemExit):
            log("interrupted: stopping gunicorn, dropping the database")
            raise


def run(args, cleanup: contextlib.ExitStack) -> int:
    wrk = ensure_wrk()
    redis = redis_client(args.redis)
    workdir = Path(tempfile.mkdtemp(prefix="championship-bench-"))
    cleanup.callback(shutil.rmtree, workdir, ignore_errors=True)

    log(f"database {DATABASE}, Redis {args.redis}")
    database_create(args.pg)
    cleanup.callback(database_drop, args.pg)
    redis.flushdb()
    cleanup.callback(redis.flushdb)
    db_url = with_database(args.pg, DATABASE)
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "CI")},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": db_url,
        "REDIS_URL": args.redis,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }

    log("migrate, collectstatic")
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    document, pending, fragment = wjpc_document(datetime.now(UTC), args.layout)
    path = workdir / "wjpc.json"
    path.write_text(json.dumps(document))
    began = time.perf_counter()
    loaded = manage(env, "import_championship", str(path)).strip().splitlines()[-1].strip()
    log(f"imported in {time.perf_counter() - began:.1f} s: {loaded}")
    manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model; "
        "from championship.models import Championship, ChampionshipRole; "
        "user = get_user_model().objects.create_user('bench-judge'); "
        f"ChampionshipRole.objects.create(championship=Championship.objects.get(slug='{SLUG}'), "
        "user=user, role='judge')",
    )
    token = re.search(r"Generated token (\w+)", manage(env, "drf_create_token", "bench-judge"))
    if not token:
        raise BenchError("drf_create_token printed no token")

    port = free_port()
    server = Gunicorn(env, port, args, workdir / "gunicorn.log")
    cleanup.callback(server.stop)
    server.wait_ready()
    log(f"gunicorn on port {port}: {' '.join(server.command[1:])}")

    report = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "versions": versions(wrk, args.pg, redis),
        "settings": {
            "gunicorn": " ".join(server.command[1:]),
            "database": f"PostgreSQL, {DATABASE}, CONN_MAX_AGE 60 with health checks",
            "cache": args.redis,
            "wrk": (
                f"1 thread, {args.connections} connections, {args.duration} s per URL "
                f"in {args.repeat} turns"
            ),
            "championship": (
                f"{LAYOUTS[args.layout]}: {len(HEATS) * PER_HEAT} entries; "
                f"{PER_HEAT - PENDING_PER_HEAT} results and {PENDING_PER_HEAT} still puzzling "
                f"per heat; polled: {fragment}"
            ),
            "imported": loaded,
        },
        "args": vars(args),
        "round_size": len(HEATS) * PER_HEAT if args.layout == "heats" else PER_HEAT,
    }
    report.update(measure(args, wrk, port, token.group(1), pending, fragment, redis))
    acknowledged = sum(c["stored"] for c in report["captures"])
    report["stored"] = check_stored(db_url, report["attempted"], acknowledged)
    report["targets"] = targets(report)
    errors_in_log = server.log_tail()
    report["server_log_tail"] = errors_in_log[-2000:]

    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    (output / f"bench-{stamp}.json").write_text(json.dumps(report, indent=2, default=str))
    text = markdown(report)
    (output / f"bench-{stamp}.md").write_text(text + "\n")
    print(json.dumps({"machine": report["machine"], "versions": report["versions"]}, indent=2))
    print(json.dumps(report["settings"], indent=2))
    print(text)
    log(f"written to {output}/bench-{stamp}.json and .md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
