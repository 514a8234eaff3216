// An entrant's own clock on the manage page: elapsed since their start, by the server's clock
// (server_clock.js).
(function () {
  "use strict";
  ServerClock.measure("/api/v1/time/", 3);
  function tick() {
    document.querySelectorAll(".entry-clock").forEach(function (clock) {
      var started = parseInt(clock.dataset.started, 10) * 1000;
      var limit = parseInt(clock.dataset.limit, 10) * 1000;
      var elapsed = Math.max(0, Math.min(limit, ServerClock.now() - started));
      clock.querySelector(".value").textContent = ServerClock.duration(elapsed);
    });
  }
  setInterval(tick, 500);
  document.addEventListener("DOMContentLoaded", tick);
})();
