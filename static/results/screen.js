// The projector: a clock synchronised to the server's (server_clock.js), and a leaderboard that pages by itself.
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
    clock.classList.toggle("time-up", Boolean(ended) || elapsed >= limit);
  }

  function showMotif() {
    var motif = document.getElementById("motif");
    var text = state().motif || "";
    if (motif.textContent !== text) { motif.textContent = text; }
    motif.hidden = !text;
  }

  // Paging: as many rows a page as the board has room for, the next page every PERIOD ms.
  // A new version of the board keeps the page shown (or the last one, if it has fewer).
  var PERIOD = 8000;
  var page = 0;
  var timer = null;

  function rowsPerPage(list, rows) {
    if (!rows.length) { return 1; }
    var first = rows[0];
    first.hidden = false;
    var height = first.getBoundingClientRect().height;
    var room = list.getBoundingClientRect().height;
    return Math.max(1, Math.floor((room + 1) / Math.max(height, 1)));
  }

  function showPage() {
    var board = document.getElementById("board");
    if (!board) { return; }
    var list = board.querySelector(".leaderboard");
    var rows = list.querySelectorAll(".row");
    var size = rowsPerPage(list, rows);
    var pages = Math.max(1, Math.ceil(rows.length / size));
    page = Math.min(Math.max(page, 0), pages - 1);
    rows.forEach(function (row, index) {
      row.hidden = Math.floor(index / size) !== page;
    });
    board.dataset.page = String(page + 1);
    board.dataset.pages = String(pages);
    board.dataset.perPage = String(size);
    var label = document.getElementById("pages");
    if (!label) { return; }
    label.hidden = pages < 2;
    label.textContent = (label.dataset.label || "")
      .replace("{page}", String(page + 1))
      .replace("{pages}", String(pages));
  }

  function schedule() {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(function () { step(1); }, PERIOD);
  }

  function step(by) {
    var board = document.getElementById("board");
    var pages = board ? parseInt(board.dataset.pages, 10) || 1 : 1;
    page = (page + by + pages) % pages;
    showPage();
    schedule();
  }

  // A presenter's clicker sends these keys: the operator can step the pages by hand.
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " ") {
      event.preventDefault();
      step(1);
    } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
      event.preventDefault();
      step(-1);
    }
  });

  function refresh() { showMotif(); showPage(); tick(); }

  measuredFor = state().startedMs;
  measure();
  setInterval(measure, 5 * 60 * 1000);
  refresh();
  setInterval(tick, 250);
  document.addEventListener("visibilitychange", tick);
  window.addEventListener("resize", showPage);
  schedule();
  document.body.addEventListener("htmx:afterSwap", refresh);
})();
