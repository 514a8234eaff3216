// The judging dashboard refreshes itself every few seconds (HTMX). A correction being typed is
// kept: while a correction form is open the refresh waits, and an answer that was already on its
// way when the form opened is not swapped in. A static file: the Content-Security-Policy forbids
// inline scripts and htmx's evaluated trigger filters.
(function () {
  "use strict";

  function editing() {
    var live = document.getElementById("dashboard-live");
    return Boolean(live && live.querySelector("details.row-correct[open]"));
  }

  function isLive(element) {
    return Boolean(element && element.id === "dashboard-live");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isLive(event.detail.elt) && editing()) {
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (isLive(event.detail.target) && editing()) {
      event.detail.shouldSwap = false;
    }
  });

  // Opening a correction puts the cursor in its first field.
  document.addEventListener(
    "toggle",
    function (event) {
      var details = event.target;
      if (details.matches && details.matches("details.row-correct") && details.open) {
        var first = details.querySelector("input:not([type=hidden]), select, textarea");
        if (first) {
          first.focus();
        }
      }
    },
    true
  );
})();
