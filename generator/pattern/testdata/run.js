// Runs static/search/pattern.js over cases written by the Go tests and
// prints the answers as JSON. Usage: node run.js pattern.js cases.json
"use strict";
const fs = require("fs");
require(require("path").resolve(process.argv[2]));
const P = globalThis.ErrdocsPattern;
const input = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const out = (input.cases || []).map((c) => {
  const prog = input.programs[c.p];
  return c.bare ? P.search(prog, c.text) : P.match(prog, c.text);
});
let timing = null;
if (input.timing) {
  const t = input.timing;
  const text = t.repeat.repeat(t.count) + t.suffix;
  const start = process.hrtime.bigint();
  const res = t.bare ? P.search(t.program, text) : P.match(t.program, text);
  timing = { ms: Number(process.hrtime.bigint() - start) / 1e6, result: res };
}
process.stdout.write(JSON.stringify({ answers: out, timing }));
