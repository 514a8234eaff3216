/*
 * Following the heat: what the server says of the table's entries, taken together with
 * what waits in this phone's queue.
 *
 * While the page is visible it asks the table's state (config.stateUrl, answered 304
 * while nothing changed) every few seconds, with backoff when the network is down.
 * What the server says updates the entries in place (a start, a time-up called early,
 * a result recorded or corrected elsewhere), but never an entry with something of this
 * phone still in the queue or answered after the question was sent, never a step the
 * judge is in the middle of, never a field the judge is typing in. A refused capture
 * puts its entry back to what the server says ("forced"), so a refused confirmation
 * never stays "Confirmed".
 *
 * Two judges counting (config.secondCount): a piece count at time-up waits for a
 * second judge's count ("counted"), who counts without seeing the first one (the
 * server leaves it out of the state it sends them); equal counts go on to the
 * entrant's confirmation, different ones to the head judge ("disputed").
 *
 * The last state heard from the server is kept in storage: a page the service worker
 * kept from an earlier visit (the network is down) starts from it when it is newer.
 *
 * A seat is one entry at the table as the phone keeps it: the server's fields
 * (serverFields) and what the judge did here (step, tapAt, counts, ...). The
 * functions here change seats and return what the page must do; createFollower()
 * takes its fetch, storage and timers as arguments.
 */

import { parseDuration } from "./text.js";
import { queuedFor } from "./queue.js";

export const POLL_EVERY_MS = 4000;
export const POLL_MAX_MS = 60000;

// Where this file was loaded from (hashed in production): the service worker keeps it.
export const address = import.meta.url;

// What merge() did with the server's answer for an entry.
export const KEPT = "kept"; // the phone's is newer: nothing taken
export const NOTED = "noted"; // the server's result noted, the judge's step kept
export const REPLACED = "replaced"; // the entry is now what the server says
export const DEFERRED = "deferred"; // the judge is typing: taken when the field is left

// The clock is the server's alone: a start, an own start, a time-up called early.
const SERVER_ONLY = [
  "startMs",
  "limitMs",
  "calledMs",
  "timeUpMs",
  "mayConfirm",
  "heatState",
  "heatStateLabel",
  "statusLabel",
  "countState",
];

// What the server says of an entry, as the phone keeps it.
export function serverFields(data) {
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

// Where the last state heard from the server is kept for the table.
export function knownKey(stateUrl) {
  return `judging-table:${stateUrl}`;
}

// The state to start from: the page's own, or the one kept in `storage` when it is newer
// (the service worker showed the page of the last visit).
export function knownState(config, storage) {
  let known = { version: config.version, layout: config.layout, atMs: config.atMs, seats: config.seats };
  try {
    const saved = JSON.parse(storage.getItem(knownKey(config.stateUrl)) || "null");
    if (saved && Array.isArray(saved.seats) && saved.atMs > known.atMs) known = saved;
  } catch (error) {
    /* nothing kept: the page's own state */
  }
  return known;
}

// The page's entries as the phone starts with them, each as the newest state known says.
export function startingSeats(config, known, tableName) {
  return config.seats.map((data, index) => {
    const newer =
      known.layout === config.layout ? known.seats.find((s) => s.round === data.round && s.entry === data.entry) : null;
    return {
      ...serverFields(newer || data),
      index,
      where: `${tableName} · ${data.name}`,
      autoFound: false,
      saved: false,
      refusal: null,
      changed: 0,
    };
  });
}

export function seatOf(seats, item) {
  return seats.find((seat) => seat.round === item.round && seat.entry === item.entry) || null;
}

// Where a judge goes once their piece count is sent: with two judges counting, the
// server's answer says whether it was the first count, or agreed with the first one.
export function afterCount(kind, secondCount) {
  return secondCount && (kind === "pieces" || kind === "incorrect") ? "counted" : "review";
}

// A count of adjacent lost pieces; true/false from a queue of an earlier release: all or none.
export function adjacentOf(value, lost) {
  if (typeof value === "boolean") return value && lost >= 2 ? lost : 0;
  return Number.isInteger(value) ? value : 0;
}

// What is still in the queue from before a reload decides where the judge goes on.
export function restoreFromQueue(seats, items, { secondCount }) {
  for (const item of items) {
    const seat = seatOf(seats, item);
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
      seat.step = afterCount(item.kind, secondCount);
    } else if (item.kind === "confirm") {
      seat.step = "confirmed";
    }
  }
}

// Whether the server's step replaces the phone's.
export function shouldFollow(seat, data, resultChanged) {
  // Waiting for another judge's count or the head judge's decision: the server knows.
  if (seat.step === "counted" || seat.step === "disputed") return data.step !== seat.step || resultChanged;
  if (data.step === seat.step) return resultChanged && (data.step !== "review" || !seat.own);
  if (data.step === "confirmed" || data.step === "out") return true;
  return !seat.own && ["waiting", "puzzling", "timeup"].includes(seat.step);
}

/*
 * Take the server's `data` for `seat` in, as far as it is newer than the phone's.
 *
 * `since`: the phone's change count when the question was sent; `pending`: whether
 * captures of the entry wait in the queue; `forced`: whether the entry goes back to
 * what the server says (a capture was refused); `typing()`: whether the judge is
 * typing in the entry's fields. Return KEPT, NOTED, REPLACED or DEFERRED.
 */
