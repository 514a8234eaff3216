// The check-in desk's scanner: the camera reads an entry's check-in QR code, and the
// entry appears above the list with its "Check in" button (one tap), or with why it
// cannot be checked in (withdrawn, on the waiting list).
// The browser's BarcodeDetector reads the code where there is one; elsewhere a
// decoder shipped with the application (jsQR) does, loaded only when needed.
(function () {
  "use strict";
  const root = document.querySelector("[data-checkin-scan]");
  if (!root) return;
  const startButton = root.querySelector("[data-scan-start]");
  const stopButton = root.querySelector("[data-scan-stop]");
  const video = root.querySelector("video");
  const status = root.querySelector("[data-scan-status]");
  const slot = document.getElementById("checkin-scanned-slot");
  const prefix = root.dataset.codePrefix;
  let stream = null;
  let decode = null;
  let looking = false;

  // Browsers give the camera to https (and localhost) only: on plain http (a venue's
  // network) there is no navigator.mediaDevices. Say so before asking, and point at the
  // search: it is no refused permission.
  if (!window.isSecureContext || !navigator.mediaDevices) {
    startButton.hidden = true;
    say(root.dataset.insecure);
    return;
  }

  function say(text) {
    status.textContent = text;
  }

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = reject;
      document.head.appendChild(script);
    });
  }

  async function decoder() {
    if ("BarcodeDetector" in window) {
      try {
        const formats = await window.BarcodeDetector.getSupportedFormats();
        if (formats.includes("qr_code")) {
          const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
          return async function (source) {
            const codes = await detector.detect(source);
            return codes.length ? codes[0].rawValue : null;
          };
        }
      } catch (error) {
        // Not usable here: the shipped decoder reads instead.
      }
    }
    await loadScript(root.dataset.decoder);
    const canvas = document.createElement("canvas");
    const context = canvas.getContext("2d", { willReadFrequently: true });
    return async function (source) {
      if (!source.videoWidth) return null;
      canvas.width = source.videoWidth;
      canvas.height = source.videoHeight;
      context.drawImage(source, 0, 0);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      const code = window.jsQR(image.data, image.width, image.height);
      return code ? code.data : null;
    };
  }

  function stop() {
    looking = false;
    if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
    stream = null;
    video.hidden = true;
    stopButton.hidden = true;
    startButton.hidden = false;
  }

  async function show(text) {
    let url;
    try {
      url = new URL(text, window.location.href);
    } catch (error) {
      url = null;
    }
    if (!url || url.origin !== window.location.origin || !url.pathname.startsWith(prefix)) {
      say(root.dataset.notOurs);
      return false;
    }
    const answer = await fetch(url.pathname + "?scanned=1", {
      headers: { "HX-Request": "true" },
      credentials: "same-origin",
    });
    slot.innerHTML = await answer.text();
    // The entry is on top now: the list below does not show it twice (one id, one row).
    slot.querySelectorAll(".checkin-row[id]").forEach(function (row) {
      const twin = document.querySelector("#checkin-results #" + CSS.escape(row.id));
      if (twin) twin.remove();
    });
    if (window.htmx) window.htmx.process(slot);
    // The answer says what was found (an entry to check in, or one that cannot be: withdrawn,
    // on the waiting list); the status line says it, once.
    const found = slot.querySelector("[data-scan-found]");
    if (found) found.hidden = true;
    say(answer.ok && found ? found.textContent.trim() : root.dataset.notOurs);
    return answer.ok;
  }

  async function look() {
    if (!looking) return;
    let text = null;
    try {
      text = await decode(video);
    } catch (error) {
      text = null;
    }
    if (text && (await show(text))) {
      stop();
      return;
    }
    window.setTimeout(look, 150);
  }

  startButton.addEventListener("click", async function () {
    say(root.dataset.starting);
    try {
      decode = decode || (await decoder());
      stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: "environment" },
        audio: false,
      });
    } catch (error) {
      say(root.dataset.noCamera);
      return;
    }
    video.srcObject = stream;
    video.hidden = false;
    await video.play();
    startButton.hidden = true;
    stopButton.hidden = false;
    say(root.dataset.looking);
    looking = true;
    look();
  });
  stopButton.addEventListener("click", stop);
})();
