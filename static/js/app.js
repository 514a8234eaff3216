// Small behaviours of every page, without inline scripts (the Content-Security-Policy forbids them).
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-print]");
  if (button) {
    event.preventDefault();
    window.print();
  }
});