export function merge(seat, data, { since, pending, forced, typing }) {
  for (const name of SERVER_ONLY) {
    seat[name] = data[name];
  }
  // What waits on this phone, or was answered after the question was sent, is newer.
  if (pending || seat.changed > since) return KEPT;
  const resultChanged = JSON.stringify(seat.server && seat.server.result) !== JSON.stringify(data.result);
  if (!forced && !shouldFollow(seat, data, resultChanged)) {
    seat.server = data;
    if (resultChanged) seat.result = data.result;
    return NOTED;
  }
  if (typing()) return DEFERRED;
  // A result the server had confirmed and that changes was corrected: say so, the judge
  // and the entrant saw another one.
  const wasConfirmed = Boolean(seat.server && seat.server.result && seat.server.result.confirmed);
  const corrected = seat.corrected || (wasConfirmed && data.step === "confirmed" && resultChanged);
  Object.assign(seat, serverFields(data));
  seat.corrected = corrected;
  seat.autoFound = false;
  return REPLACED;
}

/*
 * The server stored `item` and answered `body`; `pending`: whether captures of the
 * entry still wait in the queue. Return whether the correction form must be filled
 * again (a correction was stored).
 */
export function applyAnswer(seat, item, body, { pending }) {
  if (body && body.result) {
    seat.result = { ...(seat.result || {}), ...body.result };
    seat.result.time_ms = body.result.time ? parseDuration(body.result.time) : null;
  }
  seat.refusal = null;
  if (!pending) seat.saved = true;
  if (body && body.result && body.result.count_state !== undefined) {
    seat.countState = body.result.count_state;
    if (item.kind === "pieces" && seat.step === "counted" && !pending) {
      // The second count: the same as the first goes to the entrant, another to the head judge.
      if (seat.countState === "agreed") seat.step = "review";
      else if (seat.countState === "disputed") seat.step = "disputed";
    }
  }
  if (item.kind === "correction" && seat.result) {
    seat.count =
      seat.result.status === "unfinished" ? { placed: seat.result.counted_pieces, incorrect: seat.result.incorrect } : null;
    seat.tapAt = null;
    return true;
  }
  return false;
}

// The server refused `item`: the entry says so, and shows what the server says next.
export function applyRefusal(seat, item, message) {
  seat.refusal = message;
  seat.saved = false;
  // Never "Confirmed" for a refused confirmation; then the entry shows what the server says.
  if (item.kind === "confirm" && seat.step === "confirmed") seat.step = "review";
}

/*
 * Ask the table's state at `url` and take it into `seats`.
 *
 * `known`: the state to start from (knownState); `loadQueue()`: the queue's captures;
 * `isVisible()`: whether the judge can see the page; `isTyping(seat)`: whether the
 * judge types in the entry's fields. `onHeatChange(state)`: other entrants took the
 * table; `onReplaced(seat)`: an entry is now what the server says (its fields are
 * filled again); `onFollowed()`: an answer was taken in (draw the page).
 */
export function createFollower({
  url,
  fetch,
  storage,
  setTimeout,
  clearTimeout,
  known,
  seats,
  loadQueue,
  isVisible,
  isTyping,
  onHeatChange = () => {},
  onReplaced = () => {},
  onFollowed = () => {},
}) {
  const storageKey = knownKey(url);
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

  function schedule(delay) {
    if (pollTimer !== null) clearTimeout(pollTimer);
    pollTimer = setTimeout(() => {
      pollTimer = null;
      poll();
    }, delay);
  }

  function refreshSoon() {
    if (polling) pollAgain = true;
    else schedule(250);
  }

  async function poll() {
    if (polling) {
      pollAgain = true;
      return;
    }
    // Only while the judge can see the page: it asks again when the page is shown.
    if (!isVisible()) return;
    polling = true;
    const since = changes;
    let heard = false;
    try {
      const response = await fetch(url, {
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
      schedule(0);
    } else {
      schedule(pollDelay);
    }
  }

  function follow(state, since) {
    lastState = state;
    lastSince = since;
    version = state.version;
    try {
      storage.setItem(storageKey, JSON.stringify(state));
    } catch (error) {
      /* the page's own state will do */
    }
    deferred = false;
    if (state.layout !== layout) {
      layout = state.layout;
      onHeatChange(state);
    }
    for (const data of state.seats) {
      const seat = seats.find((s) => s.round === data.round && s.entry === data.entry);
      if (!seat) continue;
      const taken = merge(seat, data, {
        since,
        pending: queuedFor(seat, loadQueue()).length > 0,
        forced: forced.has(seat),
        typing: () => isTyping(seat),
      });
      if (taken === DEFERRED) deferred = true;
      if (taken === REPLACED) onReplaced(seat);
      if (taken === NOTED || taken === REPLACED) forced.delete(seat);
    }
    onFollowed();
  }

  return {
    poll,
    schedule,
    refreshSoon,
    follow,
    // The phone did something or heard back: answers to questions sent before are older.
    changed() {
      changes += 1;
      return changes;
    },
    // A capture of `seat` was refused: put it back to what the server says.
    force(seat) {
      forced.add(seat);
    },
    // The network is back: ask at once, at the usual pace again.
    online() {
      pollDelay = POLL_EVERY_MS;
      refreshSoon();
    },
    // An answer held back while the judge typed is taken in when the field is left.
    resume() {
      if (deferred) follow(lastState, lastSince);
    },
    get version() {
      return version;
    },
    get delay() {
      return pollDelay;
    },
    get deferred() {
      return deferred;
    },
  };
}
