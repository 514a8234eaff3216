// The round control page: running clocks, the scheduled start inputs that follow the number
// of heats, and a question before an action that cannot be undone (data-confirm).
// A static file, as the Content-Security-Policy forbids inline scripts.
(function () {
  "use strict";
  var offset = 0;

  function sync() {
    // The server's clock, not the laptop's, decides the elapsed time.
    var holder = document.querySelector("[data-server-now]");
    if (holder) {
      offset = Number(holder.dataset.serverNow) * 1000 - Date.now();
    }
  }

  function two(n) {
    return String(n).padStart(2, "0");
  }

  function clock(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 3600) + ":" + two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
  }

  function tick() {
    var now = Date.now() + offset;
    document.querySelectorAll(".clock[data-start]").forEach(function (el) {
      var limit = Number(el.dataset.limit);
      var elapsed = now - Date.parse(el.dataset.start);
      el.querySelector(".elapsed").textContent = clock(elapsed);
      el.querySelector(".left").textContent = clock(limit - elapsed);
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
