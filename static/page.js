// Page behaviour that needs script; without JavaScript pages lose only
// these extras. Loaded as a file (pages forbid inline script by their
// Content-Security-Policy).
//  - Copy buttons on code blocks: the code's text exactly, without the
//    line numbers and marker (drawn by CSS) or the "[cut …]" notes.
//  - The prevention checklist (ul.checklist[data-record]) as checkboxes
//    whose ticks persist per record in localStorage.
(function () {
  "use strict";

  var status = null; // the live region that announces "Copied"
  function announce(text) {
    if (!status) {
      status = document.createElement("span");
      status.className = "vh copy-status";
      status.setAttribute("role", "status");
      document.body.appendChild(status);
    }
    status.textContent = "";
    window.setTimeout(function () { status.textContent = text; }, 50);
  }

  // codeText is what a code block holds: its text without the notes the
  // highlighter adds about cut lines.
  function codeText(pre) {
    var code = (pre.querySelector("code") || pre).cloneNode(true);
    Array.prototype.forEach.call(code.querySelectorAll(".cut"), function (n) {
      n.parentNode.removeChild(n);
    });
    return code.textContent.replace(/\n$/, "");
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "vh";
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(area);
      if (ok) resolve(); else reject(new Error("copy refused"));
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("main pre"), function (pre) {
    var wrap = document.createElement("div");
    wrap.className = "code-wrap";
    pre.parentNode.insertBefore(wrap, pre);
    wrap.appendChild(pre);
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy code");
    var timer = 0;
    button.addEventListener("click", function () {
      copyText(codeText(pre)).then(function () {
        button.textContent = "Copied";
        announce("Copied");
      }, function () {
        button.textContent = "Copy failed";
        announce("Copy failed");
      });
      window.clearTimeout(timer);
      timer = window.setTimeout(function () { button.textContent = "Copy"; }, 2000);
    });
    wrap.appendChild(button);
  });

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
  Array.prototype.forEach.call(lists, function (ul) {
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
