"""The judge's page in ES modules: its queue and its merge, each tested alone in Chromium.

``static/judging/judge/`` holds the page's modules: ``queue.js`` (the captures kept
in localStorage until the server has them), ``merge.js`` (the server's state of the
table taken together with what waits in the queue), ``render.js``, ``text.js`` and
``main.js`` (the wiring). The queue and the merge take their storage, fetch and
timers as arguments, so these tests load them into a page of their own in headless
Chromium, hand them fakes and look at what they do, as ``test_rules_js.py`` does for
``rules.js``. The judge's page itself is driven by ``test_judging*.py``; here it is
loaded once more to see its modules run under the Content-Security-Policy, and the
modules are collected with the production storage to see them load each other from
the collected files.
"""

import json
import mimetypes
import os
import re
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from championship.models import ChampionshipRole, Seat
from control import rounds
from harness.servers import manage
from judging.models import Capture
from tests import factories
from tests.deployment.harness import server_env

pytestmark = pytest.mark.browser

STATIC = Path(__file__).parents[2] / "static"
MODULES = ("main", "queue", "merge", "render", "text")
# A made-up origin whose requests the tests answer themselves: a real http page, with its
# own localStorage, where modules may load each other.
ORIGIN = "http://judge-modules.test"
PASSWORD = "a-long-password-1"  # what tests.factories.user gives every user

# In the page: fakes of what the modules are given (storage, fetch, timers), and helpers.
FAKES = """
window.fakes = (() => {
  // What was started runs to its end: every promise settled, before the next task.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  function storage(entries = {}) {
    const data = new Map(Object.entries(entries));
    return {
      data,
      getItem: (key) => (data.has(key) ? data.get(key) : null),
      setItem: (key, value) => {
        data.set(key, String(value));
      },
    };
  }

  // Timers that fire only when the test says so.
  function timers() {
    let next = 1;
    const pending = new Map();
    return {
      setTimeout: (callback, delay) => {
        const id = next;
        next += 1;
        pending.set(id, { callback, delay });
        return id;
      },
      clearTimeout: (id) => {
        pending.delete(id);
      },
      delays: () => Array.from(pending.values(), (timer) => timer.delay),
      async fire() {
        const due = Array.from(pending.values());
        pending.clear();
        due.forEach((timer) => timer.callback());
        await settle();
      },
    };
  }

  // A server answering each request with the next answer: [status, body] (body undefined:
  // no JSON at all), "down" (no network) or "wait" (answered by release()); then 201 {}.
  function server(answers = []) {
    const requests = [];
    const waiting = [];
    async function fetch(url, options = {}) {
      requests.push({ url, options, body: options.body ? JSON.parse(options.body) : null });
      let answer = answers.length ? answers.shift() : [201, {}];
      if (answer === "wait") answer = await new Promise((resolve) => waiting.push(resolve));
      if (answer === "down") throw new TypeError("Failed to fetch");
      const [status, body] = answer;
      return {
        ok: status >= 200 && status < 300,
        status,
        json: async () => {
          if (body === undefined) throw new SyntaxError("Unexpected end of JSON input");
          return body;
        },
      };
    }
    return { fetch, requests, release: (answer) => waiting.shift()(answer) };
  }

  function capture(id, { entry = "e1", kind = "finish", round = "final" } = {}) {
    return { id, round, entry, kind, at: "2025-05-01T10:05:00.000Z" };
  }

  const QUEUE_KEY = "judging-queue:test";

  // A queue with fakes of everything, and what it told the page.
  function queue(Q, { storage: kept = storage(), answers = [], ...options } = {}) {
    const net = server(answers);
    const clock = timers();
    const answered = [];
    const refused = [];
    const created = Q.createQueue({
      key: QUEUE_KEY,
      storage: kept,
      fetch: net.fetch,
      url: "/api/v1/championships/test/captures/",
      csrfToken: () => "the-csrf-token",
      setTimeout: clock.setTimeout,
      clearTimeout: clock.clearTimeout,
      now: () => 1746093900000,
      errorText: (status) => `error ${status}`,
      onAnswered: (item, body) => answered.push({ id: item.id, body }),
      onRefused: (item, message) => refused.push({ id: item.id, message }),
      ...options,
    });
    return {
      queue: created,
      storage: kept,
      server: net,
      timers: clock,
      answered,
      refused,
      // The ids in storage, and those the queue gives (from storage or, without it, memory).
      stored: () => JSON.parse(kept.getItem(QUEUE_KEY) || "[]").map((item) => item.id),
      ids: () => created.load().map((item) => item.id),
      sent: () => net.requests.map((request) => request.body.id),
    };
  }

  const START = Date.parse("2025-05-01T10:00:00Z");

  // An entry as the table's state gives it (judging.selectors, SeatAtTable.state), puzzling.
  function entry(overrides = {}) {
    return {
      label: "",
      entry: "e1",
      name: "Ingrid Hansen",
      round: "final",
      pieces: 500,
      heatState: "running",
      heatStateLabel: "Running",
      startMs: START,
      limitMs: 3600000,
      calledMs: null,
      timeUpMs: START + 3600000,
      step: "puzzling",
      mayConfirm: true,
      countState: "",
      ownCount: null,
      result: null,
      statusLabel: "Puzzling",
      finish: null,
      ...overrides,
    };
  }

  // A finished result as the server gives it (judging.selectors.result_state).
  function finished(overrides = {}) {
    return {
      status: "finished",
      time_ms: 300000,
      final_seconds: 300,
      penalty_seconds: 0,
      counted_pieces: null,
      pieces_placed: null,
      missing_found: 0,
      missing_lost: 0,
      adjacent_missing: 0,
      last_piece_ms: null,
      incorrect: false,
      outcome: "completed",
      confirmed: false,
      count_state: "",
      ...overrides,
    };
  }

  // This judge's finish, as the state gives it.
  function myFinish(atMs = START + 300000) {
    return { atMs, mine: true, judge: "judy", found: 0, lost: 0, adjacent: 0, lastPieceMs: null };
  }

  // The page's config for one table with these entries.
  function config(seats, overrides = {}) {
    const state = { version: "v1", layout: "l1", atMs: START, stateUrl: "/t/token/state/" };
    return { ...state, seats, ...overrides };
  }

  // The page's entries as main.js starts with them.
  function seats(M, entries, known) {
    const page = config(entries);
    return M.startingSeats(page, known || page, "Table 1");
  }

  async function modules() {
    return {
      Q: await import("/static/judging/judge/queue.js"),
      M: await import("/static/judging/judge/merge.js"),
    };
  }

  // What typing() says: the judge types in the entry's fields, or not.
  const yes = () => true;
  const no = () => false;

  return {
    settle, storage, timers, server, capture, queue, entry, finished, myFinish, config, seats,
    modules, yes, no, QUEUE_KEY, START,
  };
})();
"""


