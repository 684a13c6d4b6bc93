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
 *       without a trailing slash. Loads the entry file (manifest.js) and the
 *       hashed manifest it names. Calling again with the
 *       same base returns the same promise.
 *
 *   search(query, {filters, limit, offset, prefix, fuzzy, paste, patterns, mode}) -> Promise<{
 *       total,        // matching records of the first group: all words (a
 *                     // typed query) or most words (a paste); exact when
 *                     // totalExact, else a lower bound
 *       totalExact,
 *       fuzzy,        // true when some results come from the fuzzy fallback
 *       more,         // true when the first group may hold more than these
 *       results: [{num, score, doc, matchedTerms, group, snippet[, exact]}],
 *       partial,      // (no results) the last word, too short to expand as a
 *                     // prefix, that some indexed term starts with: the
 *                     // person is still typing it, do not say "no results"
 *       suggestions   // (no results) {dropWords: the query without the word
 *                     // whose removal finds the most all-words results, or
 *                     // null; spelling: the query with each word that has no
 *                     // term replaced by its closest term, or null}
 *     }>
 *       Groups, in this order, never mixed: "pattern" (a paste: records
 *         whose messagePattern matches it, found by their pattern keys
 *         whatever the text ranking, and text results whose whole message
 *         it holds; exact: true; ordered by patternMatches), "all" (every word of a
 *         typed query matches, each in some field, the last word also as
 *         a prefix) or "most" (a paste: at least half of its words), then,
 *         while the results are fewer than limit+offset, "some" (any word)
 *         and "fuzzy" (any word, with typo tolerance).
 *       snippet: {field, text, marks: [[start, end], ...]}: field is
 *         "errorMessage" or "documentation" (the start of it, which is
 *         what the doc data holds); text is cut around the first matched
 *         word; marks are [start, end) offsets in UTF-16 units of the
 *         words that matched (their analyzed form is a term the record
 *         matched in that field; no fuzzy look-alikes), in order.
 *       filters: {repo:[], severity:[], errorType:[], tag:[], language:[],
 *         family:[]} (family: backgroundTag):
 *         values of one field OR, fields AND. Filters alone (empty query)
 *         list records in doc number order: error family (backgroundTag,
 *         none last), error class, message shape, newest analyzedAt
 *         first, then id; score 0.
 *       limit (default 10), offset (default 0).
 *       paste: the text as pasted (lines kept): search it as a pasted
 *         error (patterns first, then most words); query is then the text
 *         as the box holds it.
 *       patterns (default false): also load each result's compiled
 *         messagePattern into doc.pattern (separate chunks, about as large
 *         as the rest of the doc data: ask for them only when matching a
 *         pasted error), and move the results of the page whose pattern
 *         matches the paste (or, without one, the query) to the top, as
 *         exact matches (group "pattern", exact: true; a stable partition,
 *         see liftMatches). Without it doc.pattern is undefined.
 *       prefix (default true): the last word also matches as a prefix
 *         (type-ahead), when it has 3+ characters and the query does not end
 *         in a space or punctuation.
 *       fuzzy: "auto" (default): the fuzzy group may follow; false: never.
 *         With mode, true makes that one query fuzzy (1 edit for words of
 *         3-5 bytes, 2 beyond; first 2 bytes must match).
 *       mode: "all", "most" or "any": run that one query form alone (the
 *         parity tests compare each with its bleve twin, index.QueryOptions).
 *       results are in rank order: group, then score descending, then doc
 *         number (the filter-only order); but the first ten of a typed
 *         query's words (mode "all", not fuzzy, two query tokens or more)
 *         are ordered by how their message holds the words first (see
 *         typedOrder), so their scores may not descend. num is the
 *         record's doc number in this export; doc = {title, url, repo,
 *         severity, errorType, language, snippet[, pattern]} (what a
 *         result shows; the record id, tags,
 *         error class and code are not in it); url is relative to the
 *         site root ("owner/name/slug/") and names the record. matchedTerms
 *         are analyzed terms (compare with analyze("errorMessage", word)).
 *
 *   analyze(field, text) -> [term]
 *       field: a field name ("errorMessage", "errorClass", ...) or an
 *       analyzer name ("en", ...). Same tokens as bleve's analyzer.
 *
 *   docs(ids) -> Promise<[doc|null]>   doc data, with pattern and id, for
 *       record ids (any order; unknown id -> null). Costs one id chunk per
 *       distinct first hex digits, plus the doc and pattern chunks.
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
 * Ranking (mirrors generator/index.BuildQuery): mode "any": a disjunction
 * over clauses; one clause per field whose query analyzer yields tokens (a
 * disjunction of term queries, one per token, with the field's boost),
 * plus, in prefix mode, one prefix query per field on the last word. Modes
 * "all" and "most": one clause per word (whitespace-separated chunks whose
 * English analysis keeps a token), a disjunction over the fields of the
 * word's term queries (the last word's prefix queries too), combined by a
 * conjunction ("all": a sum, every word required) or by a disjunction
 * needing half the words, rounded up ("most"). bleve TF-IDF: per term
 * tf=sqrt(freq), idf=1+ln(docCount/(df+1)), score=tf*norm*idf*queryWeight,
 * queryWeight=boost*idf*queryNorm, queryNorm=1/sqrt(sum over all term
 * queries of (boost*idf)^2); a disjunction sums its matching children and
 * multiplies by coord = matching/all children.
 *
 * Exact top-k: a term's long postings lists share an impact head (its
 * documents of largest weight, with all their postings of the term) and
 * each has doc-ordered tail blocks with their maxima (freq, norm); see
 * FORMAT.md "Client algorithm". The engine loads inline postings and the most promising
 * blocks first, keeps for every candidate a lower bound (unknown terms
 * absent) and an upper bound (unknown terms at their block maximum), prunes
 * blocks and candidates that cannot reach the k-th score, and loads the
 * blocks covering the remaining candidates until the top k are exact
 * (scores and order; type-ahead prefix queries too). For fuzzy queries the
 * top-k set is exact; scores of its members may stay lower bounds.
 */
