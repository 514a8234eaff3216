"""The championship day: judges finishing entries while spectators poll, all at once.

The other phases measure polls and captures apart; this one runs them together,
shaped like a championship day. Its own championship (``day_document``: one
round of four heats of 150 running) is loaded when the phase begins, so that its
heats are running whatever ran before, with a judge user of its own. Then:

- spectators, in a process of their own so that their work does not hold up
  the judges' threads and clocks: HTML clients each polling one heat's results
  fragment every 4 s, API clients polling the round's results every 4 s, and one
  projector polling the screen every second; each with its own ETag
  (``If-None-Match``) and keep-alive connection, asking for gzip as browsers do;
- judges (threads), each at its own block of tables, finishing its entries at
  random instants (``CAPTURE_RATE`` captures a second in all) and having each
  finish confirmed a few seconds later. Like phones they send a capture again,
  with the same id, when no answer came within ``RESEND_AFTER`` seconds, and send
  a share of the acknowledged ones again anyway (an answer lost on the way),
  which the server must answer as the capture it already stored.

At the end the database must hold each capture once and every acknowledged one,
and the API's results must place every entry the judges finished; what does not
hold is listed in ``failures`` (``bench/run.py`` raises it as a ``BenchError``
once the report is written).
"""

from __future__ import annotations

import bisect
import http.client
import multiprocessing
import random
import threading
import time
import uuid
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime

from bench import log
from bench.captures import latency_summary, percentile
from bench.document import DAY_HEATS, DAY_PER_HEAT, DAY_ROUND, DAY_SLUG, day_document
from bench.report import loadavg
from harness.http import HOST, Answer, call, decoded, describe, status, try_call
from harness.servers import load_championship

# A user of its own: load_championship creates its judge, and "bench-judge" is the WJPC's.
JUDGE = "day-judge"
# Captures a second in all, finishes and confirms: between the paced runs' 5/s (nine
# WJPC rounds at their busiest minute) and 10/s.
CAPTURE_RATE = 7.5
RESEND_AFTER = 5.0  # seconds a phone waits for an answer before sending the capture again
GIVE_UP_AFTER = 60.0  # seconds from when it was due after which a capture is an error
REPLAY_SHARE = 0.05  # of the acknowledged captures, sent again: the phone lost the answer
CONFIRM_AFTER = (2.0, 8.0)  # seconds from the finish to the entrant's confirmation
POLL_EVERY = 4.0  # the results page's hx-trigger="every 4s"
SCREEN_EVERY = 1.0  # the projector's
REQUEST_TIMEOUT = 30.0  # a spectator's request without an answer by then is an error
SEED = 2025
GZIP = {"Accept-Encoding": "gzip"}
HTMX = {"HX-Request": "true", **GZIP}


@dataclass
class Tap:
    """One capture a judge makes: when (seconds into the scenario), what, of which entry."""

    due: float
    kind: str
    entry: str


@dataclass
class Sent:
    """What became of one capture: its sends, its last answer, its latency from when it was due."""

    id: str
    kind: str
    entry: str
    sends: int = 0
    status: int = 0  # the last answer's; 0 for none (a timeout, a connection error)
    detail: str = ""
    latency: float | None = None  # from due to the acknowledgement, resends included
    acked_at: float | None = None  # time.time() of the acknowledgement, for the projector
    replay: str | None = None  # sent again after its answer: "stored", or what came instead
    replay_sends: int = 0


