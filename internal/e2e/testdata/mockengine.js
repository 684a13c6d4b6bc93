// A stand-in for static/search/engine.js with the same global API, over a
// small document list (data.js beside it, loaded by a script tag as the
// real engine loads its manifest). The UI tests use it to check ui.js on
// its own: URL state, filters, paging, highlighting and paste matching.
// Ranking: the number of distinct query words a document's title, snippet
// or repo contains (the last word also as a prefix), ties by doc number (the
// order of the docs, which is id order). Like the engine, results carry the
// doc number, not the id, and with opts.patterns those whose pattern
// matches the paste (or the query) come first as exact matches (the
// engine's liftMatches).
(function () {
  "use strict";
  var docs = null, ready = null, loaded = 0;
  function words(s) {
    return String(s).toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  }
  // Levenshtein distance, for the mock's spelling suggestion.
  function dist(a, b) {
    var d = [];
    for (var i = 0; i <= a.length; i++) { d[i] = [i]; }
    for (var j = 0; j <= b.length; j++) d[0][j] = j;
    for (i = 1; i <= a.length; i++) for (j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    return d[a.length][b.length];
  }
  // suggest: the query with each unknown word replaced by the closest
  // word the documents hold (at most 2 edits), as the engine's
  // suggestions.spelling; no dropWords (no word of the query is known).
  function suggest(q) {
    var vocab = {};
    docs.forEach(function (d) { words(d.title + " " + d.snippet).forEach(function (w) { vocab[w] = true; }); });
    var changed = false;
    var fixed = q.map(function (w) {
      var best = null, bd = 3;
      Object.keys(vocab).sort().forEach(function (v) { var x = dist(w, v); if (x < bd) { bd = x; best = v; } });
      if (best && best !== w) { changed = true; return best; }
      return w;
    });
    return { dropWords: null, spelling: changed ? fixed.join(" ") : null };
  }
  window.ErrdocsSearch = {
    init: function (base) {
      if (ready) return ready;
      ready = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = base + "data.js";
        s.onload = function () { docs = window.MockSearchData || []; loaded += 1000; resolve(); };
        s.onerror = function () { reject(new Error("data.js did not load")); };
        document.head.appendChild(s);
      });
      return ready;
    },
    analyze: function (field, text) { return words(text); },
    docs: function (ids) {
      return ready.then(function () {
        return ids.map(function (id) { return docs.filter(function (d) { return d.id === id; })[0]; });
      });
    },
    bytesLoaded: function () { return loaded; },
    facets: function () {
      return ready.then(function () {
        var f = { repo: [], tag: [] };
        docs.forEach(function (d) {
          if (f.repo.indexOf(d.repo) < 0) f.repo.push(d.repo);
          (d.tags || []).forEach(function (t) { if (f.tag.indexOf(t) < 0) f.tag.push(t); });
        });
        return f;
      });
    },
    search: function (query, opts) {
      opts = opts || {};
      var filters = opts.filters || {};
      var q = words(query);
      var last = /\s$/.test(query) ? "" : q[q.length - 1];
      window.MockSearchCalls = (window.MockSearchCalls || 0) + 1;
      return ready.then(function () {
        var hits = [];
        docs.forEach(function (d) {
          var keep = Object.keys(filters).every(function (k) {
            var want = filters[k] || [];
            if (!want.length) return true;
            var have = k === "tag" ? d.tags || [] : [d[k]];
            return want.some(function (w) { return have.indexOf(w) >= 0; });
          });
          if (!keep) return;
          var dw = words(d.title + " " + d.snippet + " " + d.repo);
          var matched = [];
          q.forEach(function (w) {
            var m = dw.filter(function (x) { return x === w || (w === last && w.length >= 2 && x.indexOf(w) === 0); });
            m.forEach(function (x) { if (matched.indexOf(x) < 0) matched.push(x); });
          });
          var score = q.filter(function (w) {
            return dw.some(function (x) { return x === w || (w === last && w.length >= 2 && x.indexOf(w) === 0); });
          }).length;
          if (q.length && !score) return;
          hits.push({ num: docs.indexOf(d), score: score, doc: d, matchedTerms: matched });
        });
        hits.sort(function (a, b) { return b.score - a.score || a.num - b.num; });
        var off = opts.offset || 0, lim = opts.limit || 10;
        var page = hits.slice(off, off + lim);
        if (opts.patterns && window.ErrdocsPattern) {
          var text = opts.paste != null ? String(opts.paste) : String(query), hit = [], rest = [];
          page.forEach(function (r) {
            var ok = false;
            try { ok = !!r.doc.pattern && window.ErrdocsPattern.match(r.doc.pattern, text); } catch (e) { ok = false; }
            if (ok) { r.group = "pattern"; r.exact = true; hit.push(r); } else rest.push(r);
          });
          page = hit.concat(rest);
        }
        var out = { total: hits.length, results: page };
        if (!hits.length && q.length) out.suggestions = suggest(q);
        return out;
      });
    }
  };
})();