(function (root) {
  "use strict";

  var A = root.ErrdocsAnalyzer;
  var CV = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  var CVV = new Int8Array(128).fill(-1);
  for (var ci = 0; ci < CV.length; ci++) CVV[CV.charCodeAt(ci)] = ci;

  // ---------- chunk loading ----------
  var store = Object.create(null);   // key -> data
  // key -> hash part of its file name (<key>.<hash>.js), learnt from the
  // files that name others (FORMAT.md "File names"); "entry" is the one
  // fixed name, manifest.js.
  var names = Object.create(null);
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

  // d/ and p/ files are named by the hash of their content (HASHED);
  // the others by key and a hash their parent gives (names).
  var HASHED = /^[dp]\/[0-9a-f]{12}$/;
  function fileOf(key) {
    if (key === "entry") return "manifest.js";
    if (HASHED.test(key)) return key + ".js";
    var h = names[key];
    if (!h) throw new Error("errdocs: no file name for chunk " + key);
    return key + "." + h + ".js";
  }
  // A loaded file that names others: remember their hashed names.
  function learn(key, data) {
    var k, c = key.charAt(0);
    if (key === "entry") names.manifest = data;
    else if (key === "manifest") {
      for (k in data.names) names[k] = data.names[k];
      // the doc data and pattern files: 8 hex digits each, in file order
      [["r/", data.rh], ["m/", data.mh]].forEach(function (t) {
        for (var j = 0; 8 * j < (t[1] || "").length; j++) names[t[0] + pad(j)] = t[1].substr(8 * j, 8);
      });
    } else if (c === "f" && data && data.n) {
      for (k in data.n) names[k] = data.n[k];
    }
  }
  function get(key) {
    if (key in store) return Promise.resolve(store[key]);
    if (pending[key]) return pending[key];
    var p = Promise.resolve().then(function () { return loader(base + fileOf(key), key); }).then(function (size) {
      delete pending[key];
      if (!(key in store)) throw new Error("errdocs: chunk " + key + " did not register");
      learn(key, store[key]);
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
  function decodeShard(data, key) {
    var terms = data.t, r = new Reader(data.e), map = new Map();
    map.key = key;
    // the shard's postings files, 12 hex digits of hash each
    map.p = data.p || "";
    for (var i = 0; i < terms.length; i++) {
      var nf = r.u(), list = [], th = null;
      if (r.u() === 1) {
        // the term's impact head, first in its postings, shared by its
        // long lists (fields: their field numbers, bit j of a head doc's
        // mask being fields[j])
        var hkey = shardFile("p", map.p, r.u()), ho = r.u(), hfirst = r.u();
        th = { key: hkey, off: ho, first: hfirst, last: hfirst + r.u(), count: r.u(), len: r.u(), head: true, fields: [] };
      }
      for (var j = 0; j < nf; j++) {
        var fe = { field: r.u(), df: r.u(), n: r.u(), inline: null, blocks: null };
        list.push(fe);
        decodeFieldRest(r, fe, map, th);
      }
      map.set(terms[i], list);
    }
    map.x = data.x || null;
    return map;
  }
  function shardFile(kind, hashes, i) { return kind + "/" + hashes.substr(12 * i, 12); }
  // Prefix list of word w in field fi, stored with the expansion's first
  // term t0 (FORMAT.md "Prefix lists"), or null.
  function prefixEntry(w, fi, t0) {
    var m = shardCache[shardIndex(t0)];
    var raw = m && m.x && m.x[w];
    if (!raw) return null;
    var r = new Reader(raw);
    while (r.p < raw.length) {
      var fe = { field: r.u(), nTerms: r.u(), n: r.u(), inline: null, blocks: null, virtual: true };
      decodeFieldRest(r, fe, m);
      if (fe.field === fi) return fe;
    }
    return null;
  }
  function f32bits(bits) { u32[0] = bits; return f32[0]; }
  // Postings written column by column (FORMAT.md "Postings"): n doc gaps
  // (the first from prev), n frequencies, n field lengths, then the
  // float32 bits of each norm whose length is 0. Fills docs (if given)
  // and imp = sqrt(freq)*norm from index at; returns the reader.
  function readPostings(r, n, prev, docs, imp, at) {
    var k;
    if (docs) for (k = 0; k < n; k++) { prev += r.u(); docs[at + k] = prev; }
    for (k = 0; k < n; k++) imp[at + k] = r.u(); // freq, for now
    var raw = 0;
    for (k = 0; k < n; k++) {
      var l = r.u();
      if (l > 0) imp[at + k] = Math.sqrt(imp[at + k]) * Math.fround(1 / Math.sqrt(l));
      else { imp[at + k] = -1 - imp[at + k]; raw++; }
    }
    for (k = 0; raw > 0 && k < n; k++) {
      if (imp[at + k] < 0) { imp[at + k] = Math.sqrt(-1 - imp[at + k]) * f32bits(r.u()); raw--; }
    }
    return r;
  }
  function decodeFieldRest(r, fe, sh, th) {
    var vt = !!fe.virtual;
    if (!vt && fe.n <= manifest.options.inlineMax) {
      var docs = new Int32Array(fe.n), imp = new Float64Array(fe.n);
      readPostings(r, fe.n, 0, docs, imp, 0);
      fe.inline = { docs: docs, imp: imp };
      return;
    }
    // cv(nTail) cv(file) cv(offset), then (a term's list with a head) its
    // maximum in the head or (a prefix list) its own head's descriptor,
    // then the tail blocks (BlockSize postings each, the last the rest)
    var nTail = r.u(), file = r.u(), off = r.u(), prevLast = 0, blocks = [], bs = manifest.options.blockSize;
    fe.himp = -1;
    if (th) {
      // the term's head: this list's largest impact there (freq 0: none)
      fe.head = th; fe.hj = th.fields.length; th.fields.push(fe.field);
      var hf = r.u();
      if (hf > 0) fe.himp = Math.sqrt(hf) * r.norm();
    }
    if (vt && r.u() === 1) {
      // a prefix list's own head, first in its postings
      var hc = r.u(), hfirst = r.u(), hlast = hfirst + r.u(), hl = r.u();
      fe.himp = f32bits(r.u());
      fe.head = { key: shardFile("p", sh.p, file), off: off, len: hl, first: hfirst, last: hlast, count: hc, head: true };
      off += hl;
    }
    // per block: cv(fileDelta) cv(first - previous first) maximum; its doc
    // range ends before the next block's first doc (the last block's:
    // given after the blocks); its offset is known for the first block in
    // a file and follows from the blocks before it there (blockOffset)
    var first = 0;
    for (var b = 0; b * bs < nTail; b++) {
      var fd = r.u();
      if (fd > 0) { file += fd; off = 0; }
      first += r.u();
      var bimp = vt ? f32bits(r.u()) : Math.sqrt(r.u()) * r.norm();
      if (b > 0) blocks[b - 1].last = first - 1;
      blocks.push({ key: shardFile("p", sh.p, file), off: b === 0 || fd > 0 ? off : -1, first: first, last: first, count: Math.min(bs, nTail - b * bs), imp: bimp, head: false, list: blocks, i: b, vt: vt });
    }
    if (nTail > 0) blocks[blocks.length - 1].last = first + r.u();
    fe.blocks = blocks;
  }
  function blockText(blk) { return store[blk.key]; }
  // A tail block's offset in its file: after the blocks before it there,
  // whose lengths follow from their contents (memoized on the blocks).
  function blockOffset(blk) {
    if (blk.off >= 0) return blk.off;
    var list = blk.list, b = blk.i;
    while (list[b].off < 0) b--;
    var s = blockText(blk);
    for (; b < blk.i; b++) list[b + 1].off = list[b].vt ? skipVPostings(s, list[b].off, list[b].count) : skipPostings(s, list[b].off, list[b].count);
    return blk.off;
  }
  function skipCV(s, p) { while (CVV[s.charCodeAt(p++)] >= 32); return p; }
  // the end of n postings written column by column from p
  function skipPostings(s, p, n) {
    var k, raw = 0;
    for (k = 0; k < 2 * n; k++) p = skipCV(s, p);
    for (k = 0; k < n; k++) { if (s.charCodeAt(p) === 65 /* "A": length 0 */) raw++; p = skipCV(s, p); }
    for (k = 0; k < raw; k++) p = skipCV(s, p);
    return p;
  }
  // the end of n prefix-list postings from p
  function skipVPostings(s, p, n) {
    var r = new Reader(s, p);
    for (var k = 0; k < n; k++) {
      r.u();
      for (var m = r.u(); m > 0; m--) { r.u(); r.u(); if (r.u() === 0) r.u(); }
    }
    return r.p;
  }
  // Decoded blocks, shared by all searches: {docs: Int32Array, imp:
  // Float64Array of sqrt(freq)*norm}. Decoded once per block.
  var blockCache = new Map();
  function decodedBlock(blk) {
    var id = blk.key + ":" + blockOffset(blk), v = blockCache.get(id);
    if (v) return v;
    var n = blk.count, docs = new Int32Array(n), imp = new Float64Array(n);
    readPostings(new Reader(blockText(blk), blk.off), n, blk.first, docs, imp, 0);
    v = { docs: docs, imp: imp };
    blockCache.set(id, v);
    return v;
  }

  // A term's impact head: docs, and imp[i * nf + j] = sqrt(freq)*norm of
  // doc i in the head's j-th long list (-1: the doc lacks the term there).
  function decodedHead(blk) {
    var id = blk.key + ":" + blk.off, v = blockCache.get(id);
    if (v) return v;
    // doc gaps, field masks, then per set bit (doc, then field order) the
    // postings' tf codes, column by column
    var r = new Reader(blockText(blk), blk.off), n = blk.count, nf = blk.fields.length, prev = blk.first, i, j;
    var docs = new Int32Array(n), masks = new Int32Array(n), imp = new Float64Array(n * nf).fill(-1), m = 0;
    for (i = 0; i < n; i++) { prev += r.u(); docs[i] = prev; }
    for (i = 0; i < n; i++) { masks[i] = r.u(); for (j = 0; j < nf; j++) if (masks[i] & (1 << j)) m++; }
    var vals = new Float64Array(m);
    readPostings(r, m, 0, null, vals, 0);
    for (i = 0, m = 0; i < n; i++) for (j = 0; j < nf; j++) if (masks[i] & (1 << j)) imp[i * nf + j] = vals[m++];
    v = { docs: docs, imp: imp, nf: nf };
    blockCache.set(id, v);
    return v;
  }

  // A prefix list's block: per posting its matched expansion terms
  // (ents from start[i] to start[i+1]: child index, sqrt(freq)*norm).
  function decodedVBlock(blk) {
    var id = blk.key + ":" + blockOffset(blk), v = blockCache.get(id);
    if (v) return v;
    var r = new Reader(blockText(blk), blk.off), n = blk.count, prev = blk.first;
    var docs = new Int32Array(n), start = new Int32Array(n + 1), ch = [], imp = [];
    for (var i = 0; i < n; i++) {
      prev += r.u(); docs[i] = prev;
      start[i] = ch.length;
      var m = r.u();
      for (var j = 0; j < m; j++) { ch.push(r.u()); var fr = r.u(); imp.push(Math.sqrt(fr) * r.norm()); }
    }
    start[n] = ch.length;
    v = { docs: docs, start: start, child: Int32Array.from(ch), imp: Float64Array.from(imp) };
    blockCache.set(id, v);
    return v;
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
  function shardKey(i) { return shardFile("d", manifest.dh, i); }
  function pad(i) { var s = String(i); while (s.length < 4) s = "0" + s; return s; }
  function loadShards(idxs) {
    var uniq = [];
    idxs.forEach(function (i) { if (uniq.indexOf(i) < 0 && !shardCache[i]) uniq.push(i); });
    return getAll(uniq.map(shardKey)).then(function (datas) {
      datas.forEach(function (d, j) { if (!shardCache[uniq[j]]) shardCache[uniq[j]] = decodeShard(d, shardKey(uniq[j])); });
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

  // The words of a query in "all" and "most" modes (mirror of
  // index.Words): whitespace-separated chunks the English analyzer keeps
  // a token of and that are no clipped negation, with where each ends.
  function queryWords(text) {
    var out = [];
    A.analyze("errdocs_qcode", text).forEach(function (t) {
      var w = text.slice(t.start, t.end);
      if (A.terms("en", w).length && !clippedNegation(w)) out.push({ text: w, end: t.end });
    });
    return out;
  }
  // clippedNegation: a negation typed without its apostrophe ("doesnt",
  // "isnt") or cut at it ("doesn" of "doesn't"): the whole form is a stop
  // word, never indexed, so the word would match nothing and empty an
  // all-words query. "can" is a word of its own. Mirror of
  // clippedNegation in query_test.go.
  function clippedNegation(w) {
    var l = w.toLowerCase();
    if (l === "can" || !/^[a-z]+$/.test(l)) return false;
    if (/nt$/.test(l) && !A.terms("en", l.slice(0, -1) + "'t").length) return true;
    return /n$/.test(l) && !A.terms("en", l + "'t").length;
  }

  // Plan the query: which dictionary shards it needs, then the tree.
  // clauses: per field its tokens of the text (mode "any"); words: per
  // word, per field its tokens of the word (modes "all" and "most").
  function planTerms(text, opts) {
    var fields = manifest.fields, shards = [];
    function fieldToks(t) {
      var out = [];
      fields.forEach(function (f, fi) {
        var toks = A.terms(f.query, t);
        if (!toks.length) return;
        out.push({ field: fi, toks: toks });
        toks.forEach(function (tk) {
          if (opts.fuzzy && autoFuzziness(tk) > 0) prefixShards(fuzzyPrefixOf(tk, manifest.options.fuzzyPrefix)).forEach(function (s) { shards.push(s); });
          else shards.push(shardIndex(tk));
        });
      });
      return out;
    }
    var w = opts.prefix ? lastWord(text) : "";
    if (w) prefixShards(w).forEach(function (s) { shards.push(s); });
    if (opts.mode === "all" || opts.mode === "most") {
      var qws = queryWords(text);
      // a word being typed that is a stop word so far ("for" of "format")
      // still counts, by its prefix clauses alone (as the Go twin's buildWords)
      if (w && (!qws.length || qws[qws.length - 1].end !== text.length)) qws.push({ text: "", end: text.length });
      var words = qws.map(function (qw) {
        return { clauses: fieldToks(qw.text), prefix: !!w && qw.end === text.length };
      });
      return { words: words, mode: opts.mode, prefixWord: w, shards: shards };
    }
    return { clauses: fieldToks(text), prefixWord: w, shards: shards };
  }

  function leaf(fi, term, boost) {
    var e = entryFor(term, fi);
    return { leaf: true, field: fi, term: term, boost: boost, df: e ? e.df : 0, entry: e };
  }
  function orNode(children, min) { return { leaf: false, children: children, and: false, min: min || 1 }; }
  function andNode(children) { return { leaf: false, children: children, and: true, min: 1 }; }

  // A term query on t in field fi, or its fuzzy expansion.
  function termNode(fi, t, opts) {
    var f = manifest.fields[fi];
    var fz = opts.fuzzy ? autoFuzziness(t) : 0;
    if (fz === 0) return leaf(fi, t, f.boost);
    var pfx = fuzzyPrefixOf(t, manifest.options.fuzzyPrefix), cands = [];
    termsWithPrefix(pfx, fi).forEach(function (cand) {
      var d = osa(t, cand, fz);
      if (d <= fz) cands.push({ term: cand, d: d });
    });
    if (cands.length === 0 || (cands.length === 1 && cands[0].term === t)) return leaf(fi, t, f.boost);
    return orNode(cands.map(function (x) { return leaf(fi, x.term, f.boost * (1 / (x.d + 1))); }));
  }
  // The prefix queries on w, one per field.
  function prefixNodes(w) {
    return manifest.fields.map(function (f, fi) { return prefixNode(w, fi); });
  }
  // The prefix query on w in field fi.
  function prefixNode(w, fi) {
    var f = manifest.fields[fi], ts = termsWithPrefix(w, fi);
    if (ts.length === 0 || (ts.length === 1 && ts[0] === w)) return leaf(fi, w, f.boost);
    var node = orNode(ts.map(function (t) { return leaf(fi, t, f.boost); }));
    // a long expansion with an exported prefix list: one virtual leaf
    var ve = prefixEntry(w, fi, ts[0]);
    if (ve && ve.nTerms === ts.length) { node.vleaf = true; node.entry = ve; node.term = w; node.field = fi; node.boost = f.boost; node.df = ve.n; }
    return node;
  }

  function buildTree(plan, opts) {
    var top = [];
    if (plan.words) {
      plan.words.forEach(function (wd) {
        var kids = [];
        wd.clauses.forEach(function (c) { c.toks.forEach(function (t) { kids.push(termNode(c.field, t, opts)); }); });
        if (wd.prefix) kids = kids.concat(prefixNodes(plan.prefixWord));
        top.push(orNode(kids));
      });
      if (!top.length) return null;
      var most = Math.floor((top.length + 1) / 2);
      var words = plan.mode === "all" ? andNode(top) : orNode(top, most);
      var msg = messageNode(plan, opts);
      if (!msg) return words;
      if (plan.mode !== "all") msg = orNode(msg.children, most);
      var both = orNode([words, msg]);
      both.words = words;
      return both;
    }
    plan.clauses.forEach(function (c) {
      top.push(orNode(c.toks.map(function (t) { return termNode(c.field, t, opts); })));
    });
    if (plan.prefixWord) top = top.concat(prefixNodes(plan.prefixWord));
    if (!top.length) return null;
    return orNode(top);
  }

  // Beside the conjunction of the words (in any field), the conjunction of
  // the words in the message alone (for "most", both with the minimum of
  // words): as the top disjunction's coord halves the score of a record
  // whose message lacks the words, the records a person means when typing
  // or pasting words of an error come first. (Go twin: buildWords's
  // messageClauses.)
  function messageNode(plan, opts) {
    var mi = -1, kids = [];
    manifest.fields.forEach(function (f, fi) { if (f.name === "errorMessage") mi = fi; });
    if (mi < 0) return null;
    for (var i = 0; i < plan.words.length; i++) {
      var wd = plan.words[i], ks = [];
      wd.clauses.forEach(function (c) { if (c.field === mi) c.toks.forEach(function (t) { ks.push(termNode(mi, t, opts)); }); });
      if (wd.prefix) ks.push(prefixNode(plan.prefixWord, mi));
      if (!ks.length) return null;
      kids.push(orNode(ks));
    }
    return kids.length ? andNode(kids) : null;
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
    var sub = node.vleaf ? [] : leaves;
    node.children.forEach(function (c) { prepare(c, sub, N); });
    node.count = node.children.reduce(function (s, c) { return s + c.count; }, 0);
    var idx = node.children.map(function (c, i) { return i; });
    idx.sort(function (a, b) { return node.children[a].count - node.children[b].count || a - b; });
    node.children = idx.map(function (i) { return node.children[i]; });
    if (node.vleaf) {
      // child index in the export (code point order) -> evaluation order
      node.childPos = new Int32Array(idx.length);
      idx.forEach(function (orig, pos) { node.childPos[orig] = pos; });
      node.leaf = true; node.id = leaves.length;
      leaves.push(node);
    }
  }
  function sumWeights(node) {
    if (node.leaf && !node.vleaf) { var x = node.boost * node.idf; return x * x; }
    var s = 0;
    for (var i = 0; i < node.children.length; i++) s += sumWeights(node.children[i]);
    return s;
  }
  // The tree compiled for evaluation: its inner nodes in post-order
  // (children in their order, so that sums add up as bleve's do), root
  // last; the children of inner node i are refs off[i] .. off[i+1]-1, ref
  // r >= 0 being leaf r's value and r < 0 inner node -r-1.
  // and[i]: inner node i is a conjunction (a sum, absent when a child
  // is); otherwise a disjunction (sum times coord) absent below min[i]
  // matching children.
  function compile(tree) {
    var off = [0], ref = [], and = [], min = [];
    (function walk(n) {
      if (n.leaf) return n.id;
      var ks = n.children.map(walk);
      for (var j = 0; j < ks.length; j++) ref.push(ks[j]);
      off.push(ref.length);
      and.push(n.and ? 1 : 0); min.push(n.min || 1);
      return -(off.length - 1);
    })(tree);
    var ni = off.length - 1;
    return { ni: ni, off: Int32Array.from(off), ref: Int32Array.from(ref), and: Uint8Array.from(and), min: Int32Array.from(min),
      out: new Float64Array(Math.max(ni, 1)), out2: new Float64Array(Math.max(ni, 1)) };
  }
  function combine(C, i, sum, m, n) {
    if (C.and[i]) return m < n ? -1 : sum;
    return m < C.min[i] ? -1 : sum * (m / n);
  }
  // score of a doc whose leaf contributions are vals (-1: absent)
  function evalC(C, vals) {
    var out = C.out, ni = C.ni, off = C.off, ref = C.ref;
    if (ni === 0) return vals[0];
    for (var i = 0; i < ni; i++) {
      var a = off[i], b = off[i + 1], sum = 0, m = 0;
      for (var j = a; j < b; j++) {
        var r = ref[j], x = r >= 0 ? vals[r] : out[-r - 1];
        if (x >= 0) { sum += x; m++; }
      }
      out[i] = combine(C, i, sum, m, b - a);
    }
    return out[ni - 1];
  }
  // A candidate's bounds at once, into res[0] and res[1]: leaf r's value
  // is c[base + r] (< 0: absent or unknown) for the lower bound, and for
  // the upper bound hv[r] where hf[r] is set (an unknown leaf's maximum).
  function evalC2(C, c, base, hv, hf, res) {
    var out = C.out, out2 = C.out2, ni = C.ni, off = C.off, ref = C.ref;
    if (ni === 0) { res[0] = c[base] >= 0 ? c[base] : -1; res[1] = hf[0] ? hv[0] : res[0]; return; }
    for (var i = 0; i < ni; i++) {
      var a = off[i], b = off[i + 1], sum = 0, m = 0, sum2 = 0, m2 = 0;
      for (var j = a; j < b; j++) {
        var r = ref[j], x, y;
        if (r >= 0) { x = c[base + r]; y = hf[r] ? hv[r] : x; } else { x = out[-r - 1]; y = out2[-r - 1]; }
        if (x >= 0) { sum += x; m++; }
        if (y >= 0) { sum2 += y; m2++; }
      }
      out[i] = combine(C, i, sum, m, b - a);
      out2[i] = combine(C, i, sum2, m2, b - a);
    }
    res[0] = out[ni - 1]; res[1] = out2[ni - 1];
  }

  // ---------- the top-k search ----------
  // Per leaf: lf.blocks (doc-ordered tail blocks, exhaustive within their
  // doc ranges) and lf.head (the impact head, or null): a doc's posting is
  // in the head or in the tail block covering it. Candidates live in typed
  // arrays: contrib[slot*L + leaf] = contribution, -1 not seen yet, -2 absent.
  var noDocs = new Int32Array(0), noLoaded = new Uint8Array(0), noMax = new Float64Array(0);
  function Search(tree, leaves, k, filter, setMode) {
    this.tree = tree; this.leaves = leaves; this.k = k; this.filter = filter; this.setMode = setMode;
    this.C = compile(tree);
    var L = this.L = leaves.length, N = manifest.docs;
    // doc -> slot and dead docs, per document: pooled too (reset on return)
    var per = docPool.pop();
    if (!per || per.slot.length !== N) per = { slot: new Int32Array(N).fill(-1), dead: new Uint8Array(N) };
    this.slot = per.slot; this.dead = per.dead;
    this.deadCount = 0;
    // Candidate arrays come from a pool reused across searches (large
    // queries need tens of MB; allocating them anew each time dominated).
    var buf = bufPool.pop();
    if (!buf || buf.contrib.length < 1024 * L) buf = { contrib: new Float64Array(1024 * Math.max(L, 8)), docOf: new Int32Array(1024), alive: new Uint8Array(1024), done: new Uint8Array(1024), exact: new Float64Array(1024) };
    this.buf = buf;
    this.cap = Math.min(buf.docOf.length, Math.floor(buf.contrib.length / L)); this.n = 0;
    this.docOf = buf.docOf; this.alive = buf.alive; this.contrib = buf.contrib;
    // done[i] = 1 once every contribution of candidate i is known (its
    // score, exact[i], can no longer change)
    this.done = buf.done; this.exact = buf.exact;
    this.vals = new Float64Array(L); this.valsHi = new Float64Array(L); this.hiFlag = new Uint8Array(L);
    // thr[l]: a new candidate whose contribution in leaf l is at most
    // thr[l] cannot reach theta (set each round; -1 = no pruning yet)
    this.thr = new Float64Array(L).fill(-1);
    var self = this;
    leaves.forEach(function (lf) {
      lf.scale = lf.qw !== 1 ? lf.qw : 1;
      lf.blocks = []; lf.head = null; lf.headLoaded = true; lf.bfirst = lf.blast = noDocs;
      var e = lf.entry;
      if (!e) return;
      if (e.inline) {
        for (var i = 0; i < e.inline.docs.length; i++) self.add(lf, e.inline.docs[i], score(lf, e.inline.imp[i]));
        return;
      }
      lf.blocks = e.blocks;
      if (!e.bfirst) {
        e.bfirst = new Int32Array(e.blocks.length); e.blast = new Int32Array(e.blocks.length);
        for (var b0 = 0; b0 < e.blocks.length; b0++) { e.bfirst[b0] = e.blocks[b0].first; e.blast[b0] = e.blocks[b0].last; }
      }
      lf.bfirst = e.bfirst; lf.blast = e.blast;
      lf.loaded = new Uint8Array(e.blocks.length);
      lf.bmax = new Float64Array(e.blocks.length);
      for (var b = 0; b < e.blocks.length; b++) lf.bmax[b] = score(lf, e.blocks[b].imp);
      if (e.head) { lf.head = e.head; lf.headLoaded = false; lf.hmax = e.himp < 0 ? -1 : score(lf, e.himp); }
    });
    // A term's head is shared by its long lists: loading it for one leaf
    // loads it for the query's other leaves of that term (sibs).
    this.sibs = new Map();
    leaves.forEach(function (lf) {
      if (!lf.head || !lf.head.fields) return;
      var a = self.sibs.get(lf.head);
      if (!a) self.sibs.set(lf.head, a = []);
      a.push(lf);
    });
    // The leaves' block state as typed arrays by leaf id (see pending).
    this.HL = new Uint8Array(L); this.HF = new Int32Array(L); this.HT = new Int32Array(L);
    this.HM = new Float64Array(L); this.NB = new Int32Array(L);
    // HD[l]: the docs of leaf l's term head once loaded (a head doc lacks
    // the term in the fields where the head does not give it)
    this.HD = new Array(L).fill(null);
    this.BF = []; this.BT = []; this.LD = []; this.BM = [];
    for (var l = 0; l < L; l++) {
      var lf = leaves[l];
      this.HL[l] = lf.headLoaded ? 1 : 0;
      if (lf.head) { this.HF[l] = lf.head.first; this.HT[l] = lf.head.last; this.HM[l] = lf.hmax; }
      this.NB[l] = lf.blocks.length;
      this.BF.push(lf.bfirst); this.BT.push(lf.blast);
      this.LD.push(lf.loaded || noLoaded); this.BM.push(lf.bmax || noMax);
    }
  }
  function score(lf, imp) {
    if (lf.vleaf) return imp * lf.vscale; // a prefix list's bound
    var s = imp * lf.idf;
    if (lf.qw !== 1) s = s * lf.qw;
    return s;
  }
  Search.prototype.add = function (lf, doc, sc) {
    if (this.filter && !this.filter[doc] || this.dead[doc]) return;
    var i = this.slot[doc], L = this.L;
    if (i < 0) {
      if (sc <= this.thr[lf.id]) { this.dead[doc] = 1; this.deadCount++; return; }
      if (this.n === this.cap) this.grow();
      i = this.n++;
      this.slot[doc] = i; this.docOf[i] = doc; this.alive[i] = 1; this.done[i] = 0;
      this.contrib.fill(-1, i * L, i * L + L);
    }
    this.contrib[i * L + lf.id] = sc;
  };
  Search.prototype.grow = function () {
    var cap = this.cap * 2, L = this.L, n = this.n;
    var d = new Int32Array(cap); d.set(this.docOf.subarray(0, n)); this.docOf = d;
    var a = new Uint8Array(cap); a.set(this.alive.subarray(0, n)); this.alive = a;
    var c = new Float64Array(cap * L); c.set(this.contrib.subarray(0, n * L)); this.contrib = c;
    var dn = new Uint8Array(cap); dn.set(this.done.subarray(0, n)); this.done = dn;
    var ex = new Float64Array(cap); ex.set(this.exact.subarray(0, n)); this.exact = ex;
    this.cap = cap;
    this.buf = { contrib: c, docOf: d, alive: a, done: dn, exact: ex };
  };
  // For a doc not found in leaf l's loaded blocks: the block that may hold
  // it (head first), as a block index (the leaf's number of tail blocks =
  // the head), or -1 if the doc surely lacks the term. Reads the search's
  // per-leaf typed arrays (leaf objects come in several shapes: slower in
  // this, the hottest path).
  Search.prototype.pending = function (l, doc) {
    var nb = this.NB[l];
    if (doc >= this.HF[l] && doc <= this.HT[l]) {
      if (!this.HL[l]) return nb;
      var hd = this.HD[l];
      if (hd) {
        var a = 0, z = hd.length - 1;
        while (a <= z) { var m = (a + z) >> 1; if (hd[m] < doc) a = m + 1; else if (hd[m] > doc) z = m - 1; else return -1; }
      }
    }
    if (!nb) return -1;
    var bf = this.BF[l], bl = this.BT[l], lo = 0, hi = nb - 1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (bl[mid] < doc) lo = mid + 1;
      else if (bf[mid] > doc) hi = mid - 1;
      else return this.LD[l][mid] ? -1 : mid;
    }
    return -1;
  };
  function blockOf(lf, bi) { return bi === lf.blocks.length ? lf.head : lf.blocks[bi]; }
  // The bound of leaf l for a doc its unloaded head may hold: the head's
  // maximum, or that of the unloaded tail block covering the doc if larger
  // (a term head is chosen over all its fields: a tail block of one field
  // may hold a larger value than the head does).
  Search.prototype.headBound = function (l, doc) {
    var m = this.HM[l], nb = this.NB[l];
    if (!nb) return m;
    var bf = this.BF[l], bl = this.BT[l], lo = 0, hi = nb - 1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (bl[mid] < doc) lo = mid + 1;
      else if (bf[mid] > doc) hi = mid - 1;
      else return !this.LD[l][mid] && this.BM[l][mid] > m ? this.BM[l][mid] : m;
    }
    return m;
  };
  // the largest maximum among lf's unloaded blocks that may hold a doc in [lo, hi]
  function rangeMax(lf, lo, hi) {
    var bf = lf.bfirst, bl = lf.blast, n = bf.length, m = -1;
    if (!lf.headLoaded && lf.head.first <= hi && lf.head.last >= lo) m = lf.hmax;
    if (!n) return m;
    var a = 0, z = n - 1, start = n;
    while (a <= z) { var mid = (a + z) >> 1; if (bl[mid] >= lo) { start = mid; z = mid - 1; } else a = mid + 1; }
    for (var j = start; j < n && bf[j] <= hi; j++) if (!lf.loaded[j] && lf.bmax[j] > m) m = lf.bmax[j];
    return m;
  }
  function maxUnloaded(lf) {
    var m = lf.headLoaded ? -1 : lf.hmax;
    for (var j = 0; j < lf.blocks.length; j++) if (!lf.loaded[j] && lf.bmax[j] > m) m = lf.bmax[j];
    return m;
  }
  // lower and upper bounds of candidate i into out[0], out[1]; out[2] = 1
  // when some contribution is still unknown
  // (this.openLeaves: ids of the leaves with unloaded blocks; a doc not
  // found in any other leaf surely lacks it.)
  Search.prototype.bounds = function (i, out) {
    if (this.done[i]) { out[0] = out[1] = this.exact[i]; out[2] = 0; return; }
    var base = i * this.L, c = this.contrib, hv = this.valsHi, hf = this.hiFlag, doc = this.docOf[i], unknown = 0, leaves = this.leaves;
    var ol = this.openLeaves, l, j;
    for (j = 0; j < ol.length; j++) {
      l = ol[j];
      if (c[base + l] !== -1) continue;
      var bi = this.pending(l, doc);
      if (bi < 0) c[base + l] = -2;
      else { unknown = 1; hv[l] = bi === this.NB[l] ? this.headBound(l, doc) : this.BM[l][bi]; hf[l] = 1; }
    }
    evalC2(this.C, c, base, hv, hf, out);
    if (!unknown) {
      out[2] = 0;
      this.done[i] = 1; this.exact[i] = out[0];
      return;
    }
    for (j = 0; j < ol.length; j++) hf[ol[j]] = 0;
    out[2] = 1;
  };
  Search.prototype.unknownBlocks = function (i, want) {
    var L = this.L, base = i * L, doc = this.docOf[i], ol = this.openLeaves;
    for (var j = 0; j < ol.length; j++) {
      var l = ol[j];
      if (this.contrib[base + l] !== -1) continue;
      var bi = this.pending(l, doc);
      if (bi >= 0) want(this.leaves[l], bi);
    }
  };
  // For a candidate outside the top k: its unknown blocks in files at hand
  // (free), then of the others, largest maximum first, the fewest that
  // bring its upper bound below theta should it lack their terms.
  Search.prototype.disproveBlocks = function (i, want, theta, isFree) {
    var L = this.L, base = i * L, doc = this.docOf[i], ol = this.openLeaves, c = this.contrib, hv = this.valsHi, hf = this.hiFlag;
    var dl = this.dl || (this.dl = new Int32Array(L)), db = this.db || (this.db = new Int32Array(L));
    var res = this.res2 || (this.res2 = new Float64Array(2));
    var n = 0, j, l, x;
    for (j = 0; j < ol.length; j++) {
      l = ol[j];
      if (c[base + l] !== -1) continue;
      var bi = this.pending(l, doc);
      if (bi < 0) continue;
      var lf = this.leaves[l];
      if (isFree(blockOf(lf, bi).key)) { want(lf, bi); continue; }
      var m = hv[l] = bi === this.NB[l] ? this.headBound(l, doc) : this.BM[l][bi]; hf[l] = 1;
      for (x = n++; x > 0 && hv[dl[x - 1]] < m; x--) { dl[x] = dl[x - 1]; db[x] = db[x - 1]; }
      dl[x] = l; db[x] = bi;
    }
    for (j = 0; j < n; j++) {
      evalC2(this.C, c, base, hv, hf, res);
      if (res[1] < theta) break;
      hf[dl[j]] = 0;
      want(this.leaves[dl[j]], db[j]);
    }
    for (j = 0; j < n; j++) hf[dl[j]] = 0;
  };
  // Loads the files of the needed blocks and adds those blocks' postings.
  // Other blocks in the same files stay unread until needed (then free).
  Search.prototype.loadBlocks = function (keys, need) {
    var self = this;
    var ready = keys.every(function (k) { return k in store; });
    var apply = function () {
      need.forEach(function (x) {
        var lf = x[0], bi = x[1];
        if (bi === lf.blocks.length) {
          if (!lf.headLoaded) self.loadHead(lf);
        } else if (!lf.loaded[bi]) { lf.loaded[bi] = 1; self.addBlock(lf, lf.blocks[bi]); }
      });
    };
    if (ready) { apply(); return null; }
    return getAll(keys).then(apply);
  };
  Search.prototype.loadHead = function (lf) {
    var sibs = this.sibs.get(lf.head);
    if (!sibs) { lf.headLoaded = true; this.HL[lf.id] = 1; this.addBlock(lf, lf.head); return; }
    var h = decodedHead(lf.head), docs = h.docs, imp = h.imp, nf = h.nf;
    for (var s = 0; s < sibs.length; s++) {
      var sl = sibs[s];
      if (sl.headLoaded) continue;
      sl.headLoaded = true; this.HL[sl.id] = 1; this.HD[sl.id] = docs;
      for (var i = 0, j = sl.entry.hj; i < docs.length; i++, j += nf) if (imp[j] >= 0) this.add(sl, docs[i], score(sl, imp[j]));
    }
  };
  Search.prototype.addBlock = function (lf, blk) {
    if (lf.vleaf) { this.addVBlock(lf, blk); return; }
    var d = decodedBlock(blk), docs = d.docs, imp = d.imp;
    for (var i = 0; i < docs.length; i++) this.add(lf, docs[i], score(lf, imp[i]));
  };
  // A prefix list's postings: the disjunction's exact value, its matched
  // children summed in evaluation order (as evalC does), times coord.
  var vtmpP = new Int32Array(64), vtmpV = new Float64Array(64);
  Search.prototype.addVBlock = function (lf, blk) {
    var d = decodedVBlock(blk), ks = lf.children, pos = lf.childPos, n = ks.length;
    for (var i = 0; i < d.docs.length; i++) {
      var a = d.start[i], b = d.start[i + 1], m = 0;
      if (b - a > vtmpP.length) { vtmpP = new Int32Array(b - a); vtmpV = new Float64Array(b - a); }
      for (var j = a; j < b; j++) {
        var p = pos[d.child[j]], c = ks[p], v = score(c, d.imp[j]), x = m++;
        while (x > 0 && vtmpP[x - 1] > p) { vtmpP[x] = vtmpP[x - 1]; vtmpV[x] = vtmpV[x - 1]; x--; }
        vtmpP[x] = p; vtmpV[x] = v;
      }
      var sum = 0;
      for (j = 0; j < m; j++) sum += vtmpV[j];
      this.add(lf, d.docs[i], sum * (m / n));
    }
  };
  var bufPool = [], docPool = [];
  var lastStats = { steps: [] };
  // Files per loading round: more rounds cost latency, bigger rounds bytes.
  var MAX_FILES_PER_ROUND = 3;
  // Already fetched blocks taken per round: at least 64, more with many
  // candidates (a round's bounds pass costs about candidates × leaves,
  // which would dwarf decoding the blocks that settle them).
  var MIN_FREE_PER_ROUND = 64;
  var FREE_PER_CELL = 1 / 8;
  // the k-th largest of a[i] over i < n with alive[i] (at least k of them)
  function kthLargest(a, alive, n, k) {
    var top = new Float64Array(k), m = 0; // ascending, the k largest so far
    for (var i = 0; i < n; i++) {
      if (!alive[i]) continue;
      var v = a[i];
      if (m === k) {
        if (v <= top[0]) continue;
        var j = 1;
        while (j < k && top[j] < v) { top[j - 1] = top[j]; j++; }
        top[j - 1] = v;
      } else {
        var x = m++;
        while (x > 0 && top[x - 1] > v) { top[x] = top[x - 1]; x--; }
        top[x] = v;
      }
    }
    return top[0];
  }
  // thr[l] = a value x such that a doc whose leaf-l contribution is at
  // most x cannot reach theta, even with every other leaf at its largest
  // unloaded maximum (mu); -1 when that prunes nothing. The bound is
  // monotone in x, so bisection finds it.
  Search.prototype.setThresholds = function (theta, mu, vals) {
    var L = this.L, C = this.C, thr = this.thr;
    for (var l = 0; l < L; l++) {
      thr[l] = -1;
      if (theta < 0 || mu[l] < 0) continue;
      vals.set(mu);
      vals[l] = mu[l];
      if (evalC(C, vals) < theta) { thr[l] = mu[l]; continue; }
      vals[l] = 0;
      if (evalC(C, vals) >= theta) continue;
      var lo = 0, hi = mu[l];
      for (var it = 0; it < 24; it++) {
        var mid = (lo + hi) / 2;
        vals[l] = mid;
        if (evalC(C, vals) < theta) lo = mid; else hi = mid;
      }
      thr[l] = lo;
    }
  };
  // Unloaded blocks (bi = lf.blocks.length: the head) that may hold an
  // unseen doc scoring at least theta, popped best bound first (ties in
  // leaf, then block order).
  function LiveBlocks(search, theta, mu, vals) {
    this.s = search; this.theta = theta; this.vals = vals; this.h = [];
    var leaves = search.leaves, L = search.L, C = search.C, n = 0;
    var unseen = evalC(C, mu);
    if (unseen < 0 || (theta >= 0 && unseen < theta)) { this.size = 0; return; }
    for (var l = 0; l < L; l++) {
      var lf = leaves[l];
      if (mu[l] < 0) continue;
      var nb = lf.blocks.length;
      for (var bi = 0; bi <= nb; bi++) {
        var bm;
        if (bi === nb) { if (lf.headLoaded) continue; bm = lf.hmax; }
        else { if (lf.loaded[bi]) continue; bm = lf.bmax[bi]; }
        if (bm <= search.thr[l]) continue;
        vals.set(mu); vals[l] = bm;
        var cb = evalC(C, vals);
        if (theta >= 0 && cb < theta) continue;
        this.h.push({ lf: lf, l: l, bi: bi, bm: bm, bound: cb, exact: false, ord: n++ });
      }
    }
    this.size = n;
    for (var i = (this.h.length >> 1) - 1; i >= 0; i--) this.down(i);
  }
  LiveBlocks.prototype.before = function (a, b) { return a.bound > b.bound || (a.bound === b.bound && a.ord < b.ord); };
  LiveBlocks.prototype.down = function (i) {
    var h = this.h, n = h.length;
    for (;;) {
      var l = 2 * i + 1, r = l + 1, m = i;
      if (l < n && this.before(h[l], h[m])) m = l;
      if (r < n && this.before(h[r], h[m])) m = r;
      if (m === i) return;
      var t = h[i]; h[i] = h[m]; h[m] = t; i = m;
    }
  };
  LiveBlocks.prototype.removeTop = function () {
    var h = this.h, last = h.pop();
    if (h.length) { h[0] = last; this.down(0); }
  };
  // the live block of best exact bound, left in place (or null)
  LiveBlocks.prototype.peek = function () {
    var h = this.h, s = this.s, leaves = s.leaves, L = s.L, vals = this.vals;
    while (h.length) {
      var e = h[0];
      if (e.exact) return e;
      var blk = blockOf(e.lf, e.bi);
      for (var m = 0; m < L; m++) vals[m] = m === e.l ? e.bm : rangeMax(leaves[m], blk.first, blk.last);
      var bb = evalC(s.C, vals);
      if (this.theta >= 0 && bb < this.theta) { this.removeTop(); continue; }
      e.bound = bb; e.exact = true;
      this.down(0);
    }
    return null;
  };
  LiveBlocks.prototype.pop = function () {
    var e = this.peek();
    if (e) this.removeTop();
    return e;
  };
  Search.prototype.run = function () {
    var self = this, k = this.k, leaves = this.leaves, L = this.L;
    lastStats = { steps: [], leaves: leaves.map(function (lf) { return manifest.fields[lf.field].name + ":" + lf.term + " df=" + lf.df + " blocks=" + lf.blocks.length + (lf.head ? "+head" : ""); }) };
    var bo = new Float64Array(3), mu = new Float64Array(L), vals = new Float64Array(L);
    function step() {
      self.openLeaves = [];
      for (var l0 = 0; l0 < L; l0++) if (maxUnloaded(leaves[l0]) >= 0) self.openLeaves.push(l0);
      var n = self.n, live = 0, i;
      if (!self.lbA || self.lbA.length < n) {
        var sz = Math.max(n, 2 * (self.lbA ? self.lbA.length : 512));
        self.lbA = new Float64Array(sz); self.ubA = new Float64Array(sz); self.unkA = new Uint8Array(sz); self.topA = new Uint8Array(sz);
      }
      var lb = self.lbA, ub = self.ubA, unk = self.unkA;
      for (i = 0; i < n; i++) {
        if (!self.alive[i]) continue;
        self.bounds(i, bo);
        lb[i] = bo[0]; ub[i] = bo[1]; unk[i] = bo[2];
        if (bo[1] < 0) { self.alive[i] = 0; continue; }
        live++;
      }
      // theta = k-th best lower bound
      var theta = -1;
      if (live >= k) theta = kthLargest(lb, self.alive, n, k);
      // candidates that may still reach the top k, best lower bound first
      var list = [];
      for (i = 0; i < n; i++) {
        if (!self.alive[i]) continue;
        if (theta >= 0 && ub[i] < theta && lb[i] < theta) {
          self.alive[i] = 0; self.dead[self.docOf[i]] = 1; self.deadCount++;
          continue;
        }
        list.push(i);
      }
      list.sort(function (a, b) { return lb[b] - lb[a] || self.docOf[a] - self.docOf[b]; });
      // Forget candidates below the k-th that cannot reach theta.
      if (theta >= 0 && list.length > k) {
        var kept = list.slice(0, k);
        for (var x = k; x < list.length; x++) {
          i = list[x];
          if (ub[i] >= theta) kept.push(i);
          else { self.alive[i] = 0; self.dead[self.docOf[i]] = 1; self.deadCount++; }
        }
        list = kept;
      }
      var l;
      for (l = 0; l < L; l++) mu[l] = maxUnloaded(leaves[l]);
      self.setThresholds(theta, mu, vals);
      var need = [], keys = [];
      var nfree = 0, maxFree = Math.max(MIN_FREE_PER_ROUND, Math.ceil(list.length * L * FREE_PER_CELL));
      function want(lf, bi) {
        var key = blockOf(lf, bi).key;
        if (key in store) { // already fetched: free, but bounded per round
          if (nfree >= maxFree) return;
          nfree++;
        } else if (keys.indexOf(key) < 0) {
          if (keys.length >= MAX_FILES_PER_ROUND) return;
          keys.push(key);
        }
        need.push([lf, bi]);
      }
      // Blocks that may hold an unseen doc able to reach theta (block-max),
      // best bound first, bounded lazily: a block's cheap bound (the other
      // leaves at their largest unloaded maximum) orders a heap, and its
      // exact bound (the other leaves at their largest maximum over the
      // block's doc range) is computed only when it reaches the top.
      var live = new LiveBlocks(self, theta, mu, vals);
      var top = live.peek();
      var maxOutside = top ? top.bound : -1;
      for (x = k; x < list.length; x++) if (unk[list[x]] && ub[list[x]] > maxOutside) maxOutside = ub[list[x]];
      // Candidates whose score or rank is not settled, most promising first:
      // resolving the best ones first raises theta, which prunes the rest.
      var open = [];
      for (x = 0; x < list.length; x++) {
        i = list[x];
        if (!unk[i]) continue;
        if (x < k && self.setMode && lb[i] > maxOutside) continue; // surely in the set
        open.push(i);
      }
      open.sort(function (a, b) { return ub[b] - ub[a] || self.docOf[a] - self.docOf[b]; });
      // Grow the candidates first while an unseen doc may beat every open
      // candidate (the heads usually): that raises theta cheaply.
      var growFirst = top && (!open.length || top.bound > ub[open[0]]);
      var isFree = function (key) { return key in store || keys.indexOf(key) >= 0; };
      var topk = self.topA;
      topk.fill(0, 0, n);
      for (x = 0; x < k && x < list.length; x++) topk[list[x]] = 1;
      if (!growFirst) {
        for (var oi = 0; oi < open.length && keys.length < MAX_FILES_PER_ROUND && nfree < maxFree; oi++) {
          if (theta >= 0 && !topk[open[oi]]) self.disproveBlocks(open[oi], want, theta, isFree);
          else self.unknownBlocks(open[oi], want);
        }
      }
      var growing = false;
      if (!need.length && top) {
        growing = true;
        // grow the candidates: the most promising blocks' files first
        for (var g = live.pop(); g && keys.length < MAX_FILES_PER_ROUND && nfree < maxFree; g = live.pop()) want(g.lf, g.bi);
      }
      if (!need.length) {
        return list.map(function (i) {
          var terms = [];
          for (var l2 = 0; l2 < L; l2++) if (self.contrib[i * L + l2] >= 0) terms.push(l2);
          return { doc: self.docOf[i], lb: lb[i], ub: ub[i], leafIds: terms };
        });
      }
      if (keys.length) {
        // blocks at hand first: what they settle may spare a fetch
        var atHand = need.filter(function (x) { return blockOf(x[0], x[1]).key in store; });
        if (atHand.length) { need = atHand; keys = []; }
      }
      lastStats.steps.push({ cands: list.length, theta: theta, live: live.size, need: need.length, keys: keys.slice(), grow: growing });
      var p = self.loadBlocks(keys, need);
      return p ? p.then(step) : step();
    }
    return Promise.resolve().then(step).then(function (res) {
      if (bufPool.length < 2) bufPool.push(self.buf);
      if (docPool.length < 2) {
        for (var i = 0; i < self.n; i++) self.slot[self.docOf[i]] = -1;
        self.dead.fill(0);
        docPool.push({ slot: self.slot, dead: self.dead });
      }
      return res;
    });
  };
  Search.prototype.allLoaded = function () {
    return this.leaves.every(function (lf) {
      if (!lf.headLoaded) return false;
      for (var b = 0; b < lf.blocks.length; b++) if (!lf.loaded[b]) return false;
      return true;
    });
  };

  // ---------- filters ----------
  var filterValues = Object.create(null); // field -> Map(value -> entry)
  function loadFilterValues(field) {
    if (filterValues[field]) return Promise.resolve(filterValues[field]);
    var key = manifest.filters[field];
    if (!key) return Promise.reject(new Error("errdocs: unknown filter " + field));
    return get(key).then(function (data) {
      var m = new Map();
      data.v.forEach(function (e) { m.set(e[0], { value: e[0], count: e[1], file: e[2], off: e[3], len: e[4], kind: e[5] }); });
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
  // A record's doc data from its doc data file (columns, FORMAT.md).
  function card(c, i) {
    if (!c || !c.t || i >= c.t.length) return null;
    var d = { title: c.t[i], url: "", repo: c.r[i], severity: c.s[i], errorType: c.e[i] };
    d.url = c.U && (i in c.U) ? c.U[i] : d.repo + "/" + c.u[i];
    if (c.l[i]) d.language = c.l[i];
    if (c.n[i]) d.snippet = c.n[i];
    return d;
  }
  // doc data by doc number; with patterns, also the m/ pattern chunks
  function docsByNumber(nums, patterns) {
    var per = manifest.docsPerFile, pper = manifest.options.patternsPerFile;
    var keys = [];
    patterns = patterns && manifest.options.patterns === 1;
    function add(k) { if (keys.indexOf(k) < 0) keys.push(k); }
    nums.forEach(function (n) {
      add("r/" + pad(Math.floor(n / per)));
      if (patterns) add("m/" + pad(Math.floor(n / pper)));
    });
    return getAll(keys).then(function () {
      return nums.map(function (n) {
        var d = card(store["r/" + pad(Math.floor(n / per))], n % per); // callers get their own copy
        if (!d) return null;
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
    initPromise = get("entry").then(function () { return get("manifest"); }).then(function (m) {
      if (!m || m.v !== 8) throw new Error("errdocs: unsupported index format");
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
      leaves.forEach(function (lf) {
        if (lf.vleaf) {
          lf.children.forEach(function (c) { c.qw = c.boost * c.idf * qn; });
          lf.vscale = qn * lf.boost * (1 + 1e-9); // bounds: stored maxima are unscaled
          lf.qw = 0;
        } else lf.qw = lf.boost * lf.idf * qn;
      });
      var s = new Search(tree, leaves, k, filter, !!opts.fuzzy);
      return s.run().then(function (list) {
        if (plan.words) {
          // a doc outside the top k may miss a word: count apart
          list = list.filter(function (x) { return x.lb >= 0; });
          var words = tree.words || tree;
          return countMatches(words, leaves, s.C, filter).then(function (n) {
            var exact = n !== null;
            var total = exact ? n : list.length;
            if (!exact && words.children.length === 1) leaves.forEach(function (lf) { if (lf.df > total) total = lf.df; });
            if (!exact && filter) total = Math.min(total, filter.reduce(function (a, b) { return a + b; }, 0));
            return { list: list, total: Math.max(total, list.length), totalExact: exact, leaves: leaves };
          });
        }
        var exactTotal = s.allLoaded();
        var total = list.length + s.deadCount; // dead: matched, but below the top k
        if (!exactTotal) {
          leaves.forEach(function (lf) { if (lf.df > total) total = lf.df; });
          if (filter) total = Math.min(total, filter.reduce(function (a, b) { return a + b; }, 0));
        }
        return { list: list, total: Math.max(total, list.length), totalExact: exactTotal, leaves: leaves };
      });
    });
  }

  // ---------- counting "all" and "most" matches ----------
  // The number of docs the tree matches, found from the postings of its
  // cheapest words (every match holds one of them), each checked against
  // the other leaves; null when that needs more than COUNT_DOCS
  // candidates or COUNT_FILES files not yet loaded (then the count is a
  // lower bound).
  // COUNT_CELLS bounds candidates × leaves: a long paste's tree has
  // hundreds of leaves, each candidate looked up in every one.
  var COUNT_DOCS = 3000, COUNT_FILES = 4, COUNT_CELLS = 120000;
  function leavesOf(node, out) {
    if (node.leaf) out.push(node); else node.children.forEach(function (c) { leavesOf(c, out); });
    return out;
  }
  function bsearch(a, d) {
    var lo = 0, hi = a.length - 1;
    while (lo <= hi) { var m = (lo + hi) >> 1; if (a[m] < d) lo = m + 1; else if (a[m] > d) hi = m - 1; else return true; }
    return false;
  }
  // the docs of lf's head that hold lf's term in lf's field
  function headDocs(lf) {
    if (lf.hdocs) return lf.hdocs;
    var h = lf.head;
    if (h.fields) {
      var d = decodedHead(h), out = [];
      for (var i = 0, j = lf.entry.hj; i < d.docs.length; i++, j += d.nf) if (d.imp[j] >= 0) out.push(d.docs[i]);
      lf.hdocs = Int32Array.from(out);
    } else lf.hdocs = (lf.vleaf ? decodedVBlock(h) : decodedBlock(h)).docs;
    return lf.hdocs;
  }
  function blockDocs(lf, blk) { return (lf.vleaf ? decodedVBlock(blk) : decodedBlock(blk)).docs; }
  // Whether leaf lf holds doc d: 1, 0, or the key of the file to load.
  function holds(lf, d) {
    var e = lf.entry;
    if (!e) return 0;
    if (e.inline) return bsearch(e.inline.docs, d) ? 1 : 0;
    if (lf.head && d >= lf.head.first && d <= lf.head.last) {
      if (!(lf.head.key in store)) return lf.head.key;
      if (bsearch(headDocs(lf), d)) return 1;
    }
    var bf = lf.bfirst, bl = lf.blast, lo = 0, hi = bf.length - 1;
    while (lo <= hi) {
      var m = (lo + hi) >> 1;
      if (bl[m] < d) lo = m + 1;
      else if (bf[m] > d) hi = m - 1;
      else {
        var blk = lf.blocks[m];
        if (!(blk.key in store)) return blk.key;
        return bsearch(blockDocs(lf, blk), d) ? 1 : 0;
      }
    }
    return 0;
  }
  function countMatches(tree, leaves, C, filter) {
    // every match holds one of the n-min+1 cheapest words
    var words = tree.children.slice().sort(function (a, b) { return a.count - b.count; });
    var need = tree.and ? 1 : words.length - tree.min + 1;
    var candLeaves = [];
    words.slice(0, need).forEach(function (w) { leavesOf(w, candLeaves); });
    var sum = candLeaves.reduce(function (a, lf) { return a + lf.df; }, 0);
    if (sum > COUNT_DOCS || sum * leaves.length > COUNT_CELLS) return Promise.resolve(null);
    var files = 0;
    function load(keys) {
      keys = keys.filter(function (k, i) { return !(k in store) && keys.indexOf(k) === i; });
      files += keys.length;
      return files > COUNT_FILES ? null : getAll(keys);
    }
    var keys = [];
    candLeaves.forEach(function (lf) {
      if (!lf.entry || lf.entry.inline) return;
      if (lf.head) keys.push(lf.head.key);
      lf.blocks.forEach(function (b) { keys.push(b.key); });
    });
    var p = load(keys);
    if (!p) return Promise.resolve(null);
    return p.then(function () {
      var seen = new Set();
      candLeaves.forEach(function (lf) {
        var e = lf.entry;
        if (!e) return;
        var add = function (docs) { for (var i = 0; i < docs.length; i++) if (!filter || filter[docs[i]]) seen.add(docs[i]); };
        if (e.inline) { add(e.inline.docs); return; }
        if (lf.head) add(headDocs(lf));
        lf.blocks.forEach(function (b) { add(blockDocs(lf, b)); });
      });
      var cands = Array.from(seen), vals = new Float64Array(leaves.length);
      function round() {
        var missing = [], n = 0;
        for (var i = 0; i < cands.length; i++) {
          var open = false;
          for (var l = 0; l < leaves.length; l++) {
            var h = holds(leaves[l], cands[i]);
            if (typeof h === "string") { missing.push(h); open = true; vals[l] = -1; } else vals[l] = h ? 1 : -1;
          }
          if (!open && evalC(C, vals) >= 0) n++;
        }
        if (!missing.length) return n;
        var q = load(missing);
        return q ? q.then(round) : null;
      }
      return round();
    });
  }

  // ---------- pattern keys (FORMAT.md "Pattern keys") ----------
  // Records whose messagePattern may match a paste: every word their key
  // file entry names is a word of the paste. Their patterns are then run
  // on the paste; no text ranking decides which are tried.
  var MAX_PATTERN_CANDIDATES = 400;
  function keyFile(w) {
    var kf = manifest.kf, lo = 0, hi = kf.length - 1, ans = 0;
    while (lo <= hi) { var mid = (lo + hi) >> 1; if (cmp(kf[mid], w) <= 0) { ans = mid; lo = mid + 1; } else hi = mid - 1; }
    return "k/" + pad(ans);
  }
  function patternCandidates(raw, filter) {
    if (!manifest.kf || !manifest.kf.length) return Promise.resolve([]);
    var words = new Set(A.terms("errdocs_ident", raw.slice(0, 20000)));
    var keys = [];
    words.forEach(function (w) { var k = keyFile(w); if (keys.indexOf(k) < 0) keys.push(k); });
    return getAll(keys).then(function () {
      var out = [];
      words.forEach(function (w) {
        var d = store[keyFile(w)];
        if (!d || !Object.prototype.hasOwnProperty.call(d, w)) return;
        d[w].forEach(function (e) {
          if (filter && !filter[e[0]]) return;
          var others = e[1] ? e[1].split(" ") : [];
          if (!others.every(function (x) { return words.has(x); })) return;
          out.push({ doc: e[0], words: 1 + others.length });
        });
      });
      // past the cap, those that name more of the paste's words are kept
      // (a traceback's words "file", "line", "main" key many patterns)
      out.sort(function (a, b) { return b.words - a.words || a.doc - b.doc; });
      return out.slice(0, MAX_PATTERN_CANDIDATES).map(function (x) { return x.doc; }).sort(function (a, b) { return a - b; });
    });
  }
  // How much of a paste a pattern pins down: its required literals' length
  // (pin; an older export's programs carry only the first few, cut).
  function specificity(prog) {
    if (typeof prog.pin === "number") return prog.pin;
    var n = 0;
    (prog.lits || []).concat(prog.ilits || []).forEach(function (l) { n += l.length; });
    return n;
  }
  // How much of a record's message a paste holds: the share of the
  // message's words (values included) that are words of the paste. Of
  // several records whose pattern matches, the one whose own example
  // values the paste repeats is the likelier answer.
  function fit(message, pasteWords) {
    var ws = A.terms("errdocs_ident", message || ""), n = 0;
    for (var i = 0; i < ws.length; i++) if (pasteWords.has(ws[i])) n++;
    return ws.length ? n / ws.length : 0;
  }
  // squash: white space runs as one space, trimmed (a paste's lines and
  // a message compared as text).
  function squash(s) { return String(s).replace(/\s+/g, " ").trim(); }
  // holdsMessage: the paste holds the record's whole message, as it is
  // (its own values): as exact an answer as a pattern match, and the only
  // one for a record whose pattern cannot run. A message of fewer than
  // MIN_HELD_WORDS words is too common to say so.
  var MIN_HELD_WORDS = 3;
  function holdsMessage(flat, message) {
    var m = squash(message || "");
    return m.split(" ").length >= MIN_HELD_WORDS && flat.indexOf(m) >= 0;
  }
  // The languages whose runtime prints an error the way a paste shows
  // it (a Go panic and goroutine dump, a Python traceback, a Rust panic,
  // a Java thread's exception and frames, a C++ terminate, a browser's
  // "Uncaught"): of matches otherwise alike, one raised in such a
  // language is the likelier answer.
  var RUNTIMES = [
    [/^panic: |^goroutine \d+ \[/m, ["Go"]],
    [/^Traceback \(most recent call last\)|^\s*File "[^"]*", line \d+/m, ["Python"]],
    [/^thread '[^']*' panicked at /m, ["Rust"]],
    [/^Exception in thread "|^\s*at [\w.$]+\([\w$]+\.(java|kt|scala):\d+\)/m, ["Java", "Kotlin", "Scala"]],
    [/^terminate called after throwing an instance of /m, ["C++"]],
    [/^Uncaught |^\s*at .*\.(m?js|cjs|ts|tsx|jsx):\d+:\d+\)?$/m, ["JavaScript", "TypeScript"]]
  ];
  // classShown: 1 when a record's class (or its part after the last "."
  // or ":") stands in the paste as a runtime prints it ("TypeError: ",
  // "java.io.IOException: "): of matches otherwise alike, one raised with
  // the class the paste shows is the likelier answer.
  function classShown(cut, cls) {
    if (!cls) return 0;
    var names = [cls], i = Math.max(cls.lastIndexOf("."), cls.lastIndexOf(":"));
    if (i >= 0 && i + 1 < cls.length) names.push(cls.slice(i + 1));
    for (var j = 0; j < names.length; j++) {
      for (var at = cut.indexOf(names[j] + ": "); at >= 0; at = cut.indexOf(names[j] + ": ", at + 1)) {
        if (at === 0 || !/[A-Za-z0-9_]/.test(cut.charAt(at - 1))) return 1;
      }
    }
    return 0;
  }
  function pasteLanguages(raw) {
    var out = Object.create(null), text = String(raw).slice(0, 20000).replace(/\r\n?/g, "\n");
    RUNTIMES.forEach(function (rt) { if (rt[0].test(text)) rt[1].forEach(function (l) { out[l] = true; }); });
    return out;
  }
  // The records a paste names exactly: those whose pattern matches it and
  // those of the text results (textNums) whose whole message it holds.
  // Ordered by how much of the paste each pins down (a pattern's
  // required literals, a held message's length), then those raised in a
  // language whose runtime printed the paste, then those whose class the
  // paste shows, then those that more of the matches alike in these
  // answer too (the same spelling of the error, or the same message: the
  // common form of an error), then those whose message the paste holds
  // most of, then in the order of rank (a map doc -> rank of the text
  // results).
  var PROGRAM_KEYS = ["v", "prog", "lits", "ilits", "pin"]; // a program without its record's class
  function patternMatches(raw, filter, rank, textNums) {
    var P = root.ErrdocsPattern;
    if (!P || manifest.options.patterns !== 1) return Promise.resolve([]);
    var pasteWords = new Set(A.terms("errdocs_ident", raw.slice(0, 20000)));
    var cut = raw.slice(0, 20000), flat = squash(cut), langs = pasteLanguages(raw);
    return patternCandidates(raw, filter).then(function (nums) {
      return Promise.all([docsByNumber(nums, true), docsByNumber(textNums)]).then(function (v) {
        var hit = [], seen = new Set();
        function add(n, d, spec) {
          if (seen.has(n)) return;
          var held = holdsMessage(flat, d.title);
          if (spec < 0 && !held) return;
          seen.add(n);
          hit.push({ doc: n, pinned: Math.max(spec, held ? squash(d.title).length : 0), lang: langs[d.language] ? 1 : 0,
            cls: spec >= 0 ? classShown(cut, d.pattern.c) : 0, fit: fit(d.title, pasteWords), msg: d.title,
            form: spec >= 0 ? "p" + JSON.stringify(d.pattern, PROGRAM_KEYS) : "m" + d.title });
        }
        nums.forEach(function (n, i) {
          var d = v[0][i], prog = d && d.pattern, ok = false;
          try { ok = !!prog && P.match(prog, raw); } catch (e) { ok = false; }
          // a message its own pattern describes is held only where the
          // pattern matches: the text is searched for the messages of
          // records whose pattern cannot run
          if (d && (ok || !prog)) add(n, d, ok ? specificity(prog) : -1);
        });
        textNums.forEach(function (n, i) { if (v[1][i]) add(n, v[1][i], -1); });
        // shared: the matches of its language and class flag whose
        // spelling or message is its own (those of both counted once)
        var counts = new Map();
        function count(key, add) { var n = (counts.get(key) || 0) + add; counts.set(key, n); return n; }
        function keys(h) { var k = h.lang + " " + h.cls + " "; return [k + "f" + h.form, k + "m" + h.msg, k + "b" + h.form + "\u0000" + h.msg]; }
        hit.forEach(function (h) { keys(h).forEach(function (k) { count(k, 1); }); });
        hit.forEach(function (h) { var k = keys(h); h.shared = count(k[0], 0) + count(k[1], 0) - count(k[2], 0); });
        hit.sort(function (a, b) {
          var ra = rank.has(a.doc) ? rank.get(a.doc) : Infinity, rb = rank.has(b.doc) ? rank.get(b.doc) : Infinity;
          return b.pinned - a.pinned || b.lang - a.lang || b.cls - a.cls || b.shared - a.shared || b.fit - a.fit ||
            (ra === rb ? a.doc - b.doc : ra < rb ? -1 : 1);
        });
        return hit;
      });
    });
  }

  // ---------- snippets ----------
  // The terms a result matched, per field: exact terms (a fuzzy result's
  // look-alike terms only where they equal the query's own), and the
  // type-ahead prefix for a prefix list's leaf.
  function matchedByField(leafIds, leaves, fuzzy, own) {
    var by = Object.create(null);
    leafIds.forEach(function (id) {
      var lf = leaves[id], f = manifest.fields[lf.field].name;
      if (fuzzy && !own[lf.term]) return;
      var e = by[f] || (by[f] = { terms: Object.create(null), prefixes: [] });
      if (lf.vleaf) e.prefixes.push(lf.term); else e.terms[lf.term] = true;
    });
    return by;
  }
  var SNIPPET_CHARS = 160, SNIPPET_BEFORE = 40;
  // marks: [start, end) of the words of text whose analysis in field is
  // a matched term (or, for a prefix, whose lowercase starts with it)
  function marksIn(field, text, m) {
    var an = field === "errorMessage" || field === "documentation" ? "en" : "errdocs_ident", out = [];
    A.analyze(an, text).forEach(function (t) {
      var hit = m.terms[t.term];
      if (!hit && m.prefixes.length) {
        var w = A.lower(text.slice(t.start, t.end));
        hit = m.prefixes.some(function (p) { return w.slice(0, p.length) === p; });
      }
      if (hit) out.push([t.start, t.end]);
    });
    return out;
  }
  // A window of text around its first mark, the marks moved with it.
  function cut(text, marks) {
    if (text.length <= SNIPPET_CHARS) return { text: text, marks: marks };
    var a = marks.length ? Math.max(0, marks[0][0] - SNIPPET_BEFORE) : 0;
    while (a > 0 && !/\s/.test(text.charAt(a - 1))) a--;
    var b = Math.min(text.length, a + SNIPPET_CHARS);
    while (b < text.length && !/\s/.test(text.charAt(b))) b++;
    var pre = a > 0 ? "…" : "", post = b < text.length ? "…" : "";
    var ms = marks.filter(function (r) { return r[0] >= a && r[1] <= b; }).map(function (r) { return [r[0] - a + pre.length, r[1] - a + pre.length]; });
    return { text: pre + text.slice(a, b) + post, marks: ms };
  }
  // The snippet of a result: from the message when words matched there,
  // else from the start of its documentation (the doc data holds no more
  // of the prose fields), with the matched words marked.
  function snippetFor(doc, by) {
    if (!doc) return null;
    var order = [["errorMessage", doc.title], ["documentation", doc.snippet]];
    for (var i = 0; i < order.length; i++) {
      var f = order[i][0], text = order[i][1];
      if (!text || !by[f]) continue;
      var ms = marksIn(f, text, by[f]);
      if (ms.length) { var c = cut(text, ms); return { field: f, text: c.text, marks: c.marks }; }
    }
    return doc.snippet ? { field: "documentation", text: doc.snippet, marks: [] } : null;
  }
  function ownTerms(text) {
    var own = Object.create(null);
    manifest.fields.forEach(function (f) { A.terms(f.query, text).forEach(function (t) { own[t] = true; }); });
    return own;
  }

  // ---------- suggestions when nothing is found ----------
  // dropWords: the query without the one word whose removal finds the
  // most all-words results; spelling: each word without a term of its
  // own replaced by its closest term (fewest edits, then most records),
  // unstemmed fields first.
  function suggestions(text, prefix, filter) {
    var ws = queryWords(text).slice(0, 8), tries = [];
    if (ws.length > 1) ws.forEach(function (w, i) {
      var q = ws.filter(function (x, j) { return j !== i; }).map(function (x) { return x.text; }).join(" ");
      tries.push(runQuery(q, { prefix: prefix, fuzzy: false, mode: "all" }, 1, filter).then(function (r) { return { q: q, n: r ? r.total : 0 }; }));
    });
    var spell = loadShards(ws.reduce(function (a, w) {
      return a.concat(prefixShards(fuzzyPrefixOf(A.lower(w.text), manifest.options.fuzzyPrefix)));
    }, [])).then(function () {
      var changed = false;
      var out = ws.map(function (w) {
        var t = A.lower(w.text), fz = autoFuzziness(t), best = null;
        if (!fz) return w.text;
        var fields = manifest.fields.map(function (f, fi) { return fi; }).sort(function (a, b) { return (manifest.fields[a].query === "en") - (manifest.fields[b].query === "en"); });
        for (var j = 0; j < fields.length; j++) {
          var fi = fields[j];
          if (entryFor(A.terms(manifest.fields[fi].query, w.text)[0] || "", fi)) return w.text;
        }
        fields.forEach(function (fi) {
          termsWithPrefix(fuzzyPrefixOf(t, manifest.options.fuzzyPrefix), fi).forEach(function (c) {
            var d = osa(t, c, fz), e = entryFor(c, fi);
            if (d <= fz && e && (!best || d < best.d || d === best.d && e.df > best.df)) best = { term: c, d: d, df: e.df };
          });
        });
        if (!best) return w.text;
        changed = true;
        return best.term;
      });
      return changed ? out.join(" ") : null;
    });
    return Promise.all([Promise.all(tries), spell]).then(function (v) {
      var best = null;
      v[0].forEach(function (x) { if (x.n > 0 && (!best || x.n > best.n)) best = x; });
      return { dropWords: best ? best.q : null, spelling: v[1] };
    });
  }

  // ---------- the first results of a typed query ----------
  // A person types words of a message in the message's order, often
  // neighbours, and most often of a common error. Of the first ORDERED
  // results of the words' query ("all" mode, not fuzzy, two query tokens
  // or more), those whose message (doc data title) holds the typed tokens
  // in the typed order come first, then those with more typed neighbours
  // next to each other in it, then those whose message has the value
  // shape (valueShape) of more of these results; ties keep the score's
  // order. The index holds no positions (they would cost every query
  // bytes); the messages of the first results are loaded to show them
  // anyway. Mirror of the Go twin's typedOrder (typedorder_test.go).
  var ORDERED = 10;
  function typedTokens(text, prefix) {
    var qws = queryWords(text), toks = [];
    qws.forEach(function (w) { A.terms("en", w.text).forEach(function (t) { toks.push(t); }); });
    var lastW = qws.length ? qws[qws.length - 1] : null;
    // the word being typed matches a message token it starts
    var open = prefix && !!lastWord(text) && !!lastW && lastW.end === text.length;
    return { toks: toks, open: open };
  }
  function holdsInOrder(msg, q) {
    function match(t, j) { return t === q.toks[j] || q.open && j === q.toks.length - 1 && t.slice(0, q.toks[j].length) === q.toks[j]; }
    var j = 0, adj = 0;
    for (var i = 0; i < msg.length; i++) if (j < q.toks.length && match(msg[i], j)) j++;
    for (var p = 0; p + 1 < q.toks.length; p++) {
      for (i = 0; i + 1 < msg.length; i++) if (match(msg[i], p) && match(msg[i + 1], p + 1)) { adj++; break; }
    }
    return { inOrder: j === q.toks.length ? 1 : 0, adjacent: adj };
  }
  // valueShape: a message's words (split at ASCII white space, outer
  // punctuation trimmed, ASCII lowercased), each word that looks like a
  // value (a digit, a path or name character, a capital after a small
  // letter: camelCase) as "*".
  // Mirror of valueShape in typedorder_test.go.
  var VALUE_CHARS = "/\\_-.=<>@#$%&*+~|";
  function valueShape(m) {
    var out = [];
    String(m).split(/[ \t\n\r\f\v]+/).forEach(function (w) {
      var a = 0, b = w.length;
      while (a < b && TRIM_CHARS.indexOf(w.charAt(a)) >= 0) a++;
      while (b > a && TRIM_CHARS.indexOf(w.charAt(b - 1)) >= 0) b--;
      w = w.slice(a, b);
      if (!w) return;
      var value = false;
      for (var i = 0; i < w.length && !value; i++) {
        var c = w.charAt(i);
        value = c >= "0" && c <= "9" || VALUE_CHARS.indexOf(c) >= 0 || c >= "A" && c <= "Z" && i > 0 && w.charAt(i - 1) >= "a" && w.charAt(i - 1) <= "z";
      }
      out.push(value ? "*" : w.replace(/[A-Z]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) + 32); }));
    });
    return out.join(" ");
  }
  var TRIM_CHARS = ",:;()[]{}'\"!?";
  function typedOrder(r, text, prefix) {
    var q = typedTokens(text, prefix);
    if (!r || r.list.length < 2 || q.toks.length < 2) return Promise.resolve(r);
    var top = r.list.slice(0, ORDERED);
    return docsByNumber(top.map(function (x) { return x.doc; })).then(function (docs) {
      var titles = docs.map(function (d) { return d ? d.title : ""; });
      var shapes = titles.map(valueShape);
      var keyed = top.map(function (x, i) {
        var h = holdsInOrder(A.terms("en", titles[i]), q), common = 0;
        shapes.forEach(function (s) { if (s === shapes[i]) common++; });
        return { x: x, k: [h.inOrder, h.adjacent, common, -i] };
      });
      keyed.sort(function (a, b) {
        for (var j = 0; j < a.k.length; j++) if (a.k[j] !== b.k[j]) return b.k[j] - a.k[j];
        return 0;
      });
      r.list = keyed.map(function (e) { return e.x; }).concat(r.list.slice(ORDERED));
      return r;
    });
  }

  // Rank order across runs: a result of an earlier run stays above.
  function merge(into, seen, r, group, k) {
    if (!r) return;
    r.list.forEach(function (x) {
      if (into.length >= k || seen.has(x.doc)) return;
      seen.add(x.doc);
      into.push({ x: x, r: r, group: group });
    });
  }

  // The last word while it is typed and too short to expand as a prefix
  // (FORMAT.md: prefix lists start at minPrefix characters): whether some
  // term starts with it, so that "no results" is not said of a word that
  // is only begun.
  function shortLastWord(text) {
    var toks = A.analyze("errdocs_ident", text);
    if (!toks.length) return "";
    var t = toks[toks.length - 1];
    if (t.end !== text.length || Array.from(t.term).length >= manifest.options.minPrefix) return "";
    return t.term;
  }
  function endsInStopWord(text) {
    var w = lastWord(text);
    return !!w && (!A.terms("en", w).length || clippedNegation(w));
  }
  function someTermStartsWith(p) {
    var i = shardIndex(p);
    if (i + 1 < manifest.shards.length && manifest.shards[i + 1].slice(0, p.length) === p) return Promise.resolve(true);
    return loadShards([i]).then(function () {
      var found = false;
      shardCache[i].forEach(function (list, term) { if (!found && term.slice(0, p.length) === p) found = true; });
      return found;
    });
  }

  // ---------- the error in a paste ----------
  // A pasted error comes with what its runtime prints around it: a
  // traceback's header and frames, a goroutine dump, "at" lines, a
  // thread or terminate line. Their words ("main", "line", "file",
  // "goroutine", "call") are in many records and say nothing of the
  // error, so the words of a paste's text query come from its other
  // lines, each once. (Its patterns still run on the whole paste.)
  var DROP_LINE = [
    /^Traceback \(most recent call last\):?$/, // Python
    /^File ".*", line \d+/, // a Python frame
    /^at .*(\(.*\)|:\d+)$/, // Java, JavaScript, C# frames
    /^\.\.\. \d+ (more|common frames omitted)$/, // Java
    /^thread '.*' panicked at \S+$/, // Rust (the message on the next line)
    /^note: run with `RUST_BACKTRACE/, // Rust
    /^terminate called after throwing an instance of '[^']*'$/, // C++
    /^\[?[\w.$/-]+\.(go|rs|py|js|ts|java|c|cc|cpp|rb):\d+(:\d+)?\]?( \+0x[0-9a-f]+)?$/ // a bare file:line
  ];
  // Lines from these on are a stack dump.
  var STACK_START = [/^goroutine \d+ \[[^\]]*\]:$/, /^stack backtrace:$/, /^Stack trace:$/i];
  var PREFIX = /^(panic: |Uncaught (\(in promise\) )?|Exception in thread "[^"]*" |Caused by: |what\(\):\s*|fatal error: )/;
  function errorText(raw) {
    var lines = String(raw).slice(0, 20000).split(/\r?\n/), out = [], python = false;
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i], t = line.trim();
      if (!t) continue;
      if (STACK_START.some(function (re) { return re.test(t); })) break;
      if (/^Traceback \(most recent call last\)/.test(t)) python = true;
      // inside a Python traceback, indented lines are frames and their code
      if (python && /^\s/.test(line)) continue;
      if (DROP_LINE.some(function (re) { return re.test(t); })) continue;
      out.push(t.replace(PREFIX, ""));
    }
    // a word said again (a log's repeated lines) adds work, not meaning
    var seen = Object.create(null);
    return out.join(" ").split(/\s+/).filter(function (w) {
      var k = w.toLowerCase();
      if (!w || seen[k]) return false;
      seen[k] = true;
      return true;
    }).join(" ");
  }

  // liftMatches moves the results whose record's pattern matches text (a
  // paste as pasted, or a typed query that may be a whole message) to the
  // top, as exact matches: a stable partition, the paste's own exact
  // matches first as they were, then the others in rank order. It acts
  // where patternMatches cannot: on a typed query (no pattern candidates
  // are looked up), and on a pattern with no word every match must hold
  // (no pattern key: a top-level alternation), found by the text alone.
  function liftMatches(results, text) {
    var P = root.ErrdocsPattern, hit = [], rest = [];
    results.forEach(function (r) {
      var prog = r.doc && r.doc.pattern, ok = r.group === "pattern";
      if (!ok && prog && P) {
        try { ok = !!P.match(prog, text); } catch (e) { ok = false; }
        if (ok) { r.group = "pattern"; r.exact = true; }
      }
      (ok ? hit : rest).push(r);
    });
    return hit.concat(rest);
  }

  function search(query, o) {
    o = o || {};
    var limit = o.limit > 0 ? Math.floor(o.limit) : 10, offset = o.offset > 0 ? Math.floor(o.offset) : 0;
    var k = limit + offset;
    var text = String(query == null ? "" : query);
    if (o.paste != null) text = errorText(o.paste) || text;
    // what the lift matches patterns against: the paste as pasted, or the query
    var matched = o.paste != null ? String(o.paste) : String(query == null ? "" : query);
    var prefix = o.prefix !== false;
    var fuzzy = o.fuzzy === undefined ? "auto" : o.fuzzy;
    var filter = null;
    return ready().then(function () {
      return filterSet(o.filters);
    }).then(function (f) {
      filter = f;
      var out = [], seen = new Set(), head = null;
      function run(mode, fz, kk, pfx) {
        return runQuery(text, { prefix: pfx === undefined ? prefix : pfx, fuzzy: fz, mode: mode }, kk, filter);
      }
      if (o.mode !== undefined) {
        // one query form (the parity tests ask for each)
        var mode = o.mode === "any" ? "" : String(o.mode);
        var ordered = mode === "all" && fuzzy !== true;
        return run(mode, fuzzy === true, ordered ? Math.max(k, ORDERED) : k).then(function (r) {
          return ordered ? typedOrder(r, text, prefix) : r;
        }).then(function (r) {
          merge(out, seen, r, mode === "" ? (fuzzy === true ? "fuzzy" : "some") : mode, k);
          return { head: r, out: out, fuzzy: fuzzy === true };
        });
      }
      var first = o.paste != null ? "most" : "all";
      var kk = first === "all" ? Math.max(k, ORDERED) : k;
      var pfx = prefix;
      return run(first, false, kk).then(function (r) {
        // A last word that is a whole stop word ("retry after") counts
        // while typed only as the start of a longer word; when no record
        // has one, it is taken as the stop word it is (left out).
        if (first === "all" && prefix && (!r || !r.total) && endsInStopWord(text)) { pfx = false; return run(first, false, kk, false); }
        return r;
      }).then(function (r) {
        return first === "all" ? typedOrder(r, text, pfx) : r;
      }).then(function (r) {
        head = r;
        if (o.paste == null) return r;
        // a pasted error: the records whose pattern matches it first
        // ranks of the first k only: past them the list's order is the
        // search's lower bounds, not the scores'
        var rank = new Map();
        if (r) r.list.slice(0, k).forEach(function (x, i) { rank.set(x.doc, i); });
        var textNums = r ? r.list.slice(0, k).map(function (x) { return x.doc; }) : [];
        return patternMatches(String(o.paste), filter, rank, textNums).then(function (hits) {
          hits.forEach(function (h) {
            if (out.length >= k) return;
            seen.add(h.doc);
            out.push({ x: { doc: h.doc, lb: 0, leafIds: [] }, r: null, group: "pattern" });
          });
          return r;
        });
      }).then(function (r) {
        merge(out, seen, r, first, k);
        // A paste's words are its error's: records holding fewer than
        // most of them are no answer unless nothing else is (and a paste
        // is no misspelling: no fuzzy fallback).
        if (out.length >= k || o.paste != null && out.length) return null;
        return run("", false, k + out.length).then(function (r2) { merge(out, seen, r2, "some", k); });
      }).then(function () {
        if (out.length >= k || fuzzy === false || o.paste != null) return null;
        return run("", true, k + out.length).then(function (r3) { merge(out, seen, r3, "fuzzy", k); });
      }).then(function () {
        return { head: head, out: out, fuzzy: out.some(function (e) { return e.group === "fuzzy"; }) };
      });
    }).then(function (st) {
      var r = st.head;
      if (!r && !st.out.length) {
        // no searchable word: filter-only listing, in doc number order
        if (!filter) {
          var w = shortLastWord(text);
          if (!w) return { total: 0, totalExact: true, fuzzy: false, results: [] };
          return someTermStartsWith(w).then(function (yes) {
            return { total: 0, totalExact: true, fuzzy: false, results: [], partial: yes ? w : undefined };
          });
        }
        var nums = [], total = 0;
        for (var d = 0; d < filter.length; d++) if (filter[d]) { if (total >= offset && total < k) nums.push(d); total++; }
        return docsByNumber(nums, o.patterns).then(function (docs) {
          var listed = docs.map(function (doc, i) { return { num: nums[i], score: 0, doc: doc, matchedTerms: [], group: "all" }; });
          return { total: total, totalExact: true, fuzzy: false, results: o.patterns ? liftMatches(listed, matched) : listed };
        });
      }
      var page = st.out.slice(offset, k), own = ownTerms(text);
      return docsByNumber(page.map(function (e) { return e.x.doc; }), o.patterns).then(function (docs) {
        var res = {
          total: r ? r.total : 0, totalExact: r ? r.totalExact : true, fuzzy: st.fuzzy,
          // more first-group results than these may exist (count not exact)
          more: !!r && !r.totalExact && r.list.length >= k,
          results: page.map(function (e, i) {
            var mt = [];
            e.x.leafIds.forEach(function (id) { var t = e.r.leaves[id].term; if (mt.indexOf(t) < 0) mt.push(t); });
            var res1 = { num: e.x.doc, score: e.x.lb, doc: docs[i], matchedTerms: mt, group: e.group };
            if (e.group === "pattern") res1.exact = true;
            res1.snippet = snippetFor(docs[i], e.r ? matchedByField(e.x.leafIds, e.r.leaves, e.group === "fuzzy", own) : { errorMessage: { terms: own, prefixes: [] } });
            return res1;
          })
        };
        if (o.patterns) res.results = liftMatches(res.results, matched);
        var more = [];
        if (res.total === 0) {
          var w = shortLastWord(text);
          if (w) more.push(someTermStartsWith(w).then(function (yes) { if (yes) res.partial = w; }));
        }
        if (!res.results.length && o.mode === undefined) more.push(suggestions(text, prefix, filter).then(function (sg) { res.suggestions = sg; }));
        return Promise.all(more).then(function () { return res; });
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
        if (keys.indexOf(key) < 0 && names[key]) keys.push(key); // no name: no record has that prefix
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
          return nums.map(function (x, i) {
            var d = x >= 0 ? found[j++] : null;
            if (d) d.id = ids[i]; // the doc data holds no ids (FORMAT.md)
            return d;
          });
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
    errorText: errorText,
    docsByNumber: function (nums, patterns) { return ready().then(function () { return docsByNumber(nums, patterns); }); },
    facets: facets,
    bytesLoaded: function () { return bytes; },
    loadedFiles: function () { return order.slice(); },
    setLoader: function (fn) { loader = typeof fn === "function" ? fn : scriptLoader; },
    _debug: { store: store, manifest: function () { return manifest; }, stats: function () { return lastStats; } }
  };
})(typeof window !== "undefined" ? window : globalThis);
