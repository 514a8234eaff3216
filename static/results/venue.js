// The venue screen follows the control room's choice (results/venue.py): every few seconds
// it asks what the screen shows; when the version has moved on, it goes there.
(function () {
  "use strict";
  var script = document.currentScript;
  var stateUrl = script.dataset.stateUrl;
  var shown = new URLSearchParams(window.location.search).get("venue");
  var EVERY_MS = 3000;

  function ask() {
    fetch(stateUrl, { cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (state) {
        if (state && String(state.version) !== shown) {
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
