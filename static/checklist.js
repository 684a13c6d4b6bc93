// Turns each prevention checklist (ul.checklist[data-record]) into
// checkboxes whose ticks persist per record in localStorage. Without
// JavaScript the list stays a plain list. Loaded as a file: pages forbid
// inline script by their Content-Security-Policy.
(function () {
  "use strict";
  var prefix = "errdocs:checklist:";
  function load(key) {
    try {
      var v = JSON.parse(window.localStorage.getItem(key) || "[]");
      return Array.isArray(v) ? v : [];
    } catch (e) {
      return []; // storage disabled or value damaged: start unticked
    }
  }
  function save(key, ticks) {
    try {
      if (ticks.length) window.localStorage.setItem(key, JSON.stringify(ticks));
      else window.localStorage.removeItem(key);
    } catch (e) { /* storage full or disabled: ticks last this visit only */ }
  }
  var lists = document.querySelectorAll("ul.checklist[data-record]");
  Array.prototype.forEach.call(lists, function (ul, n) {
    var key = prefix + ul.getAttribute("data-record");
    var ticked = load(key);
    var boxes = [];
    Array.prototype.forEach.call(ul.children, function (li, i) {
      var label = document.createElement("label");
      var box = document.createElement("input");
      var text = document.createElement("span");
      box.type = "checkbox";
      box.checked = ticked.indexOf(i) >= 0;
      while (li.firstChild) text.appendChild(li.firstChild);
      label.appendChild(box);
      label.appendChild(text);
      li.appendChild(label);
      boxes.push(box);
      box.addEventListener("change", function () {
        var now = [];
        boxes.forEach(function (b, k) { if (b.checked) now.push(k); });
        save(key, now);
      });
    });
    ul.classList.add("js");
  });
})();
