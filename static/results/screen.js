// The projector: a clock synchronised to the server's, and a leaderboard that pages by itself.
(function () {
  "use strict";
  var clock = document.getElementById("clock");
  var offset = 0; // server time minus this computer's time, in ms

  function measure() {
    var best = null;
    var tries = 0;
    function once() {
      var t0 = Date.now();
      fetch(clock.dataset.timeUrl, { cache: "no-store" })
        .then(function (r) { return r.json(); })
        .then(function (data) {
          var t1 = Date.now();
          var sample = { rtt: t1 - t0, offset: data.now_ms - (t0 + t1) / 2 };
          if (!best || sample.rtt < best.rtt) { best = sample; offset = best.offset; }
        })
        .catch(function () {})
        .finally(function () { tries += 1; if (tries < 5) setTimeout(once, 200); });
    }
    once();
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function format(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return h + ":" + pad(m) + ":" + pad(s);
  }

  function tick() {
    var started = parseInt(clock.dataset.started, 10);
    var limit = parseInt(clock.dataset.limit, 10);
    if (!started) { return; }
    var ended = parseInt(clock.dataset.ended, 10);
    var now = (ended ? ended * 1000 : Date.now() + offset) / 1000;
    var elapsed = Math.min(now - started, limit);
    document.getElementById("elapsed").textContent = format(elapsed);
    document.getElementById("remaining").textContent = format(limit - elapsed);
    document.getElementById("progress-bar").style.width = Math.min(100, (elapsed / limit) * 100) + "%";
    clock.classList.toggle("time-up", elapsed >= limit);
  }

  // Page through a long leaderboard: PAGE rows at a time, the next page every 8 s.
  var PAGE = 10;
  var page = 0;
  function showPage() {
    var rows = document.querySelectorAll("#board .leaderboard .row");
    var pages = Math.max(1, Math.ceil(rows.length / PAGE));
    if (page >= pages) { page = 0; }
    rows.forEach(function (row, index) {
      row.hidden = Math.floor(index / PAGE) !== page;
    });
    var board = document.getElementById("board");
    if (board) { board.dataset.page = String(page + 1); board.dataset.pages = String(pages); }
  }
  function nextPage() { page += 1; showPage(); }

  if (clock.dataset.started) { measure(); setInterval(measure, 5 * 60 * 1000); }
  tick();
  setInterval(tick, 250);
  document.addEventListener("visibilitychange", tick);
  showPage();
  setInterval(nextPage, 8000);
  document.body.addEventListener("htmx:afterSwap", showPage);
})();
