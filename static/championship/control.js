// The round control page: running clocks, the scheduled start inputs that follow the number
// of heats, and a question before an action that cannot be undone (data-confirm).
// A static file, as the Content-Security-Policy forbids inline scripts.
(function () {
  "use strict";
  function sync() {
    // The server's clock, not the laptop's, decides the elapsed time (server_clock.js).
    var holder = document.querySelector("[data-server-now]");
    if (holder) {
      ServerClock.renderedAt(Number(holder.dataset.serverNow));
    }
  }

  function tick() {
    var now = ServerClock.now();
    document.querySelectorAll(".clock[data-start]").forEach(function (el) {
      var limit = Number(el.dataset.limit);
      var elapsed = now - Date.parse(el.dataset.start);
      el.querySelector(".elapsed").textContent = ServerClock.duration(elapsed);
      el.querySelector(".left").textContent = ServerClock.duration(limit - elapsed);
      el.classList.toggle("over", elapsed >= limit);
    });
  }

  function followHeats() {
    var heats = document.querySelector("#seat-form input[name=heats]");
    if (!heats) {
      return;
    }
    heats.addEventListener("input", function () {
      var count = Number(heats.value) || 1;
      document.querySelectorAll("#seat-form [data-heat]").forEach(function (el) {
        el.hidden = Number(el.dataset.heat) > count;
      });
    });
  }

  document.addEventListener("submit", function (event) {
    var message = event.target.dataset && event.target.dataset.confirm;
    if (message && !window.confirm(message)) {
      event.preventDefault();
    }
  });

  function start() {
    followHeats();
    sync();
    var holder = document.querySelector("[data-time-url]");
    ServerClock.measure(holder ? holder.dataset.timeUrl : undefined, 3);
    tick();
    setInterval(tick, 1000);
    document.body.addEventListener("htmx:afterSwap", function () {
      sync();
      tick();
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
