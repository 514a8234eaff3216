/*
 * The judge's phone at a table: stop the time on "TIME", never lose a tap.
 *
 * Every capture (a tap on TIME, a piece count, a confirmation, a correction) is
 * written to a queue in localStorage, one queue per championship, BEFORE it is
 * sent; it leaves the queue only when the server has stored it (201) or refused
 * it (4xx, shown to the judge). Network failures and server errors keep it, and
 * it is sent again when the network returns, on a timer with backoff, and on the
 * next page load. Each capture carries a UUID made on the phone, so the server
 * stores a capture sent twice only once: resending is always safe.
 *
 * Instants are the phone's clock corrected by its offset to the server's clock,
 * measured NTP-style against /api/v1/time/.
 *
 * Missing pieces: the finish is sent at once, at the tap, with no missing pieces,
 * so that the instant is on the server even if the phone dies; when the judge
 * then presses "Show the entrant" with missing pieces (or dm's last piece), a
 * second finish with the same instant and the counts is sent. The service lets
 * the same judge record again before confirmation and the latest finish counts,
 * and the queue is sent strictly in order, so the second one always wins. That is
 * simpler and more robust than holding the finish back until the entrant sees it.
 *
 * Following the heat: while the page is visible it asks the table's state
 * (config.stateUrl, answered 304 while nothing changed) every few seconds, with
 * backoff when the network is down. What the server says updates the entries in
 * place (a start, a time-up called early, a result recorded or corrected
 * elsewhere), but never an entry with something of this phone still in the queue
 * or answered after the question was sent, never a step the judge is in the
 * middle of, never a field the judge is typing in. Other entrants at the table (a
 * new heat) mean a new page: loaded at once when nothing waits and nothing is
 * half done, otherwise offered with a banner. A refused capture puts its entry
 * back to what the server says, so a refused confirmation never stays
 * "Confirmed"; "Confirmed" shows only once the server has stored it.
 *
 * Two judges counting (config.secondCount): a piece count at time-up waits for a
 * second judge's count ("counted"), who counts without seeing the first one (the
 * server leaves it out of the state it sends them); equal counts go on to the
 * entrant's confirmation, different ones to the head judge ("disputed").
 *
 * When the network is down, a reload is answered by the service worker
 * (/t/sw.js) with the page kept from the last visit; the last state heard from the
 * server is kept in localStorage, and a kept page older than it starts from it.
 *
 * At a shared table both entrants' TIME buttons are side by side; a tap records
 * that entrant's finish and opens its screen (the address says which, #seat-N),
 * with the other entrant's clock and TIME button above it.
 *
 * Texts come translated from the page (json_script "judge-strings"), the rules
 * from "judge-rules", the table's entries from "judge-config". What an attempt
 * comes to is decided by rules.js (window.PuzzleRules), the same rules as the
 * server's.
 */
