/*
 * The judge's table pages when the venue's network is down.
 *
 * Served at /t/sw.js (judging.views.service_worker), so its scope is every table
 * page under /t/. A table page is fetched from the network first; when that fails
 * (no network, a server error, or too long a wait while a copy is at hand), the
 * copy kept from the last visit is shown. Its static files (the modules of judging/judge/,
 * rules.js, the CSS) are kept the same way.
 * Nothing else is touched: captures, the clock and the table's state go to the
 * network as always, and the queue in localStorage does the rest.
 *
 * Each release lists its own assets (hashed names in production), so a release
 * changes this script and the browser installs it anew.
 */
"use strict";

// Release {{ version|safe }}
const ASSETS = {{ assets|safe }};
const STATIC_URL = {{ static_url|safe }};
const CACHE = "judging-pages";
// With a copy at hand, a network that does not answer in this time counts as down.
const PATIENCE_MS = 4000;
const scope = new URL(self.registration.scope).pathname;

function isTablePage(url) {
  if (!url.pathname.startsWith(scope)) return false;
  return /^[^/]+\/$/.test(url.pathname.slice(scope.length));
}

// A table page is kept once, whatever its query; a static file by its whole address.
function keyOf(url) {
  return isTablePage(url) ? url.origin + url.pathname : url.href;
}

async function keep(key, response) {
  const cache = await caches.open(CACHE);
  if (response.ok && response.type === "basic" && !response.redirected) {
    await cache.put(key, response);
  } else if (
    response.type === "opaqueredirect" || // a navigation sent elsewhere (the worker sees no more)
    response.redirected ||
    response.status === 404 ||
    response.status === 403
  ) {
    // A replaced QR token, a judge who lost the role, or a phone signed out (sent to
    // the login page, as when its sign-in link is revoked): no copy to fall back on.
    await cache.delete(key);
  }
}

async function answer(fromNetwork, key) {
  const copy = await caches.match(key);
  if (!copy) return fromNetwork;
  let timer;
  const tooLong = new Promise((resolve) => {
    timer = setTimeout(() => resolve(copy), PATIENCE_MS);
  });
  // A server that fails (a proxy without its application) is no better than no network.
  const answered = fromNetwork.then((response) => (response.status >= 500 ? copy : response));
  try {
    return await Promise.race([answered, tooLong]);
  } catch (error) {
    return copy;
  } finally {
    clearTimeout(timer);
  }
}

function networkFirst(event, key) {
  const fromNetwork = fetch(event.request);
  // Cloned before the page reads the body; kept while the worker may still run.
  const forCache = fromNetwork.then((response) => response.clone());
  event.waitUntil(forCache.then((response) => keep(key, response)).catch(() => null));
  event.respondWith(answer(fromNetwork, key));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // One missing asset must not stop the rest from being kept.
      .then((cache) => Promise.all(ASSETS.map((url) => cache.add(url).catch(() => null))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if ((request.mode === "navigate" && isTablePage(url)) || url.pathname.startsWith(STATIC_URL)) {
    networkFirst(event, keyOf(url));
  }
});

// The page that registered the worker was loaded before the worker ran: it says what to keep.
self.addEventListener("message", (event) => {
  const urls = event.data && Array.isArray(event.data.keep) ? event.data.keep : [];
  const kept = urls
    .map((href) => new URL(href, self.location.origin))
    .filter((url) => url.origin === self.location.origin)
    .filter((url) => isTablePage(url) || url.pathname.startsWith(STATIC_URL))
    .map((url) =>
      fetch(url.href, { credentials: "same-origin" })
        .then((response) => keep(keyOf(url), response))
        .catch(() => null)
    );
  event.waitUntil(Promise.all(kept));
});
