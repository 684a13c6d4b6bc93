// A stand-in for static/search/engine.js with the same global API, over a
// small document list (data.js beside it, loaded by a script tag as the
// real engine loads its manifest). The UI tests use it to check ui.js on
// its own: URL state, filters, paging, highlighting and paste matching.
// Ranking: the number of distinct query words a document's title, snippet
// or repo contains (the last word also as a prefix), ties by doc number (the
// order of the docs, which is id order). Like the engine, results carry the
// doc number, not the id.
(function () {
  "use strict";
  var docs = null, ready = null, loaded = 0;
  function words(s) {
    return String(s).toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
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
        return { total: hits.length, results: hits.slice(off, off + lim) };
      });
    }
  };
})();
