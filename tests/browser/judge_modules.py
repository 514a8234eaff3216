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

import mimetypes
from pathlib import Path
from urllib.parse import urlparse

STATIC = Path(__file__).parents[2] / "static"
# A made-up origin whose requests the tests answer themselves: a real http page, with its
# own localStorage, where modules may load each other.
ORIGIN = "http://judge-modules.test"

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


def run(page, script: str, arg=None):
    """Run ``script``: the body of an async function of Q (queue.js), M (merge.js) and ``arg``."""
    return page.evaluate(
        f"async (arg) => {{ const {{ Q, M }} = await fakes.modules(); const {{ yes, no }} = fakes; "
        f"{script} }}",
        arg,
    )
