// ui.js: the search page. Plain script, no framework, no inline script and
// no eval, so it runs under a Content-Security-Policy of script-src 'self'.
//
// It reads the query (?q=), filters (repo, severity, type, tag, lang,
// family; each repeatable) and how many results are shown (?n=) from the
// URL, shows results at once, and keeps the URL in step, so that a shared
// link reproduces the page: pushState when they submit or change a filter,
// and while they type, one pushState at the first keystroke after such a
// step and replaceState for the rest (one history entry per search, not per
// keystroke). "More results" replaces the entry with a larger n, and the
// scroll position is kept in the entry's state, so Back from a record
// returns to the same list at the same place.
//
// Record text is untrusted: everything here is built with DOM APIs and
// textContent, never parsed as HTML.
//
// Paste an error: a pasted query, or a typed one of PASTE_WORDS words or
// more (a search link with a message in it), is searched as a paste: the
// engine puts first the records whose messagePattern matches the raw text
// (ErrdocsPattern, a linear-time VM, see pattern.js), then those holding
// most of its words. For a query that looks like a message (MESSAGE_WORDS
// words) the engine is asked for patterns: of its results, those whose
// pattern matches come first (the engine's liftMatches), marked "exact
// match". The order shown is the engine's, which the parity tests hold to
// its Go twin.
// Only the first MAX_QUERY characters of a paste are kept (box, URL and
// search alike): a megabyte pasted by mistake must not freeze the tab.
(function () {
  "use strict";

  var PAGE = 20;
  var MAX_SHOWN = 500;
  var DEBOUNCE_MS = 120;
  // A query is treated as a pasted message from this many words on.
  var MESSAGE_WORDS = 3;
  // A typed query is searched as a paste from this many words on.
  var PASTE_WORDS = 6;
  // The text searched (and kept in the box and the URL) is cut here: a
  // pasted traceback can be long, and its words beyond this add cost, not
  // precision. The box's maxlength says the same.
  var MAX_QUERY = 1000;
  // The status line and the title quote at most this much of the query.
  var MAX_QUOTE = 80;
  // How many engine searches the no-results help may spend looking for a
  // query with fewer words.
  var DROP_BUDGET = 8;
  // From this many words on, a query's repeated words are searched once.
  var LONG_QUERY_WORDS = 32;

  // URL parameter, engine filter key, label.
  var FILTERS = [
    { param: "repo", key: "repo", label: "Repository" },
    { param: "severity", key: "severity", label: "Severity" },
    { param: "type", key: "errorType", label: "Error type" },
    { param: "tag", key: "tag", label: "Tag" },
    { param: "lang", key: "language", label: "Language" },
    { param: "family", key: "family", label: "Family" }
  ];

  var app, form, input, statusEl, resultsEl, moreBtn, activeEl, helpEl, foldCount;
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
  // The repositories the index can filter on (facets), once loaded.
  var repoNames = null, facetsReady = null;
  // A scroll position to return to once the results it was taken over
  // are shown again (after Back or a reload).
  var restoreY = -1;

  function emptyFilters() {
    var f = {};
    FILTERS.forEach(function (d) { f[d.key] = []; });
    return f;
  }

  // cut returns at most max UTF-16 units of s without splitting a pair.
  function cut(s, max) {
    s = String(s);
    if (s.length <= max) return s;
    var end = max;
    var c = s.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff) end--;
    return s.slice(0, end);
  }

  function quote(s) {
    s = s.trim();
    return s.length > MAX_QUOTE ? cut(s, MAX_QUOTE).trimEnd() + "…" : s;
  }

  function readURL() {
    var params = new URLSearchParams(location.search);
    var s = { q: cut(params.get("q") || "", MAX_QUERY), filters: emptyFilters(), shown: PAGE };
    var n = parseInt(params.get("n"), 10);
    if (n > PAGE) s.shown = Math.min(MAX_SHOWN, Math.ceil(n / PAGE) * PAGE);
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
    if (s.shown > PAGE) params.set("n", String(s.shown));
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
      else history.replaceState(history.state, "", url);
    } catch (e) { /* the search itself still works */ }
  }

  // rememberScroll keeps the scroll position in the history entry's state
  // (a while after scrolling stops), for restoreScroll after Back.
  var scrollTimer = 0;
  function rememberScroll() {
    clearTimeout(scrollTimer);
    scrollTimer = setTimeout(saveScroll, 150);
  }
  function saveScroll() {
    try { history.replaceState({ y: Math.round(window.scrollY) }, ""); } catch (e) { /* no place kept */ }
  }
  function restoreScroll() {
    if (restoreY < 0) return;
    var y = restoreY;
    restoreY = -1;
    window.scrollTo(0, y);
  }

  function hasFilters(s) {
    return FILTERS.some(function (d) { return s.filters[d.key].length > 0; });
  }
  function filterCount(s) {
    return FILTERS.reduce(function (n, d) { return n + s.filters[d.key].length; }, 0);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
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

  // --- marking --------------------------------------------------------------

  // marker returns a test for words to mark in a title: a word is marked
  // when the message field's analyzer turns it into one of the query's own
  // terms (the last one also as a prefix, as type-ahead matches it). The
  // engine's matched terms are not used: a fuzzy look-alike ("may" for
  // "many") must not be marked.
  function marker(query) {
    var terms = {};
    var qterms = analyze(query);
    qterms.forEach(function (t) { terms[t] = true; });
    var last = /\s$/.test(query) ? "" : qterms[qterms.length - 1] || "";
    return function (word) {
      var ts = analyze(word);
      for (var i = 0; i < ts.length; i++) {
        if (terms[ts[i]]) return true;
        if (last.length >= 3 && ts[i].indexOf(last) === 0) return true;
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

  // markRanges appends text with the engine's marks ([start, end) offsets
  // in UTF-16 units, as the engine computed them around matched words).
  // Ranges out of order, overlapping or out of bounds are skipped.
  function markRanges(parent, text, marks) {
    var at = 0;
    (Array.isArray(marks) ? marks : []).forEach(function (r) {
      var a = r && r[0], b = r && r[1];
      if (typeof a !== "number" || typeof b !== "number" || a < at || b <= a || b > text.length) return;
      if (a > at) parent.appendChild(document.createTextNode(text.slice(at, a)));
      parent.appendChild(el("mark", null, text.slice(a, b)));
      at = b;
    });
    if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
  }

  var FIELD_LABELS = { documentation: "Documentation", solutions: "Solutions", preventionTips: "Prevention tips",
    errorClass: "Error class", errorCode: "Error code" };

  // snippetOf is the text under a result's title: the engine's snippet,
  // cut around the matched words with those words marked, unless it is
  // cut from the message, which the title shows whole (then the start of
  // the documentation, marked as the title is).
  function snippetOf(r, marks) {
    var s = r.snippet;
    var p = el("p", "snippet");
    if (s && typeof s.text === "string" && s.field !== "errorMessage") {
      var label = FIELD_LABELS[s.field];
      if (label) p.appendChild(el("span", "snippet-field", label + ": "));
      markRanges(p, s.text, s.marks);
      return p;
    }
    var d = r.doc || {};
    if (!d.snippet) return null;
    highlight(p, String(d.snippet), marks);
    return p;
  }

  // --- rendering ----------------------------------------------------------

  function resultItem(s, r, exact, marks) {
    var d = r.doc || {};
    var li = el("li", "result");
    var h = el("h2", "result-title");
    var a = el("a");
    a.href = recordHref(d.url);
    highlight(a, String(d.title || d.url || ""), marks);
    h.appendChild(a);
    li.appendChild(h);
    if (exact) {
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
    var snip = snippetOf(r, marks);
    if (snip) li.appendChild(snip);
    return li;
  }

  // primary is true of a result of the first group: every word (or, for a
  // paste, most words), or a result without a group (filters alone).
  function primary(r) { return !r.group || r.group === "pattern" || r.group === "all" || r.group === "most"; }

  // renderList shows the results: those with every word first, then, under
  // their own heading, those with some of the words (the engine's group).
  function renderList(s, results, asked) {
    var all = el("ol", "results"), some = el("ol", "results results-some");
    var marks = asked ? marker(asked) : function () { return false; };
    results.slice(0, s.shown).forEach(function (r) {
      var li = resultItem(s, r, r.exact === true, marks);
      primary(r) ? all.appendChild(li) : some.appendChild(li);
    });
    var frag = document.createDocumentFragment();
    if (all.firstChild) frag.appendChild(all);
    if (some.firstChild) {
      frag.appendChild(el("h2", "results-group", "Results with some of the words"));
      frag.appendChild(some);
    }
    clear(resultsEl);
    resultsEl.appendChild(frag);
  }

  function renderResults(s, res) {
    renderList(s, res.results, res.asked || s.q);
    var list = res.results.slice(0, s.shown);
    var shown = list.length;
    var first = list.filter(primary).length;
    var total = Math.max(res.total, first);
    var q = quote(res.asked || s.q);
    clear(helpEl);
    helpEl.hidden = true;
    if (shown === 0 && res.partial) {
      // The last word is only begun: some words start with it.
      statusEl.textContent = "Keep typing: words start with “" + quote(res.partial) + "”.";
      app.setAttribute("data-state", "empty");
    } else if (shown === 0) {
      statusEl.textContent = q
        ? "No results for “" + q + "”" + (hasFilters(s) ? " with these filters." : ".")
        : "No records match these filters.";
      app.setAttribute("data-state", "empty");
    } else if (first === 0) {
      // Nothing has every word: what is shown has some of them.
      // (of a paste, the engine asked for most of its words)
      statusEl.textContent = "No results with " + (res.pasted ? "most words" : "every word") + (q ? " of “" + q + "”" : "") + "; " +
        shown + (shown === 1 ? " has" : " have") + " some of them.";
      app.setAttribute("data-state", "results");
    } else {
      statusEl.textContent = (res.totalExact ? "" : "At least ") + total +
        (total === 1 ? " result" : " results") +
        (q ? " for “" + q + "”" : "") +
        (res.fuzzy && first === shown ? ", including similar words" : "") +
        (first < total ? ", showing " + first : "") +
        (shown > first ? "; " + (shown - first) + " more with some of the words." : ".");
      app.setAttribute("data-state", "results");
    }
    moreBtn.hidden = res.results.length <= s.shown && !res.more;
  }

  function renderActiveFilters() {
    clear(activeEl);
    FILTERS.forEach(function (d) {
      state.filters[d.key].forEach(function (v) {
        var b = el("button", "filter-chip");
        b.type = "button";
        b.setAttribute("data-param", d.param);
        b.setAttribute("data-value", v);
        var partial = d.key === "repo" && repoNames && repoNames.indexOf(v) < 0;
        var text = d.label + (partial ? " containing “" + v + "”" : ": " + v);
        b.setAttribute("aria-label", "Remove filter " + text);
        b.textContent = text + " ×";
        b.addEventListener("click", function () {
          var list = state.filters[d.key];
          list.splice(list.indexOf(v), 1);
          filtersChanged();
        });
        activeEl.appendChild(b);
      });
    });
    activeEl.hidden = !activeEl.firstChild;
    var n = filterCount(state);
    foldCount.textContent = n ? "(" + n + " active)" : "";
  }

  // --- no results: what may help -------------------------------------------

  // helpLink is a link to another search on this page: a plain link (it
  // works opened in a new tab) that, clicked, searches in place.
  function helpLink(text, s) {
    var a = el("a", null, text);
    a.href = stateURL(s);
    a.addEventListener("click", function (ev) {
      if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
      ev.preventDefault();
      state = { q: s.q, filters: s.filters, shown: PAGE };
      setURL(true);
      editing = false;
      paste = null;
      syncControls();
      run();
    });
    return a;
  }

  function words(q) { return q.trim().split(/\s+/).filter(Boolean); }

  // dropWordsFallback finds a query with the fewest words left out that has
  // results (one word, then two; at most DROP_BUDGET searches), for when
  // the engine does not suggest one itself.
  function dropWordsFallback(s) {
    var ws = words(s.q);
    if (ws.length < 2 || ws.length > 8) return Promise.resolve(null);
    var tries = [];
    ws.forEach(function (w, i) { tries.push(ws.filter(function (x, j) { return j !== i; })); });
    if (ws.length >= 3) {
      for (var i = 0; i < ws.length && tries.length < DROP_BUDGET; i++)
        for (var j = i + 1; j < ws.length && tries.length < DROP_BUDGET; j++)
          tries.push(ws.filter(function (x, k) { return k !== i && k !== j; }));
    }
    tries = tries.slice(0, DROP_BUDGET);
    var best = null, bestLeft = 0;
    return tries.reduce(function (p, t) {
      return p.then(function () {
        if (best && t.length < bestLeft) return;
        var q = t.join(" ");
        return window.ErrdocsSearch.search(q, { filters: s.filters, limit: 1, fuzzy: false }).then(function (r) {
          var n = r && r.results ? r.results.length : 0;
          if (n && (!best || r.total > best.total)) { best = { q: q, total: r.total }; bestLeft = t.length; }
        });
      });
    }, Promise.resolve()).then(function () { return best && best.q; });
  }

  // suggestionsFor returns {dropWords, spelling, unfiltered} for a search
  // that found nothing: the engine's own suggestions when it gives them,
  // else what the engine's plain searches tell.
  function suggestionsFor(s, res) {
    var S = window.ErrdocsSearch;
    var sug = res && res.suggestions ? res.suggestions : null;
    var unfiltered = hasFilters(s) && s.q.trim()
      ? S.search(s.q, { filters: {}, limit: 1 }).then(function (r) { return r && r.results.length ? r.total : 0; })
      : Promise.resolve(0);
    var drop = sug ? Promise.resolve(sug.dropWords || null) : dropWordsFallback(s);
    return Promise.all([unfiltered, drop]).then(function (v) {
      return { unfiltered: v[0], dropWords: v[1], spelling: sug ? sug.spelling || null : null };
    });
  }

  function renderHelp(s, sug) {
    clear(helpEl);
    var list = el("ul", "help-links");
    function add(lead, text, to) {
      var li = el("li", null, lead);
      li.appendChild(helpLink(text, to));
      list.appendChild(li);
    }
    if (sug.spelling && sug.spelling !== s.q) add("Did you mean ", sug.spelling, { q: sug.spelling, filters: s.filters, shown: PAGE });
    if (sug.unfiltered) add("Without filters: ", sug.unfiltered + (sug.unfiltered === 1 ? " result" : " results") + " for “" + quote(s.q) + "”",
      { q: s.q, filters: emptyFilters(), shown: PAGE });
    else if (hasFilters(s)) add("", "Remove all filters", { q: s.q, filters: emptyFilters(), shown: PAGE });
    if (sug.dropWords && sug.dropWords !== s.q) add("With fewer words: ", sug.dropWords, { q: sug.dropWords, filters: s.filters, shown: PAGE });
    if (!list.firstChild) return;
    helpEl.appendChild(el("p", "help-lead", "Try:"));
    helpEl.appendChild(list);
    helpEl.hidden = false;
  }

  // --- searching ----------------------------------------------------------

  function looksPasted(s) {
    if (paste && paste.flat === s.q) return true;
    return words(s.q).length >= MESSAGE_WORDS;
  }

  // engineText is the text the engine searches: the query itself, but a
  // long one (a pasted log) without its repeated words, which add work
  // for every clause and nothing to what is found.
  function engineText(q) {
    var ws = words(q);
    if (ws.length <= LONG_QUERY_WORDS) return q;
    var seen = Object.create(null);
    return ws.filter(function (w) {
      var k = w.toLowerCase();
      if (seen[k]) return false;
      seen[k] = true;
      return true;
    }).join(" ");
  }

  // engineFilters turns the page's filters into the engine's: a repository
  // value that names no repository stands for every repository whose name
  // contains it ("jax" → google/jax, jax-ml/jax…).
  function engineFilters(s) {
    var f = {};
    FILTERS.forEach(function (d) { f[d.key] = s.filters[d.key].slice(); });
    if (!f.repo.length || !repoNames) return f;
    var out = [];
    f.repo.forEach(function (v) {
      if (repoNames.indexOf(v) >= 0) { out.push(v); return; }
      matchingRepos(v, 0).forEach(function (name) { if (out.indexOf(name) < 0) out.push(name); });
    });
    // No repository contains it: keep the value, which finds nothing.
    f.repo = out.length ? out : f.repo;
    return f;
  }

  function matchingRepos(part, max) {
    var p = String(part).toLowerCase().trim(), out = [];
    if (!p || !repoNames) return out;
    for (var i = 0; i < repoNames.length && (!max || out.length < max); i++) {
      if (repoNames[i].toLowerCase().indexOf(p) >= 0) out.push(repoNames[i]);
    }
    return out;
  }

  function idle() {
    clear(resultsEl);
    clear(helpEl);
    helpEl.hidden = true;
    statusEl.textContent = "Type an error message, a code or a few words, or paste an error.";
    app.setAttribute("data-state", "idle");
    moreBtn.hidden = true;
    return Promise.resolve();
  }

  function run() {
    var my = ++generation;
    var s = { q: state.q, filters: state.filters, shown: state.shown };
    renderActiveFilters();
    document.title = (s.q ? quote(s.q) + " · " : "") + baseTitle;
    if (!s.q.trim() && !hasFilters(s)) return idle();
    // The results shown stay until the new ones are ready.
    app.setAttribute("data-state", "loading");
    app.setAttribute("aria-busy", "true");
    var pasted = !!s.q.trim() && looksPasted(s);
    // Whether there are more results than a page: without filters, the
    // engine's total is a lower bound of the matches (a term's document
    // frequency counts documents that match), so more than a page of it
    // says so; with filters, one result beyond the page tells (it can cost
    // another doc data file).
    var byTotal = !hasFilters(s);
    var limit = byTotal ? s.shown : s.shown + 1;
    var pastedNow = !!(paste && paste.flat === s.q);
    var raw = pastedNow ? paste.raw : s.q;
    var asPaste = !!s.q.trim() && (pastedNow || words(s.q).length >= PASTE_WORDS);
    var res;
    return engineReady.then(function () {
      return s.filters.repo.length ? facetsReady : null;
    }).then(function () {
      return window.ErrdocsSearch.search(engineText(s.q), { filters: engineFilters(s), limit: limit, offset: 0, patterns: pasted,
        paste: asPaste ? raw : undefined });
    }).then(function (r) {
      if (my !== generation) return;
      res = r || { total: 0, results: [] };
      var results = res.results || [];
      // a paste is quoted by its error lines, not its traceback's header
      var asked = asPaste && window.ErrdocsSearch.errorText ? window.ErrdocsSearch.errorText(raw) || s.q : s.q;
      renderResults(s, { total: res.total || 0, totalExact: res.totalExact !== false, partial: res.partial, pasted: asPaste, asked: asked,
        fuzzy: !!res.fuzzy, results: results, more: byTotal && ((res.total || 0) > s.shown || !!res.more) });
      restoreScroll();
      if (results.length === 0 && s.q.trim() && !res.partial) {
        return suggestionsFor(s, res).then(function (sug) { if (my === generation) renderHelp(s, sug); });
      }
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
    if (repoBox) repoBox.close();
  }

  function addFilter(d, value) {
    value = String(value || "").trim();
    if (!value) return;
    var list = state.filters[d.key];
    if (list.indexOf(value) < 0) list.push(value);
    filtersChanged();
  }

  // --- facets and the repository box ----------------------------------------

  // fillFacets offers the values the index can filter on (the engine's
  // facets(): {field: [{value, count}]}): the repository suggestions, tag
  // and family lists, and the select options that have records (keeping
  // the template's labels).
  function fillFacets(f) {
    if (!f) return;
    FILTERS.forEach(function (d) {
      var values = f[d.key] || f[d.param];
      if (!Array.isArray(values)) return;
      var names = [];
      values.forEach(function (v) {
        var name = typeof v === "string" ? v : v && v.value;
        if (name != null && name !== "") names.push(String(name));
      });
      if (d.key === "repo") { repoNames = names.sort(); return; }
      var list = document.getElementById("facet-" + d.param) ||
        form.querySelector('select[data-filter="' + d.param + '"]');
      if (!list) return;
      if (list.tagName === "DATALIST") {
        clear(list);
        names.forEach(function (name) {
          var o = el("option");
          o.value = name;
          list.appendChild(o);
        });
      } else if (list.tagName === "SELECT") fillSelect(list, names);
    });
  }

  function fillSelect(list, names) {
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

  var repoBox = null;

  // startRepoBox makes the repository filter a combobox: as they type, the
  // repositories whose name contains the text are offered (up to 8);
  // Enter takes the chosen one, or the text itself (then every repository
  // containing it is searched).
  function startRepoBox() {
    var c = document.getElementById("filter-repo");
    var list = document.getElementById("repo-suggest");
    var status = document.getElementById("repo-suggest-status");
    var C = window.ErrdocsCombobox;
    if (!c || !list) return;
    // header.js, which defines the combobox, may run after this script.
    if (!C) { c.addEventListener("focus", startRepoBox, { once: true }); return; }
    if (repoBox) return;
    var d = FILTERS[0];
    repoBox = new C(c, list, {
      status: status,
      pick: function (item) { addFilter(d, item.value); c.value = ""; repoBox.close(); },
      enter: function (ev) {
        ev.preventDefault();
        var v = c.value;
        c.value = "";
        repoBox.close();
        addFilter(d, v);
      },
      render: function (li, item) { li.textContent = item.value; }
    });
    c.addEventListener("input", function () {
      facetsReady.then(function () {
        var all = matchingRepos(c.value, 0);
        repoBox.show(all.slice(0, 8).map(function (name) { return { value: name }; }),
          !c.value.trim() ? "" : all.length === 0 ? "No repository contains “" + quote(c.value) + "”."
            : all.length + (all.length === 1 ? " repository matches." : " repositories match.") +
              (all.length > 8 ? " The first 8 are listed." : ""));
      });
    });
  }

  // --- paste --------------------------------------------------------------

  function isSpace(c) {
    return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0x3000;
  }

  // flattenPaste puts a pasted text on one line (the box would drop line
  // breaks and glue lines together: each break, with the blanks around it,
  // becomes one space) and keeps at most room characters of it; raw is the
  // part of the pasted text that became them, with its line breaks, for
  // pattern matching. Its work is bounded by what it keeps, plus one scan
  // for line breaks (no regular expression that could backtrack over a
  // long run of blanks).
  function flattenPaste(data, room) {
    var flat = "", at = 0, rawEnd = 0, nl = /[\r\n]/g, m;
    while (at < data.length && isSpace(data.charCodeAt(at))) at++;
    while (at < data.length && flat.length < room) {
      nl.lastIndex = at;
      m = nl.exec(data);
      var end = m ? m.index : data.length;
      var seg = data.slice(at, Math.min(end, at + room));
      rawEnd = at + seg.length;
      if (at + seg.length === end) seg = seg.replace(/\s+$/, "");
      if (seg) flat += (flat ? " " : "") + seg;
      at = end;
      while (at < data.length && isSpace(data.charCodeAt(at))) at++;
    }
    return { flat: cut(flat, room).replace(/\s+$/, ""), raw: data.slice(0, rawEnd) };
  }

  function onPaste(ev) {
    var data = ev.clipboardData && ev.clipboardData.getData("text/plain");
    if (!data) { paste = null; return; }
    // A paste of any length counts as a message to match.
    ev.preventDefault();
    var before = input.value.slice(0, input.selectionStart);
    var after = input.value.slice(input.selectionEnd);
    var room = Math.max(0, MAX_QUERY - before.length - after.length);
    var p = flattenPaste(data, room);
    input.value = before + p.flat + after;
    paste = { raw: before + p.raw + after, flat: input.value };
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // --- start ----------------------------------------------------------------

  var baseTitle = document.title;

  function bind() {
    input.addEventListener("paste", onPaste);
    input.addEventListener("input", function () {
      state.q = cut(input.value, MAX_QUERY);
      state.shown = PAGE;
      setURL(!editing);
      editing = true;
      schedule();
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clearTimeout(timer);
      state.q = cut(input.value, MAX_QUERY);
      state.shown = PAGE;
      // Typing replaced the entry of the previous search; the submitted one
      // gets its own, so back returns to what was there before.
      setURL(true);
      editing = false;
      run();
    });
    FILTERS.forEach(function (d) {
      var c = form.querySelector('[data-filter="' + d.param + '"]');
      if (!c || d.key === "repo") return;
      c.addEventListener("change", function () { addFilter(d, c.value); c.value = ""; });
      if (c.tagName === "INPUT") {
        c.addEventListener("keydown", function (ev) {
          if (ev.key === "Enter") { ev.preventDefault(); addFilter(d, c.value); c.value = ""; }
        });
      }
    });
    moreBtn.addEventListener("click", function () {
      state.shown = Math.min(MAX_SHOWN, state.shown + PAGE);
      // The same search, longer: Back leaves it, and a return finds it long.
      setURL(false);
      run();
    });
    window.addEventListener("scroll", rememberScroll, { passive: true });
    window.addEventListener("popstate", function (ev) {
      state = readURL();
      restoreY = ev.state && typeof ev.state.y === "number" ? ev.state.y : -1;
      paste = null;
      editing = false;
      syncControls();
      run();
    });
  }

  function start() {
    app = document.querySelector("[data-search-app]");
    if (!app) return;
    form = app.querySelector("form");
    input = form.querySelector('input[name="q"]');
    statusEl = document.getElementById("result-count");
    resultsEl = document.getElementById("results");
    moreBtn = document.getElementById("more-results");
    activeEl = document.getElementById("active-filters");
    helpEl = document.getElementById("no-results-help");
    foldCount = document.getElementById("filter-count");
    root = app.getAttribute("data-root") || "./";
    if (root.charAt(root.length - 1) !== "/") root += "/";
    indexFile = app.getAttribute("data-index-file") || "";
    baseTitle = document.title;

    // CSS hides the load-failed notice and shows the filters from here on.
    app.classList.add("js");
    // The page restores its place itself once the results are back.
    if ("scrollRestoration" in history) history.scrollRestoration = "manual";
    if (history.state && typeof history.state.y === "number") restoreY = history.state.y;

    var S = window.ErrdocsSearch;
    if (!S) {
      statusEl.textContent = "The search index did not load.";
      app.setAttribute("data-state", "error");
      return;
    }
    var base = app.getAttribute("data-search-base") || root + "search/";
    engineReady = Promise.resolve().then(function () { return S.init(base); });
    facetsReady = engineReady.then(function () { return typeof S.facets === "function" ? S.facets() : null; })
      .then(fillFacets).catch(function () { /* the template's options stay */ });
    startRepoBox();
    bind();
    state = readURL();
    syncControls();
    run();
  }

  // The script is placed at the end of body, but a deferred load is fine too.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
