/*
 * Drawing the judge's page: each entry's step, what is saved, queued or confirmed, the
 * clocks, and a shared table's lanes.
 *
 * The state is always visible: each entry says whether its captures are saving,
 * waiting for the network, or saved; "Confirmed" shows only once the server has
 * stored the confirmation. Before the server answers, what an attempt comes to is
 * worked out by rules.js (window.PuzzleRules), the same rules as the server's.
 *
 * Texts come translated from the page (json_script "judge-strings"), the rules from
 * "judge-rules".
 */

import { counted, fill } from "./text.js";
import { queuedFor } from "./queue.js";

// Where this file was loaded from (hashed in production): the service worker keeps it.
export const address = import.meta.url;

export function q(seat, selector) {
  return seat.element.querySelector(selector);
}

export function qa(seat, selector) {
  return Array.from(seat.element.querySelectorAll(selector));
}

export function attemptOf(seat, timeMs) {
  return {
    status: "finished",
    time_ms: timeMs,
    missing_found: seat.found,
    missing_lost: seat.lost,
    adjacent_missing: seat.adjacent,
    last_piece_ms: seat.lastPieceAt !== null ? seat.lastPieceAt - seat.startMs : null,
  };
}

export function countPlaced(seat) {
  if (seat.count && seat.count.placed !== null && seat.count.placed !== undefined) return seat.count.placed;
  if (seat.result && seat.result.pieces_placed !== null) return seat.result.pieces_placed;
  return null;
}

// Put the counts into the missing-pieces fields, only when the judge comes to them: a
// render for any other reason (the network coming and going) keeps what is typed there.
export function fillCounts(seat) {
  // sm has no "found later" and only dm asks for adjacent pieces: the fields may be absent.
  for (const [name, value] of [["found", seat.found], ["lost", seat.lost], ["adjacent", seat.adjacent]]) {
    const input = q(seat, `[data-field="${name}"]`);
    if (input) input.value = value;
  }
}

/*
 * The drawing of one page: `seats` (with their `element` and `lane`), `queue` (its
 * captures and whether the network or a login is wanting), `page` (newHeat, the
 * refusals of entries no longer at the table), the clock (server_clock.js) and rules
 * (rules.js), the page's `config`, `rules` and `strings`.
 */
export function createView({ document, navigator, config, rules, strings, Rules, clock, seats, queue, page }) {
  function duration(ms) {
    if (ms === null || ms === undefined || !Number.isFinite(ms)) return "–";
    return clock.duration(ms);
  }

  function renderClockState() {
    const node = document.querySelector("[data-clock-state]");
    if (!node) return;
    node.textContent =
      clock.rtt === null ? strings.clockUnknown : fill(strings.clockOffset, { ms: Math.ceil(clock.rtt / 2) });
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

  // What the review and confirmed screens show: the server's answer once it has everything.
  function review(seat) {
    // The server's answer is the truth once nothing of this entry waits in the queue.
    const fresh = Boolean(seat.result) && queuedFor(seat, queue.load()).length === 0;
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

  function typing(seat) {
    const active = document.activeElement;
    return Boolean(active && seat.element.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName));
  }

  // Whether the judge is in the middle of something with the entry.
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

  function saveStateOf(seat, items) {
    const mine = queuedFor(seat, items);
    if (mine.length) {
      if (queue.loginNeeded) return ["login", strings.loginAgain];
      if (queue.networkDown || !navigator.onLine) return ["queued", strings.queued];
      return ["saving", strings.saving];
    }
    if (seat.saved) return ["saved", strings.saved];
    return null;
  }

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

  function renderSeat(seat, items) {
    for (const panel of qa(seat, "[data-step-panel]")) {
      panel.hidden = panel.dataset.stepPanel !== seat.step;
    }
    const state = saveStateOf(seat, items);
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
    const confirming = queuedFor(seat, items).some((item) => item.kind === "confirm");
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
    } else if (seat.step === "counted") text = `${countPlaced(seat) === null ? "–" : countPlaced(seat)} · ${strings.countWaits}`;
    else if (seat.step === "disputed") text = strings.countsDiffer;
    else if (seat.step === "timed") text = `${strings.timeAtTime} ${duration(seat.tapAt - seat.startMs)}`;
    else if (seat.step === "review") text = `${review(seat).value} · ${strings.awaiting}`;
    else if (seat.step === "confirmed") {
      text = confirming ? strings.confirmPending : `✓ ${strings.confirmed} · ${review(seat).value}`;
    } else if (seat.step === "out") text = seat.statusLabel || "";
    lane.querySelector("[data-lane-state]").textContent = text;
  }

  function renderQueueState(items) {
    const node = document.querySelector("[data-queue-state]");
    if (!node) return;
    let text;
    let state;
    if (!items.length) {
      text = strings.allSaved;
      state = "saved";
    } else if (queue.loginNeeded) {
      text = strings.loginAgain;
      state = "login";
    } else if (queue.networkDown || !navigator.onLine) {
      text = counted(strings.waiting, items.length);
      state = "queued";
    } else {
      text = strings.saving;
      state = "saving";
    }
    if (!queue.storageWorks) text += ` ${strings.noStorage}`;
    const elsewhere = page.refusalsElsewhere.map((r) => `${strings.refused} ${r}`).join(" ");
    node.textContent = elsewhere ? `${text} ${elsewhere}` : text;
    node.className = `queue-state is-${state}`;
  }

  function renderNewHeat(items) {
    const banner = document.querySelector("[data-new-heat]");
    if (!banner) return;
    banner.hidden = !page.newHeat;
    banner.querySelector("[data-new-heat-busy]").hidden = !seats.some(busy);
    // A queue kept only in memory would go with the page: the button waits until it is sent.
    banner.querySelector("[data-new-heat-show]").hidden = !queue.storageWorks && items.length > 0;
  }

  function renderAll() {
    const items = queue.load();
    seats.forEach((seat) => renderSeat(seat, items));
    renderQueueState(items);
    renderNewHeat(items);
  }

  function tick() {
    const current = clock.now();
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
        renderSeat(seat, queue.load());
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

  return {
    duration,
    problemText,
    review,
    typing,
    busy,
    fillCorrection,
    renderSeat,
    renderAll,
    renderClockState,
    tick,
  };
}
