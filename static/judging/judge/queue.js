/*
 * The queue of captures on the judge's phone: no tap is ever lost.
 *
 * Every capture (a tap on TIME, a piece count, a confirmation, a correction) is
 * written to a queue in localStorage, one queue per championship, BEFORE it is
 * sent; it leaves the queue only when the server has stored it (201) or refused
 * it (4xx, shown to the judge). Network failures and server errors keep it, and
 * it is sent again when the network returns, on a timer with backoff, and on the
 * next page load. Each capture carries a UUID made on the phone, so the server
 * stores a capture sent twice only once: resending is always safe. The queue is
 * sent strictly in order, one capture at a time.
 *
 * Where localStorage fails (private mode, full), the queue is kept in memory for
 * as long as the page lives, and the page says so.
 *
 * createQueue() takes its storage, fetch and timers as arguments: the page gives
 * it the browser's, the tests their own.
 */

export const RETRY_FIRST_MS = 2000;
export const RETRY_MAX_MS = 30000;

// Where this file was loaded from (hashed in production): the service worker keeps it.
export const address = import.meta.url;

// The queued captures of one entry (a seat at the table), in the queue's order.
export function queuedFor(seat, items) {
  return items.filter((item) => item.round === seat.round && item.entry === seat.entry);
}

// Whether a capture the server did not store is kept to be sent again.
export function keepAfter(status, detail) {
  // Kept: server errors, timeouts, throttling, and a session that needs a new login
  // (the judge logs in again and nothing tapped is lost).
  if (status >= 500 || status === 408 || status === 429 || status === 401) return true;
  return status === 403 && /csrf/i.test(detail);
}

// What the server said of a capture it did not store, or `fallback(status)` when it said nothing.
export function messageOf(body, status, fallback) {
  if (body && typeof body === "object") {
    if (typeof body.detail === "string") return body.detail;
    const parts = [];
    for (const value of Object.values(body)) {
      if (Array.isArray(value)) parts.push(...value.map(String));
      else if (typeof value === "string") parts.push(value);
    }
    if (parts.length) return parts.join(" ");
  }
  return fallback(status);
}

// The queue without the capture `id`, or null when it is not there.
export function without(items, id, withLaterOfTheEntry) {
  const queue = items.slice();
  const index = queue.findIndex((item) => item.id === id);
  if (index < 0) return null;
  const [removed] = queue.splice(index, 1);
  // A refused capture takes what was queued after it for the same entry along: a
  // confirmation must never confirm a time other than the one the entrant saw.
  return withLaterOfTheEntry
    ? queue.filter((item, i) => i < index || item.round !== removed.round || item.entry !== removed.entry)
    : queue;
}

/*
 * The queue kept under `key` in `storage` (getItem/setItem, which may throw), sent with
 * `fetch` to `url`. `onChange()` is called when what the page shows of it may have
 * changed; `onAnswered(item, body)` when the server stored a capture, `onRefused(item,
 * message)` when it refused one; `errorText(status)` says a refusal with no message.
 */
export function createQueue({
  key,
  storage,
  fetch,
  url,
  csrfToken,
  setTimeout,
  clearTimeout,
  now,
  errorText,
  onChange = () => {},
  onAnswered = () => {},
  onRefused = () => {},
}) {
  let storageWorks = true;
  let memoryQueue = [];
  let flushing = false;
  let sendingId = null;
  let networkDown = false;
  let loginNeeded = false;
  let retryDelay = RETRY_FIRST_MS;
  let retryTimer = null;

  function load() {
    if (storageWorks) {
      try {
        const raw = storage.getItem(key);
        const queue = raw ? JSON.parse(raw) : [];
        return Array.isArray(queue) ? queue.filter((item) => item && item.body && item.id) : [];
      } catch (error) {
        storageWorks = false;
      }
    }
    return memoryQueue.slice();
  }

  function save(queue) {
    memoryQueue = queue.slice();
    if (!storageWorks) return;
    try {
      storage.setItem(key, JSON.stringify(queue));
    } catch (error) {
      storageWorks = false;
    }
  }

  // Keep a capture (its body as the server takes it) at the end of the queue.
  function add(body, where) {
    const item = {
      id: body.id,
      round: body.round,
      entry: body.entry,
      kind: body.kind,
      where,
      queuedAt: now(),
      body,
    };
    const queue = load();
    queue.push(item);
    save(queue);
    return item;
  }

  function remove(id, withLaterOfTheEntry) {
    const kept = without(load(), id, withLaterOfTheEntry);
    if (kept) save(kept);
  }

  function scheduleRetry() {
    if (retryTimer !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      flush();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
  }

  // Send the queue, first capture first, until it is empty or one must wait.
  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      for (;;) {
        const queue = load();
        if (!queue.length) break;
        const item = queue[0];
        sendingId = item.id;
        onChange();
        let response;
        try {
          response = await fetch(url, {
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
          remove(item.id, false);
          onAnswered(item, body);
          continue;
        }
        const message = messageOf(body, response.status, errorText);
        if (keepAfter(response.status, message)) {
          loginNeeded = response.status === 401 || response.status === 403;
          scheduleRetry();
          return;
        }
        remove(item.id, true);
        onRefused(item, message);
      }
    } finally {
      flushing = false;
      sendingId = null;
      onChange();
    }
  }

  // The network is back: send at once, and from the first delay again after a failure.
  function online() {
    networkDown = false;
    retryDelay = RETRY_FIRST_MS;
    if (retryTimer !== null) {
      clearTimeout(retryTimer);
      retryTimer = null;
    }
  }

  function offline() {
    networkDown = true;
  }

  return {
    load,
    add,
    flush,
    online,
    offline,
    get storageWorks() {
      return storageWorks;
    },
    get networkDown() {
      return networkDown;
    },
    get loginNeeded() {
      return loginNeeded;
    },
    get sendingId() {
      return sendingId;
    },
    get retryDelay() {
      return retryDelay;
    },
    get retrying() {
      return retryTimer !== null;
    },
  };
}