def judge_blocks(waiting: list[tuple[int, str, str]], judges: int) -> list[list[str]]:
    """Split the entries still puzzling, (table, round, entry), into blocks of adjacent tables."""
    tables = len(DAY_HEATS) * DAY_PER_HEAT
    blocks = [[] for _ in range(judges)]
    for table, _round, entry in waiting:
        blocks[(table - 1) * judges // tables].append(entry)
    return blocks


def judge_taps(entries: list[str], seconds: float, rate: float, rnd: random.Random) -> list[Tap]:
    """Return one judge's taps in the order they are due.

    Finishes come at random (Poisson) instants, ``rate`` a second, for ``seconds``,
    of the judge's entries in a random order; each is confirmed a few seconds later.
    """
    order = list(entries)
    rnd.shuffle(order)
    taps, at = [], rnd.expovariate(rate)
    for entry in order:
        if at >= seconds:
            break
        taps.append(Tap(at, "finish", entry))
        taps.append(Tap(at + rnd.uniform(*CONFIRM_AFTER), "confirm", entry))
        at += rnd.expovariate(rate)
    return sorted(taps, key=lambda tap: tap.due)


def brief(answer) -> str:
    """Return an answer or a connection error in one short line, fit for the report's table."""
    return " ".join(describe(answer).split())[:160]


class Phone:
    """A judge's phone: posts a capture, on a new connection each time, until it is answered."""

    def __init__(self, port: int, token: str):
        self.port = port
        self.headers = {"Authorization": f"Token {token}"}
        self.path = f"/api/v1/championships/{DAY_SLUG}/captures/"

    def send(self, body: dict, since: float) -> tuple[Answer | Exception, int]:
        """Send ``body`` until an answer other than a server error comes; return it and the sends.

        A send without an answer within ``RESEND_AFTER`` seconds, a connection error
        or a 5xx is sent again, with the same id, ``RESEND_AFTER`` seconds after the
        send before; ``GIVE_UP_AFTER`` seconds after ``since`` the last failure is returned.
        """
        sends = 0
        while True:
            sends += 1
            begin = time.perf_counter()
            answer = try_call(
                self.port,
                "POST",
                self.path,
                headers=self.headers,
                payload=body,
                timeout=RESEND_AFTER,
            )
            if isinstance(answer, Answer) and answer.status < 500:
                return answer, sends
            if time.perf_counter() - since > GIVE_UP_AFTER:
                return answer, sends
            time.sleep(max(0.0, begin + RESEND_AFTER - time.perf_counter()))


def capture_body(tap: Tap, at: datetime, rnd: random.Random) -> dict:
    """Return what the phone sends for a tap: a fresh id; a finish has its missing pieces."""
    body = {
        "id": str(uuid.uuid4()),
        "round": DAY_ROUND,
        "entry": tap.entry,
        "kind": tap.kind,
        "at": at.isoformat(),
    }
    if tap.kind == "finish":
        body.update(missing_found=int(rnd.random() < 0.05), missing_lost=0, adjacent_missing=0)
    return body


def replay(phone: Phone, body: dict, first: Answer) -> tuple[str, int]:
    """Send an acknowledged capture again; return "stored" if it is answered as the stored one.

    The server answers a capture id it already holds with the first answer: the
    same id and the same instant of receipt. Anything else comes back described.
    """
    answer, sends = phone.send(body, time.perf_counter())
    if status(answer) != 201:
        return brief(answer), sends
    again, before = answer.json(), first.json()
    if (again.get("id"), again.get("received_at")) != (before["id"], before["received_at"]):
        return f"answered as another capture: {again} (first {before})", sends
    return "stored", sends


def judge_day(phone: Phone, taps, start: float, start_wall: float, rnd, sink: list) -> None:
    """Make one judge's taps, each when due, one after the other as the phone's queue sends them.

    A tap's instant is when it was due, however late the queue sends it; the
    confirm of a finish that was never acknowledged is not made.
    """
    unfinished = set()
    for tap in taps:
        if tap.kind == "confirm" and tap.entry in unfinished:
            continue
        due = start + tap.due
        time.sleep(max(0.0, due - time.perf_counter()))
        body = capture_body(tap, datetime.fromtimestamp(start_wall + tap.due, UTC), rnd)
        sent = Sent(body["id"], tap.kind, tap.entry)
        answer, sent.sends = phone.send(body, due)
        sent.status = status(answer) or 0
        if sent.status == 201:
            sent.latency = time.perf_counter() - due
            sent.acked_at = time.time()
            if rnd.random() < REPLAY_SHARE:
                sent.replay, sent.replay_sends = replay(phone, body, answer)
        else:
            sent.detail = brief(answer)
            unfinished.add(tap.entry)
        sink.append(sent)


def run_judges(phone: Phone, schedules: list[list[Tap]]) -> tuple[list[Sent], float, float]:
    """Run one thread per judge until every tap is answered; return the captures and the window.

    The window is (start, end) in ``time.time()``: the spectators' figures are read over it.
    """
    sink: list[Sent] = []
    start = time.perf_counter() + 0.2
    start_wall = time.time() + (start - time.perf_counter())
    threads = [
        threading.Thread(
            target=judge_day,
            args=(phone, taps, start, start_wall, random.Random(SEED + 1000 + index), sink),
            name=f"judge-{index + 1}",
        )
        for index, taps in enumerate(schedules)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sink, start_wall, time.time()


class Poller:
    """A spectator's page: polls one address with its own ETag on its own keep-alive connection."""

    def __init__(self, port: int, path: str, headers: dict, every: float, phase: float):
        self.port = port
        self.path = path
        self.headers = headers
        self.every = every
        self.phase = phase
        self.etag: str | None = None
        self.conn: http.client.HTTPConnection | None = None

    def run(self, done: threading.Event, sink: list) -> None:
        """Poll every ``every`` seconds from ``phase`` on until ``done``; record each request.

        Each goes to ``sink`` as (sent at, by ``time.time()``; latency in seconds;
        status, 0 for no answer; whether a 200 brought a new ETag; whether it came
        gzipped; bytes on the wire; what went wrong, or "").
        """
        next_at = time.monotonic() + self.phase
        while not done.wait(max(0.0, next_at - time.monotonic())):
            sink.append(self.poll())
            next_at = max(next_at + self.every, time.monotonic())
        self.close()

    def poll(self) -> tuple:
        headers = dict(self.headers)
        if self.etag:
            headers["If-None-Match"] = self.etag
        sent, begin = time.time(), time.perf_counter()
        try:
            code, answer_headers, body = self.fetch(headers)
        except (OSError, http.client.HTTPException) as error:
            return (sent, time.perf_counter() - begin, 0, False, False, 0, brief(error))
        latency = time.perf_counter() - begin
        gzipped = answer_headers.get("Content-Encoding", "").strip().lower() == "gzip"
        changed, problem = False, ""
        if code == 200:
            try:
                decoded(answer_headers, body)
            except (OSError, EOFError, zlib.error) as error:
                problem = f"200 with a body that does not decompress: {error}"
            etag = answer_headers.get("ETag")
            if not etag:
                problem = "200 without an ETag"
            changed, self.etag = etag != self.etag, etag or self.etag
        elif code != 304:
            problem = " ".join(f"{code} {body[:200]!r}".split())[:160]
        return (sent, latency, code, changed, gzipped, len(body), problem)

    def fetch(self, headers: dict) -> tuple[int, http.client.HTTPMessage, bytes]:
        """Return (status, headers, body) of one GET on the kept connection.

        A kept connection the server closed while it was idle fails at once: the
        request goes again on a new one, as a browser's does. A timeout does not.
        """
        if self.conn is not None:
            try:
                return self.get(headers)
            except TimeoutError:
                self.close()
                raise
            except (OSError, http.client.HTTPException):
                self.close()
        self.conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        try:
            return self.get(headers)
        except (OSError, http.client.HTTPException):
            self.close()
            raise

    def get(self, headers: dict) -> tuple[int, http.client.HTTPMessage, bytes]:
        self.conn.request("GET", self.path, headers=headers)
        response = self.conn.getresponse()
        body = response.read()
        if response.will_close:
            self.close()
        return response.status, response.headers, body

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def spectate(port: int, plan: dict, ready, stop, results) -> None:
    """Poll as ``plan`` says until ``stop`` is set; then put every request's record in ``results``.

    Runs in a process of its own (spawned by ``multiprocessing``): hundreds of
    polling threads in the judges' process would take their interpreter lock and
    skew their clocks. Every client starts at a random phase of its interval.
    """
    threading.stack_size(256 * 1024)
    rnd = random.Random(plan["seed"])
    clients = {"html": [], "api": [], "screen": []}
    for _ in range(plan["html"]):
        path = rnd.choice(plan["html_paths"])
        clients["html"].append(Poller(port, path, HTMX, POLL_EVERY, rnd.uniform(0, POLL_EVERY)))
    for _ in range(plan["api"]):
        phase = rnd.uniform(0, POLL_EVERY)
        clients["api"].append(Poller(port, plan["api_path"], GZIP, POLL_EVERY, phase))
    phase = rnd.uniform(0, SCREEN_EVERY)
    clients["screen"].append(Poller(port, plan["screen_path"], HTMX, SCREEN_EVERY, phase))
    done = threading.Event()
    records = {kind: [] for kind in clients}
    threads = [
        threading.Thread(target=client.run, args=(done, records[kind]), daemon=True)
        for kind, kinds in clients.items()
        for client in kinds
    ]
    for thread in threads:
        thread.start()
    ready.set()
    stop.wait(plan["at_most_s"])
    done.set()
    deadline = time.monotonic() + REQUEST_TIMEOUT + 5
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    results.put({kind: list(rows) for kind, rows in records.items()})


def capture_summary(sent: list[Sent], seconds: float, judges: int, due_s: float) -> dict:
    """Return the judges' figures: counts, resends, replays and latency from when each was due.

    ``seconds`` is the judges' whole run, the last answers included; ``due_s`` the
    time over which the captures were due.
    """
    acked = [item for item in sent if item.status == 201]
    latencies = [item.latency for item in acked]
    replays = [item for item in sent if item.replay is not None]
    failed = [f"{item.kind} {item.entry}: {item.detail}" for item in sent if item.status != 201]
    return {
        "name": f"{judges} judges' captures, a finish then its confirm",
        "resend_after_s": RESEND_AFTER,
        "sent": len(sent),
        "acknowledged": len(acked),
        "finishes": sum(item.kind == "finish" for item in acked),
        "confirms": sum(item.kind == "confirm" for item in acked),
        "resent": sum(item.sends - 1 for item in sent),
        "resent_captures": sum(item.sends > 1 for item in sent),
        "replays": len(replays),
        "replays_stored": sum(item.replay == "stored" for item in replays),
        "replay_samples": [item.replay for item in replays if item.replay != "stored"][:5],
        "requests": sum(item.sends + item.replay_sends for item in sent),
        "errors": len(failed),
        "error_samples": failed[:5],
        "seconds": seconds,
        "rps": len(acked) / seconds if seconds else 0.0,
        "due_seconds": due_s,
        "due_rps": len(sent) / due_s if due_s else 0.0,
        **latency_summary(latencies),
    }


def spectator_summary(name: str, clients: int, rows: list, since: float, until: float) -> dict:
    """Return one kind of spectator's figures over the judges' window ``since``..``until``.

    Errors are counted over the whole run, warm-up and tail included.
    """
    inside = [row for row in rows if since <= row[0] <= until]
    answered = [row for row in inside if row[2] in (200, 304)]
    latencies = [row[1] for row in answered]
    fetched = sum(row[2] == 200 for row in inside)
    unchanged = sum(row[2] == 304 for row in inside)
    problems = [row[6] for row in rows if row[6]]
    seconds = until - since
    return {
        "name": name,
        "clients": clients,
        "requests": len(inside),
        "seconds": seconds,
        "rps": len(inside) / seconds if seconds else 0.0,
        "ok_200": fetched,
        "not_modified_304": unchanged,
        "share_304": unchanged / (fetched + unchanged) if fetched + unchanged else float("nan"),
        "new_versions": sum(row[3] for row in inside),
        "gzipped": sum(row[4] for row in inside),
        "bytes_per_200": (
            sum(row[5] for row in inside if row[2] == 200) / fetched if fetched else 0.0
        ),
        "errors": len(problems),
        "error_samples": problems[:5],
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "max_ms": max(latencies, default=float("nan")) * 1000,
    }


def projector_delays(acks: list[float], screen: list) -> list[float]:
    """Return, for each capture's answer, how long until the projector showed a new version.

    That is the first 200 with a new ETag to a screen poll sent after the answer
    (a poll under way at the answer may have been served the version before it).
    """
    shown = sorted((row[0], row[0] + row[1]) for row in screen if row[2] == 200 and row[3])
    sent_at = [sent for sent, _received in shown]
    delays = []
    for acked in sorted(acks):
        index = bisect.bisect_left(sent_at, acked)
        if index < len(shown):
            delays.append(shown[index][1] - acked)
    return delays


def verify_stored(database, sent: list[Sent]) -> tuple[dict, list[str]]:
    """Return what the database holds of the day's captures, and what is wrong with it.

    Waits until the count stops moving (a capture given up on may still be stored).
    Each id is stored once and is one the judges sent; every acknowledged capture
    (every acknowledged confirm among them) is stored; an entry has at most one
    finish and one confirm; and every acknowledged confirm's result is confirmed.
    """
    with database.connect(autocommit=True) as conn:
        (championship,) = conn.execute(
            "SELECT id FROM championship_championship WHERE slug = %s", (DAY_SLUG,)
        ).fetchone()
        stored, stable_since, deadline = -1, time.monotonic(), time.monotonic() + 60
        while time.monotonic() < deadline and time.monotonic() - stable_since < 2:
            (now,) = conn.execute(
                "SELECT count(*) FROM judging_capture WHERE championship_id = %s", (championship,)
            ).fetchone()
            if now != stored:
                stored, stable_since = now, time.monotonic()
            time.sleep(0.5)
        rows = conn.execute(
            "SELECT c.client_id::text, c.kind, e.ref FROM judging_capture c "
            "JOIN registration_entry e ON e.id = c.entry_id WHERE c.championship_id = %s",
            (championship,),
        ).fetchall()
        confirmed = {
            ref
            for (ref,) in conn.execute(
                "SELECT e.ref FROM results_result r JOIN registration_entry e ON e.id = r.entry_id "
                "JOIN championship_round o ON o.id = r.round_id "
                "WHERE o.championship_id = %s AND r.confirmed_at IS NOT NULL",
                (championship,),
            )
        }
    ids = [client_id for client_id, _kind, _entry in rows]
    taps: dict[tuple[str, str], int] = {}
    for _id, kind, entry in rows:
        taps[(entry, kind)] = taps.get((entry, kind), 0) + 1
    sent_ids = {item.id for item in sent}
    acked = [item for item in sent if item.status == 201]
    found = {
        "captures": len(rows),
        "distinct_ids": len(set(ids)),
        "not_sent": sorted(set(ids) - sent_ids)[:5],
        "acknowledged_missing": sorted(item.id for item in acked if item.id not in set(ids))[:5],
        "entries_tapped_twice": sorted(
            f"{kind} {entry}" for (entry, kind), n in taps.items() if n > 1
        ),
        "confirms_not_confirmed": sorted(
            item.entry for item in acked if item.kind == "confirm" and item.entry not in confirmed
        ),
    }
    failures = []
    if found["distinct_ids"] != found["captures"]:
        failures.append(f"{found['captures']} captures stored for {found['distinct_ids']} ids")
    if found["not_sent"]:
        failures.append(f"stored capture ids nobody sent: {found['not_sent']}")
    if found["acknowledged_missing"]:
        failures.append(f"acknowledged captures not stored: {found['acknowledged_missing']}")
    if found["entries_tapped_twice"]:
        failures.append(f"entries with a tap stored twice: {found['entries_tapped_twice'][:5]}")
    if found["confirms_not_confirmed"]:
        failures.append(
            f"acknowledged confirms whose result is not confirmed: "
            f"{found['confirms_not_confirmed'][:5]}"
        )
    return found, failures


def verify_placed(port: int, database, finished: set[str]) -> tuple[dict, list[str]]:
    """Return whether the API's results place every entry the judges finished, once current.

    The round is ranked by its first reader after a change, and the API may
    answer with the version before while it builds the new one: the results are
    read again until their version is the round's.
    """
    with database.connect(autocommit=True) as conn:
        (version,) = conn.execute(
            "SELECT o.version FROM championship_round o JOIN championship_championship c "
            "ON c.id = o.championship_id WHERE c.slug = %s AND o.key = %s",
            (DAY_SLUG, DAY_ROUND),
        ).fetchone()
    path = f"/api/v1/championships/{DAY_SLUG}/rounds/{DAY_ROUND}/results/"
    deadline = time.monotonic() + 30
    while True:
        answer = call(port, "GET", path, headers=GZIP)
        body = answer.json() if answer.status == 200 else {}
        if body.get("version") == version or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    places = {row["entry"]["id"]: row["place"] for row in body.get("rows", [])}
    unplaced = sorted(entry for entry in finished if places.get(entry) is None)
    found = {
        "round_version": version,
        "results_version": body.get("version"),
        "finished": len(finished),
        "placed": len(finished) - len(unplaced),
        "unplaced": unplaced[:10],
    }
    failures = []
    if body.get("version") != version:
        failures.append(
            f"the API's results stayed at version {body.get('version')} ({answer.status}); "
            f"the round is at {version}"
        )
    if unplaced:
        failures.append(f"{len(unplaced)} finished entries without a place: {unplaced[:10]}")
    return found, failures


def run_day(args, env: dict, workdir, port: int, database) -> dict:
    """Load the day's championship, run its judges and spectators together, check what is stored.

    ``args`` gives ``day_seconds``, ``day_judges``, ``day_html`` and ``day_api``.
    """
    document, waiting = day_document(datetime.now(UTC))
    began = time.perf_counter()
    loaded = load_championship(env, document, workdir, judge=JUDGE)
    database.analyze()
    log(f"the day: imported in {time.perf_counter() - began:.1f} s: {loaded.summary}")
    rate = CAPTURE_RATE / 2 / args.day_judges
    schedules = [
        judge_taps(block, args.day_seconds, rate, random.Random(SEED + index))
        for index, block in enumerate(judge_blocks(waiting, args.day_judges))
    ]
    plan = {
        "seed": SEED,
        "html": args.day_html,
        "api": args.day_api,
        "html_paths": [f"/{DAY_SLUG}/results/{DAY_ROUND}/?heat={heat}" for heat in DAY_HEATS],
        "api_path": f"/api/v1/championships/{DAY_SLUG}/rounds/{DAY_ROUND}/results/",
        "screen_path": f"/{DAY_SLUG}/screen/{DAY_ROUND}/",
        # The spectators stop by themselves should this process die without telling them.
        "at_most_s": args.day_seconds + 900,
    }
    context = multiprocessing.get_context("spawn")
    ready, stop, results = context.Event(), context.Event(), context.Queue()
    spectators = context.Process(
        target=spectate, args=(port, plan, ready, stop, results), name="spectators", daemon=True
    )
    load = {"before": loadavg()}
    log(
        f"the day: {args.day_html} HTML and {args.day_api} API spectators and a projector; "
        f"{sum(len(taps) for taps in schedules)} captures of {args.day_judges} judges "
        f"due in {args.day_seconds:g} s"
    )
    spectators.start()
    try:
        if not ready.wait(60):
            raise TimeoutError("the spectators' process did not start within 60 s")
        # One poll interval and a little: every spectator holds its ETag.
        time.sleep(POLL_EVERY + 1)
        sent, since, until = run_judges(Phone(port, loaded.token), schedules)
        load["after the judges"] = loadavg()
        time.sleep(2 * SCREEN_EVERY)  # the projector shows the last captures
        stop.set()
        records = results.get(timeout=REQUEST_TIMEOUT + 30)
    finally:
        stop.set()
        spectators.join(timeout=10)
        if spectators.is_alive():
            spectators.terminate()
            spectators.join()
    due_s = max((tap.due for taps in schedules for tap in taps), default=0.0)
    captures = capture_summary(sent, until - since, args.day_judges, due_s)
    spectating = {
        "html": spectator_summary(
            f"{args.day_html} HTML spectators, a heat's fragment every {POLL_EVERY:g} s",
            args.day_html,
            records["html"],
            since,
            until,
        ),
        "api": spectator_summary(
            f"{args.day_api} API spectators, the round's results every {POLL_EVERY:g} s",
            args.day_api,
            records["api"],
            since,
            until,
        ),
        "screen": spectator_summary(
            f"the projector, the screen every {SCREEN_EVERY:g} s",
            1,
            records["screen"],
            since,
            until,
        ),
    }
    delays = projector_delays(
        [item.acked_at for item in sent if item.acked_at is not None], records["screen"]
    )
    projector = {
        "samples": len(delays),
        "p50_ms": percentile(delays, 50) * 1000,
        "p90_ms": percentile(delays, 90) * 1000,
    }
    stored, failures = verify_stored(database, sent)
    finished = {item.entry for item in sent if item.kind == "finish" and item.status == 201}
    placed, unplaced = verify_placed(port, database, finished)
    failures += unplaced
    refused = [f"{item.kind} {item.entry}: {item.detail}" for item in sent if item.status >= 400]
    if refused:
        failures.append(f"{len(refused)} captures refused: {refused[:3]}")
    if captures["replays"] != captures["replays_stored"]:
        failures.append(f"replays not answered as stored: {captures['replay_samples']}")
    for kind, row in spectating.items():
        log(
            f"the day, {kind}: {row['rps']:.1f} req/s, p50 {row['p50_ms']:.0f} ms, "
            f"p99 {row['p99_ms']:.0f} ms, {row['share_304']:.0%} 304, {row['errors']} errors"
        )
    log(
        f"the day, captures: {captures['acknowledged']}/{captures['sent']} acknowledged, "
        f"{captures['rps']:.2f}/s, p50 {captures['p50_ms']:.0f} ms, p99 {captures['p99_ms']:.0f} "
        f"ms, max {captures['max_ms']:.0f} ms, {captures['resent']} resent, "
        f"{captures['replays_stored']}/{captures['replays']} replays answered as stored"
    )
    return {
        "championship": (
            f"{DAY_SLUG}, one round of {len(DAY_HEATS)} heats of {DAY_PER_HEAT} running, "
            f"started {', '.join(str(m) for m in DAY_HEATS.values())} minutes before, "
            f"{len(waiting)} entries still puzzling"
        ),
        "imported": loaded.summary,
        "judges": args.day_judges,
        "seconds": args.day_seconds,
        "capture_rate": CAPTURE_RATE,
        "load": load,
        "captures": captures,
        "spectators": spectating,
        "projector": projector,
        "stored": stored,
        "placed": placed,
        "failures": failures,
    }