def serve_from(root: Path, seen: list | None = None):
    """Answer the made-up origin: ``/`` is a blank page, ``/static/`` the files of ``root``."""

    def answer(route):
        path = urlparse(route.request.url).path
        if path == "/":
            route.fulfill(body="<!doctype html><title>modules</title>", content_type="text/html")
            return
        name = path.removeprefix("/static/")
        file = root / name
        found = path.startswith("/static/") and file.is_file()
        if seen is not None:
            seen.append((name, 200 if found else 404))
        if not found:
            route.fulfill(status=404, body="not found")
            return
        kind = "text/javascript" if file.suffix == ".js" else mimetypes.guess_type(file.name)[0]
        route.fulfill(path=str(file), content_type=kind or "application/octet-stream")

    return answer


@pytest.fixture(scope="module")
def modules_page(chromium):
    page = chromium.new_page()
    page.route(f"{ORIGIN}/**", serve_from(STATIC))
    page.goto(f"{ORIGIN}/")
    page.add_script_tag(content=FAKES)
    yield page
    page.close()


def run(page, script: str, arg=None):
    """Run ``script``: the body of an async function of Q (queue.js), M (merge.js) and ``arg``."""
    return page.evaluate(
        f"async (arg) => {{ const {{ Q, M }} = await fakes.modules(); const {{ yes, no }} = fakes; "
        f"{script} }}",
        arg,
    )


# The queue ---------------------------------------------------------------------------------


def test_a_capture_is_kept_in_storage_before_it_is_sent(modules_page):
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: ["wait"] });
        const item = t.queue.add(fakes.capture("c1"), "Table 1 · Ingrid Hansen");
        const storedBeforeSending = t.stored();
        const sending = t.queue.flush();
        await fakes.settle();
        const storedWhileSending = t.stored();
        t.server.release([201, { result: null }]);
        await sending;
        return { item, storedBeforeSending, storedWhileSending, storedAfter: t.stored() };
        """,
    )
    assert seen["item"] == {
        "id": "c1",
        "round": "final",
        "entry": "e1",
        "kind": "finish",
        "where": "Table 1 · Ingrid Hansen",
        "queuedAt": 1746093900000,
        "body": {
            "id": "c1",
            "round": "final",
            "entry": "e1",
            "kind": "finish",
            "at": "2025-05-01T10:05:00.000Z",
        },
    }
    assert seen["storedBeforeSending"] == ["c1"]
    assert seen["storedWhileSending"] == ["c1"], "a capture leaves only once it is answered"
    assert seen["storedAfter"] == []


def test_the_queue_comes_back_after_a_reload_and_is_sent_in_order(modules_page):
    run(
        modules_page,
        """
        localStorage.removeItem(fakes.QUEUE_KEY);
        const t = fakes.queue(Q, { storage: localStorage, answers: ["down"] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        t.queue.add(fakes.capture("c2", { kind: "confirm" }), "Table 1");
        await t.queue.flush();
        return null;
        """,
    )
    modules_page.reload()
    modules_page.add_script_tag(content=FAKES)
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { storage: localStorage });
        const loaded = t.queue.load().map((item) => [item.id, item.kind, item.where]);
        await t.queue.flush();
        const left = localStorage.getItem(fakes.QUEUE_KEY);
        localStorage.removeItem(fakes.QUEUE_KEY);
        return { loaded, sent: t.sent(), answered: t.answered.map((a) => a.id), left };
        """,
    )
    assert seen["loaded"] == [["c1", "finish", "Table 1"], ["c2", "confirm", "Table 1"]]
    assert seen["sent"] == ["c1", "c2"]
    assert seen["answered"] == ["c1", "c2"]
    assert seen["left"] == "[]"


def test_a_stored_capture_leaves_the_queue_and_the_page_hears_the_answer(modules_page):
    seen = run(
        modules_page,
        """
        const body = { result: { status: "finished", time: "0:05:00" } };
        const t = fakes.queue(Q, { answers: [[201, body]] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        await t.queue.flush();
        const request = t.server.requests[0];
        return {
          ids: t.ids(),
          answered: t.answered,
          url: request.url,
          method: request.options.method,
          headers: request.options.headers,
          credentials: request.options.credentials,
          sentBody: request.body,
          networkDown: t.queue.networkDown,
          retrying: t.queue.retrying,
        };
        """,
    )
    assert seen["ids"] == []
    assert seen["answered"] == [
        {"id": "c1", "body": {"result": {"status": "finished", "time": "0:05:00"}}}
    ]
    assert seen["url"] == "/api/v1/championships/test/captures/"
    assert seen["method"] == "POST"
    assert seen["credentials"] == "same-origin"
    assert seen["headers"] == {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "X-CSRFToken": "the-csrf-token",
    }
    assert seen["sentBody"]["id"] == "c1"
    assert (seen["networkDown"], seen["retrying"]) == (False, False)


def test_without_network_the_capture_is_kept_and_sent_again_with_backoff(modules_page):
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: ["down", "down", "down", "down", "down", "down"] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        await t.queue.flush();
        const first = { ids: t.ids(), networkDown: t.queue.networkDown, delays: t.timers.delays() };
        const delays = [];
        for (let i = 0; i < 5; i += 1) {
          await t.timers.fire();
          delays.push(t.timers.delays()[0]);
        }
        const down = { ids: t.ids(), sent: t.sent() };
        await t.timers.fire(); // the network is back: 201
        return {
          first, delays, down,
          after: { ids: t.ids(), networkDown: t.queue.networkDown, retryDelay: t.queue.retryDelay,
                   timers: t.timers.delays(), answered: t.answered.length },
        };
        """,
    )
    assert seen["first"] == {"ids": ["c1"], "networkDown": True, "delays": [2000]}
    assert seen["delays"] == [4000, 8000, 16000, 30000, 30000], "backoff, at most 30 s"
    assert seen["down"] == {"ids": ["c1"], "sent": ["c1"] * 6}
    assert seen["after"] == {
        "ids": [],
        "networkDown": False,
        "retryDelay": 2000,
        "timers": [],
        "answered": 1,
    }


@pytest.mark.parametrize(
    ("status", "body", "login"),
    [
        (500, None, False),
        (502, {"detail": "Bad gateway"}, False),
        (503, None, False),
        (408, None, False),
        (429, {"detail": "Request was throttled."}, False),
        (401, {"detail": "Authentication credentials were not provided."}, True),
        (403, {"detail": "CSRF Failed: CSRF token missing."}, True),
    ],
)
def test_an_answer_that_may_change_keeps_the_capture(modules_page, status, body, login):
    """Server errors, timeouts, throttling and a lost session: kept, and sent again."""
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: [[arg.status, arg.body ?? undefined]] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        t.queue.add(fakes.capture("c2", { entry: "e2" }), "Table 1");
        await t.queue.flush();
        const kept = { ids: t.ids(), sent: t.sent(), login: t.queue.loginNeeded,
                       refused: t.refused.length, delays: t.timers.delays() };
        await t.timers.fire();
        return { kept, after: { ids: t.ids(), sent: t.sent(), login: t.queue.loginNeeded } };
        """,
        {"status": status, "body": body},
    )
    assert seen["kept"] == {
        "ids": ["c1", "c2"],
        "sent": ["c1"],  # the next waits: strictly in order
        "login": login,
        "refused": 0,
        "delays": [2000],
    }
    assert seen["after"] == {"ids": [], "sent": ["c1", "c1", "c2"], "login": False}


