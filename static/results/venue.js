// The venue screen follows the control room's choice (results/venue.py): every few seconds
// it asks what the screen shows; when the version has moved on, it goes there. A seating
// published anew, or taken back, moves its address's "seating" on: the screen follows too.
(function () {
  "use strict";
  var script = document.currentScript;
  var stateUrl = script.dataset.stateUrl;
  var here = new URLSearchParams(window.location.search);
  var shown = here.get("venue");
  var seating = here.get("seating");
  var EVERY_MS = 3000;

  function moved(state) {
    if (String(state.version) !== shown) { return true; }
    return new URL(state.url, window.location.href).searchParams.get("seating") !== seating;
  }

  function ask() {
    fetch(stateUrl, { cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (state) {
        if (state && moved(state)) {
          window.location.replace(state.url);
          return;
        }
        window.setTimeout(ask, EVERY_MS);
      })
      .catch(function () {
        // No network: the screen keeps what it shows and asks again.
        window.setTimeout(ask, EVERY_MS);
      });
  }

  window.setTimeout(ask, EVERY_MS);
})();
