// ui.js: the search page. Plain script, no framework, no inline script and
// no eval, so it runs under a Content-Security-Policy of script-src 'self'.
//
// It reads the query (?q=) and filters (repo, severity, type, tag, lang,
// family; each repeatable) from the URL, shows results at once, and keeps
// the URL in step, so that a shared link reproduces the page: pushState
// when they submit or change a filter, and while they type, one pushState
// at the first keystroke after such a step and replaceState for the rest
// (one history entry per search, not per keystroke). The back button thus
// returns to the previous search, restored on popstate.
//
// Record text is untrusted: everything here is built with DOM APIs and
// textContent, never parsed as HTML.
//
// Paste an error: when the query looks like a message (several words, or it
// was pasted), the top PASTE_CANDIDATES text results are checked with
// ErrdocsPattern (a linear-time VM over each record's compiled
// messagePattern, see pattern.js) against the raw text as pasted, and the
// records whose pattern matches move to the top, marked "exact match".
(function () {
  "use strict";

  var PAGE = 20;
  var PASTE_CANDIDATES = 50;
  var DEBOUNCE_MS = 120;
  // A query is treated as a pasted message from this many words on.
  var MESSAGE_WORDS = 3;
  // The text query sent to the engine is cut here: a pasted traceback can
  // be long, and its words beyond this add cost, not precision.
  var MAX_QUERY = 1000;

  // URL parameter, engine filter key, label.
  var FILTERS = [
    { param: "repo", key: "repo", label: "Repository" },
    { param: "severity", key: "severity", label: "Severity" },
    { param: "type", key: "errorType", label: "Error type" },
    { param: "tag", key: "tag", label: "Tag" },
    { param: "lang", key: "language", label: "Language" },
    { param: "family", key: "family", label: "Family" }
  ];

  var app, form, input, statusEl, resultsEl, moreBtn, activeEl;
  var root = "./", indexFile = "";
  // The person's search: query, filters, how many results are shown.
  var state = { q: "", filters: {}, shown: PAGE };
  // The raw text of the last paste (with its line breaks, which a
  // single-line input drops) and the flattened form it was put in the box
  // as; valid while the box still holds exactly that.
  var paste = null;
  var generation = 0;
  // editing is true while the current history entry belongs to the
  // search being typed: later keystrokes replace it rather than push.
  var editing = false;
  var timer = 0;
  var engineReady = null;

  function emptyFilters() {
    var f = {};
    FILTERS.forEach(function (d) { f[d.key] = []; });
    return f;
  }

  function readURL() {
    var params = new URLSearchParams(location.search);
    var s = { q: params.get("q") || "", filters: emptyFilters(), shown: PAGE };
    FILTERS.forEach(function (d) {
      params.getAll(d.param).forEach(function (v) {
        v = v.trim();
        if (v && s.filters[d.key].indexOf(v) < 0) s.filters[d.key].push(v);
      });
    });
    return s;
  }

  function stateURL(s) {
    var params = new URLSearchParams();
    if (s.q) params.set("q", s.q);
    FILTERS.forEach(function (d) {
      s.filters[d.key].forEach(function (v) { params.append(d.param, v); });
    });
    var qs = params.toString();
    return location.pathname + (qs ? "?" + qs : "");
  }

  // setURL records the state in the address bar. A file:// page may change
  // only its query, which is all this does; a browser that still refuses
  // leaves the search working without the URL.
  function setURL(push) {
    var url = stateURL(state);
    if (url === location.pathname + location.search) return;
    try {
      if (push) history.pushState(null, "", url);
      else history.replaceState(null, "", url);
    } catch (e) { /* the search itself still works */ }
  }

  function hasFilters(s) {
    return FILTERS.some(function (d) { return s.filters[d.key].length > 0; });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // recordHref makes a result's link from the document's site path
  // ("owner/name/slug/"), relative to the site root. Each segment is
  // escaped, so a repo name holding ":", "?", "#" or "%" can neither read
  // as a URL scheme nor cut the path short; the offline bundle names
  // index.html, since a folder opened from disk shows as a listing.
  function recordHref(url) {
    var segs = String(url || "").replace(/^\/+/, "").split("/");
    var path = segs.map(function (s) {
      return s === "." || s === ".." ? encodeURIComponent(s).replace(/\./g, "%2E") : encodeURIComponent(s);
    }).join("/");
    if (indexFile && (path === "" || path.charAt(path.length - 1) === "/")) path += indexFile;
    return root + path;
  }

  // --- highlighting -------------------------------------------------------

  // marker returns a test for words to mark: a word is marked when the
  // message field's analyzer turns it into a term the engine matched, or
  // one of the query's own terms (the last one also as a prefix, as
  // type-ahead matches it).
  function marker(query, matchedTerms) {
    var terms = {};
    (matchedTerms || []).forEach(function (t) { terms[t] = true; });
    var qterms = analyze(query);
    qterms.forEach(function (t) { terms[t] = true; });
    var last = /\s$/.test(query) ? "" : qterms[qterms.length - 1] || "";
    return function (word) {
      var ts = analyze(word);
      for (var i = 0; i < ts.length; i++) {
        if (terms[ts[i]]) return true;
        if (last.length >= 2 && ts[i].indexOf(last) === 0) return true;
      }
      return false;
    };
  }

  function analyze(text) {
    var S = window.ErrdocsSearch;
    try {
      if (S && S.analyze) return S.analyze("errorMessage", text) || [];
    } catch (e) { /* fall through to the plain split */ }
    return String(text).toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  }

  // highlight appends text to parent with marked words in <mark>.
  function highlight(parent, text, isMarked) {
    var re = /[\p{L}\p{N}_][\p{L}\p{N}_.'’-]*/gu;
    var last = 0, m;
    while ((m = re.exec(text)) !== null) {
      var word = m[0].replace(/[.'’-]+$/, "");
      if (!isMarked(word)) continue;
      if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
      parent.appendChild(el("mark", null, word));
      last = m.index + word.length;
      re.lastIndex = last;
    }
    if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  }

  // --- rendering ----------------------------------------------------------

  function renderResults(s, res, exact) {
    clear(resultsEl);
    res.results.slice(0, s.shown).forEach(function (r) {
      var d = r.doc || {};
      var li = el("li", "result");
      var h = el("h2", "result-title");
      var a = el("a");
      a.href = recordHref(d.url);
      var marks = s.q ? marker(s.q, r.matchedTerms) : function () { return false; };
      highlight(a, String(d.title || d.url || ""), marks);
      h.appendChild(a);
      li.appendChild(h);
      if (exact[r.num]) {
        li.classList.add("exact");
        h.appendChild(document.createTextNode(" "));
        h.appendChild(el("span", "badge exact-match", "exact match"));
      }
      var meta = el("p", "result-meta");
      if (d.repo) meta.appendChild(el("span", "repo", d.repo));
      if (d.severity) {
        var sev = el("span", "severity", d.severity);
        sev.classList.add("severity-" + String(d.severity).replace(/[^a-z]/g, ""));
        meta.appendChild(sev);
      }
      if (d.errorType) meta.appendChild(el("span", "error-type", d.errorType));
      if (d.language) meta.appendChild(el("span", "language", d.language));
      li.appendChild(meta);
      if (d.snippet) {
        var p = el("p", "snippet");
        highlight(p, String(d.snippet), marks);
        li.appendChild(p);
      }
      resultsEl.appendChild(li);
    });
    var shown = Math.min(s.shown, res.results.length);
    var total = Math.max(res.total, res.results.length);
    if (shown === 0) {
      statusEl.textContent = s.q
        ? "No results for “" + s.q + "”" + (hasFilters(s) ? " with these filters." : ".")
        : "No records match these filters.";
      app.setAttribute("data-state", "empty");
    } else {
      statusEl.textContent = (res.totalExact ? "" : "At least ") + total +
        (total === 1 ? " result" : " results") +
        (s.q ? " for “" + s.q + "”" : "") +
        (res.fuzzy ? ", including similar words" : "") +
        (shown < total ? ", showing " + shown + "." : ".");
      app.setAttribute("data-state", "results");
    }
    moreBtn.hidden = res.results.length <= s.shown && !res.more;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function renderActiveFilters() {
    clear(activeEl);
    FILTERS.forEach(function (d) {
      state.filters[d.key].forEach(function (v) {
        var b = el("button", "filter-chip");
        b.type = "button";
        b.setAttribute("data-param", d.param);
        b.setAttribute("data-value", v);
        b.setAttribute("aria-label", "Remove filter " + d.label + ": " + v);
        b.textContent = d.label + ": " + v + " ×";
        b.addEventListener("click", function () {
          var list = state.filters[d.key];
          list.splice(list.indexOf(v), 1);
          filtersChanged();
        });
        activeEl.appendChild(b);
      });
    });
    activeEl.hidden = !activeEl.firstChild;
  }

  // --- searching ----------------------------------------------------------

  function looksPasted(s) {
    if (paste && paste.flat === s.q) return true;
    return s.q.trim().split(/\s+/).length >= MESSAGE_WORDS;
  }

  function run() {
    var my = ++generation;
    var s = { q: state.q, filters: state.filters, shown: state.shown };
    renderActiveFilters();
    document.title = (s.q ? s.q + " · " : "") + baseTitle;
    if (!s.q.trim() && !hasFilters(s)) {
      clear(resultsEl);
      statusEl.textContent = "Type an error message, a code or a few words, or paste an error.";
      app.setAttribute("data-state", "idle");
      moreBtn.hidden = true;
      return Promise.resolve();
    }
    app.setAttribute("data-state", "loading");
    app.setAttribute("aria-busy", "true");
    var pasted = !!s.q.trim() && looksPasted(s);
    // Whether there are more results than a page: without filters, the
    // engine's total is a lower bound of the matches (a term's document
    // frequency counts documents that match), so more than a page of it
    // says so; with filters, one result beyond the page tells (it can cost
    // another doc data file).
    var byTotal = !hasFilters(s);
    var limit = Math.max(byTotal ? s.shown : s.shown + 1, pasted ? PASTE_CANDIDATES : 0);
    var raw = paste && paste.flat === s.q ? paste.raw : s.q;
    return engineReady.then(function () {
      return window.ErrdocsSearch.search(s.q.slice(0, MAX_QUERY), { filters: s.filters, limit: limit, offset: 0, patterns: pasted,
        paste: paste && paste.flat === s.q ? raw : undefined });
    }).then(function (res) {
      if (my !== generation) return;
      res = res || { total: 0, results: [] };
      var results = (res.results || []).slice();
      var exact = {};
      if (pasted && window.ErrdocsPattern) {
        // Stable partition: pattern matches first, each group in rank order.
        var hit = [], rest = [];
        results.forEach(function (r) {
          var prog = r.doc && r.doc.pattern;
          var ok = false;
          try { ok = !!prog && window.ErrdocsPattern.match(prog, raw); } catch (e) { ok = false; }
          if (ok) { exact[r.num] = true; hit.push(r); } else rest.push(r);
        });
        results = hit.concat(rest);
      }
      renderResults(s, { total: res.total || 0, totalExact: res.totalExact !== false,
        fuzzy: !!res.fuzzy, results: results, more: byTotal && (res.total || 0) > s.shown }, exact);
    }).catch(function (err) {
      if (my !== generation) return;
      clear(resultsEl);
      moreBtn.hidden = true;
      statusEl.textContent = "Search failed to load: " + (err && err.message ? err.message : String(err));
      app.setAttribute("data-state", "error");
    }).then(function () {
      if (my === generation) app.removeAttribute("aria-busy");
    });
  }

  function schedule() {
    clearTimeout(timer);
    // "pending" tells tests (and styles) that a search is on its way.
    app.setAttribute("data-state", "pending");
    timer = setTimeout(run, DEBOUNCE_MS);
  }

  function filtersChanged() {
    state.shown = PAGE;
    setURL(true);
    editing = false;
    syncControls();
    run();
  }

  // syncControls puts the state into the form (after load and popstate).
  function syncControls() {
    if (input.value !== state.q) input.value = state.q;
    FILTERS.forEach(function (d) {
      var c = form.querySelector('[data-filter="' + d.param + '"]');
      if (c) c.value = "";
    });
  }

  function addFilter(d, value) {
    value = String(value || "").trim();
    if (!value) return;
    var list = state.filters[d.key];
    if (list.indexOf(value) < 0) list.push(value);
    filtersChanged();
  }

  // fillFacets offers the values the index can filter on (the engine's
  // facets(): {field: [{value, count}]}): repo and tag suggestions, and the
  // select options that have records (keeping the template's labels).
  function fillFacets() {
    var S = window.ErrdocsSearch;
    if (!S || typeof S.facets !== "function") return;
    Promise.resolve().then(function () { return S.facets(); }).then(function (f) {
      if (!f) return;
      FILTERS.forEach(function (d) {
        var values = f[d.key] || f[d.param];
        var list = document.getElementById("facet-" + d.param) ||
          form.querySelector('select[data-filter="' + d.param + '"]');
        if (!Array.isArray(values) || !list) return;
        var names = [];
        values.forEach(function (v) {
          var name = typeof v === "string" ? v : v && v.value;
          if (name != null && name !== "") names.push(String(name));
        });
        if (list.tagName === "DATALIST") {
          clear(list);
          names.forEach(function (name) {
            var o = el("option");
            o.value = name;
            list.appendChild(o);
          });
        } else if (list.tagName === "SELECT") {
          var have = {};
          Array.prototype.slice.call(list.options).forEach(function (o) {
            if (o.value === "") return;
            if (names.indexOf(o.value) < 0) list.removeChild(o);
            else have[o.value] = true;
          });
          names.forEach(function (name) {
            if (have[name]) return;
            var o = el("option", null, name);
            o.value = name;
            list.appendChild(o);
          });
        }
      });
    }).catch(function () { /* the template's options stay */ });
  }

  var baseTitle = document.title;

  function start() {
    app = document.querySelector("[data-search-app]");
    if (!app) return;
    form = app.querySelector("form");
    input = form.querySelector('input[name="q"]');
    statusEl = document.getElementById("result-count");
    resultsEl = document.getElementById("results");
    moreBtn = document.getElementById("more-results");
    activeEl = document.getElementById("active-filters");
    root = app.getAttribute("data-root") || "./";
    if (root.charAt(root.length - 1) !== "/") root += "/";
    indexFile = app.getAttribute("data-index-file") || "";
    baseTitle = document.title;

    // The page says search needs JavaScript until this runs.
    app.classList.add("js");
    Array.prototype.forEach.call(document.querySelectorAll(".needs-js"), function (n) { n.hidden = false; });
    Array.prototype.forEach.call(document.querySelectorAll(".no-js"), function (n) { n.hidden = true; });

    var S = window.ErrdocsSearch;
    if (!S) {
      statusEl.textContent = "The search index did not load.";
      app.setAttribute("data-state", "error");
      return;
    }
    var base = app.getAttribute("data-search-base") || root + "search/";
    engineReady = Promise.resolve().then(function () { return S.init(base); });
    engineReady.then(fillFacets, function () {});

    input.addEventListener("paste", function (ev) {
      var data = ev.clipboardData && ev.clipboardData.getData("text/plain");
      if (!data) { paste = null; return; }
      // The box would drop line breaks and glue lines together; put the
      // lines in with spaces, and keep the raw text for pattern matching.
      // A paste of any length counts as a message to match.
      ev.preventDefault();
      var flat = data.replace(/\s*[\r\n]+\s*/g, " ").trim();
      var before = input.value.slice(0, input.selectionStart);
      var after = input.value.slice(input.selectionEnd);
      input.value = before + flat + after;
      paste = { raw: before + data + after, flat: input.value };
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    input.addEventListener("input", function () {
      state.q = input.value;
      state.shown = PAGE;
      setURL(!editing);
      editing = true;
      schedule();
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clearTimeout(timer);
      state.q = input.value;
      state.shown = PAGE;
      // Typing replaced the entry of the previous search; the submitted one
      // gets its own, so back returns to what was there before.
      setURL(true);
      editing = false;
      run();
    });
    FILTERS.forEach(function (d) {
      var c = form.querySelector('[data-filter="' + d.param + '"]');
      if (!c) return;
      c.addEventListener("change", function () { addFilter(d, c.value); c.value = ""; });
      if (c.tagName === "INPUT") {
        c.addEventListener("keydown", function (ev) {
          if (ev.key === "Enter") { ev.preventDefault(); addFilter(d, c.value); c.value = ""; }
        });
      }
    });
    moreBtn.addEventListener("click", function () {
      state.shown += PAGE;
      run();
    });
    window.addEventListener("popstate", function () {
      state = readURL();
      paste = null;
      editing = false;
      syncControls();
      run();
    });

    state = readURL();
    syncControls();
    run();
  }

  // The script is placed at the end of body, but a deferred load is fine too.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
