// Applies the reader's colour theme (auto, light or dark, remembered in
// localStorage) before the page is first painted. It is a blocking script
// in the head because pages forbid inline script by their
// Content-Security-Policy; it only sets attributes on <html>, which the
// stylesheet reads: data-theme (light or dark; absent for auto, which
// follows the system) and data-theme-choice, and the class "js" that shows
// the theme button. The button (.theme-toggle) cycles auto → light → dark.
(function () {
  "use strict";
  var key = "errdocs:theme", order = ["auto", "light", "dark"];
  var root = document.documentElement, choice = "auto";
  function stored() {
    try {
      var v = window.localStorage.getItem(key);
      return v === "light" || v === "dark" ? v : "auto";
    } catch (e) {
      return "auto"; // storage disabled: follow the system
    }
  }
  function apply(c) {
    choice = c;
    root.setAttribute("data-theme-choice", c);
    if (c === "auto") root.removeAttribute("data-theme");
    else root.setAttribute("data-theme", c);
    var b = document.querySelector(".theme-toggle");
    if (b) b.setAttribute("aria-label", "Colour theme: " + c);
  }
  apply(stored());
  root.classList.add("js");
  document.addEventListener("click", function (e) {
    var b = e.target && e.target.closest ? e.target.closest(".theme-toggle") : null;
    if (!b) return;
    var next = order[(order.indexOf(choice) + 1) % order.length];
    apply(next);
    try {
      if (next === "auto") window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, next);
    } catch (err) { /* storage disabled: the choice lasts this page only */ }
  });
  // Another tab changed the theme.
  window.addEventListener("storage", function (e) {
    if (e.key === key || e.key === null) apply(stored());
  });
  document.addEventListener("DOMContentLoaded", function () { apply(choice); });
})();