def test_a_refused_capture_leaves_with_what_followed_it_for_the_same_entry(modules_page):
    seen = run(
        modules_page,
        """
        const refusal = { detail: "The heat has not started." };
        const t = fakes.queue(Q, { answers: [[201, {}], [400, refusal]] });
        t.queue.add(fakes.capture("other-before", { entry: "e2" }), "Table 1");
        t.queue.add(fakes.capture("finish"), "Table 1");
        t.queue.add(fakes.capture("other-after", { entry: "e2", kind: "confirm" }), "Table 1");
        t.queue.add(fakes.capture("confirm", { kind: "confirm" }), "Table 1");
        await t.queue.flush();
        return { sent: t.sent(), refused: t.refused, answered: t.answered.map((a) => a.id),
                 ids: t.ids(), retrying: t.queue.retrying };
        """,
    )
    # The confirmation of a time the server refused is never sent; the other entry's are.
    assert seen["sent"] == ["other-before", "finish", "other-after"]
    assert seen["refused"] == [{"id": "finish", "message": "The heat has not started."}]
    assert seen["answered"] == ["other-before", "other-after"]
    assert seen["ids"] == []
    assert seen["retrying"] is False


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"detail": "Not found."}, "Not found."),
        (
            {"at": ["The time is after the limit."], "kind": "Unknown."},
            "The time is after the limit. Unknown.",
        ),
        ({}, "error 400"),
        (None, "error 400"),  # no JSON at all (a proxy's page)
    ],
)
def test_a_refusal_says_what_the_server_said(modules_page, body, message):
    refused = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: [[400, arg === null ? undefined : arg]] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        await t.queue.flush();
        return t.refused;
        """,
        body,
    )
    assert refused == [{"id": "c1", "message": message}]


def test_the_queue_is_sent_in_order_one_capture_at_a_time(modules_page):
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: ["wait", "wait", "wait"] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        const sending = t.queue.flush();
        t.queue.add(fakes.capture("c2", { kind: "confirm" }), "Table 1");
        t.queue.flush(); // a second flush while the first sends: nothing more is sent
        t.queue.flush();
        await fakes.settle();
        const inFlight = t.sent();
        const sendingId = t.queue.sendingId;
        t.server.release([201, {}]);
        await fakes.settle();
        const next = t.sent();
        t.queue.add(fakes.capture("c3"), "Table 1"); // tapped while c2 is on its way
        t.server.release([201, {}]);
        await fakes.settle();
        t.server.release([201, {}]);
        await sending;
        return { inFlight, sendingId, next, sent: t.sent(), answered: t.answered.map((a) => a.id),
                 ids: t.ids(), sendingAfter: t.queue.sendingId };
        """,
    )
    assert seen["inFlight"] == ["c1"]
    assert seen["sendingId"] == "c1"
    assert seen["next"] == ["c1", "c2"]
    assert seen["sent"] == ["c1", "c2", "c3"]
    assert seen["answered"] == ["c1", "c2", "c3"]
    assert seen["ids"] == []
    assert seen["sendingAfter"] is None


