// The projector's pages (the results board, the seating): as many rows a page as the list has
// room for, the next page every PERIOD ms; a presenter's clicker steps them by hand.
//
// The paged region is #board; its list carries data-paged, its rows are .row; #pages, if there,
// is the label ("Page {page} of {pages}"). The region tells the page shown and the count in
// data-page, data-pages and data-per-page.
//
// The count is taken only when what the list holds or where it stands changes: once the page is
// laid out (DOMContentLoaded: after every deferred script, so after the clock has its text), when
// a page script says so after a new version (ScreenPaging.layout), when the window is resized and
// when the fonts are loaded. Turning a page never measures again, so every page reads
// "n of N" with the same N.
var ScreenPaging = (function () {
  "use strict";
  var PERIOD = 8000;
  var page = 0;
  var size = 1;
  var pages = 1;
  var timer = null;
  var started = false;

  function region() { return document.getElementById("board"); }

  function rowsOf(board) {
    var list = board.querySelector("[data-paged]");
    return list ? Array.prototype.slice.call(list.querySelectorAll(":scope > .row")) : [];
  }

  // How many rows fit: the list's height over the tallest row's, all rows shown at once, so that
  // no row of any page is cut at the bottom.
  function fitting(board, rows) {
    var list = board.querySelector("[data-paged]");
    if (!list || !rows.length) { return 1; }
    rows.forEach(function (row) { row.hidden = false; });
    var tallest = 0;
    rows.forEach(function (row) { tallest = Math.max(tallest, row.getBoundingClientRect().height); });
    var room = list.getBoundingClientRect().height;
    return Math.max(1, Math.floor((room + 1) / Math.max(tallest, 1)));
  }

  function show() {
    var board = region();
    if (!board) { return; }
    var rows = rowsOf(board);
    pages = Math.max(1, Math.ceil(rows.length / size));
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

  // Count the pages anew; the page shown stays (or the last one, if there are fewer now).
  function layout() {
    var board = region();
    if (!board) { return; }
    size = fitting(board, rowsOf(board));
    show();
  }

  function schedule() {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(function () { step(1); }, PERIOD);
  }

  function step(by) {
    page = (page + by + pages) % pages;
    show();
    schedule();
  }

  function start() {
    if (started) { return; }
    started = true;
    layout();
    schedule();
    window.addEventListener("resize", layout);
    if (document.fonts && document.fonts.ready) { document.fonts.ready.then(layout); }
  }

  document.addEventListener("keydown", function (event) {
    if (!started) { return; }
    if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " ") {
      event.preventDefault();
      step(1);
    } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
      event.preventDefault();
      step(-1);
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }

  return { layout: layout, step: step };
})();
