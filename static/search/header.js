// header.js: the search box in every page's header, and the keys that reach
// search from anywhere ("/" and Ctrl/Cmd+K). Plain script, no inline code,
// so it runs under the pages' CSP (script-src 'self'), from file:// too.
//
// It costs the page this file only: the search engine (analyzer.js,
// engine.js, named in the form's data attributes) is loaded by script tags
// the first time the box gets focus, and the index chunks as queries need
// them. The box is a WAI-ARIA combobox with a listbox popup: as they type,
// the first results (message, repo, severity; up to 8) and an "all
// results" option appear under it; arrows move, Enter opens, Escape
// closes, and a status region says how many results there are.
//
// ErrdocsCombobox, the keyboard and ARIA part, is shared with the search
// page's repository filter (ui.js).
//
// Record text is untrusted: it is put in with textContent only.
(function () {
  "use strict";

  var MAX_QUERY = 1000;
  var SHOWN = 8;
  var DEBOUNCE_MS = 80;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // Combobox drives an input (role=combobox) and its listbox. opts:
  // render(li, item) fills an option; pick(item) acts on one; status, an
  // element whose text announces the count; enter(ev), for Enter with no
  // option chosen (the default lets the form submit).
  function Combobox(input, list, opts) {
    this.input = input;
    this.list = list;
    this.opts = opts;
    this.items = [];
    this.active = -1;
    var self = this;
    input.addEventListener("keydown", function (ev) { self.key(ev); });
    input.addEventListener("blur", function () { self.close(); });
    // A press on an option must not take the focus from the box.
    list.addEventListener("mousedown", function (ev) { ev.preventDefault(); });
    list.addEventListener("click", function (ev) {
      var li = ev.target.closest ? ev.target.closest('[role="option"]') : null;
      if (li && list.contains(li)) opts.pick(self.items[+li.getAttribute("data-i")]);
    });
  }

  Combobox.prototype.show = function (items, status) {
    var list = this.list, render = this.opts.render;
    this.items = items;
    this.active = -1;
    while (list.firstChild) list.removeChild(list.firstChild);
    items.forEach(function (item, i) {
      var li = el("li");
      li.id = list.id + "-" + i;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.setAttribute("data-i", String(i));
      render(li, item);
      list.appendChild(li);
    });
    var open = items.length > 0 && document.activeElement === this.input;
    list.hidden = !open;
    this.input.setAttribute("aria-expanded", open ? "true" : "false");
    this.input.removeAttribute("aria-activedescendant");
    if (this.opts.status) this.opts.status.textContent = status || "";
  };

  Combobox.prototype.close = function () {
    this.list.hidden = true;
    this.active = -1;
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
  };

  Combobox.prototype.move = function (to) {
    var n = this.items.length;
    if (!n) return;
    if (this.list.hidden) {
      this.list.hidden = false;
      this.input.setAttribute("aria-expanded", "true");
    }
    // Past either end: back to the box (no option chosen).
    this.active = to < -1 ? n - 1 : to >= n ? -1 : to;
    var self = this;
    Array.prototype.forEach.call(this.list.children, function (li, i) {
      li.setAttribute("aria-selected", i === self.active ? "true" : "false");
    });
    if (this.active < 0) { this.input.removeAttribute("aria-activedescendant"); return; }
    var li = this.list.children[this.active];
    this.input.setAttribute("aria-activedescendant", li.id);
    if (li.scrollIntoView) li.scrollIntoView({ block: "nearest" });
  };

  Combobox.prototype.key = function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === "ArrowDown") { ev.preventDefault(); this.move(this.active + 1); }
    else if (ev.key === "ArrowUp") { ev.preventDefault(); this.move(this.active - 1); }
    else if (ev.key === "Escape") {
      // First Escape closes the list; a second one clears the box.
      if (!this.list.hidden) this.close();
      else if (this.input.value) { this.input.value = ""; this.input.dispatchEvent(new Event("input", { bubbles: true })); }
      else return;
      ev.preventDefault();
    } else if (ev.key === "Enter") {
      if (!this.list.hidden && this.active >= 0) { ev.preventDefault(); this.opts.pick(this.items[this.active]); }
      else if (this.opts.enter) this.opts.enter(ev);
    }
  };

  window.ErrdocsCombobox = Combobox;

  // --- keys that reach search from anywhere ---------------------------------

  function editable(t) {
    if (!t || !t.tagName) return false;
    var tag = t.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || t.isContentEditable;
  }

  // swallow: the "/" that moved the focus must not be typed into the box
  // by a key press sent apart from its keydown (as some keyboards and
  // automation tools send it).
  var swallow = false;
  document.addEventListener("keydown", function (ev) {
    var slash = ev.key === "/" && !ev.ctrlKey && !ev.metaKey && !ev.altKey && !editable(ev.target);
    var k = (ev.ctrlKey || ev.metaKey) && !ev.altKey && (ev.key === "k" || ev.key === "K");
    if (!slash && !k) return;
    var box = document.querySelector("[data-search-focus]");
    if (!box) return;
    ev.preventDefault();
    swallow = slash;
    box.focus();
    if (box.select) box.select();
  });
  document.addEventListener("keypress", function (ev) {
    if (swallow && ev.key === "/") ev.preventDefault();
    swallow = false;
  }, true);
  document.addEventListener("keyup", function () { swallow = false; });

  // --- the header box ---------------------------------------------------------

  var form = document.querySelector("form[data-find]");
  if (!form) return;
  var input = form.querySelector('[role="combobox"]');
  var list = document.getElementById(input.getAttribute("aria-controls"));
  var status = form.querySelector('[role="status"]');
  var root = form.getAttribute("data-root") || "./";
  if (root.charAt(root.length - 1) !== "/") root += "/";
  // Folder links name index.html when the page's own links do (a build
  // opened from disk): the form's action is the search page's link.
  var action = form.getAttribute("action") || root + "search/";
  var indexFile = /\/index\.html$/.test(action) ? "index.html" : "";
  var engine = null, generation = 0, timer = 0;

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error("could not load " + src)); };
      document.head.appendChild(s);
    });
  }

  // loadEngine loads the analyzer, then the engine (which reads the
  // analyzer when it starts), then the index's manifest.
  function loadEngine() {
    if (engine) return engine;
    engine = (window.ErrdocsSearch ? Promise.resolve() : loadScript(form.getAttribute("data-analyzer")).then(function () {
      return loadScript(form.getAttribute("data-engine"));
    })).then(function () {
      return window.ErrdocsSearch.init(root + "search/");
    });
    engine.catch(function () { engine = null; });
    return engine;
  }

  function recordHref(url) {
    var path = String(url || "").replace(/^\/+/, "").split("/").map(function (s) {
      return s === "." || s === ".." ? encodeURIComponent(s).replace(/\./g, "%2E") : encodeURIComponent(s);
    }).join("/");
    if (indexFile && (path === "" || path.charAt(path.length - 1) === "/")) path += indexFile;
    return root + path;
  }

  function searchHref(q) {
    return action + "?q=" + encodeURIComponent(q);
  }

  function render(li, item) {
    if (item.all) {
      li.className = "find-all";
      li.textContent = "All results for “" + item.label + "”";
      return;
    }
    var d = item.doc || {};
    li.appendChild(el("span", "find-msg", String(d.title || d.url || "")));
    var meta = el("span", "find-meta");
    if (d.repo) meta.appendChild(el("span", "find-repo", d.repo));
    if (d.severity) {
      var sev = String(d.severity).replace(/[^a-z]/g, "");
      var b = el("span", "badge sev-" + sev, d.severity);
      meta.appendChild(b);
    }
    li.appendChild(meta);
  }

  var box = new Combobox(input, list, {
    status: status,
    render: render,
    pick: function (item) {
      if (!item) return;
      leaving = true;
      location.href = item.all ? searchHref(item.q) : recordHref(item.doc && item.doc.url);
    }
  });
  // Enter on an option opens it; a key press sent apart from its keydown
  // must not then submit the form as well.
  var leaving = false;
  form.addEventListener("submit", function (ev) { if (leaving) ev.preventDefault(); });
  // A page shown again from the back-forward cache is not leaving.
  window.addEventListener("pageshow", function () { leaving = false; });

  function label(q) {
    q = q.trim();
    return q.length > 60 ? q.slice(0, 60) + "…" : q;
  }

  function search() {
    var q = input.value.slice(0, MAX_QUERY);
    var my = ++generation;
    if (!q.trim()) { box.show([], ""); return; }
    loadEngine().then(function () {
      return window.ErrdocsSearch.search(q, { limit: SHOWN });
    }).then(function (res) {
      if (my !== generation) return;
      var results = (res && res.results) || [];
      var items = results.slice(0, SHOWN).map(function (r) { return { doc: r.doc }; });
      items.push({ all: true, q: q, label: label(q) });
      var total = Math.max(res.total || 0, results.length);
      box.show(items, results.length === 0 ? "No results. Press Enter to search all records."
        : (res.totalExact === false ? "At least " : "") + total + (total === 1 ? " result" : " results") +
          (total > results.length ? ", the first " + results.length + " listed" : "") + ". Arrow keys move through them.");
    }).catch(function () {
      if (my === generation) box.show([], "Search could not load. Press Enter to open the search page.");
    });
  }

  input.addEventListener("focus", function () {
    loadEngine();
    if (input.value.trim() && box.items.length) box.show(box.items, "");
  }, { once: false });
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(search, DEBOUNCE_MS);
  });
  // A pasted error keeps its words apart (the box would glue its lines)
  // and only what search uses.
  input.addEventListener("paste", function (ev) {
    var data = ev.clipboardData && ev.clipboardData.getData("text/plain");
    if (!data || !/[\r\n]/.test(data.slice(0, 4 * MAX_QUERY)) && data.length <= MAX_QUERY) return;
    ev.preventDefault();
    var flat = data.slice(0, 4 * MAX_QUERY).replace(/[\r\n]+/g, " ").trim();
    var before = input.value.slice(0, input.selectionStart), after = input.value.slice(input.selectionEnd);
    input.value = (before + flat + after).slice(0, MAX_QUERY);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
})();