def test_a_capture_sent_again_is_the_same_capture(modules_page):
    """An answer lost on the way: the capture is sent again with its id, which the server
    stores once (tests/api covers the server's side)."""
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: ["down", [500, undefined], [201, {}]] });
        t.queue.add({ ...fakes.capture("c1"), missing_lost: 1 }, "Table 1");
        await t.queue.flush();
        await t.timers.fire();
        await t.timers.fire();
        const bodies = t.server.requests.map((r) => r.body);
        return { bodies, ids: t.ids(), answered: t.answered.length };
        """,
    )
    first, *again = seen["bodies"]
    assert len(again) == 2 and all(body == first for body in again)
    assert first["id"] == "c1" and first["missing_lost"] == 1
    assert seen["ids"] == [] and seen["answered"] == 1


def test_a_capture_another_page_sent_meanwhile_is_not_sent_again(modules_page):
    """Two tabs of the same table share the queue: one that finds it emptied sends nothing."""
    seen = run(
        modules_page,
        """
        const kept = fakes.storage();
        const tab = fakes.queue(Q, { storage: kept, answers: ["wait"] });
        tab.queue.add(fakes.capture("c1"), "Table 1");
        tab.queue.add(fakes.capture("c2"), "Table 1");
        const sending = tab.queue.flush();
        await fakes.settle();
        // The other tab sent both meanwhile.
        kept.setItem(fakes.QUEUE_KEY, "[]");
        tab.server.release([201, {}]);
        await sending;
        return { sent: tab.sent(), stored: tab.stored(), answered: tab.answered.map((a) => a.id) };
        """,
    )
    assert seen == {"sent": ["c1"], "stored": [], "answered": ["c1"]}


def test_the_network_coming_back_sends_at_once(modules_page):
    seen = run(
        modules_page,
        """
        const t = fakes.queue(Q, { answers: ["down", "down"] });
        t.queue.add(fakes.capture("c1"), "Table 1");
        await t.queue.flush();
        await t.timers.fire();
        const before = { delay: t.queue.retryDelay, timers: t.timers.delays() };
        t.queue.offline();
        const offline = t.queue.networkDown;
        t.queue.online();
        const online = { networkDown: t.queue.networkDown, delay: t.queue.retryDelay,
                         timers: t.timers.delays() };
        await t.queue.flush();
        return { before, offline, online, ids: t.ids() };
        """,
    )
    assert seen["before"] == {"delay": 8000, "timers": [4000]}
    assert seen["offline"] is True
    assert seen["online"] == {"networkDown": False, "delay": 2000, "timers": []}
    assert seen["ids"] == []


@pytest.mark.parametrize("broken", ["getItem", "setItem"])
def test_without_storage_the_queue_lives_in_memory(modules_page, broken):
    """Private mode or a full storage: the page keeps the queue for as long as it lives."""
    seen = run(
        modules_page,
        """
        const kept = fakes.storage();
        kept[arg] = () => {
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        };
        const t = fakes.queue(Q, { storage: kept, answers: ["down"] });
        const works = t.queue.storageWorks;
        t.queue.add(fakes.capture("c1"), "Table 1");
        t.queue.add(fakes.capture("c2"), "Table 1");
        await t.queue.flush();
        const waiting = { ids: t.ids(), works: t.queue.storageWorks };
        await t.timers.fire();
        return { works, waiting, ids: t.ids(), sent: t.sent() };
        """,
        broken,
    )
    assert seen["works"] is True
    assert seen["waiting"] == {"ids": ["c1", "c2"], "works": False}
    assert seen["ids"] == []
    assert seen["sent"] == ["c1", "c1", "c2"]


def test_what_is_not_a_capture_in_storage_is_left_out(modules_page):
    seen = run(
        modules_page,
        """
        const body = fakes.capture("c1");
        const good = { id: "c1", round: "final", entry: "e1", kind: "finish", body };
        const kept = fakes.storage({
          [fakes.QUEUE_KEY]: JSON.stringify([good, null, { id: "c2" }, { body: {} }, "c3"]),
        });
        const list = fakes.queue(Q, { storage: kept }).ids();
        const holding = (raw) =>
          fakes.queue(Q, { storage: fakes.storage({ [fakes.QUEUE_KEY]: raw }) });
        const notAList = holding("{}").ids();
        const garbled = holding("[{");
        return { list, notAList, garbled: garbled.ids(), garbledWorks: garbled.queue.storageWorks };
        """,
    )
    assert seen["list"] == ["c1"]
    assert seen["notAList"] == []
    assert seen["garbled"] == []
    assert seen["garbledWorks"] is False  # from then on in memory, as when storage fails


# Merging the server's state with the phone's -----------------------------------------------


def test_the_server_state_as_the_phone_keeps_it(modules_page):
    seen = run(
        modules_page,
        """
        const mine = M.serverFields(fakes.entry({
          step: "timed", result: fakes.finished(),
          finish: {
            ...fakes.myFinish(), found: 1, lost: 2, adjacent: 2, lastPieceMs: fakes.START + 310000,
          },
        }));
        const others = M.serverFields(fakes.entry({
          step: "review", result: fakes.finished(), finish: { ...fakes.myFinish(), mine: false },
        }));
        const corrected = M.serverFields(fakes.entry({
          step: "confirmed",
          result: fakes.finished({ missing_lost: 1, last_piece_ms: 305000, confirmed: true }),
          finish: fakes.myFinish(),
        }));
        const count = M.serverFields(fakes.entry({
          step: "counted", ownCount: 480,
          result: fakes.finished({ status: "unfinished", pieces_placed: 470, incorrect: true }),
        }));
        const pick = (s) => ({
          tapAt: s.tapAt, found: s.found, lost: s.lost, adjacent: s.adjacent,
          lastPieceAt: s.lastPieceAt, sent: s.sent, count: s.count, editable: s.editable,
          own: s.own,
        });
        return {
          mine: pick(mine), others: pick(others), corrected: pick(corrected), count: pick(count),
        };
        """,
    )
    start = 1746093600000
    assert seen["mine"] == {
        "tapAt": start + 300000,
        "found": 1,
        "lost": 2,
        "adjacent": 2,
        "lastPieceAt": start + 310000,
        "sent": {"found": 1, "lost": 2, "adjacent": 2, "lastPieceAt": start + 310000},
        "count": None,
        "editable": True,
        "own": False,
    }
    assert seen["others"]["tapAt"] is None and seen["others"]["editable"] is False
    # A confirmed result corrected since the tap: the result, not the tap, is the truth.
    assert seen["corrected"]["tapAt"] is None
    assert (seen["corrected"]["lost"], seen["corrected"]["lastPieceAt"]) == (1, start + 305000)
    # A count: this judge's own, not the first judge's the server leaves out.
    assert seen["count"]["count"] == {"placed": 480, "incorrect": True}


def test_a_newer_kept_state_is_where_a_kept_page_starts(modules_page):
    """The service worker shows the page of the last visit; the state heard since is newer."""
    seen = run(
        modules_page,
        """
        const page = fakes.config([fakes.entry()]);
        const review = fakes.entry({
          step: "review", result: fakes.finished(), finish: fakes.myFinish(),
        });
        const newer = { ...page, version: "v2", atMs: page.atMs + 1000, seats: [review] };
        const older = { ...newer, atMs: page.atMs - 1000 };
        const key = M.knownKey(page.stateUrl);
        const from = (saved) =>
          M.knownState(page, fakes.storage(saved === undefined ? {} : { [key]: saved }));
        const broken = { getItem() { throw new Error("denied"); } };
        const known = from(JSON.stringify(newer));
        const otherHeat = { ...newer, layout: "l2" };
        return {
          key,
          newer: known.version,
          older: from(JSON.stringify(older)).version,
          garbled: from("{").version,
          none: from(undefined).version,
          broken: M.knownState(page, broken).version,
          seat: M.startingSeats(page, known, "Table 1")
            .map((s) => [s.step, s.where, s.tapAt !== null]),
          otherHeat: M.startingSeats(page, otherHeat, "Table 1").map((s) => s.step),
        };
        """,
    )
    assert seen["key"] == "judging-table:/t/token/state/"
    assert seen["newer"] == "v2"
    assert seen["older"] == seen["garbled"] == seen["none"] == seen["broken"] == "v1"
    assert seen["seat"] == [["review", "Table 1 · Ingrid Hansen", True]]
    # Another heat took the table since: the page's own entries, as the page says.
    assert seen["otherHeat"] == ["puzzling"]


@pytest.mark.parametrize(
    ("second_count", "step"), [(False, "review"), (True, "counted")], ids=["one", "two-judges"]
)
def test_taps_waiting_in_the_queue_win_over_the_page_after_a_reload(
    modules_page, second_count, step
):
    seen = run(
        modules_page,
        """
        const seats = fakes.seats(M, [
          fakes.entry(),
          fakes.entry({ entry: "e2", name: "Ola", step: "timeup" }),
          fakes.entry({ entry: "e3", name: "Kari", step: "review", result: fakes.finished() }),
        ]);
        const item = (body) =>
          ({ id: body.id, round: body.round, entry: body.entry, kind: body.kind, body });
        const queued = [
          item({
            ...fakes.capture("f1"), at: "2025-05-01T10:04:59.500Z", missing_found: 1,
            missing_lost: 2, adjacent_missing: true, last_piece_at: "2025-05-01T10:05:10.000Z",
          }),
          item({
            ...fakes.capture("p1", { entry: "e2", kind: "pieces" }),
            pieces_placed: null, pieces_remaining: 20,
          }),
          item(fakes.capture("k1", { entry: "e3", kind: "confirm" })),
          item(fakes.capture("x1", { entry: "e9" })),  // an entry no longer at the table
        ];
        M.restoreFromQueue(seats, queued, { secondCount: arg });
        return seats.map((s) => ({
          step: s.step, own: s.own, tapAt: s.tapAt, found: s.found, lost: s.lost,
          adjacent: s.adjacent, lastPieceAt: s.lastPieceAt, count: s.count,
        }));
        """,
        second_count,
    )
    finish, count, confirm = seen
    assert finish == {
        "step": "timed",
        "own": True,
        "tapAt": 1746093899500,
        "found": 1,
        "lost": 2,
        "adjacent": 2,  # true, from an earlier release's queue: every lost piece
        "lastPieceAt": 1746093910000,
        "count": None,
    }
    assert count["step"] == step
    assert count["count"] == {"placed": 480, "remaining": 20, "incorrect": False}
    assert confirm["step"] == "confirmed"


def test_a_tap_waiting_in_the_queue_wins_over_stale_server_state(modules_page):
    seen = run(
        modules_page,
        """
        const [seat] = fakes.seats(M, [fakes.entry()]);
        seat.step = "timed";
        seat.own = true;
        seat.tapAt = fakes.START + 300000;
        // The server has not heard of the tap yet, and the organiser called time early.
        const stale = fakes.entry({
          calledMs: 600000, timeUpMs: fakes.START + 600000, heatState: "closing",
        });
        const taken = M.merge(seat, stale, { since: 0, pending: true, forced: false, typing: no });
        return { taken, step: seat.step, tapAt: seat.tapAt, calledMs: seat.calledMs,
                 timeUpMs: seat.timeUpMs, heatState: seat.heatState };
        """,
    )
    assert seen["taken"] == "kept"
    assert (seen["step"], seen["tapAt"]) == ("timed", 1746093900000)
    # The clock is the server's alone, whatever waits.
    assert (seen["calledMs"], seen["timeUpMs"]) == (600000, 1746094200000)
    assert seen["heatState"] == "closing"


def test_an_answer_to_a_question_asked_before_the_tap_was_stored_is_not_taken(modules_page):
    seen = run(
        modules_page,
        """
        const [seat] = fakes.seats(M, [fakes.entry()]);
        seat.step = "review";
        seat.own = true;
        seat.changed = 3; // the server stored the tap after the question (since 2) was sent
        const stale = fakes.entry();
        const options = { since: 2, pending: false, forced: false, typing: no };
        const before = M.merge(seat, stale, options);
        return { before, step: seat.step };
        """,
    )
    assert seen == {"before": "kept", "step": "review"}


def test_once_the_tap_is_stored_the_server_is_followed(modules_page):
    """A confirmed tap has left the queue; what the server says of it replaces the phone's."""
    seen = run(
        modules_page,
        """
        const [seat] = fakes.seats(M, [fakes.entry()]);
        seat.step = "confirmed";
        seat.own = true;
        seat.changed = 2;
        seat.refusal = null;
        seat.autoFound = true;
        const stored = fakes.entry({
          step: "confirmed", finish: fakes.myFinish(),
          result: fakes.finished({ confirmed: true, missing_found: 1 }),
        });
        const options = { since: 2, pending: false, forced: false, typing: no };
        const taken = M.merge(seat, stored, options);
        return { taken, step: seat.step, found: seat.found, own: seat.own,
                 autoFound: seat.autoFound, server: seat.server === stored,
                 corrected: seat.corrected };
        """,
    )
    assert seen == {
        "taken": "replaced",
        "step": "confirmed",
        "found": 1,
        "own": False,
        "autoFound": False,
        "server": True,
        "corrected": False,
    }


