// Applies the reader's colour theme (auto, light or dark, remembered in
// localStorage) before the page is first painted. It is a blocking script
// in the head because pages forbid inline script by their
// Content-Security-Policy; it only sets attributes on <html>, which the
// stylesheet reads: data-theme (the scheme in effect: the choice, or on
// auto the system's, followed as it changes), data-theme-choice (what the
// button shows), the class "dark" when it is dark (what the stylesheet
// reads) and the class "js" that shows the button. The button
// (.theme-toggle) cycles auto → light → dark.
(function () {
  "use strict";
  var key = "errdocs:theme", order = ["auto", "light", "dark"];
  var root = document.documentElement, choice = "auto";
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
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
    if (c === "auto") c = system && system.matches ? "dark" : "light";
    root.setAttribute("data-theme", c);
    root.classList.toggle("dark", c === "dark");
    var b = document.querySelector(".theme-toggle");
    if (b) b.setAttribute("aria-label", "Colour theme: " + choice);
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
  if (system && system.addEventListener) {
    system.addEventListener("change", function () { apply(choice); });
  }
  // Another tab changed the theme.
  window.addEventListener("storage", function (e) {
    if (e.key === key || e.key === null) apply(stored());
  });
  document.addEventListener("DOMContentLoaded", function () { apply(choice); });
})();
