/*
 * The judge's phone at a table: stop the time on "TIME", never lose a tap.
 *
 * This module wires the page together: the queue of captures (queue.js), following
 * the server's state of the table (merge.js), drawing the page (render.js), and what
 * the judge does (the actions below), with the events and timers of the page.
 *
 * Instants are the phone's clock corrected by its offset to the server's clock,
 * measured NTP-style against /api/v1/time/ (server_clock.js, window.ServerClock).
 *
 * Missing pieces: the finish is sent at once, at the tap, with no missing pieces,
 * so that the instant is on the server even if the phone dies; when the judge
 * then presses "Show the entrant" with missing pieces (or dm's last piece), a
 * second finish with the same instant and the counts is sent. The service lets
 * the same judge record again before confirmation and the latest finish counts,
 * and the queue is sent strictly in order, so the second one always wins. That is
 * simpler and more robust than holding the finish back until the entrant sees it.
 *
 * Other entrants at the table (a new heat) mean a new page: loaded at once when
 * nothing waits and nothing is half done, otherwise offered with a banner.
 *
 * When the network is down, a reload is answered by the service worker (/t/sw.js)
 * with the page kept from the last visit, its scripts and these modules with it.
 *
 * At a shared table both entrants' TIME buttons are side by side; a tap records
 * that entrant's finish and opens its screen (the address says which, #seat-N),
 * with the other entrant's clock and TIME button above it.
 *
 * The page's data come from json_script blocks: "judge-config" (the table's
 * entries and addresses), "judge-rules", "judge-strings" (translated texts).
 */

import { address as queueAddress, createQueue, queuedFor } from "./queue.js";
import {
  address as mergeAddress,
  afterCount,
  applyAnswer,
  applyRefusal,
  createFollower,
  knownState,
  POLL_EVERY_MS,
  restoreFromQueue,
  seatOf,
  startingSeats,
} from "./merge.js";
import { address as renderAddress, attemptOf, createView, fillCounts, q, qa } from "./render.js";
import { address as textAddress, csrfToken, fill, intOrNull, iso, parseDuration, uuid4 } from "./text.js";

const CLOCK_SAMPLES = 5;
const CLOCK_EVERY_MS = 4 * 60 * 1000;
const RETRY_SAFETY_MS = 15000;

// The files of this page's modules, as loaded (hashed in production), for the service worker.
export const MODULES = [import.meta.url, queueAddress, mergeAddress, renderAddress, textAddress];

// localStorage, reached only when used: a browser that forbids it throws there, not here.
const storage = {
  getItem: (key) => window.localStorage.getItem(key),
  setItem: (key, value) => window.localStorage.setItem(key, value),
};

const configNode = document.getElementById("judge-config");
if (configNode) start(JSON.parse(configNode.textContent));