@pytest.mark.parametrize(
    ("phone", "server", "taken"),
    [
        # The judge is in the middle of something: the step stays, the result is noted.
        ({"step": "timed", "own": True}, {"step": "review"}, "noted"),
        ({"step": "review", "own": True}, {"step": "review"}, "noted"),
        ({"step": "timeup", "own": True}, {"step": "timeup"}, "noted"),
        # Nothing of this judge here: the server's step.
        ({"step": "puzzling", "own": False}, {"step": "review"}, "replaced"),
        ({"step": "timeup", "own": False}, {"step": "review"}, "replaced"),
        ({"step": "waiting", "own": False}, {"step": "puzzling"}, "replaced"),
        # Confirmed or out at the server is the end, whatever the judge was doing.
        ({"step": "review", "own": True}, {"step": "confirmed"}, "replaced"),
        ({"step": "timed", "own": True}, {"step": "out"}, "replaced"),
        # Waiting for another judge's count or the head judge: the server knows.
        ({"step": "counted", "own": True}, {"step": "review"}, "replaced"),
        ({"step": "counted", "own": True}, {"step": "counted"}, "noted"),
        ({"step": "disputed", "own": True}, {"step": "review"}, "replaced"),
    ],
)
def test_whose_step_counts(modules_page, phone, server, taken):
    seen = run(
        modules_page,
        """
        const [seat] = fakes.seats(M, [fakes.entry()]);
        Object.assign(seat, arg.phone);
        const result = ["review", "confirmed"].includes(arg.server.step) ? fakes.finished() : null;
        const data = fakes.entry({ ...arg.server, result });
        const taken = M.merge(seat, data, { since: 0, pending: false, forced: false, typing: no });
        return { taken, step: seat.step, result: seat.result, server: seat.server === data };
        """,
        {"phone": phone, "server": server},
    )
    assert seen["taken"] == taken
    assert seen["step"] == (server["step"] if taken == "replaced" else phone["step"])
    assert seen["server"] is True  # the server's state is what the next answer is compared with


