// The server's clock in the browser, for every page that shows a running time: the judge's
// phone, the projector, the entrant's page and the control room.
//
// The page's own clock is corrected by an offset measured against GET /api/v1/time/ as NTP
// does: of a few samples, the one with the shortest round trip wins, and the server's
// instant is taken as the middle of that trip. The offset is kept in localStorage, so a
// page reloaded without network (the judge's phone at a venue) keeps the server's time.
// A static file, as the Content-Security-Policy forbids inline scripts.
(function () {
  "use strict";
  var KEY = "server-clock";
  var clock = { offset: 0, rtt: null };

  try {
    var saved = JSON.parse(localStorage.getItem(KEY) || "null");
    if (saved && Number.isFinite(saved.offset)) {
      clock.offset = saved.offset;
      clock.rtt = Number.isFinite(saved.rtt) ? saved.rtt : null;
    }
  } catch (error) {
    /* no storage: start from the page's own clock */
  }

  function keep() {
    try {
      localStorage.setItem(KEY, JSON.stringify({ offset: clock.offset, rtt: clock.rtt, at: Date.now() }));
    } catch (error) {
      /* the offset is kept in memory */
    }
  }

  // Measure the offset with up to `samples` requests to `url`; resolves when done (also
  // offline, with the offset unchanged).
  async function measure(url, samples) {
    var best = null;
    for (var i = 0; i < (samples || 5); i += 1) {
      var t0 = Date.now();
      var response;
      try {
        response = await fetch(url || "/api/v1/time/", { cache: "no-store", credentials: "same-origin" });
      } catch (error) {
        break; // offline: keep the last offset
      }
      var t1 = Date.now();
      if (!response.ok) continue;
      var body;
      try {
        body = await response.json();
      } catch (error) {
        continue;
      }
      var rtt = t1 - t0;
      if (Number.isFinite(body.now_ms) && (best === null || rtt < best.rtt)) {
        best = { rtt: rtt, offset: body.now_ms - (t0 + t1) / 2 };
      }
    }
    if (best) {
      clock.offset = Math.round(best.offset);
      clock.rtt = best.rtt;
      keep();
    }
    return clock;
  }

  // The server's instant as the page was rendered (seconds since 1970): a first offset
  // before any measurement answers.
  function renderedAt(serverSeconds) {
    if (Number.isFinite(serverSeconds) && clock.rtt === null) clock.offset = serverSeconds * 1000 - Date.now();
  }

  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }

  // A duration as H:MM:SS, truncated to the second, as core/l10n.py's format_duration
  // writes it (tests/durations_cases.py holds the cases both agree on); never negative.
  function duration(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
  }

  window.ServerClock = {
    now: function () {
      return Date.now() + clock.offset;
    },
    measure: measure,
    renderedAt: renderedAt,
    duration: duration,
    get offset() {
      return clock.offset;
    },
    get rtt() {
      return clock.rtt;
    },
  };
})();
