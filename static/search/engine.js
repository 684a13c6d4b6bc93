/*
 * errdocs search engine: searches the static index exported from bleve by
 * generator/index (format: generator/index/FORMAT.md), ranking exactly as
 * bleve does. Plain script: no modules, no eval, works from file:// (chunks
 * are classic scripts calling errdocsSearch.load) and under CSP
 * script-src 'self'. Needs analyzer.js loaded first.
 *
 * API (global window.ErrdocsSearch):
 *
 *   init(baseHref) -> Promise<void>
 *       baseHref: URL of the site's search/ folder (relative is fine), with or
 *       without a trailing slash. Loads the manifest. Calling again with the
 *       same base returns the same promise.
 *
 *   search(query, {filters, limit, offset, prefix, fuzzy}) -> Promise<{
 *       total,        // number of matching records (exact when totalExact)
 *       totalExact,   // false when counting exactly would need more chunks
 *       fuzzy,        // true when the results come from the fuzzy fallback
 *       results: [{id, score, doc, matchedTerms}]
 *     }>
 *       filters: {repo:[], severity:[], errorType:[], tag:[], language:[]}:
 *         values of one field OR, fields AND. Filters alone (empty query)
 *         list records by error family (backgroundTag, none last), then
 *         newest analyzedAt first, then id; score 0.
 *       limit (default 10), offset (default 0).
 *       patterns (default false): also load each result's compiled
 *         messagePattern into doc.pattern (separate chunks, about as large
 *         as the rest of the doc data: ask for them only when matching a
 *         pasted error). Without it doc.pattern is undefined.
 *       prefix (default true): the last word also matches as a prefix
 *         (type-ahead), when it has 3+ characters and the query does not end
 *         in a space or punctuation.
 *       fuzzy: "auto" (default): if the query finds fewer than limit+offset
 *         records, run it again with typo tolerance (1 edit for words of
 *         3-5 bytes, 2 beyond; first 2 bytes must match) and return that;
 *         true: fuzzy only; false: never.
 *       results are in rank order: score descending, then the filter-only
 *         order (family, newest, id). doc = {id, title, url, repo, severity, errorType,
 *         language, tags, errorClass, errorCode, snippet[, pattern]}; url is
 *         relative to the site root ("owner/name/slug/"). matchedTerms are
 *         analyzed terms (compare with analyze("errorMessage", word)).
 *
 *   analyze(field, text) -> [term]
 *       field: a field name ("errorMessage", "errorClass", ...) or an
 *       analyzer name ("en", ...). Same tokens as bleve's analyzer.
 *
 *   docs(ids) -> Promise<[doc|null]>   doc data, with pattern, for record
 *       ids (any order; unknown id -> null). Costs one small id chunk per
 *       distinct first two hex digits, plus the doc and pattern chunks.
 *   docsByNumber(nums, patterns) -> Promise<[doc]> doc data by doc number
 *       (result.num), the cheap path when results are at hand.
 *   facets() -> Promise<{repo:[{value,count}], severity:[...], ...}>
 *   bytesLoaded() -> number   bytes of index files loaded so far (as
 *       reported by the loader; in a browser from the Resource Timing API
 *       when available, else the script text length is unknown: 0)
 *   loadedFiles() -> [key]   keys of the loaded chunks, in load order
 *   setLoader(fn)   fn(url, key) -> Promise that resolves after the script
 *       at url ran (it must call errdocsSearch.load(key, data)). Default:
 *       <script> tag insertion. Tests in Node pass a vm-based loader.
 *
 * Ranking (mirrors generator/index.BuildQuery): a disjunction over clauses;
 * one clause per field whose query analyzer yields tokens (a disjunction of
 * term queries, one per token, with the field's boost), plus, in prefix mode,
 * one prefix query per field on the last word. bleve TF-IDF: per term
 * tf=sqrt(freq), idf=1+ln(docCount/(df+1)), score=tf*norm*idf*queryWeight,
 * queryWeight=boost*idf*queryNorm, queryNorm=1/sqrt(sum over all term
 * queries of (boost*idf)^2); a disjunction sums its matching children and
 * multiplies by coord = matching/all children.
 *
 * Exact top-k: postings are doc-ordered blocks with each block's maximum
 * (freq, norm). The engine loads inline postings and the most promising
 * blocks first, keeps for every candidate a lower bound (unknown terms
 * absent) and an upper bound (unknown terms at their block maximum), prunes
 * blocks and candidates that cannot reach the k-th score, and loads the
 * blocks covering the remaining candidates until the top k are exact. For
 * prefix and fuzzy queries the top-k set is exact; scores of its members
 * may stay lower bounds.
 */