def test_a_refused_capture_puts_the_entry_back_to_the_server_unless_the_judge_types(
    modules_page,
):
    seen = run(
        modules_page,
        """
        const [seat] = fakes.seats(M, [fakes.entry()]);
        const item = { id: "k1", round: "final", entry: "e1", kind: "confirm" };
        seat.step = "confirmed";
        seat.own = true;
        M.applyRefusal(seat, item, "The entrant is disqualified.");
        const refused = { step: seat.step, refusal: seat.refusal, saved: seat.saved };
        const data = fakes.entry({
          step: "review", result: fakes.finished(), finish: fakes.myFinish(),
        });
        const typing = M.merge(seat, data, { since: 0, pending: false, forced: true, typing: yes });
        const typingStep = seat.step;
        const left = M.merge(seat, data, { since: 0, pending: false, forced: true, typing: no });
        return { refused, typing, typingStep, left, step: seat.step, refusal: seat.refusal };
        """,
    )
    # Never "Confirmed" for a refused confirmation.
    assert seen["refused"] == {
        "step": "review",
        "refusal": "The entrant is disqualified.",
        "saved": False,
    }
    assert (seen["typing"], seen["left"]) == ("deferred", "replaced")
    assert seen["typingStep"] == "review"
    assert seen["step"] == "review"
    assert seen["refusal"] == "The entrant is disqualified.", "the refusal stays on screen"


def test_a_confirmed_result_that_changes_is_marked_corrected(modules_page):
    seen = run(
        modules_page,
        """
        const confirmed = fakes.entry({
          step: "confirmed", result: fakes.finished({ confirmed: true }),
        });
        const [seat] = fakes.seats(M, [confirmed]);
        const options = { since: 0, pending: false, forced: false, typing: no };
        const same = M.merge(seat, confirmed, options);
        const sameCorrected = Boolean(seat.corrected);
        const changed = fakes.entry({
          step: "confirmed",
          result: fakes.finished({ confirmed: true, final_seconds: 305, penalty_seconds: 5 }),
        });
        const taken = M.merge(seat, changed, options);
        return { same, sameCorrected, taken, corrected: seat.corrected,
                 final: seat.result.final_seconds };
        """,
    )
    assert (seen["same"], seen["sameCorrected"]) == ("noted", False)
    assert (seen["taken"], seen["corrected"], seen["final"]) == ("replaced", True, 305)


def test_the_servers_answer_to_a_capture_moves_the_entry_on(modules_page):
    seen = run(
        modules_page,
        """
        const answer = (step, item, body, pending = false) => {
          const [seat] = fakes.seats(M, [fakes.entry()]);
          seat.step = step;
          seat.tapAt = fakes.START + 300000;
          const refill = M.applyAnswer(seat, item, body, { pending });
          return { refill, step: seat.step, saved: seat.saved, countState: seat.countState,
                   result: seat.result, tapAt: seat.tapAt, count: seat.count };
        };
        const pieces = { id: "p1", kind: "pieces" };
        const count = (counted, state) =>
          ({ result: { status: "unfinished", counted_pieces: counted, count_state: state } });
        const agreed = count(480, "agreed");
        const disputed = count(null, "disputed");
        const stored = { result: { status: "finished", time: "0:05:00" } };
        return {
          finish: answer("review", { id: "f1", kind: "finish" }, stored),
          agreed: answer("counted", pieces, agreed),
          disputed: answer("counted", pieces, disputed),
          waiting: answer("counted", pieces, agreed, true),
          correction: answer(
            "confirmed", { id: "c1", kind: "correction" },
            { result: { status: "unfinished", counted_pieces: 470, incorrect: false } },
          ),
        };
        """,
    )
    finish = seen["finish"]
    assert (finish["refill"], finish["step"], finish["saved"]) == (False, "review", True)
    assert finish["result"] == {"status": "finished", "time": "0:05:00", "time_ms": 300000}
    assert (seen["agreed"]["step"], seen["agreed"]["countState"]) == ("review", "agreed")
    assert seen["disputed"]["step"] == "disputed"
    # Another capture of the entry still waits: not saved yet, and the step waits too.
    assert (seen["waiting"]["step"], seen["waiting"]["saved"]) == ("counted", False)
    correction = seen["correction"]
    assert correction["refill"] is True
    assert (correction["tapAt"], correction["count"]) == (None, {"placed": 470, "incorrect": False})


