// "New championship": the address (slug) follows the name until the organiser types one,
// and a category shows the advancement of the rounds it has.
(function () {
  "use strict";

  function slugify(text) {
    return text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/æ/gi, "ae")
      .replace(/ø/gi, "o")
      .replace(/ß/g, "ss")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 64);
  }

  // Show the advancement fields of the stages chosen (the value lists them: "prelim final").
  document.addEventListener("change", function (event) {
    const select = event.target.closest("[data-stages] select");
    if (!select) return;
    const stages = select.value.split(" ");
    const category = select.closest("fieldset");
    category.querySelectorAll("[data-stage]").forEach(function (element) {
      const wanted = element.dataset.stage.split(" ");
      element.hidden = !wanted.some(function (stage) {
        return stages.includes(stage);
      });
    });
  });

  document.addEventListener("DOMContentLoaded", function () {
    const source = document.querySelector("[data-slug-source]");
    const slug = document.querySelector("[data-slug]");
    if (!source || !slug) return;
    let typed = slug.value !== "" && slug.value !== slugify(source.value);
    slug.addEventListener("input", function () {
      typed = slug.value !== "";
    });
    source.addEventListener("input", function () {
      if (!typed) slug.value = slugify(source.value);
    });
  });
})();