(function () {
  "use strict";

  const configNode = document.getElementById("judge-config");
  if (!configNode) return;
  const config = JSON.parse(configNode.textContent);
  const rules = JSON.parse(document.getElementById("judge-rules").textContent);
  const strings = JSON.parse(document.getElementById("judge-strings").textContent);
  const Rules = window.PuzzleRules;

  const CLOCK_SAMPLES = 5;
  const CLOCK_EVERY_MS = 4 * 60 * 1000;
  const RETRY_FIRST_MS = 2000;
  const RETRY_MAX_MS = 30000;
  const RETRY_SAFETY_MS = 15000;
  const POLL_EVERY_MS = 4000;
  const POLL_MAX_MS = 60000;

  // Small helpers ------------------------------------------------------------------------------

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }

  // A counted message: its form for one or for more (the server sends both), filled in.
  function counted(forms, count, values) {
    return fill(count === 1 ? forms.one : forms.other, { count, ...values });
  }

  function duration(ms) {
    if (ms === null || ms === undefined || !Number.isFinite(ms)) return "–";
    return ServerClock.duration(ms);
  }

  function parseDuration(text) {
    const match = /^\s*(\d+):([0-5]\d):([0-5]\d)\s*$/.exec(text || "");
    if (!match) return null;
    return ((Number(match[1]) * 60 + Number(match[2])) * 60 + Number(match[3])) * 1000;
  }

  function iso(ms) {
    return new Date(ms).toISOString();
  }

  function intOrNull(value) {
    if (value === "" || value === null || value === undefined) return null;
    const number = Number(value);
    return Number.isInteger(number) && number >= 0 ? number : NaN;
  }

  function uuid4() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    // randomUUID needs a secure context; a venue's server on plain http has none.
    const bytes = new Uint8Array(16);
    if (window.crypto && window.crypto.getRandomValues) {
      window.crypto.getRandomValues(bytes);
    } else {
      for (let i = 0; i < 16; i += 1) bytes[i] = Math.floor(Math.random() * 256);
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function csrfToken() {
    const cookie = document.cookie
      .split(";")
      .map((part) => part.trim())
      .find((part) => part.startsWith("csrftoken="));
    if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // The clock: the phone's, corrected by its offset to the server's (server_clock.js) -------

  function now() {
    return ServerClock.now();
  }

  async function measureClock() {
    await ServerClock.measure(config.timeUrl, CLOCK_SAMPLES);
    renderClockState();
  }

  function renderClockState() {
    const node = document.querySelector("[data-clock-state]");
    if (!node) return;
    node.textContent =
      ServerClock.rtt === null ? strings.clockUnknown : fill(strings.clockOffset, { ms: Math.ceil(ServerClock.rtt / 2) });
  }

  // The queue, kept in localStorage ------------------------------------------------------------

  let storageWorks = true;
  let memoryQueue = [];

  function loadQueue() {
    if (storageWorks) {
      try {
        const raw = localStorage.getItem(config.queueKey);
        const queue = raw ? JSON.parse(raw) : [];
        return Array.isArray(queue) ? queue.filter((item) => item && item.body && item.id) : [];
      } catch (error) {
        storageWorks = false;
      }
    }
    return memoryQueue.slice();
  }

  function saveQueue(queue) {
    memoryQueue = queue.slice();
    if (!storageWorks) return;
    try {
      localStorage.setItem(config.queueKey, JSON.stringify(queue));
    } catch (error) {
      storageWorks = false;
    }
  }

  function enqueue(seat, body) {
    const item = {
      id: body.id,
      round: body.round,
      entry: body.entry,
      kind: body.kind,
      where: seat.where,
      queuedAt: Date.now(),
      body,
    };
    const queue = loadQueue();
    queue.push(item);
    saveQueue(queue);
    seat.saved = false;
    renderAll();
    flush();
    return item;
  }

  let flushing = false;
  let sendingId = null;
  let networkDown = false;
  let loginNeeded = false;
  let retryDelay = RETRY_FIRST_MS;
  let retryTimer = null;
  const refusalsElsewhere = [];

  function scheduleRetry() {
    if (retryTimer !== null) return;
    retryTimer = window.setTimeout(() => {
      retryTimer = null;
      flush();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
  }

  function keepAfter(status, detail) {
    // Kept: server errors, timeouts, throttling, and a session that needs a new login
    // (the judge logs in again and nothing tapped is lost).
    if (status >= 500 || status === 408 || status === 429 || status === 401) return true;
    return status === 403 && /csrf/i.test(detail);
  }

  function messageOf(body, status) {
    if (body && typeof body === "object") {
      if (typeof body.detail === "string") return body.detail;
      const parts = [];
      for (const value of Object.values(body)) {
        if (Array.isArray(value)) parts.push(...value.map(String));
        else if (typeof value === "string") parts.push(value);
      }
      if (parts.length) return parts.join(" ");
    }
    return fill(strings.error, { status });
  }

  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      for (;;) {
        const queue = loadQueue();
        if (!queue.length) break;
        const item = queue[0];
        sendingId = item.id;
        renderAll();
        let response;
        try {
          response = await fetch(config.captureUrl, {
            method: "POST",
            credentials: "same-origin",
            cache: "no-store",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json",
              "X-CSRFToken": csrfToken(),
            },
            body: JSON.stringify(item.body),
          });
        } catch (error) {
          networkDown = true;
          scheduleRetry();
          return;
        }
        let body = null;
        try {
          body = await response.json();
        } catch (error) {
          body = null;
        }
        networkDown = false;
        if (response.ok) {
          loginNeeded = false;
          retryDelay = RETRY_FIRST_MS;
          removeFromQueue(item.id, false);
          answered(item, body);
          continue;
        }
        const message = messageOf(body, response.status);
        if (keepAfter(response.status, message)) {
          loginNeeded = response.status === 401 || response.status === 403;
          scheduleRetry();
          return;
        }
        removeFromQueue(item.id, true);
        refused(item, message);
      }
    } finally {
      flushing = false;
      sendingId = null;
      renderAll();
    }
  }

  function removeFromQueue(id, withLaterOfTheEntry) {
    const queue = loadQueue();
    const index = queue.findIndex((item) => item.id === id);
    if (index < 0) return;
    const [removed] = queue.splice(index, 1);
    // A refused capture takes what was queued after it for the same entry along: a
    // confirmation must never confirm a time other than the one the entrant saw.
    const kept = withLaterOfTheEntry
      ? queue.filter((item, i) => i < index || item.round !== removed.round || item.entry !== removed.entry)
      : queue;
    saveQueue(kept);
  }

  // The entries at the table -------------------------------------------------------------------

  const tableNode = document.querySelector(".table-number");
  const tableName = tableNode ? tableNode.textContent.trim() : "";
  // What the server says of an entry, as the phone keeps it.
  function serverFields(data) {
    const finish = data.finish;
    const fields = {
      ...data,
      result: data.result,
      tapAt: finish && finish.mine ? finish.atMs : null,
      found: finish ? finish.found : 0,
      lost: finish ? finish.lost : 0,
      adjacent: finish ? finish.adjacent : 0,
      lastPieceAt: finish ? finish.lastPieceMs : null,
      sent: finish ? { found: finish.found, lost: finish.lost, adjacent: finish.adjacent, lastPieceAt: finish.lastPieceMs } : null,
      count: null,
      editable: !finish || finish.mine,
      // Whether the judge has done something here the server may not know of yet.
      own: false,
      server: data,
    };
    if (data.step === "confirmed" && data.result) {
      // A confirmed result may have been corrected since the tap: the result is the truth.
      fields.tapAt = null;
      fields.found = data.result.missing_found;
      fields.lost = data.result.missing_lost;
      fields.adjacent = data.result.adjacent_missing;
      fields.lastPieceAt = data.result.last_piece_ms !== null ? data.startMs + data.result.last_piece_ms : null;
    }
    if (data.result && data.result.status === "unfinished") {
      fields.count = {
        placed: data.ownCount !== null && data.ownCount !== undefined ? data.ownCount : data.result.pieces_placed,
        incorrect: data.result.incorrect,
      };
    }
    return fields;
  }

  // The last state heard from the server: a page kept for when the network is down may be
  // older than it (the service worker shows the page of the last visit).
  const KNOWN_KEY = `judging-table:${config.stateUrl}`;
  let known = { version: config.version, layout: config.layout, atMs: config.atMs, seats: config.seats };
  try {
    const saved = JSON.parse(localStorage.getItem(KNOWN_KEY) || "null");
    if (saved && Array.isArray(saved.seats) && saved.atMs > known.atMs) known = saved;
  } catch (error) {
    /* nothing kept: the page's own state */
  }
  // Another heat than the page's took the table since the page was made.
  let newHeat = known.layout !== config.layout;

  const seats = config.seats.map((data, index) => {
    const newer =
      known.layout === config.layout ? known.seats.find((s) => s.round === data.round && s.entry === data.entry) : null;
    return {
      ...serverFields(newer || data),
      index,
      element: document.querySelector(`[data-seat="${index}"]`),
      lane: document.querySelector(`[data-lane="${index}"]`),
      where: `${tableName} · ${data.name}`,
      autoFound: false,
      saved: false,
      refusal: null,
      changed: 0,
    };
  });

  function seatOf(item) {
    return seats.find((seat) => seat.round === item.round && seat.entry === item.entry) || null;
  }

  function queuedFor(seat, queue) {
    return (queue || loadQueue()).filter((item) => item.round === seat.round && item.entry === seat.entry);
  }

  // What is still in the queue from before a reload decides where the judge goes on.
  function restoreFromQueue() {
    for (const item of loadQueue()) {
      const seat = seatOf(item);
      if (!seat) continue;
      const body = item.body;
      seat.own = true;
      if (item.kind === "finish") {
        seat.tapAt = Date.parse(body.at);
        seat.found = body.missing_found || 0;
        seat.lost = body.missing_lost || 0;
        seat.adjacent = adjacentOf(body.adjacent_missing, seat.lost);
        seat.lastPieceAt = body.last_piece_at ? Date.parse(body.last_piece_at) : null;
        seat.sent = { found: seat.found, lost: seat.lost, adjacent: seat.adjacent, lastPieceAt: seat.lastPieceAt };
        seat.count = null;
        seat.editable = true;
        seat.step = "timed";
      } else if (item.kind === "pieces" || item.kind === "incorrect") {
        const placed =
          body.pieces_placed !== null && body.pieces_placed !== undefined
            ? body.pieces_placed
            : seat.pieces - body.pieces_remaining;
        seat.count = { placed, remaining: body.pieces_remaining, incorrect: item.kind === "incorrect" };
        seat.step = afterCount(item.kind);
      } else if (item.kind === "confirm") {
        seat.step = "confirmed";
      }
    }
  }

  // Where a judge goes once their piece count is sent: with two judges counting, the
  // server's answer says whether it was the first count, or agreed with the first one.
  function afterCount(kind) {
    return config.secondCount && (kind === "pieces" || kind === "incorrect") ? "counted" : "review";
  }

  // A count of adjacent lost pieces; true/false from a queue of an earlier release: all or none.
  function adjacentOf(value, lost) {
    if (typeof value === "boolean") return value && lost >= 2 ? lost : 0;
    return Number.isInteger(value) ? value : 0;
  }

  function attemptOf(seat, timeMs) {
    return {
      status: "finished",
      time_ms: timeMs,
      missing_found: seat.found,
      missing_lost: seat.lost,
      adjacent_missing: seat.adjacent,
      last_piece_ms: seat.lastPieceAt !== null ? seat.lastPieceAt - seat.startMs : null,
    };
  }

  // The rules, as the server applies them (rules.js), for the display before it answers.
  function finishOutcome(seat) {
    const timeMs = seat.tapAt !== null ? seat.tapAt - seat.startMs : seat.result && seat.result.time_ms;
    if (timeMs === null || timeMs === undefined) return null;
    const attempt = attemptOf(seat, timeMs);
    return {
      decided: Rules.outcome(attempt, rules, seat.pieces, seat.limitMs, seat.calledMs),
      recorded: Rules.truncate(timeMs),
      charged: Rules.chargedPieces(attempt, rules),
      lastPieceMs: attempt.last_piece_ms,
      stands: attempt.last_piece_ms !== null && Rules.lastPieceInWindow(attempt, rules),
      waived: rules.adjacent_missing_waives_penalty ? seat.adjacent : 0,
      seat,
    };
  }

  function problemText(code, seat) {
    const text = strings.problems[code] || strings.problems.other;
    const least = rules.counted_cluster_min_pieces;
    return fill(text, { least, most: seat.pieces - 1, total: seat.pieces, remaining: seat.pieces - least });
  }

  function finishDetail(outcome) {
    const decided = outcome.decided;
    if (decided.error) return problemText(decided.error, outcome.seat);
    if (decided.kind === "invalid") return counted(strings.invalid, rules.max_lost_pieces);
    if (decided.kind !== "completed") return strings.afterLimit;
    const parts = [];
    if (outcome.lastPieceMs !== null && rules.late_last_piece_seconds !== null) {
      parts.push(fill(outcome.stands ? strings.lastPieceStands : strings.lastPieceLate, { time: duration(outcome.lastPieceMs) }));
    }
    if (decided.penalty_ms > 0) {
      const template = rules.penalty_charges === "found" ? strings.piecesFound : strings.piecesCharged;
      parts.push(
        `${strings.time} ${duration(outcome.recorded)} + ${decided.penalty_ms / 1000} s ${strings.penalty} (` +
          `${counted(template, outcome.charged, { seconds: rules.penalty_seconds_per_piece })})`
      );
    }
    if (outcome.waived > 0) parts.push(counted(strings.noPenaltyAdjacent, outcome.waived));
    return parts.join(" · ");
  }

  function countPlaced(seat) {
    if (seat.count && seat.count.placed !== null && seat.count.placed !== undefined) return seat.count.placed;
    if (seat.result && seat.result.pieces_placed !== null) return seat.result.pieces_placed;
    return null;
  }

  // What the review and confirmed screens show: the server's answer once it has everything.
  function review(seat) {
    // The server's answer is the truth once nothing of this entry waits in the queue.
    const fresh = Boolean(seat.result) && queuedFor(seat).length === 0;
    const isCount = Boolean(seat.count) || (seat.result && seat.result.status === "unfinished" && seat.tapAt === null);
    if (isCount) {
      const placed = fresh && seat.result.counted_pieces !== null ? seat.result.counted_pieces : countPlaced(seat);
      const details = [counted(strings.placedOf, placed, { total: seat.pieces })];
      const incorrect = seat.count ? seat.count.incorrect : seat.result && seat.result.incorrect;
      if (incorrect) details.push(rules.misplaced_finish_is_unfinished ? strings.misplacedUnfinished : strings.misplaced);
      return {
        label: strings.countedPieces,
        value: placed === null ? "–" : String(placed),
        detail: details.join(" · "),
        source: fresh ? strings.fromServer : strings.fromPhone,
      };
    }
    const outcome = finishOutcome(seat);
    if (fresh && seat.result.status === "finished") {
      const server = seat.result;
      let value = server.final_seconds !== null ? duration(server.final_seconds * 1000) : "–";
      if (server.outcome === "invalid") value = "–";
      if (server.outcome === "unfinished" && server.counted_pieces !== null) {
        value = String(server.counted_pieces);
      }
      return {
        label: strings.finalTime,
        value,
        detail: outcome ? finishDetail(outcome) : "",
        source: strings.fromServer,
      };
    }
    if (!outcome) return { label: strings.finalTime, value: "–", detail: "", source: "" };
    return {
      label: strings.finalTime,
      value: outcome.decided.kind === "completed" ? duration(outcome.decided.final_ms) : "–",
      detail: finishDetail(outcome),
      source: strings.fromPhone,
    };
  }

  // Rendering ----------------------------------------------------------------------------------

  function q(seat, selector) {
    return seat.element.querySelector(selector);
  }

  function qa(seat, selector) {
    return Array.from(seat.element.querySelectorAll(selector));
  }

  function saveStateOf(seat, queue) {
    const mine = queuedFor(seat, queue);
    if (mine.length) {
      if (loginNeeded) return ["login", strings.loginAgain];
      if (networkDown || !navigator.onLine) return ["queued", strings.queued];
      return ["saving", strings.saving];
    }
    if (seat.saved) return ["saved", strings.saved];
    return null;
  }

  // Put the counts into the missing-pieces fields, only when the judge comes to them: a
  // render for any other reason (the network coming and going) keeps what is typed there.
  function fillCounts(seat) {
    // sm has no "found later" and only dm asks for adjacent pieces: the fields may be absent.
    for (const [name, value] of [["found", seat.found], ["lost", seat.lost], ["adjacent", seat.adjacent]]) {
      const input = q(seat, `[data-field="${name}"]`);
      if (input) input.value = value;
    }
  }

  function renderSeat(seat, queue) {
    for (const panel of qa(seat, "[data-step-panel]")) {
      panel.hidden = panel.dataset.stepPanel !== seat.step;
    }
    const state = saveStateOf(seat, queue);
    const stateNode = q(seat, "[data-save-state]");
    stateNode.hidden = !state;
    stateNode.className = `save-state${state ? ` is-${state[0]}` : ""}`;
    stateNode.textContent = state ? state[1] : "";
    const refusal = q(seat, "[data-refusal]");
    refusal.hidden = !seat.refusal;
    q(seat, "[data-refusal-text]").textContent = seat.refusal || "";
    q(seat, "[data-refusal-next]").textContent = seat.refusal ? strings.refusedNext : "";
    const heatState = q(seat, "[data-heat-state]");
    if (heatState && seat.heatStateLabel) {
      heatState.textContent = seat.heatStateLabel;
      heatState.className = `state state-${seat.heatState}`;
    }
    // "Confirmed" only once the server has stored the confirmation.
    const confirming = queuedFor(seat, queue).some((item) => item.kind === "confirm");
    const badge = q(seat, "[data-confirmed-badge]");
    badge.textContent = confirming ? strings.confirmPending : `✓ ${strings.confirmed}`;
    badge.classList.toggle("is-pending", confirming);
    const out = q(seat, "[data-out-badge]");
    if (seat.statusLabel) out.textContent = seat.statusLabel;
    q(seat, "[data-corrected]").hidden = !seat.corrected;

    if (seat.step === "timed") {
      q(seat, "[data-tap-time]").textContent = duration(seat.tapAt - seat.startMs);
      const last = q(seat, "[data-last-piece-state]");
      if (last) {
        last.textContent =
          seat.lastPieceAt !== null ? fill(strings.lastPieceAt, { time: duration(seat.lastPieceAt - seat.startMs) }) : "";
      }
    }
    if (seat.step === "review" || seat.step === "confirmed") {
      const shown = review(seat);
      qa(seat, "[data-review-value]").forEach((node) => (node.textContent = shown.value));
      qa(seat, "[data-review-detail]").forEach((node) => (node.textContent = shown.detail));
      const label = q(seat, "[data-review-label]");
      if (label) label.textContent = shown.label;
      const source = q(seat, "[data-review-source]");
      if (source) source.textContent = shown.source;
      // Only the judge who timed or counted the entrant (or a head judge) has them confirm.
      const mayConfirm = config.headJudge || seat.mayConfirm !== false;
      const confirmButton = q(seat, '[data-action="confirm"]');
      if (confirmButton) confirmButton.hidden = !mayConfirm;
      if (source && !mayConfirm) source.textContent = `${shown.source} · ${strings.otherJudge}`.replace(/^ · /, "");
      // The review's own "Change" (the counted step has one of its own, earlier in the page).
      const edit = q(seat, '[data-step-panel="review"] [data-action="edit"]');
      // Two judges' count (or the head judge's) is no longer one judge's to change.
      const settled = ["agreed", "decided"].includes(seat.countState);
      if (edit) edit.hidden = settled || !(seat.count || (seat.editable && seat.tapAt !== null));
    }
    if (seat.step === "counted") {
      const placed = countPlaced(seat);
      const own = q(seat, "[data-own-count]");
      if (own) own.textContent = placed === null ? "–" : String(placed);
    }
    // Another judge's count waits: this judge counts again, without seeing it.
    const second = seat.countState === "awaiting_second" && seat.step === "timeup" && countPlaced(seat) === null;
    const countLabel = q(seat, "[data-count-label]");
    if (countLabel) countLabel.textContent = second ? strings.secondCount : strings.countPieces;
    const secondHelp = q(seat, "[data-second-help]");
    if (secondHelp) secondHelp.hidden = !second;
    if (seat.lane) renderLane(seat, confirming);
  }

  // A shared table's lane of one entrant: TIME while puzzling, else where the entrant is.
  function renderLane(seat, confirming) {
    const lane = seat.lane;
    const puzzling = seat.step === "puzzling";
    lane.querySelector("[data-lane-time]").hidden = !puzzling;
    lane.classList.toggle("is-puzzling", puzzling);
    lane.classList.toggle("is-to-do", ["timeup", "timed", "review", "disputed"].includes(seat.step) || Boolean(seat.refusal));
    lane.classList.toggle("is-refused", Boolean(seat.refusal));
    let text = "";
    if (seat.refusal) text = `⚠ ${strings.refused}`;
    else if (seat.step === "waiting") text = strings.notStarted;
    else if (seat.step === "timeup") {
      text = seat.countState === "awaiting_second" && countPlaced(seat) === null ? strings.secondCount : strings.countPieces;
    }
    else if (seat.step === "counted") text = `${countPlaced(seat) === null ? "–" : countPlaced(seat)} · ${strings.countWaits}`;
    else if (seat.step === "disputed") text = strings.countsDiffer;
    else if (seat.step === "timed") text = `${strings.timeAtTime} ${duration(seat.tapAt - seat.startMs)}`;
    else if (seat.step === "review") text = `${review(seat).value} · ${strings.awaiting}`;
    else if (seat.step === "confirmed") {
      text = confirming ? strings.confirmPending : `✓ ${strings.confirmed} · ${review(seat).value}`;
    } else if (seat.step === "out") text = seat.statusLabel || "";
    lane.querySelector("[data-lane-state]").textContent = text;
  }

  function renderQueueState(queue) {
    const node = document.querySelector("[data-queue-state]");
    if (!node) return;
    let text;
    let state;
    if (!queue.length) {
      text = strings.allSaved;
      state = "saved";
    } else if (loginNeeded) {
      text = strings.loginAgain;
      state = "login";
    } else if (networkDown || !navigator.onLine) {
      text = counted(strings.waiting, queue.length);
      state = "queued";
    } else {
      text = strings.saving;
      state = "saving";
    }
    if (!storageWorks) text += ` ${strings.noStorage}`;
    const elsewhere = refusalsElsewhere.map((r) => `${strings.refused} ${r}`).join(" ");
    node.textContent = elsewhere ? `${text} ${elsewhere}` : text;
    node.className = `queue-state is-${state}`;
  }

  function renderAll() {
    const queue = loadQueue();
    seats.forEach((seat) => renderSeat(seat, queue));
    renderQueueState(queue);
    renderNewHeat(queue);
  }

  function renderNewHeat(queue) {
    const banner = document.querySelector("[data-new-heat]");
    if (!banner) return;
    banner.hidden = !newHeat;
    banner.querySelector("[data-new-heat-busy]").hidden = !seats.some(busy);
    // A queue kept only in memory would go with the page: the button waits until it is sent.
    banner.querySelector("[data-new-heat-show]").hidden = !storageWorks && queue.length > 0;
  }

  function tick() {
    const current = now();
    for (const seat of seats) {
      const node = q(seat, "[data-clock]");
      if (seat.startMs === null) continue;
      const ownStart = q(seat, ".own-start");
      if (ownStart) ownStart.hidden = seat.step !== "puzzling";
      // The entry's own time: its limit runs from its own start, and the heat's time-up
      // does not end an entry that started later (Seat.time_up_at).
      const timeUp = seat.timeUpMs !== null && current >= seat.timeUpMs;
      if (timeUp && seat.step === "puzzling") {
        seat.step = "timeup";
        renderSeat(seat, loadQueue());
      }
      if (timeUp && seat.step !== "timed") {
        node.textContent = strings.timeUp;
      } else {
        node.textContent = duration(current - seat.startMs);
      }
      // Once the time is taken, only the taken time is on the screen (the entrant reads it).
      node.parentElement.hidden = !["puzzling", "timeup", "waiting"].includes(seat.step);
      if (seat.lane) {
        const laneClock = seat.lane.querySelector("[data-lane-clock]");
        laneClock.textContent = seat.step === "puzzling" ? node.textContent : "";
        laneClock.hidden = seat.step !== "puzzling";
      }
    }
  }

  // What the server said -----------------------------------------------------------------------

  function answered(item, body) {
    const seat = seatOf(item);
    if (!seat) return;
    seat.changed = ++changes;
    refreshSoon();
    if (body && body.result) {
      seat.result = { ...(seat.result || {}), ...body.result };
      seat.result.time_ms = body.result.time ? parseDuration(body.result.time) : null;
    }
    seat.refusal = null;
    if (!queuedFor(seat).length) seat.saved = true;
    if (body && body.result && body.result.count_state !== undefined) {
      seat.countState = body.result.count_state;
      if (item.kind === "pieces" && seat.step === "counted" && !queuedFor(seat).length) {
        // The second count: the same as the first goes to the entrant, another to the head judge.
        if (seat.countState === "agreed") seat.step = "review";
        else if (seat.countState === "disputed") seat.step = "disputed";
      }
    }
    if (item.kind === "correction" && seat.result) {
      seat.count = seat.result.status === "unfinished" ? { placed: seat.result.counted_pieces, incorrect: seat.result.incorrect } : null;
      seat.tapAt = null;
      fillCorrection(seat);
    }
  }

  function refused(item, message) {
    const seat = seatOf(item);
    if (!seat) {
      refusalsElsewhere.push(`${item.where}: ${message}`);
      return;
    }
    seat.refusal = message;
    seat.saved = false;
    seat.changed = ++changes;
    // Never "Confirmed" for a refused confirmation; then the entry shows what the server says.
    if (item.kind === "confirm" && seat.step === "confirmed") seat.step = "review";
    forced.add(seat);
    refreshSoon();
    if (item.kind === "correction") {
      const error = q(seat, "[data-correct-error]");
      if (error) {
        error.textContent = message;
        error.hidden = false;
      }
    }
  }

  // What the judge does ------------------------------------------------------------------------

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
      renderSeat(seat, loadQueue());
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
      renderSeat(seat, loadQueue());
    },
    show(seat) {
      readCounts(seat);
      const error = q(seat, "[data-timed-error]");
      const decided = Rules.outcome(attemptOf(seat, seat.tapAt - seat.startMs), rules, seat.pieces, seat.limitMs, seat.calledMs);
      if (decided.error) {
        error.textContent = problemText(decided.error, seat);
        error.hidden = false;
        return;
      }
      error.hidden = true;
      seat.step = "review";
      if (!sameAsSent(seat)) {
        seat.sent = { found: seat.found, lost: seat.lost, adjacent: seat.adjacent, lastPieceAt: seat.lastPieceAt };
        enqueue(seat, finishBody(seat));
      } else {
        renderAll();
      }
    },
    misplaced(seat) {
      seat.misplacedAtTime = true;
      seat.step = "timeup";
      const box = q(seat, '[data-field="incorrect"]');
      if (box) box.checked = true;
      renderSeat(seat, loadQueue());
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
        error.textContent = problemText(mode === "placed" ? "pieces_implausible" : "remaining_implausible", seat);
        error.hidden = false;
        return;
      }
      seat.count = { placed, remaining: mode === "remaining" ? value : null, incorrect };
      seat.refusal = null;
      seat.step = afterCount(incorrect ? "incorrect" : "pieces");
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
      renderSeat(seat, loadQueue());
    },
    confirm(seat) {
      seat.step = "confirmed";
      enqueue(seat, { id: uuid4(), round: seat.round, entry: seat.entry, kind: "confirm", at: iso(now()) });
      fillCorrection(seat);
    },
    reload() {
      window.location.reload();
    },
  };

  function fillCorrection(seat) {
    const form = q(seat, "[data-correct-form]");
    if (!form) return;
    const result = seat.result || {};
    const timeMs = seat.tapAt !== null ? seat.tapAt - seat.startMs : result.time_ms;
    form.elements.time.value = timeMs !== null && timeMs !== undefined && !seat.count ? duration(timeMs) : "";
    if (form.elements.missing_found) form.elements.missing_found.value = seat.count ? 0 : seat.found;
    form.elements.missing_lost.value = seat.count ? 0 : seat.lost;
    if (form.elements.adjacent_missing) form.elements.adjacent_missing.value = seat.count ? 0 : seat.adjacent;
    const placed = countPlaced(seat);
    form.elements.pieces_placed.value = seat.count && placed !== null ? placed : "";
  }

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
      return fail(problemText("pieces_implausible", seat));
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

  // Following the heat -------------------------------------------------------------------------

  let version = known.version;
  let layout = known.layout;
  let lastState = known;
  let lastSince = 0;
  // Counts what this phone did or heard back, to tell an answer that is older than that.
  let changes = 0;
  // Entries to put back to what the server says (a capture was refused).
  const forced = new Set();
  // An answer not applied yet because the judge was typing in that entry's fields.
  let deferred = false;
  let polling = false;
  let pollAgain = false;
  let pollTimer = null;
  let pollDelay = POLL_EVERY_MS;

  function schedulePoll(delay) {
    if (pollTimer !== null) window.clearTimeout(pollTimer);
    pollTimer = window.setTimeout(() => {
      pollTimer = null;
      poll();
    }, delay);
  }

  function refreshSoon() {
    if (polling) pollAgain = true;
    else schedulePoll(250);
  }

  async function poll() {
    if (polling) {
      pollAgain = true;
      return;
    }
    // Only while the judge can see the page: it asks again when the page is shown.
    if (document.visibilityState === "hidden") return;
    polling = true;
    const since = changes;
    let heard = false;
    try {
      const response = await fetch(config.stateUrl, {
        credentials: "same-origin",
        cache: "no-store",
        headers: { Accept: "application/json", "If-None-Match": `"${version}"` },
      });
      if (response.status === 304) {
        heard = true;
        // Unchanged since the last answer: that answer is still the truth.
        if (forced.size || deferred) follow(lastState, since);
      } else if (response.ok) {
        const state = await response.json();
        heard = true;
        follow(state, since);
      }
    } catch (error) {
      /* no network: ask again later */
    } finally {
      polling = false;
    }
    pollDelay = heard ? POLL_EVERY_MS : Math.min(pollDelay * 2, POLL_MAX_MS);
    if (pollAgain) {
      pollAgain = false;
      schedulePoll(0);
    } else {
      schedulePoll(pollDelay);
    }
  }

  function follow(state, since) {
    lastState = state;
    lastSince = since;
    version = state.version;
    try {
      localStorage.setItem(KNOWN_KEY, JSON.stringify(state));
    } catch (error) {
      /* the page's own state will do */
    }
    deferred = false;
    if (state.layout !== layout) {
      layout = state.layout;
      heatChanged(state);
    }
    for (const data of state.seats) {
      const seat = seats.find((s) => s.round === data.round && s.entry === data.entry);
      if (seat && merge(seat, data, since)) forced.delete(seat);
    }
    renderAll();
  }

  function typing(seat) {
    const active = document.activeElement;
    return Boolean(active && seat.element.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName));
  }

  function busy(seat) {
    const details = q(seat, "details.correct");
    return (
      seat.step === "timed" ||
      seat.step === "review" ||
      (seat.step === "timeup" && seat.own) ||
      typing(seat) ||
      Boolean(details && details.open)
    );
  }

  // Whether the server's step replaces the phone's.
  function shouldFollow(seat, data, resultChanged) {
    // Waiting for another judge's count or the head judge's decision: the server knows.
    if (seat.step === "counted" || seat.step === "disputed") return data.step !== seat.step || resultChanged;
    if (data.step === seat.step) return resultChanged && (data.step !== "review" || !seat.own);
    if (data.step === "confirmed" || data.step === "out") return true;
    return !seat.own && ["waiting", "puzzling", "timeup"].includes(seat.step);
  }

  // Return whether the server's answer was taken in for this entry.
  function merge(seat, data, since) {
    // The clock is the server's alone: a start, an own start, a time-up called early.
    for (const name of ["startMs", "limitMs", "calledMs", "timeUpMs", "mayConfirm", "heatState", "heatStateLabel", "statusLabel", "countState"]) {
      seat[name] = data[name];
    }
    // What waits on this phone, or was answered after the question was sent, is newer.
    if (queuedFor(seat).length || seat.changed > since) return false;
    const resultChanged = JSON.stringify(seat.server && seat.server.result) !== JSON.stringify(data.result);
    if (!forced.has(seat) && !shouldFollow(seat, data, resultChanged)) {
      seat.server = data;
      if (resultChanged) seat.result = data.result;
      return true;
    }
    if (typing(seat)) {
      deferred = true;
      return false;
    }
    // A result the server had confirmed and that changes was corrected: say so, the judge
    // and the entrant saw another one.
    const wasConfirmed = Boolean(seat.server && seat.server.result && seat.server.result.confirmed);
    const corrected = seat.corrected || (wasConfirmed && data.step === "confirmed" && resultChanged);
    Object.assign(seat, serverFields(data));
    seat.corrected = corrected;
    seat.autoFound = false;
    fillCounts(seat);
    const details = q(seat, "details.correct");
    if (seat.step === "confirmed" && !(details && details.open)) fillCorrection(seat);
    return true;
  }

  // Other entrants at the table: a new page, at once when nothing would be lost or cut short.
  function heatChanged(state) {
    // The heat here is over and no other has come: the page keeps showing how it ended.
    if (!state.seats.length && seats.length) return;
    newHeat = true;
    if (!loadQueue().length && !seats.some(busy)) window.location.reload();
  }

  // Keep this page and its files for a reload while the venue's network is down.
  function keepForOffline() {
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
        registration.active.postMessage({ keep: [window.location.href, ...files] });
      })
      .catch(() => {
        /* no service worker (plain http at a venue): the page works as before, online */
      });
  }

  // Wiring -------------------------------------------------------------------------------------

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
    networkDown = false;
    retryDelay = RETRY_FIRST_MS;
    if (retryTimer !== null) {
      window.clearTimeout(retryTimer);
      retryTimer = null;
    }
    renderAll();
    flush();
    measureClock();
  });
  window.addEventListener("offline", () => {
    networkDown = true;
    renderAll();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") flush();
  });
  window.addEventListener("storage", (event) => {
    if (event.key === config.queueKey) renderAll();
  });

  window.addEventListener("online", () => {
    pollDelay = POLL_EVERY_MS;
    refreshSoon();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshSoon();
  });
  // An answer held back while the judge typed is taken in when the field is left.
  document.addEventListener("focusout", () => {
    window.setTimeout(() => {
      if (deferred) follow(lastState, lastSince);
    }, 0);
  });
  const newHeatButton = document.querySelector("[data-new-heat-show]");
  if (newHeatButton) newHeatButton.addEventListener("click", () => window.location.reload());

  restoreFromQueue();
  seats.forEach((seat) => {
    if (seat.step === "timed") fillCounts(seat);
    if (seat.step === "confirmed") fillCorrection(seat);
  });
  renderAll();
  renderClockState();
  tick();
  window.setInterval(tick, 250);
  window.setInterval(() => {
    if (loadQueue().length) flush();
  }, RETRY_SAFETY_MS);
  window.setInterval(measureClock, CLOCK_EVERY_MS);
  // Send what an earlier visit left in the queue, and measure the clock.
  flush();
  measureClock();
  schedulePoll(POLL_EVERY_MS);
  keepForOffline();
})();