# Following the table's state ----------------------------------------------------------------

FOLLOWER = """
const follower = (entries, answers = [], options = {}) => {
  const page = fakes.config(entries);
  const seats = M.startingSeats(page, page, "Table 1");
  const net = fakes.server(answers);
  const clock = fakes.timers();
  const kept = fakes.storage();
  const told = { heat: [], replaced: [], followed: 0 };
  let queued = [];
  const f = M.createFollower({
    url: page.stateUrl, fetch: net.fetch, storage: kept,
    setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout,
    known: page, seats, loadQueue: () => queued,
    isVisible: () => true, isTyping: () => false,
    onHeatChange: (state) => told.heat.push(state.layout),
    onReplaced: (seat) => told.replaced.push(seat.entry),
    onFollowed: () => { told.followed += 1; },
    ...options,
  });
  return { f, seats, net, clock, kept, told, page, queue: (items) => { queued = items; },
           tags: () => net.requests.map((r) => r.options.headers["If-None-Match"]) };
};
"""


def follow(page, script: str, arg=None):
    return run(page, FOLLOWER + script, arg)


def test_the_phone_asks_with_the_version_it_has_and_takes_a_new_state_in(modules_page):
    seen = follow(
        modules_page,
        """
        const page = fakes.config([fakes.entry()]);
        const review = { ...page, version: "v2", atMs: page.atMs + 5000,
                         seats: [fakes.entry({ step: "review", result: fakes.finished() })] };
        const u = follower([fakes.entry()], [[304, undefined], [200, review], [304, undefined]]);
        await u.f.poll();
        const unchanged = { step: u.seats[0].step, followed: u.told.followed,
                            delays: u.clock.delays() };
        await u.f.poll();
        const kept = JSON.parse(u.kept.getItem(M.knownKey(u.page.stateUrl)));
        const changed = { step: u.seats[0].step, followed: u.told.followed,
                          replaced: u.told.replaced, kept: kept.version };
        await u.f.poll();
        return { unchanged, changed, tags: u.tags(), urls: u.net.requests.map((r) => r.url),
                 version: u.f.version };
        """,
    )
    assert seen["unchanged"] == {"step": "puzzling", "followed": 0, "delays": [4000]}
    assert seen["changed"] == {
        "step": "review",
        "followed": 1,
        "replaced": ["e1"],
        "kept": "v2",  # for a page kept by the service worker
    }
    assert seen["tags"] == ['"v1"', '"v1"', '"v2"']
    assert seen["urls"] == ["/t/token/state/"] * 3
    assert seen["version"] == "v2"


def test_the_phone_asks_less_often_while_the_network_is_down_and_not_while_hidden(
    modules_page,
):
    seen = follow(
        modules_page,
        """
        let visible = true;
        const answers = ["down", "down", "down", "down", "down", [304, undefined]];
        const t = follower([fakes.entry()], answers, { isVisible: () => visible });
        const delays = [];
        for (let i = 0; i < 6; i += 1) {
          await t.f.poll();
          delays.push(t.f.delay);
        }
        visible = false;
        await t.f.poll();
        const asked = t.net.requests.length;
        return { delays, asked };
        """,
    )
    assert seen["delays"] == [8000, 16000, 32000, 60000, 60000, 4000]
    assert seen["asked"] == 6, "a hidden page does not ask"


def test_a_tap_made_while_the_question_was_on_its_way_is_not_undone(modules_page):
    seen = follow(
        modules_page,
        """
        const t = follower([fakes.entry()], ["wait"]);
        const asking = t.f.poll();
        await fakes.settle();
        // The judge taps TIME; the server stores it before the state's answer comes.
        const seat = t.seats[0];
        seat.step = "timed";
        seat.own = true;
        seat.changed = t.f.changed();
        t.f.refreshSoon();
        t.net.release([200, { ...t.page, version: "v2", seats: [fakes.entry()] }]);
        await asking;
        return { step: seat.step, replaced: t.told.replaced, followed: t.told.followed,
                 delays: t.clock.delays() };
        """,
    )
    assert seen["step"] == "timed"
    assert seen["replaced"] == []
    assert seen["followed"] == 1
    assert seen["delays"] == [0], "asked again at once for the state after the tap"


def test_a_refused_tap_puts_the_entry_back_from_the_state_it_already_has(modules_page):
    """Unchanged (304) since the last answer: the entry goes back to that answer."""
    seen = follow(
        modules_page,
        """
        const t = follower([fakes.entry()], [[304, undefined]]);
        const seat = t.seats[0];
        seat.step = "timed";
        seat.own = true;
        M.applyRefusal(seat, { kind: "finish" }, "The heat has not started.");
        seat.changed = t.f.changed();
        t.f.force(seat);
        await t.f.poll();
        const first = { step: seat.step, replaced: t.told.replaced.slice() };
        seat.step = "timed"; // no longer forced: a 304 changes nothing
        await t.f.poll();
        return { first, step: seat.step, asked: t.net.requests.length };
        """,
    )
    assert seen["first"] == {"step": "puzzling", "replaced": ["e1"]}
    assert seen["step"] == "timed"
    assert seen["asked"] == 2


