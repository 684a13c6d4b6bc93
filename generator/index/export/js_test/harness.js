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
const { context, recordLoads, gzipSize } = require("./load.js");

const req = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

const makeContext = () => context(req.root, ["analyzer.js", "engine.js", "pattern.js"]);

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
      return { raw: b.length, gz: gzipSize(b) };
    });
    const fresh = () => recordLoads(makeContext());
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
