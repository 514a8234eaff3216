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
