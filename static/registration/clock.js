// An entrant's own clock on the manage page: elapsed since their start, by the server's clock.
(function () {
  "use strict";
  var offset = 0;
  fetch("/api/v1/time/", { cache: "no-store" })
    .then(function (r) { return r.json(); })
    .then(function (data) { offset = data.now_ms - Date.now(); })
    .catch(function () {});
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    document.querySelectorAll(".entry-clock").forEach(function (clock) {
      var started = parseInt(clock.dataset.started, 10);
      var limit = parseInt(clock.dataset.limit, 10);
      var elapsed = Math.max(0, Math.min(limit, Math.floor((Date.now() + offset) / 1000 - started)));
      var h = Math.floor(elapsed / 3600), m = Math.floor((elapsed % 3600) / 60), s = elapsed % 60;
      clock.querySelector(".value").textContent = h + ":" + pad(m) + ":" + pad(s);
    });
  }
  setInterval(tick, 500);
  document.addEventListener("DOMContentLoaded", tick);
})();
