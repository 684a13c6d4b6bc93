// Query timing and bytes of engine.js in Node, for profiling by hand:
//   node bench.js <site dir holding search/> <queries.json> [repeats]
// Cold: bytes (gzip -9 per file) each query loads into a fresh engine.
// Further: the queries one after another in one engine; second: each query
// in a fresh engine after the query before it (its bytes alone).
// Loaded: each query runs once to load its chunks, then `repeats` more times
// (timed); per query the median, over queries the median and p95.
"use strict";
const fs = require("fs");
const path = require("path");
const { context, recordLoads, gzipSize } = require("./load.js");

const root = path.join(__dirname, "..", "..", "..", "..");
const site = process.argv[2];
const queries = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const repeats = +(process.argv[4] || 5);
const only = process.env.ONLY; // "cold" or "loaded"

const fresh = () => recordLoads(context(root, ["analyzer.js", "engine.js"]));
const engineGz = ["analyzer.js", "engine.js"].reduce((s, f) => s + gzipSize(fs.readFileSync(path.join(root, "static", "search", f))), 0);
const med = (a) => { const s = a.slice().sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const p95 = (a) => { const s = a.slice().sort((x, y) => x - y); return s[Math.floor(s.length * 95 / 100)]; };

async function main() {
  const search = path.join(site, "search");
  if (only !== "loaded") {
    const cold = [], warm = [];
    const kinds = {};
    let ctxW = fresh();
    await ctxW.ErrdocsSearch.init(search);
    for (const q of queries) {
      const c = fresh();
      await c.ErrdocsSearch.init(search);
      const r = await c.ErrdocsSearch.search(q.q, q.opts || {});
      const gz = c.__loaded.reduce((s, f) => s + f.gz, 0) + engineGz;
      cold.push(gz);
      const byKind = {};
      c.__loaded.forEach((f) => { const k = f.key.split("/")[0]; byKind[k] = (byKind[k] || 0) + f.gz; kinds[k] = (kinds[k] || 0) + f.gz; });
      const before = ctxW.__loaded.length;
      await ctxW.ErrdocsSearch.search(q.q, q.opts || {});
      warm.push(ctxW.__loaded.slice(before).reduce((s, f) => s + f.gz, 0));
      if (process.env.VERBOSE) console.log(JSON.stringify(q.q), (gz / 1000).toFixed(1), "KB", c.__loaded.length, "files", JSON.stringify(byKind), "total", r.total);
    }
    for (const k in kinds) kinds[k] = +(kinds[k] / queries.length / 1000).toFixed(1);
    console.log(`cold KB median ${(med(cold) / 1000).toFixed(1)} p95 ${(p95(cold) / 1000).toFixed(1)} max ${(Math.max(...cold) / 1000).toFixed(1)} (engine ${engineGz} B; mean KB by kind ${JSON.stringify(kinds)})`);
    const w = warm.slice(1);
    console.log(`further KB median ${(med(w) / 1000).toFixed(1)} p95 ${(p95(w) / 1000).toFixed(1)} max ${(Math.max(...w) / 1000).toFixed(1)}`);
    // second query: a fresh engine runs the query before (the last for the
    // first), then this one, whose bytes alone count
    const second = [], skinds = {};
    for (let i = 0; i < queries.length; i++) {
      const a = queries[(i + queries.length - 1) % queries.length], q = queries[i];
      const c = fresh();
      await c.ErrdocsSearch.init(search);
      await c.ErrdocsSearch.search(a.q, a.opts || {});
      const before = c.__loaded.length;
      await c.ErrdocsSearch.search(q.q, q.opts || {});
      const fs2 = c.__loaded.slice(before);
      second.push(fs2.reduce((s, f) => s + f.gz, 0));
      fs2.forEach((f) => { const k = f.key.split("/")[0]; skinds[k] = (skinds[k] || 0) + f.gz; });
    }
    for (const k in skinds) skinds[k] = +(skinds[k] / queries.length / 1000).toFixed(1);
    console.log(`second KB median ${(med(second) / 1000).toFixed(1)} p95 ${(p95(second) / 1000).toFixed(1)} max ${(Math.max(...second) / 1000).toFixed(1)} (mean KB by kind ${JSON.stringify(skinds)})`);
  }
  if (only !== "cold") {
    const c = fresh();
    await c.ErrdocsSearch.init(search);
    const per = [];
    for (const q of queries) {
      await c.ErrdocsSearch.search(q.q, q.opts || {});
      const ts = [];
      for (let i = 0; i < repeats; i++) {
        const t0 = process.hrtime.bigint();
        await c.ErrdocsSearch.search(q.q, q.opts || {});
        ts.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      per.push(med(ts));
      if (process.env.VERBOSE) console.log(JSON.stringify(q.q), med(ts).toFixed(2), "ms");
    }
    console.log(`loaded ms median ${med(per).toFixed(2)} p95 ${p95(per).toFixed(2)} max ${Math.max(...per).toFixed(2)}`);
  }
}
main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
