// Loads the search scripts into a Node vm context as a browser would, and
// gives the engine a loader that reads chunk files from disk and records
// each one: shared by harness.js (the Go parity and budget tests) and
// bench.js (profiling by hand).
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const zlib = require("zlib");

// gzipSize is a file's size under gzip -9, the measure of the budgets.
const gzipSize = (data) => zlib.gzipSync(data, { level: 9 }).length;

// context returns a fresh vm context that has run static/search/<f> for
// each f of scripts, from the repository at root.
function context(root, scripts) {
  const c = { console, Intl, TextEncoder, Promise, Map, Set, Math, Uint8Array, Int8Array, Int32Array, Uint16Array, Float32Array, Float64Array, Uint32Array, Array, Object, String, Number, JSON, Error, setTimeout };
  c.globalThis = c;
  vm.createContext(c);
  for (const f of scripts) {
    const p = path.join(root, "static", "search", f);
    vm.runInContext(fs.readFileSync(p, "utf8"), c, { filename: p });
  }
  return c;
}

// recordLoads sets c's engine loader to evaluate chunk files read from disk
// in c, and records each in c.__loaded as {key, raw, gz} bytes.
function recordLoads(c) {
  const loaded = [];
  c.ErrdocsSearch.setLoader((url, key) => new Promise((resolve, reject) => {
    let data;
    try { data = fs.readFileSync(url); } catch (e) { reject(e); return; }
    vm.runInContext(data.toString("utf8"), c, { filename: url });
    loaded.push({ key, raw: data.length, gz: gzipSize(data) });
    resolve(data.length);
  }));
  c.__loaded = loaded;
  return c;
}

module.exports = { context, recordLoads, gzipSize };
