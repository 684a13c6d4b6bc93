// Node harness for the Go parity tests: loads static/search/analyzer.js and
// engine.js into a vm context (as a browser would load them), serves chunk
// files from an exported site folder by evaluating them in that context,
// and answers a JSON request read from the file named by argv[2]:
//   {root: "<repo root>", site: "<dir holding search/>",
//    analyze: [{analyzer, texts: [..]}],         -> analyze: [[[terms]..]..]
//    queries: [{q, opts}], coldQueries: bool,      -> queries: [{results, total, bytes, files}]
//    pairQueries: bool}
// coldQueries: each query in a fresh engine; pairQueries: each query i in a
// fresh engine that ran query i-1 (the last for the first) before it, and
// only query i's files counted (a "second query").
// and prints the JSON answer on stdout.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const zlib = require("zlib");

const req = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

function makeContext() {
  const ctx = { console, Intl, TextEncoder, Promise, Map, Set, Math, Uint8Array, Int8Array, Float32Array, Uint32Array, Array, Object, String, Number, JSON, Error, setTimeout };
  ctx.globalThis = ctx;
  vm.createContext(ctx);
  for (const f of ["analyzer.js", "engine.js", "pattern.js"]) {
    const p = path.join(req.root, "static", "search", f);
    vm.runInContext(fs.readFileSync(p, "utf8"), ctx, { filename: p });
  }
  return ctx;
}

// idOf maps a doc number to its record id through the id index (i/),
// read once: results carry doc numbers, the tests compare record ids.
let idByNum = null;
function idOf(num) {
  if (!idByNum) {
    idByNum = new Map();
    const dir = path.join(req.site, "search", "i");
    for (const f of fs.readdirSync(dir)) {
      const ctx = { errdocsSearch: { load: (k, pairs) => { for (const [id, n] of pairs) idByNum.set(n, id); } } };
      vm.createContext(ctx);
      vm.runInContext(fs.readFileSync(path.join(dir, f), "utf8"), ctx);
    }
  }
  return idByNum.get(num);
}

async function main() {
  const out = {};
  let ctx = makeContext();
  if (req.analyze) {
    out.analyze = req.analyze.map((a) => a.texts.map((t) => ctx.ErrdocsAnalyzer.terms(a.analyzer, t)));
  }
  if (req.queries) {
    const engineBytes = ["analyzer.js", "engine.js"].map((f) => {
      const b = fs.readFileSync(path.join(req.root, "static", "search", f));
      return { raw: b.length, gz: zlib.gzipSync(b, { level: 9 }).length };
    });
    const fresh = () => {
      const c = makeContext();
      const loaded = [];
      c.ErrdocsSearch.setLoader((url, key) => new Promise((resolve, reject) => {
        let data;
        try { data = fs.readFileSync(url); } catch (e) { reject(e); return; }
        vm.runInContext(data.toString("utf8"), c, { filename: url });
        loaded.push({ key, raw: data.length, gz: zlib.gzipSync(data, { level: 9 }).length });
        resolve(data.length);
      }));
      c.__loaded = loaded;
      return c;
    };
    out.queries = [];
    ctx = fresh();
    await ctx.ErrdocsSearch.init(path.join(req.site, "search"));
    for (const q of req.queries) {
      if (req.coldQueries || req.pairQueries) {
        ctx = fresh();
        await ctx.ErrdocsSearch.init(path.join(req.site, "search"));
      }
      if (req.pairQueries) {
        const a = req.queries[(req.queries.indexOf(q) + req.queries.length - 1) % req.queries.length];
        await ctx.ErrdocsSearch.search(a.q, a.opts || {});
      }
      const before = ctx.__loaded.length;
      const t0 = process.hrtime.bigint();
      let res, err = null;
      try {
        res = await ctx.ErrdocsSearch.search(q.q, q.opts || {});
      } catch (e) {
        err = String(e && e.stack || e);
      }
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const files = ctx.__loaded.slice(req.coldQueries ? 0 : before);
      out.queries.push({
        error: err,
        ms,
        total: res ? res.total : 0,
        totalExact: res ? res.totalExact !== false : false,
        fuzzy: res ? res.fuzzy : false,
        results: res ? res.results.map((r) => ({ id: idOf(r.num), score: r.score, terms: r.matchedTerms, pattern: r.doc && r.doc.pattern, group: r.group, snippet: r.snippet })) : [],
        partial: res ? res.partial : undefined,
        suggestions: res ? res.suggestions : undefined,
        files: files.length,
        raw: files.reduce((s, f) => s + f.raw, 0),
        gz: files.reduce((s, f) => s + f.gz, 0),
        engineGz: engineBytes.reduce((s, f) => s + f.gz, 0),
        byKind: files.reduce((m, f) => { const k = f.key.split("/")[0]; m[k] = (m[k] || 0) + f.gz; return m; }, {}),
      });
    }
  }
  process.stdout.write(JSON.stringify(out));
}
main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
