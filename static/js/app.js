// Small behaviours of every page, without inline scripts (the Content-Security-Policy forbids them).
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-print]");
  if (button) {
    event.preventDefault();
    window.print();
  }
});

// The language switcher: choosing a language switches at once (its button is for pages
// without JavaScript, in <noscript>).
document.querySelectorAll("[data-language-switcher]").forEach(function (form) {
  form.querySelector("select").addEventListener("change", function () {
    form.submit();
  });
});

// Copy buttons ([data-copy]: the text to copy), shown only where copying works. Outside a
// secure context (a site on http on the venue's network) the clipboard API is missing, and
// a selected, hidden text field is copied instead.
document.querySelectorAll("button[data-copy]").forEach(function (button) {
  if (!navigator.clipboard && !document.queryCommandSupported("copy")) return;
  button.hidden = false;
  var label = button.textContent;
  button.addEventListener("click", function () {
    var text = button.dataset.copy;
    var copied = navigator.clipboard
      ? navigator.clipboard.writeText(text)
      : new Promise(function (resolve, reject) {
          var field = document.createElement("textarea");
          field.value = text;
          field.setAttribute("readonly", "");
          field.style.position = "fixed";
          field.style.opacity = "0";
          document.body.appendChild(field);
          field.select();
          var done = document.execCommand("copy");
          field.remove();
          (done ? resolve : reject)();
        });
    copied.then(function () {
      button.textContent = button.dataset.copied;
      setTimeout(function () { button.textContent = label; }, 2000);
    });
  });
});