(function (root) {
  "use strict";

  var A = root.ErrdocsAnalyzer;
  var CV = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  var CVV = new Int8Array(128).fill(-1);
  for (var ci = 0; ci < CV.length; ci++) CVV[CV.charCodeAt(ci)] = ci;

  // ---------- chunk loading ----------
  var store = Object.create(null);   // key -> data
  var pending = Object.create(null); // key -> Promise
  var order = [];
  var bytes = 0;
  var base = "";
  var manifest = null;
  var initPromise = null, initBase = null;

  function scriptLoader(url) {
    return new Promise(function (resolve, reject) {
      var doc = root.document;
      if (!doc) { reject(new Error("errdocs: no document to load " + url + " (use setLoader)")); return; }
      var s = doc.createElement("script");
      s.src = url;
      s.async = true;
      s.onload = function () { s.remove(); resolve(resourceSize(s.src)); };
      s.onerror = function () { s.remove(); reject(new Error("errdocs: could not load " + url)); };
      (doc.head || doc.documentElement).appendChild(s);
    });
  }
  function resourceSize(url) {
    try {
      var p = root.performance;
      if (p && p.getEntriesByName) {
        var e = p.getEntriesByName(url);
        if (e.length) return e[e.length - 1].encodedBodySize || e[e.length - 1].transferSize || 0;
      }
    } catch (err) { /* no timing: size unknown */ }
    return 0;
  }
  var loader = scriptLoader;

  // The global every chunk calls.
  var receiver = root.errdocsSearch || {};
  receiver.load = function (key, data) {
    if (typeof key === "string" && !(key in store)) store[key] = data;
  };
  root.errdocsSearch = receiver;

  function get(key) {
    if (key in store) return Promise.resolve(store[key]);
    if (pending[key]) return pending[key];
    var p = Promise.resolve().then(function () { return loader(base + key + ".js", key); }).then(function (size) {
      delete pending[key];
      if (!(key in store)) throw new Error("errdocs: chunk " + key + " did not register");
      order.push(key);
      bytes += typeof size === "number" ? size : 0;
      return store[key];
    }, function (err) { delete pending[key]; throw err; });
    pending[key] = p;
    return p;
  }
  function getAll(keys) { return Promise.all(keys.map(get)); }

  // ---------- decoding ----------
  function Reader(s, pos) { this.s = s; this.p = pos || 0; }
  Reader.prototype.u = function () {
    var v = 0, mul = 1, s = this.s;
    for (;;) {
      var c = CVV[s.charCodeAt(this.p++)];
      if (c < 0 || c === undefined) throw new Error("errdocs: corrupt chunk");
      v += (c & 31) * mul;
      if (c < 32) return v;
      mul *= 32;
    }
  };
  var f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
  // norm as bleve stored it: float32(1/sqrt(fieldLength)), or raw bits
  Reader.prototype.norm = function () {
    var l = this.u();
    if (l > 0) return Math.fround(1 / Math.sqrt(l));
    u32[0] = this.u();
    return f32[0];
  };

  var shardCache = Object.create(null); // shard index -> Map(term -> [fieldEntry])
  function decodeShard(data) {
    var terms = data.t, r = new Reader(data.e), map = new Map();
    for (var i = 0; i < terms.length; i++) {
      var nf = r.u(), list = [];
      for (var j = 0; j < nf; j++) {
        var fe = { field: r.u(), df: r.u(), n: r.u(), inline: null, blocks: null };
        list.push(fe);
        decodeFieldRest(r, fe);
      }
      map.set(terms[i], list);
    }
    return map;
  }
  function decodeFieldRest(r, fe) {
    if (fe.n <= manifest.options.inlineMax) {
      var docs = [], prev = 0;
      for (var k = 0; k < fe.n; k++) {
        var d = prev + r.u(); prev = d;
        var fr = r.u(), nm = r.norm();
        docs.push([d, fr, nm]);
      }
      fe.inline = docs;
      return;
    }
    var nb = r.u(), file = r.u(), off = r.u(), prevLast = 0, blocks = [];
    for (var b = 0; b < nb; b++) {
      var fd = r.u();
      if (fd > 0) { file += fd; off = 0; }
      var first = prevLast + r.u();
      var last = first + r.u();
      var count = r.u(), len = r.u();
      var mf = r.u(), mn = r.norm();
      blocks.push({ file: file, off: off, len: len, first: first, last: last, count: count, maxFreq: mf, maxNorm: mn });
      off += len;
      prevLast = last;
    }
    fe.blocks = blocks;
  }
  function decodeBlock(s, blk) {
    var r = new Reader(s, blk.off), out = new Array(blk.count), prev = blk.first;
    for (var i = 0; i < blk.count; i++) {
      var d = prev + r.u(); prev = d;
      var fr = r.u(), nm = r.norm();
      out[i] = [d, fr, nm];
    }
    return out;
  }

  // code point order = Go's byte order of UTF-8 strings
  function cmp(a, b) {
    var n = Math.min(a.length, b.length);
    for (var i = 0; i < n; i++) {
      var x = a.charCodeAt(i), y = b.charCodeAt(i);
      if (x === y) continue;
      if (x >= 0xD800 && x <= 0xDFFF || y >= 0xD800 && y <= 0xDFFF) {
        var cx = a.codePointAt(i), cy = b.codePointAt(i);
        // a surrogate pair encodes a code point above any BMP one
        var hx = x >= 0xD800 && x <= 0xDBFF, hy = y >= 0xD800 && y <= 0xDBFF;
        if (hx && !hy) return 1;
        if (hy && !hx) return -1;
        return cx < cy ? -1 : 1;
      }
      return x < y ? -1 : 1;
    }
    return a.length - b.length;
  }
  function shardIndex(term) {
    var s = manifest.shards, lo = 0, hi = s.length - 1, ans = 0;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (cmp(s[mid], term) <= 0) { ans = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return ans;
  }
  function shardKey(i) { return "d/" + pad(i); }
  function pad(i) { var s = String(i); while (s.length < 4) s = "0" + s; return s; }
  function loadShards(idxs) {
    var uniq = [];
    idxs.forEach(function (i) { if (uniq.indexOf(i) < 0 && !shardCache[i]) uniq.push(i); });
    return getAll(uniq.map(shardKey)).then(function (datas) {
      datas.forEach(function (d, j) { if (!shardCache[uniq[j]]) shardCache[uniq[j]] = decodeShard(d); });
    });
  }
  function entryFor(term, field) {
    var m = shardCache[shardIndex(term)];
    var list = m && m.get(term);
    if (!list) return null;
    for (var i = 0; i < list.length; i++) if (list[i].field === field) return list[i];
    return null;
  }
  // shards that may hold terms starting with p
  function prefixShards(p) {
    var first = shardIndex(p), out = [first];
    for (var i = first + 1; i < manifest.shards.length; i++) {
      if (manifest.shards[i].slice(0, p.length) === p || cmp(manifest.shards[i], p) < 0) out.push(i); else break;
    }
    return out;
  }
  function termsWithPrefix(p, field) {
    var out = [];
    prefixShards(p).forEach(function (si) {
      var m = shardCache[si];
      if (!m) return;
      m.forEach(function (list, term) {
        if (term.length >= p.length && term.slice(0, p.length) === p) {
          for (var i = 0; i < list.length; i++) if (list[i].field === field) { out.push(term); break; }
        }
      });
    });
    out.sort(cmp);
    return out;
  }

  // ---------- query structure (mirror of index.BuildQuery) ----------
  function utf8Bytes(s) {
    var n = 0;
    for (var ch of s) { var c = ch.codePointAt(0); n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }
    return n;
  }
  function autoFuzziness(t) { var n = utf8Bytes(t); return n > 5 ? 2 : n > 2 ? 1 : 0; }
  // bleve cuts the fuzzy prefix at the first rune boundary at/after N bytes
  function fuzzyPrefixOf(t, nbytes) {
    var i = 0, idx = 0;
    for (var ch of t) {
      if (i >= nbytes) return t.slice(0, idx);
      var c = ch.codePointAt(0);
      i += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      idx += ch.length;
    }
    return t;
  }
  // optimal string alignment distance on code points, or max+1 if above max
  function osa(a, b, max) {
    a = Array.from(a); b = Array.from(b);
    var n = a.length, m = b.length;
    if (Math.abs(n - m) > max) return max + 1;
    var prev2 = null, prev = new Array(m + 1), cur;
    for (var j = 0; j <= m; j++) prev[j] = j;
    for (var i = 1; i <= n; i++) {
      cur = new Array(m + 1); cur[0] = i;
      var rowMin = cur[0];
      for (j = 1; j <= m; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
        cur[j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (rowMin > max) return max + 1;
      prev2 = prev; prev = cur;
    }
    return prev[m];
  }

  function lastWord(text) {
    var toks = A.analyze("errdocs_ident", text);
    if (!toks.length) return "";
    var t = toks[toks.length - 1];
    if (t.end !== text.length || Array.from(t.term).length < manifest.options.minPrefix) return "";
    return t.term;
  }

  // Plan the query: which dictionary shards it needs, then the tree.
  function planTerms(text, opts) {
    var fields = manifest.fields, clauses = [], shards = [];
    fields.forEach(function (f, fi) {
      var toks = A.terms(f.query, text);
      if (!toks.length) return;
      clauses.push({ field: fi, toks: toks });
      toks.forEach(function (t) {
        if (opts.fuzzy && autoFuzziness(t) > 0) prefixShards(fuzzyPrefixOf(t, manifest.options.fuzzyPrefix)).forEach(function (s) { shards.push(s); });
        else shards.push(shardIndex(t));
      });
    });
    var w = opts.prefix ? lastWord(text) : "";
    if (w) prefixShards(w).forEach(function (s) { shards.push(s); });
    return { clauses: clauses, prefixWord: w, shards: shards };
  }

  function leaf(fi, term, boost) {
    var e = entryFor(term, fi);
    return { leaf: true, field: fi, term: term, boost: boost, df: e ? e.df : 0, entry: e };
  }
  function orNode(children) { return { leaf: false, children: children }; }

  function buildTree(plan, opts) {
    var fields = manifest.fields, top = [];
    plan.clauses.forEach(function (c) {
      var f = fields[c.field];
      top.push(orNode(c.toks.map(function (t) {
        var fz = opts.fuzzy ? autoFuzziness(t) : 0;
        if (fz === 0) return leaf(c.field, t, f.boost);
        var pfx = fuzzyPrefixOf(t, manifest.options.fuzzyPrefix), cands = [];
        termsWithPrefix(pfx, c.field).forEach(function (cand) {
          var d = osa(t, cand, fz);
          if (d <= fz) cands.push({ term: cand, d: d });
        });
        if (cands.length === 0 || (cands.length === 1 && cands[0].term === t)) return leaf(c.field, t, f.boost);
        return orNode(cands.map(function (x) { return leaf(c.field, x.term, f.boost * (1 / (x.d + 1))); }));
      })));
    });
    if (plan.prefixWord) {
      var w = plan.prefixWord;
      fields.forEach(function (f, fi) {
        var ts = termsWithPrefix(w, fi);
        if (ts.length === 0 || (ts.length === 1 && ts[0] === w)) top.push(leaf(fi, w, f.boost));
        else top.push(orNode(ts.map(function (t) { return leaf(fi, t, f.boost); })));
      });
    }
    if (!top.length) return null;
    return orNode(top);
  }

  // bleve orders a disjunction's children by Count() (doc frequency, a
  // nested disjunction's being the sum of its children's); keep that order
  // so that sums add up in the same order.
  function prepare(node, leaves, N) {
    if (node.leaf) {
      node.idf = 1 + Math.log(N / (node.df + 1));
      node.count = node.df;
      node.id = leaves.length;
      leaves.push(node);
      return;
    }
    node.children.forEach(function (c) { prepare(c, leaves, N); });
    node.count = node.children.reduce(function (s, c) { return s + c.count; }, 0);
    var idx = node.children.map(function (c, i) { return i; });
    idx.sort(function (a, b) { return node.children[a].count - node.children[b].count || a - b; });
    node.children = idx.map(function (i) { return node.children[i]; });
  }
  function sumWeights(node) {
    if (node.leaf) { var x = node.boost * node.idf; return x * x; }
    var s = 0;
    for (var i = 0; i < node.children.length; i++) s += sumWeights(node.children[i]);
    return s;
  }
  function leafScore(lf, freq, norm) {
    var s = Math.sqrt(freq) * norm * lf.idf;
    if (lf.qw !== 1) s = s * lf.qw;
    return s;
  }
  // evaluate the tree; val(leaf) gives a contribution or -1 for absent
  function evalNode(node, val) {
    if (node.leaf) return val(node);
    var sum = 0, m = 0, ch = node.children;
    for (var i = 0; i < ch.length; i++) {
      var s = evalNode(ch[i], val);
      if (s >= 0) { sum += s; m++; }
    }
    if (m === 0) return -1;
    return sum * (m / ch.length);
  }

  // ---------- the top-k search ----------
  function Search(tree, leaves, k, filter, setMode) {
    this.tree = tree; this.leaves = leaves; this.k = k; this.filter = filter; this.setMode = setMode;
    this.cands = new Map(); // doc -> Map(leafId -> contribution)
    this.dead = new Set();  // docs whose upper bound fell below theta: theta never decreases
    var self = this;
    leaves.forEach(function (lf) {
      lf.post = new Map();
      lf.loaded = [];
      var e = lf.entry;
      if (!e) { lf.blocks = []; return; }
      if (e.inline) {
        lf.blocks = [];
        e.inline.forEach(function (p) { self.add(lf, p[0], leafScore(lf, p[1], p[2])); });
        return;
      }
      lf.blocks = e.blocks;
      lf.loaded = e.blocks.map(function () { return false; });
      lf.bmax = e.blocks.map(function (b) { return leafScore(lf, b.maxFreq, b.maxNorm); });
    });
  }
  Search.prototype.add = function (lf, doc, score) {
    lf.post.set(doc, score);
    if (this.filter && !this.filter[doc] || this.dead.has(doc)) return;
    var c = this.cands.get(doc);
    if (!c) { c = new Map(); this.cands.set(doc, c); }
    c.set(lf.id, score);
  };
  // block of lf covering doc, or -1
  function coverBlock(lf, doc) {
    var b = lf.blocks, lo = 0, hi = b.length - 1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (b[mid].last < doc) lo = mid + 1;
      else if (b[mid].first > doc) hi = mid - 1;
      else return mid;
    }
    return -1;
  }
  Search.prototype.bounds = function (doc, c) {
    var unknown = null;
    var lb = evalNode(this.tree, function (lf) { var v = c.get(lf.id); return v === undefined ? -1 : v; });
    var ub = evalNode(this.tree, function (lf) {
      var v = c.get(lf.id);
      if (v !== undefined) return v;
      if (!lf.blocks.length) return -1;
      var bi = coverBlock(lf, doc);
      if (bi < 0 || lf.loaded[bi]) return -1;
      (unknown || (unknown = [])).push([lf, bi]);
      return lf.bmax[bi];
    });
    return { lb: lb, ub: ub, unknown: unknown };
  };
  // Upper bound of a doc not seen yet whose posting for lf0 is in block bi
  // (block-max): such a doc lies in [first, last] and, for every other
  // term, can only be in one of its unloaded blocks overlapping that range.
  Search.prototype.blockBound = function (lf0, bi) {
    var b0 = lf0.blocks[bi];
    return evalNode(this.tree, function (lf) {
      if (lf === lf0) return lf0.bmax[bi];
      return rangeMax(lf, b0.first, b0.last);
    });
  };
  // the largest block maximum among lf's unloaded blocks overlapping [lo, hi]
  function rangeMax(lf, lo, hi) {
    var b = lf.blocks, n = b.length, m = -1;
    if (!n) return -1;
    // first block whose last >= lo
    var a = 0, z = n - 1, start = n;
    while (a <= z) { var mid = (a + z) >> 1; if (b[mid].last >= lo) { start = mid; z = mid - 1; } else a = mid + 1; }
    for (var j = start; j < n && b[j].first <= hi; j++) if (!lf.loaded[j] && lf.bmax[j] > m) m = lf.bmax[j];
    return m;
  }
  Search.prototype.computeRest = function () {};
  Search.prototype.loadBlocks = function (need) {
    // need: [[lf, bi]] -> load the files, decode every query block in them
    var self = this, files = [];
    need.forEach(function (x) {
      var f = x[0].blocks[x[1]].file;
      if (files.indexOf(f) < 0) files.push(f);
    });
    return getAll(files.map(function (f) { return "p/" + pad(f); })).then(function (datas) {
      var byFile = new Map();
      files.forEach(function (f, i) { byFile.set(f, datas[i]); });
      self.leaves.forEach(function (lf) {
        for (var bi = 0; bi < lf.blocks.length; bi++) {
          if (lf.loaded[bi]) continue;
          var s = byFile.get(lf.blocks[bi].file);
          if (s === undefined) continue;
          lf.loaded[bi] = true;
          decodeBlock(s, lf.blocks[bi]).forEach(function (p) { self.add(lf, p[0], leafScore(lf, p[1], p[2])); });
        }
      });
    });
  };
  var lastStats = { steps: [] };
  // Files per loading round: more rounds cost latency, bigger rounds bytes.
  var MAX_FILES_PER_ROUND = 3;
  Search.prototype.run = function () {
    var self = this, k = this.k;
    lastStats = { steps: [], leaves: this.leaves.map(function (lf) { return manifest.fields[lf.field].name + ":" + lf.term + " df=" + lf.df + " blocks=" + lf.blocks.length; }) };
    function step() {
      // rank candidates by lower bound
      var list = [];
      self.cands.forEach(function (c, doc) {
        var b = self.bounds(doc, c);
        if (b.ub < 0) return;
        list.push({ doc: doc, lb: b.lb, ub: b.ub, unknown: b.unknown, c: c });
      });
      list.sort(function (a, b) { return b.lb - a.lb || a.doc - b.doc; });
      var theta = list.length >= k ? list[k - 1].lb : -1;
      var need = [], files = [];
      function want(lf, bi) {
        need.push([lf, bi]);
        var f = lf.blocks[bi].file;
        if (files.indexOf(f) < 0) files.push(f);
      }
      // Forget candidates that can no longer reach the top k.
      if (theta >= 0) {
        list = list.filter(function (x, i) {
          if (i < k || x.ub >= theta) return true;
          self.cands.delete(x.doc);
          self.dead.add(x.doc);
          return false;
        });
      }
      // Blocks that may hold an unseen doc able to reach theta (block-max).
      var live = [];
      self.leaves.forEach(function (lf) {
        for (var bi = 0; bi < lf.blocks.length; bi++) {
          if (lf.loaded[bi]) continue;
          var bb = self.blockBound(lf, bi);
          if (theta < 0 || bb >= theta) live.push([lf, bi, bb]);
        }
      });
      live.sort(function (a, b) { return b[2] - a[2]; });
      var maxOutside = live.length ? live[0][2] : -1;
      for (var i = k; i < list.length; i++) if (list[i].unknown && list[i].ub > maxOutside) maxOutside = list[i].ub;
      // Candidates whose score or rank is not settled, most promising first:
      // resolving the best ones first raises theta, which prunes the rest.
      var open = list.filter(function (x, i) {
        if (!x.unknown) return false;
        if (i < k && self.setMode && x.lb > maxOutside) return false; // surely in the set
        return true;
      });
      open.sort(function (a, b) { return b.ub - a.ub || a.doc - b.doc; });
      for (var oi = 0; oi < open.length && files.length < MAX_FILES_PER_ROUND; oi++) {
        open[oi].unknown.forEach(function (u) { want(u[0], u[1]); });
      }
      var growing = false;
      if (!need.length && live.length) {
        growing = true;
        // grow the candidates: the most promising blocks' files first
        for (var j = 0; j < live.length && files.length < MAX_FILES_PER_ROUND; j++) want(live[j][0], live[j][1]);
      }
      if (!need.length) return list;
      lastStats.steps.push({ cands: list.length, theta: theta, live: live.length, need: need.length, grow: growing });
      return self.loadBlocks(need).then(step);
    }
    return Promise.resolve().then(step);
  };

  // ---------- filters ----------
  var filterValues = Object.create(null); // field -> Map(value -> entry)
  function loadFilterValues(field) {
    if (filterValues[field]) return Promise.resolve(filterValues[field]);
    var key = manifest.filters[field];
    if (!key) return Promise.reject(new Error("errdocs: unknown filter " + field));
    return get(key).then(function (entries) {
      var m = new Map();
      entries.forEach(function (e) { m.set(e[0], { value: e[0], count: e[1], file: e[2], off: e[3], len: e[4], kind: e[5] }); });
      filterValues[field] = m;
      return m;
    });
  }
  function decodeFilterList(s, e, mark) {
    var i;
    if (e.kind === 1) {
      for (i = 0; i < e.len; i++) {
        var v = CVV[s.charCodeAt(e.off + i)];
        for (var b = 0; b < 5; b++) if (v & (1 << b)) mark(i * 5 + b);
      }
      return;
    }
    var r = new Reader(s, e.off), d = 0;
    while (r.p < e.off + e.len) { d += r.u(); mark(d); }
  }
  // -> Promise<Uint8Array|null>: 1 for docs passing every filter
  function filterSet(filters) {
    var fields = manifest.filterNames.filter(function (f) { return filters && filters[f] && filters[f].length; });
    if (!fields.length) return Promise.resolve(null);
    var N = manifest.docs;
    return Promise.all(fields.map(function (f) {
      return loadFilterValues(f).then(function (m) {
        var ents = filters[f].map(function (v) { return m.get(String(v)); }).filter(Boolean);
        return getAll(ents.map(function (e) { return "f/" + pad(e.file); })).then(function (datas) {
          var set = new Uint8Array(N);
          ents.forEach(function (e, i) { decodeFilterList(datas[i], e, function (d) { if (d < N) set[d] = 1; }); });
          return set;
        });
      });
    })).then(function (sets) {
      var out = sets[0];
      for (var i = 1; i < sets.length; i++) for (var d = 0; d < N; d++) out[d] &= sets[i][d];
      return out;
    });
  }

  // ---------- doc data ----------
  // doc data by doc number; with patterns, also the m/ pattern chunks
  function docsByNumber(nums, patterns) {
    var per = manifest.docsPerFile, pper = manifest.options.patternsPerFile, keys = [];
    patterns = patterns && manifest.options.patterns === 1;
    nums.forEach(function (n) {
      var c = "r/" + pad(Math.floor(n / per)), m = "m/" + pad(Math.floor(n / pper));
      if (keys.indexOf(c) < 0) keys.push(c);
      if (patterns && keys.indexOf(m) < 0) keys.push(m);
    });
    return getAll(keys).then(function () {
      return nums.map(function (n) {
        var arr = store["r/" + pad(Math.floor(n / per))];
        if (!arr || !arr[n % per]) return null;
        var d = Object.assign({}, arr[n % per]); // callers get their own copy
        if (patterns) {
          var progs = store["m/" + pad(Math.floor(n / pper))];
          d.pattern = progs ? progs[n % pper] : null;
        }
        return d;
      });
    });
  }

  // ---------- public ----------
  function ready() {
    if (!initPromise) return Promise.reject(new Error("errdocs: call ErrdocsSearch.init(base) first"));
    return initPromise;
  }
  function init(b) {
    b = String(b == null ? "" : b);
    if (b && b.charAt(b.length - 1) !== "/") b += "/";
    if (initPromise && initBase === b) return initPromise;
    base = b; initBase = b;
    initPromise = get("manifest").then(function (m) {
      if (!m || m.v !== 1) throw new Error("errdocs: unsupported index format");
      manifest = m;
    });
    return initPromise;
  }

  function runQuery(text, opts, k, filter) {
    var plan = planTerms(text, opts);
    return loadShards(plan.shards).then(function () {
      var tree = buildTree(plan, opts);
      if (!tree) return null;
      var leaves = [];
      prepare(tree, leaves, manifest.docCount);
      var qn = 1 / Math.sqrt(sumWeights(tree));
      leaves.forEach(function (lf) { lf.qw = lf.boost * lf.idf * qn; });
      var s = new Search(tree, leaves, k, filter, !!(plan.prefixWord || opts.fuzzy));
      return s.run().then(function (list) {
        var exactTotal = leaves.every(function (lf) { return lf.loaded.every(Boolean); });
        var total = list.length + s.dead.size; // dead: matched, but below the top k
        if (!exactTotal) {
          leaves.forEach(function (lf) { if (lf.df > total) total = lf.df; });
          if (filter) total = Math.min(total, filter.reduce(function (a, b) { return a + b; }, 0));
        }
        return { list: list, total: Math.max(total, list.length), totalExact: exactTotal, leaves: leaves };
      });
    });
  }

  function search(query, o) {
    o = o || {};
    var limit = o.limit > 0 ? Math.floor(o.limit) : 10, offset = o.offset > 0 ? Math.floor(o.offset) : 0;
    var k = limit + offset;
    var text = String(query == null ? "" : query);
    var prefix = o.prefix !== false;
    var fuzzy = o.fuzzy === undefined ? "auto" : o.fuzzy;
    return ready().then(function () {
      return filterSet(o.filters);
    }).then(function (filter) {
      var first = fuzzy === true ? runQuery(text, { prefix: prefix, fuzzy: true }, k, filter)
        : runQuery(text, { prefix: prefix, fuzzy: false }, k, filter);
      return first.then(function (r) {
        if (r && fuzzy === "auto" && r.list.length < k) {
          return runQuery(text, { prefix: prefix, fuzzy: true }, k, filter).then(function (r2) {
            if (r2 && r2.list.length > r.list.length) { r2.fuzzy = true; return r2; }
            return r;
          });
        }
        if (r && fuzzy === true) r.fuzzy = true;
        return r;
      }).then(function (r) {
        if (!r) {
          // no searchable word: filter-only listing, newest first
          if (!filter) return { total: 0, totalExact: true, fuzzy: false, results: [] };
          var nums = [], total = 0;
          for (var d = 0; d < filter.length; d++) if (filter[d]) { if (total >= offset && total < k) nums.push(d); total++; }
          return docsByNumber(nums, o.patterns).then(function (docs) {
            return { total: total, totalExact: true, fuzzy: false, results: docs.map(function (doc, i) { return { id: doc.id, num: nums[i], score: 0, doc: doc, matchedTerms: [] }; }) };
          });
        }
        var page = r.list.slice(offset, k);
        return docsByNumber(page.map(function (x) { return x.doc; }), o.patterns).then(function (docs) {
          return {
            total: r.total, totalExact: r.totalExact, fuzzy: !!r.fuzzy,
            results: page.map(function (x, i) {
              var mt = [];
              x.c.forEach(function (v, id) { var t = r.leaves[id].term; if (mt.indexOf(t) < 0) mt.push(t); });
              return { id: docs[i].id, num: x.doc, score: x.lb, doc: docs[i], matchedTerms: mt };
            })
          };
        });
      });
    });
  }

  // record id -> doc number through the i/<first hex digits> chunks
  function docs(ids) {
    return ready().then(function () {
      var n = manifest.options.idPrefix, keys = [];
      ids = (ids || []).map(String);
      ids.forEach(function (id) {
        if (!/^[0-9a-f]+$/.test(id) || id.length < n) return;
        var key = "i/" + id.slice(0, n);
        if (keys.indexOf(key) < 0) keys.push(key);
      });
      return Promise.all(keys.map(function (key) {
        return get(key).catch(function () { return []; }); // no record has that prefix
      })).then(function () {
        var nums = ids.map(function (id) {
          var arr = store["i/" + id.slice(0, n)];
          if (!arr) return -1;
          for (var i = 0; i < arr.length; i++) if (arr[i][0] === id) return arr[i][1];
          return -1;
        });
        return docsByNumber(nums.filter(function (x) { return x >= 0; }), true).then(function (found) {
          var j = 0;
          return nums.map(function (x) { return x >= 0 ? found[j++] : null; });
        });
      });
    });
  }

  function facets() {
    return ready().then(function () {
      return Promise.all(manifest.filterNames.map(loadFilterValues));
    }).then(function (ms) {
      var out = {};
      manifest.filterNames.forEach(function (f, i) {
        out[f] = [];
        ms[i].forEach(function (e) { out[f].push({ value: e.value, count: e.count }); });
      });
      return out;
    });
  }

  function analyze(field, text) {
    var name = field;
    if (manifest) manifest.fields.forEach(function (f) { if (f.name === field) name = f.query; });
    else if (field === "errorMessage" || field === "documentation" || field === "solutions" || field === "preventionTips") name = "en";
    else if (field === "errorClass" || field === "identifiers") name = "errdocs_ident";
    else if (field === "errorCode" || field === "tags" || field === "backgroundTag" || field === "repo") name = "errdocs_qcode";
    return A.terms(name, text);
  }

  root.ErrdocsSearch = {
    init: init,
    search: search,
    analyze: analyze,
    docs: docs,
    docsByNumber: function (nums, patterns) { return ready().then(function () { return docsByNumber(nums, patterns); }); },
    facets: facets,
    bytesLoaded: function () { return bytes; },
    loadedFiles: function () { return order.slice(); },
    setLoader: function (fn) { loader = typeof fn === "function" ? fn : scriptLoader; },
    _debug: { store: store, manifest: function () { return manifest; }, stats: function () { return lastStats; } }
  };
})(typeof window !== "undefined" ? window : globalThis);