def test_an_answer_held_back_while_the_judge_types_is_taken_in_afterwards(modules_page):
    seen = follow(
        modules_page,
        """
        let typing = true;
        const confirmed = fakes.entry({
          step: "confirmed", result: fakes.finished({ confirmed: true }),
        });
        const state = { ...fakes.config([confirmed]), version: "v2" };
        const t = follower([fakes.entry()], [[200, state]], { isTyping: () => typing });
        t.f.force(t.seats[0]);
        await t.f.poll();
        const held = { step: t.seats[0].step, deferred: t.f.deferred };
        t.f.resume(); // the field is left, but the judge is still typing in another one
        typing = false;
        t.f.resume();
        return { held, step: t.seats[0].step, deferred: t.f.deferred, replaced: t.told.replaced };
        """,
    )
    assert seen["held"] == {"step": "puzzling", "deferred": True}
    assert seen["step"] == "confirmed"
    assert seen["deferred"] is False
    assert seen["replaced"] == ["e1"]


def test_other_entrants_at_the_table_are_told_and_waiting_taps_are_kept(modules_page):
    seen = follow(
        modules_page,
        """
        const t = follower([fakes.entry()]);
        const seat = t.seats[0];
        seat.step = "timed";
        const body = fakes.capture("f1");
        t.queue([{ id: "f1", round: "final", entry: "e1", kind: "finish", body }]);
        const entries = [
          fakes.entry({ step: "review" }),
          fakes.entry({ entry: "e7", name: "Per" }),
        ];
        const next = { ...t.page, version: "v3", layout: "l2", seats: entries };
        t.f.follow(next, 0);
        return { heat: t.told.heat, step: seat.step, seats: t.seats.length };
        """,
    )
    assert seen == {"heat": ["l2"], "step": "timed", "seats": 1}


# The page itself -----------------------------------------------------------------------------


@pytest.fixture
def table(db):
    championship = factories.championship(slug="rm-modules", name="RM modules")
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    table = factories.table(championship)
    entry = factories.entry(individual, name="Ingrid Hansen")
    heat = factories.heat(round_)
    Seat.objects.create(heat=heat, table=table, entry=entry)
    heat = rounds.heat_start(heat=heat)
    heat.started_at = timezone.now() - timedelta(minutes=5)
    heat.save()
    factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    return table


CSP_WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.mark.django_db(transaction=True)
def test_the_judges_page_runs_its_modules_under_the_csp(phone, live_server, table):
    problems = []
    phone.on("pageerror", lambda error: problems.append(f"error: {error}"))
    phone.on(
        "console",
        lambda message: (
            problems.append(f"console: {message.text}") if message.type == "error" else None
        ),
    )
    phone.add_init_script(CSP_WATCH)
    phone.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}]
    )
    path = table.get_absolute_url()
    phone.goto(f"{live_server.url}{path}")
    phone.fill("input[name=username]", "judy")
    phone.fill("input[name=password]", PASSWORD)
    phone.locator("form button[type=submit].primary").click()
    phone.wait_for_url(f"{live_server.url}{path}")
    response = phone.reload()
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in response.headers["content-security-policy"].split(";")
    )
    assert policy["script-src"] == "'self'"

    scripts = phone.eval_on_selector_all(
        "script[src]", "nodes => nodes.map((n) => [n.getAttribute('type'), n.src])"
    )
    assert ["module", f"{live_server.url}/static/judging/judge/main.js"] in scripts
    expect(phone.locator("[data-clock-state]")).to_contain_text("±")  # the clock is measured
    loaded = phone.evaluate(
        "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
    )
    for name in MODULES:
        assert f"/static/judging/judge/{name}.js" in loaded

    phone.get_by_role("button", name="TIME", exact=True).click()
    expect(phone.locator("[data-save-state]")).to_have_text("saved")
    assert Capture.objects.get().kind == "finish"
    folder = os.environ.get("JUDGING_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        phone.screenshot(path=os.path.join(folder, "modules-after-time.png"), full_page=True)
    assert phone.evaluate("window.__violations") == []
    assert problems == []


# The modules as production serves them --------------------------------------------------------


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """The static files collected as in production (DEBUG off, the manifest storage)."""
    root = tmp_path_factory.mktemp("collected")
    manage(server_env("sqlite:///:memory:", "", root), "collectstatic", "--noinput")
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    return root, manifest


def test_the_collected_modules_load_each_other(chromium, collected):
    root, manifest = collected
    main = manifest["judging/judge/main.js"]
    assert main != "judging/judge/main.js", "production serves a hashed main.js"
    seen = []
    page = chromium.new_page()
    try:
        page.route(f"{ORIGIN}/**", serve_from(root, seen))
        page.goto(f"{ORIGIN}/")
        addresses = page.evaluate("async (url) => (await import(url)).MODULES", f"/static/{main}")
    finally:
        page.close()
    assert seen, "the collected main.js was loaded"
    assert all(status == 200 for _, status in seen), seen
    assert seen[0] == (main, 200)
    # What main.js loaded is what the service worker is asked to keep.
    loaded = {name for name, _ in seen}
    assert {urlparse(address).path.removeprefix("/static/") for address in addresses} == loaded


IMPORT_FROM = re.compile(
    r"""^(?:import|export)\b[^;]*?\bfrom\s*["'](\./[^"']+)["'];""", re.M | re.S
)


def test_the_collected_modules_load_each_other_by_their_hashed_names(collected):
    root, manifest = collected
    imports = {}
    for name in MODULES:
        hashed = manifest[f"judging/judge/{name}.js"]
        text = (root / hashed).read_text()
        imports[name] = [f"judging/judge/{spec[2:]}" for spec in IMPORT_FROM.findall(text)]
    assert imports["main"], "main.js loads the other modules"
    hashed_names = {manifest[f"judging/judge/{name}.js"] for name in MODULES}
    unhashed = {
        name: [i for i in found if i not in hashed_names] for name, found in imports.items()
    }
    assert unhashed == {name: [] for name in MODULES}
