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

  // Opening a correction puts the cursor in its first field, unless it is already in one of
  // the correction's fields: the toggle event comes after the click, and on a busy phone
  // after a tap into the reason, whose typing would go on in the time field.
  document.addEventListener(
    "toggle",
    function (event) {
      var details = event.target;
      if (details.matches && details.matches("details.row-correct") && details.open) {
        var fields = details.querySelectorAll("input:not([type=hidden]), select, textarea");
        var chosen = Array.prototype.indexOf.call(fields, document.activeElement) !== -1;
        if (fields.length && !chosen) {
          fields[0].focus();
        }
      }
    },
    true
  );
})();