function start(config) {
  const rules = JSON.parse(document.getElementById("judge-rules").textContent);
  const strings = JSON.parse(document.getElementById("judge-strings").textContent);
  const Rules = window.PuzzleRules;
  const clock = window.ServerClock;

  function now() {
    return clock.now();
  }

  async function measureClock() {
    await clock.measure(config.timeUrl, CLOCK_SAMPLES);
    view.renderClockState();
  }

  // The entries at the table ---------------------------------------------------------------

  const tableNode = document.querySelector(".table-number");
  const tableName = tableNode ? tableNode.textContent.trim() : "";
  const known = knownState(config, storage);
  const seats = startingSeats(config, known, tableName).map((seat) =>
    Object.assign(seat, {
      element: document.querySelector(`[data-seat="${seat.index}"]`),
      lane: document.querySelector(`[data-lane="${seat.index}"]`),
    })
  );
  const page = {
    // Another heat than the page's took the table since the page was made.
    newHeat: known.layout !== config.layout,
    // Refused captures of entries no longer on this page.
    refusalsElsewhere: [],
  };

  const queue = createQueue({
    key: config.queueKey,
    storage,
    fetch: (url, options) => window.fetch(url, options),
    url: config.captureUrl,
    csrfToken: () => csrfToken(document),
    setTimeout: (callback, delay) => window.setTimeout(callback, delay),
    clearTimeout: (timer) => window.clearTimeout(timer),
    now: () => Date.now(),
    errorText: (status) => fill(strings.error, { status }),
    onChange: () => view.renderAll(),
    onAnswered: answered,
    onRefused: refused,
  });

  const view = createView({ document, navigator, config, rules, strings, Rules, clock, seats, queue, page });

  const follower = createFollower({
    url: config.stateUrl,
    fetch: (url, options) => window.fetch(url, options),
    storage,
    setTimeout: (callback, delay) => window.setTimeout(callback, delay),
    clearTimeout: (timer) => window.clearTimeout(timer),
    known,
    seats,
    loadQueue: () => queue.load(),
    isVisible: () => document.visibilityState !== "hidden",
    isTyping: (seat) => view.typing(seat),
    onHeatChange: heatChanged,
    onReplaced: (seat) => {
      fillCounts(seat);
      const details = q(seat, "details.correct");
      if (seat.step === "confirmed" && !(details && details.open)) view.fillCorrection(seat);
    },
    onFollowed: () => view.renderAll(),
  });

  function enqueue(seat, body) {
    const item = queue.add(body, seat.where);
    seat.saved = false;
    view.renderAll();
    queue.flush();
    return item;
  }

  // Other entrants at the table: a new page, at once when nothing would be lost or cut short.
  function heatChanged(state) {
    // The heat here is over and no other has come: the page keeps showing how it ended.
    if (!state.seats.length && seats.length) return;
    page.newHeat = true;
    if (!queue.load().length && !seats.some(view.busy)) window.location.reload();
  }

  // What the server said -------------------------------------------------------------------

  function answered(item, body) {
    const seat = seatOf(seats, item);
    if (!seat) return;
    seat.changed = follower.changed();
    follower.refreshSoon();
    const pending = queuedFor(seat, queue.load()).length > 0;
    if (applyAnswer(seat, item, body, { pending })) view.fillCorrection(seat);
  }

  function refused(item, message) {
    const seat = seatOf(seats, item);
    if (!seat) {
      page.refusalsElsewhere.push(`${item.where}: ${message}`);
      return;
    }
    applyRefusal(seat, item, message);
    seat.changed = follower.changed();
    follower.force(seat);
    follower.refreshSoon();
    if (item.kind === "correction") {
      const error = q(seat, "[data-correct-error]");
      if (error) {
        error.textContent = message;
        error.hidden = false;
      }
    }
  }

  // What the judge does --------------------------------------------------------------------

  function finishBody(seat) {
    return {
      id: uuid4(),
      round: seat.round,
      entry: seat.entry,
      kind: "finish",
      at: iso(seat.tapAt),
      missing_found: seat.found,
      missing_lost: seat.lost,
      adjacent_missing: seat.adjacent,
      last_piece_at: seat.lastPieceAt !== null ? iso(seat.lastPieceAt) : null,
    };
  }

  function sameAsSent(seat) {
    const sent = seat.sent;
    return (
      sent &&
      sent.found === seat.found &&
      sent.lost === seat.lost &&
      sent.adjacent === seat.adjacent &&
      sent.lastPieceAt === seat.lastPieceAt
    );
  }

  function readCounts(seat) {
    const foundInput = q(seat, '[data-field="found"]');
    const found = foundInput ? intOrNull(foundInput.value) : 0;
    const lost = intOrNull(q(seat, '[data-field="lost"]').value);
    seat.found = Number.isInteger(found) ? Math.min(found, seat.pieces) : 0;
    seat.lost = Number.isInteger(lost) ? Math.min(lost, seat.pieces) : 0;
    const adjacent = q(seat, '[data-field="adjacent"]');
    const count = adjacent ? intOrNull(adjacent.value) : 0;
    seat.adjacent = Number.isInteger(count) ? count : 0;
  }

  const actions = {
    time(seat) {
      const tapAt = now(); // first: the instant is what counts
      seat.tapAt = tapAt;
      seat.found = 0;
      seat.lost = 0;
      seat.adjacent = 0;
      seat.lastPieceAt = null;
      seat.autoFound = false;
      seat.count = null;
      seat.refusal = null;
      seat.editable = true;
      seat.step = "timed";
      fillCounts(seat);
      const body = finishBody(seat);
      seat.sent = { found: 0, lost: 0, adjacent: 0, lastPieceAt: null };
      enqueue(seat, body);
    },
    "last-piece"(seat) {
      readCounts(seat);
      seat.lastPieceAt = now();
      if (seat.found === 0) {
        // The last piece was missing at TIME and turned up: it counts as found later.
        seat.found = 1;
        seat.autoFound = true;
      }
      fillCounts(seat);
      view.renderSeat(seat, queue.load());
    },
    "not-found"(seat) {
      readCounts(seat);
      seat.lastPieceAt = null;
      if (seat.autoFound && seat.found > 0) {
        seat.found -= 1;
        seat.lost += 1;
      }
      seat.autoFound = false;
      fillCounts(seat);
      view.renderSeat(seat, queue.load());
    },
    show(seat) {
      readCounts(seat);
      const error = q(seat, "[data-timed-error]");
      const decided = Rules.outcome(attemptOf(seat, seat.tapAt - seat.startMs), rules, seat.pieces, seat.limitMs, seat.calledMs);
      if (decided.error) {
        error.textContent = view.problemText(decided.error, seat);
        error.hidden = false;
        return;
      }
      error.hidden = true;
      seat.step = "review";
      if (!sameAsSent(seat)) {
        seat.sent = { found: seat.found, lost: seat.lost, adjacent: seat.adjacent, lastPieceAt: seat.lastPieceAt };
        enqueue(seat, finishBody(seat));
      } else {
        view.renderAll();
      }
    },
    misplaced(seat) {
      seat.misplacedAtTime = true;
      seat.step = "timeup";
      const box = q(seat, '[data-field="incorrect"]');
      if (box) box.checked = true;
      view.renderSeat(seat, queue.load());
    },
    "show-count"(seat) {
      const error = q(seat, "[data-count-error]");
      const mode = (qa(seat, '[data-field="mode"]').find((r) => r.checked) || {}).value || "remaining";
      const value = intOrNull(q(seat, `[data-field="${mode}"]`).value);
      if (!Number.isInteger(value) || value > seat.pieces) {
        error.textContent = strings.countNeeded;
        error.hidden = false;
        return;
      }
      error.hidden = true;
      const incorrect = q(seat, '[data-field="incorrect"]').checked;
      const placed = mode === "placed" ? value : seat.pieces - value;
      if (!Rules.plausibleCount(placed, seat.pieces, rules.counted_cluster_min_pieces)) {
        error.textContent = view.problemText(mode === "placed" ? "pieces_implausible" : "remaining_implausible", seat);
        error.hidden = false;
        return;
      }
      seat.count = { placed, remaining: mode === "remaining" ? value : null, incorrect };
      seat.refusal = null;
      seat.step = afterCount(incorrect ? "incorrect" : "pieces", config.secondCount);
      enqueue(seat, {
        id: uuid4(),
        round: seat.round,
        entry: seat.entry,
        kind: incorrect ? "incorrect" : "pieces",
        at: iso(now()),
        pieces_placed: mode === "placed" ? value : null,
        pieces_remaining: mode === "remaining" ? value : null,
      });
    },
    edit(seat) {
      seat.step = seat.count ? "timeup" : "timed";
      if (seat.step === "timed") fillCounts(seat);
      view.renderSeat(seat, queue.load());
    },
    confirm(seat) {
      seat.step = "confirmed";
      enqueue(seat, { id: uuid4(), round: seat.round, entry: seat.entry, kind: "confirm", at: iso(now()) });
      view.fillCorrection(seat);
    },
    reload() {
      window.location.reload();
    },
  };

  function correct(seat, form) {
    const error = q(seat, "[data-correct-error]");
    const fail = (message) => {
      error.textContent = message;
      error.hidden = false;
    };
    const time = form.elements.time.value.trim();
    if (time && parseDuration(time) === null) return fail(strings.badTime);
    const reason = form.elements.reason.value.trim();
    if (!reason) return fail(strings.reasonNeeded);
    const found = form.elements.missing_found ? intOrNull(form.elements.missing_found.value) : 0;
    const lost = intOrNull(form.elements.missing_lost.value);
    const adjacent = form.elements.adjacent_missing ? intOrNull(form.elements.adjacent_missing.value) : 0;
    const placed = intOrNull(form.elements.pieces_placed.value);
    if ([found, lost, adjacent, placed].some((value) => Number.isNaN(value))) return fail(strings.countNeeded);
    if (placed !== null && !Rules.plausibleCount(placed, seat.pieces, rules.counted_cluster_min_pieces)) {
      return fail(view.problemText("pieces_implausible", seat));
    }
    error.hidden = true;
    seat.refusal = null;
    seat.found = found || 0;
    seat.lost = lost || 0;
    seat.adjacent = adjacent || 0;
    enqueue(seat, {
      id: uuid4(),
      round: seat.round,
      entry: seat.entry,
      kind: "correction",
      at: iso(now()),
      time: time || null,
      missing_found: seat.found,
      missing_lost: seat.lost,
      adjacent_missing: seat.adjacent,
      pieces_placed: placed,
      reason,
    });
    form.elements.reason.value = "";
    form.closest("details").open = false;
  }

  // Keep this page and its files for a reload while the venue's network is down.
  function keepForOffline() {
    // Browsers run service workers on https (and localhost) only: on plain http (a venue's
    // network) there is no reload without network, and the page says so. Taps are queued
    // in localStorage all the same (queue.js), so nothing of the judge's is lost.
    const insecureNote = document.querySelector("[data-insecure-note]");
    if (insecureNote) insecureNote.hidden = Boolean(window.isSecureContext);
    if (!("serviceWorker" in navigator) || !config.serviceWorkerUrl) return;
    const answeredByWorker = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker
      .register(config.serviceWorkerUrl)
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        // A page the worker answered is kept already; this first one the worker never saw.
        if (answeredByWorker || !registration.active) return;
        const files = Array.from(
          document.querySelectorAll("script[src], link[rel~='stylesheet'][href], link[rel~='icon'][href]"),
          (node) => node.src || node.href
        );
        // The modules a module script loads are in no tag of the page.
        const modules = MODULES.filter((href) => !files.includes(href));
        registration.active.postMessage({ keep: [window.location.href, ...files, ...modules] });
      })
      .catch(() => {
        /* no service worker (plain http at a venue): the page works as before, online */
      });
  }

  // Wiring ---------------------------------------------------------------------------------

  for (const seat of seats) {
    seat.element.addEventListener("click", (event) => {
      const stepper = event.target.closest("[data-step-field]");
      if (stepper) {
        const input = q(seat, `[data-field="${stepper.dataset.stepField}"]`);
        const value = Math.max(0, Math.min(seat.pieces, (intOrNull(input.value) || 0) + Number(stepper.dataset.delta)));
        input.value = value;
        readCounts(seat);
        return;
      }
      const button = event.target.closest("[data-action]");
      if (!button || !actions[button.dataset.action]) return;
      event.preventDefault();
      seat.own = true;
      actions[button.dataset.action](seat);
    });
    seat.element.addEventListener("change", (event) => {
      const field = event.target.dataset.field;
      if (field === "mode") {
        for (const box of qa(seat, "[data-mode-field]")) box.hidden = box.dataset.modeField !== event.target.value;
      } else if (field === "found" || field === "lost" || field === "adjacent") {
        readCounts(seat);
      }
    });
    seat.element.addEventListener("input", (event) => {
      seat.own = true;
      const field = event.target.dataset.field;
      if (field === "piles" || field === "loose") {
        const piles = intOrNull(q(seat, '[data-field="piles"]').value) || 0;
        const loose = intOrNull(q(seat, '[data-field="loose"]').value) || 0;
        q(seat, '[data-field="remaining"]').value = piles * 10 + loose;
      }
    });
    const form = q(seat, "[data-correct-form]");
    if (form) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        correct(seat, form);
      });
    }
  }

  // A shared table: both entrants' TIME side by side; a tap on one records the finish and
  // opens that entrant's screen (#seat-N), the other entrant's lane staying above it.
  const lanes = document.querySelector("[data-lanes]");
  const lanesBack = document.querySelector("[data-lanes-back]");

  function chosenSeat() {
    const match = /^#seat-(\d+)$/.exec(window.location.hash);
    const index = match ? Number(match[1]) - 1 : -1;
    return index >= 0 && index < seats.length ? index : -1;
  }

  function route() {
    if (!lanes) return;
    const chosen = chosenSeat();
    lanes.classList.toggle("is-focused", chosen >= 0);
    lanesBack.hidden = chosen < 0;
    seats.forEach((seat, index) => {
      seat.element.hidden = index !== chosen;
      seat.lane.hidden = index === chosen;
    });
    window.scrollTo(0, 0);
  }

  function openSeat(seat) {
    const hash = `#seat-${seat.index + 1}`;
    if (window.location.hash !== hash) window.history.pushState(null, "", hash);
    route();
  }

  if (lanes) {
    window.addEventListener("hashchange", route);
    window.addEventListener("popstate", route);
    lanes.addEventListener("click", (event) => {
      const button = event.target.closest("[data-lane-time]");
      if (!button) return;
      event.preventDefault();
      const seat = seats[Number(button.dataset.laneTime)];
      if (!seat || seat.step !== "puzzling") return;
      seat.own = true;
      actions.time(seat);
      openSeat(seat);
    });
    lanesBack.addEventListener("click", (event) => {
      event.preventDefault();
      window.history.pushState(null, "", window.location.pathname + window.location.search);
      route();
    });
    // The other entrant's lane sticks right under the bar of what is saved, however tall.
    const bar = document.querySelector(".judge-bar");
    if (bar && "ResizeObserver" in window) {
      new ResizeObserver(() => {
        document.documentElement.style.setProperty("--judge-bar-height", `${bar.offsetHeight}px`);
      }).observe(bar);
    }
    route();
  }

  window.addEventListener("online", () => {
    queue.online();
    view.renderAll();
    queue.flush();
    measureClock();
  });
  window.addEventListener("offline", () => {
    queue.offline();
    view.renderAll();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") queue.flush();
  });
  window.addEventListener("storage", (event) => {
    if (event.key === config.queueKey) view.renderAll();
  });

  window.addEventListener("online", () => follower.online());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") follower.refreshSoon();
  });
  // An answer held back while the judge typed is taken in when the field is left.
  document.addEventListener("focusout", () => {
    window.setTimeout(() => follower.resume(), 0);
  });
  const newHeatButton = document.querySelector("[data-new-heat-show]");
  if (newHeatButton) newHeatButton.addEventListener("click", () => window.location.reload());

  restoreFromQueue(seats, queue.load(), { secondCount: config.secondCount });
  seats.forEach((seat) => {
    if (seat.step === "timed") fillCounts(seat);
    if (seat.step === "confirmed") view.fillCorrection(seat);
  });
  view.renderAll();
  view.renderClockState();
  view.tick();
  window.setInterval(() => view.tick(), 250);
  window.setInterval(() => {
    if (queue.load().length) queue.flush();
  }, RETRY_SAFETY_MS);
  window.setInterval(measureClock, CLOCK_EVERY_MS);
  // Send what an earlier visit left in the queue, and measure the clock.
  queue.flush();
  measureClock();
  follower.schedule(POLL_EVERY_MS);
  keepForOffline();
}
