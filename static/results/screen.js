// The projector: a clock synchronised to the server's (server_clock.js), and a leaderboard that
// pages by itself (paging.js). Once time is up the clock says so instead of a time remaining.
// The clock's state (start, time-up, limit, motif) comes with every new version of the board,
// so a screen opened before the start runs as soon as the heat starts.
(function () {
  "use strict";
  var clock = document.getElementById("clock");
  var measuredFor = null; // the start the offset was last measured for

  function measure() {
    ServerClock.measure(clock.dataset.timeUrl, 5);
  }

  function state() {
    var board = document.getElementById("board");
    return board ? board.dataset : {};
  }

  function format(seconds) {
    return ServerClock.duration(seconds * 1000);
  }

  function tick() {
    var now = state();
    var started = parseInt(now.startedMs, 10);
    var limit = parseInt(now.limit, 10);
    document.getElementById("clock-waiting").hidden = Boolean(started);
    document.getElementById("progress").hidden = !started;
    if (!started) {
      document.getElementById("elapsed").textContent = format(0);
      document.getElementById("remaining").textContent = format(limit);
      clock.classList.remove("time-up");
      return;
    }
    if (measuredFor !== now.startedMs) {
      // A new start: take the server's clock again before trusting this computer's.
      measuredFor = now.startedMs;
      measure();
    }
    var ended = parseInt(now.endedMs, 10);
    var at = ended || ServerClock.now();
    var elapsed = Math.max(0, Math.min((at - started) / 1000, limit));
    document.getElementById("elapsed").textContent = format(elapsed);
    document.getElementById("remaining").textContent = format(limit - elapsed);
    document.getElementById("progress-bar").style.width = Math.min(100, (elapsed / limit) * 100) + "%";
    // Stopped by the organiser, or the limit reached: "Time is up" stands where the time
    // remaining stood, in the same room (screen.css), so nothing else on the screen moves.
    clock.classList.toggle("time-up", Boolean(ended) || elapsed >= limit);
  }

  function showMotif() {
    var motif = document.getElementById("motif");
    var text = state().motif || "";
    if (motif.textContent !== text) { motif.textContent = text; }
    // Until the start its line is kept, empty: revealed, it moves nothing (screen.css).
    motif.classList.toggle("is-secret", !text);
  }

  // The clock first: the pages are counted in the header's final layout (paging.js).
  function refresh() {
    showMotif();
    tick();
    ScreenPaging.layout();
  }

  measuredFor = state().startedMs;
  measure();
  setInterval(measure, 5 * 60 * 1000);
  // The pages are counted once the page is laid out (paging.js, at DOMContentLoaded).
  showMotif();
  tick();
  setInterval(tick, 250);
  document.addEventListener("visibilitychange", tick);
  document.body.addEventListener("htmx:afterSwap", refresh);
})();
