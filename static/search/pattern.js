// pattern.js: matches a pasted error message against a record's compiled
// messagePattern in time linear in the text's length.
//
// messagePattern is untrusted text written for no particular regex engine.
// It never reaches the browser as a pattern: the build (generator/pattern)
// compiles it with Go's regexp/syntax into a small instruction program, and
// this file runs that program with a Pike VM, which keeps one thread per
// instruction and never backtracks. Work is at most (text length x program
// size), so a pattern like `(a+)+$` cannot hang the tab, and no RegExp is
// ever built from record text (nor eval, nor Function).
//
// Semantics (the same as generator/pattern.Match, which the Go tests hold
// this file to): line ends are normalised; a text over MAX_INPUT code points
// is cut to its first and last MAX_INPUT/2; each part, trimmed, and each of
// its lines, trimmed, is searched for the pattern (unanchored). See the
// package comment of generator/pattern for the program encoding.
(function (root) {
  "use strict";

  var MAX_INPUT = 10000;
  // MAX_PREFIXES mirrors pattern.MaxPrefixes.
  var MAX_PREFIXES = 3;

  // Instruction opcodes after expansion.
  var RUNE = 1, ALT = 3, EMPTY = 4, MATCH = 6, FAIL = 7, JUMP = 8;

  // syntax.EmptyOp bits.
  var BEGIN_LINE = 1, END_LINE = 2, BEGIN_TEXT = 4, END_TEXT = 8,
    WORD_BOUNDARY = 16, NO_WORD_BOUNDARY = 32;

  // Decoded programs, keyed by the program object, so that repeated
  // matching against the same record does not expand it again.
  var cache = typeof WeakMap === "function" ? new WeakMap() : null;

  // expand turns the encoded node list into flat arrays: op, out, arg (the
  // second branch of a fork, or the assertion flags) and ranges. It returns
  // null for anything malformed: a bad program simply matches nothing.
  function expand(program) {
    if (!program || program.v !== 1 || !Array.isArray(program.prog)) return null;
    if (cache && cache.has(program)) return cache.get(program);
    var op = [], out = [], arg = [], ranges = [];
    var nodes = program.prog, i, j;
    for (i = 0; i < nodes.length; i++) {
      var n = nodes[i];
      var pc = op.length;
      if (typeof n === "string") {
        for (j = 0; j < n.length; j++) {
          var c = n.charCodeAt(j);
          if (c >= 0xd800 && c <= 0xdbff && j + 1 < n.length) {
            var d = n.charCodeAt(j + 1);
            if (d >= 0xdc00 && d <= 0xdfff) {
              c = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
              j++;
            }
          }
          op.push(RUNE); out.push(op.length); arg.push(0); ranges.push([c, c]);
        }
        continue;
      }
      if (!Array.isArray(n) || n.length === 0) return null;
      switch (n[0]) {
        case 1:
          op.push(RUNE); out.push(pc + 1); arg.push(0); ranges.push(n.slice(1));
          break;
        case 2:
          op.push(RUNE); out.push(n[1]); arg.push(0); ranges.push(n.slice(2));
          break;
        case 3:
          op.push(ALT); out.push(n[1]); arg.push(n[2]); ranges.push(null);
          break;
        case 4:
          op.push(EMPTY); out.push(pc + 1); arg.push(n[1]); ranges.push(null);
          break;
        case 5:
          op.push(EMPTY); out.push(n[2]); arg.push(n[1]); ranges.push(null);
          break;
        case 6:
          op.push(MATCH); out.push(0); arg.push(0); ranges.push(null);
          break;
        case 7:
          op.push(FAIL); out.push(0); arg.push(0); ranges.push(null);
          break;
        case 8:
          op.push(JUMP); out.push(n[1]); arg.push(0); ranges.push(null);
          break;
        default:
          return null;
      }
    }
    var size = op.length;
    if (size === 0) return null;
    // Every target must name an instruction and every range list must be
    // numeric pairs, so the VM below never reads outside its arrays.
    for (i = 0; i < size; i++) {
      if ((op[i] === RUNE || op[i] === ALT || op[i] === EMPTY || op[i] === JUMP) &&
        !(out[i] >= 0 && out[i] < size && out[i] === (out[i] | 0))) return null;
      if (op[i] === ALT && !(arg[i] >= 0 && arg[i] < size && arg[i] === (arg[i] | 0))) return null;
      if (op[i] === RUNE) {
        var r = ranges[i];
        if (r.length % 2 !== 0) return null;
        for (j = 0; j < r.length; j++) if (typeof r[j] !== "number") return null;
      }
    }
    // A match in the rest of a line after a prefix is a match in the
    // line too, unless an assertion at its start (^, \A, \b, \B) reads
    // what stands before it: only such programs search those segments.
    var atStart = false;
    for (i = 0; i < size; i++) {
      if (op[i] === EMPTY && (arg[i] & (BEGIN_LINE | BEGIN_TEXT | WORD_BOUNDARY | NO_WORD_BOUNDARY))) atStart = true;
    }
    var p = { op: op, out: out, arg: arg, ranges: ranges, size: size, atStart: atStart,
      lits: strings(program.lits), ilits: strings(program.ilits) };
    if (cache) cache.set(program, p);
    return p;
  }

  function strings(a) {
    if (!Array.isArray(a)) return [];
    return a.filter(function (s) { return typeof s === "string" && s !== ""; });
  }

  // codePoints splits a string into code points; a lone surrogate becomes
  // U+FFFD, as Go sees invalid text.
  function codePoints(s) {
    var cps = [];
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) {
        var d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (d >= 0xdc00 && d <= 0xdfff) {
          cps.push((c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000);
          i++;
          continue;
        }
        c = 0xfffd;
      } else if (c >= 0xdc00 && c <= 0xdfff) {
        c = 0xfffd;
      }
      cps.push(c);
    }
    return cps;
  }

  // isSpace is Go's unicode.IsSpace, which strings.TrimSpace uses; JS's
  // trim() differs (it trims U+FEFF, keeps U+0085).
  function isSpace(c) {
    if (c <= 0xff) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
    return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
      c === 0x202f || c === 0x205f || c === 0x3000;
  }

  function trim(cps, from, to) {
    while (from < to && isSpace(cps[from])) from++;
    while (to > from && isSpace(cps[to - 1])) to--;
    return cps.slice(from, to);
  }

  // segments mirrors generator/pattern.Segments, on code points: segs
  // the texts and lines, rest the rests after prefixes (afterPrefixes).
  // The last text's are kept: one paste is matched against many programs.
  var lastText = null, lastSegs = null;
  function segments(text) {
    if (text === lastText) return lastSegs;
    lastText = text;
    lastSegs = segmentsOf(text);
    return lastSegs;
  }
  function segmentsOf(text) {
    text = String(text).replace(/\r\n?/g, "\n");
    var cps = codePoints(text);
    var parts = [cps];
    if (cps.length > MAX_INPUT) {
      parts = [cps.slice(0, MAX_INPUT / 2), cps.slice(cps.length - MAX_INPUT / 2)];
    }
    var segs = [], rest = [];
    parts.forEach(function (p) {
      var whole = trim(p, 0, p.length);
      segs.push(whole);
      if (p.indexOf(10) < 0) { afterPrefixes(whole, rest); return; }
      var start = 0;
      for (var i = 0; i <= p.length; i++) {
        if (i === p.length || p[i] === 10) {
          var line = trim(p, start, i);
          segs.push(line);
          afterPrefixes(line, rest);
          start = i + 1;
        }
      }
    });
    return { text: text, segs: segs, rest: rest };
  }

  // afterPrefixes mirrors pattern.afterPrefixes: the rest of a line after
  // each of its first MAX_PREFIXES ": " (a class or log prefix), trimmed.
  function afterPrefixes(line, segs) {
    var at = 0;
    for (var k = 0; k < MAX_PREFIXES; k++) {
      var i = at;
      while (i + 1 < line.length && !(line[i] === 58 && line[i + 1] === 32)) i++;
      if (i + 1 >= line.length) break;
      at = i + 2;
      var rest = trim(line, at, line.length);
      if (rest.length) segs.push(rest);
    }
  }

  function isWord(c) {
    return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  }

  // context is syntax.EmptyOpContext: the assertions true between code
  // points r1 and r2 (-1 at either end of the text).
  function context(r1, r2) {
    var f = 0;
    if (r1 < 0) f |= BEGIN_TEXT | BEGIN_LINE;
    if (r1 === 10) f |= BEGIN_LINE;
    if (r2 < 0) f |= END_TEXT | END_LINE;
    if (r2 === 10) f |= END_LINE;
    if (isWord(r1) !== isWord(r2)) f |= WORD_BOUNDARY;
    else f |= NO_WORD_BOUNDARY;
    return f;
  }

  function inRanges(r, c) {
    for (var k = 0; k < r.length; k += 2) {
      if (c < r[k]) return false; // ranges are sorted
      if (c <= r[k + 1]) return true;
    }
    return false;
  }

  // search reports whether p matches anywhere in the code points cps
  // (unanchored), by a Pike VM: each step advances every live thread by
  // one code point; a thread is only an instruction index, and each index
  // is live at most once per position, which bounds the work.
  function search(p, cps) {
    var size = p.size, op = p.op, out = p.out, arg = p.arg, ranges = p.ranges;
    var clist = new Int32Array(size), nlist = new Int32Array(size);
    var cn = 0, nn = 0;
    // mark[pc] holds the last position + 1 at which pc was added.
    var mark = new Int32Array(size);
    var stack = new Int32Array(size * 2 + 2);
    var n = cps.length;
    var matched = false;

    // add puts pc and everything reachable from it without consuming a
    // code point into list (returned count), at position pos with the
    // assertions flags. It reports a reached match through `matched`.
    function add(list, count, pc0, pos, flags) {
      var sp = 0;
      stack[sp++] = pc0;
      while (sp > 0) {
        var pc = stack[--sp];
        if (mark[pc] === pos + 1) continue;
        mark[pc] = pos + 1;
        switch (op[pc]) {
          case RUNE:
            list[count++] = pc;
            break;
          case ALT:
            // Both branches; the stack is big enough because each pc is
            // pushed only when first reached, at most twice per ALT.
            if (mark[arg[pc]] !== pos + 1) stack[sp++] = arg[pc];
            if (mark[out[pc]] !== pos + 1) stack[sp++] = out[pc];
            break;
          case EMPTY:
            if ((arg[pc] & ~flags) === 0 && mark[out[pc]] !== pos + 1) stack[sp++] = out[pc];
            break;
          case JUMP:
            if (mark[out[pc]] !== pos + 1) stack[sp++] = out[pc];
            break;
          case MATCH:
            matched = true;
            break;
          // FAIL: the thread dies.
        }
      }
      return count;
    }

    // Only a pattern that starts with \A or ^ (no (?m)) can skip starting
    // a thread after position 0; anything else restarts at every position.
    var anchored = op[0] === EMPTY && (arg[0] & BEGIN_TEXT) !== 0;
    for (var i = 0; i <= n; i++) {
      var prev = i > 0 ? cps[i - 1] : -1;
      var cur = i < n ? cps[i] : -1;
      // Threads carried from the previous step were added with this
      // position's flags already; now start a new thread here.
      if (i === 0 || !anchored) {
        cn = add(clist, cn, 0, i, context(prev, cur));
      }
      if (matched) return true;
      if (cn === 0 && (anchored || i === n)) return false;
      var nextFlags = context(cur, i + 1 < n ? cps[i + 1] : -1);
      nn = 0;
      if (cur >= 0) {
        for (var t = 0; t < cn; t++) {
          var pc = clist[t];
          if (inRanges(ranges[pc], cur)) nn = add(nlist, nn, out[pc], i + 1, nextFlags);
        }
      }
      if (matched) return true;
      var tmp = clist; clist = nlist; nlist = tmp;
      cn = nn;
    }
    return matched;
  }

  // prefilter reports whether text holds every required literal; when it
  // does not, no segment can match and the VM need not run.
  function prefilter(p, text) {
    var i;
    for (i = 0; i < p.lits.length; i++) {
      if (text.indexOf(p.lits[i]) < 0) return false;
    }
    if (p.ilits.length) {
      var lower = text.toLowerCase();
      for (i = 0; i < p.ilits.length; i++) {
        if (lower.indexOf(p.ilits[i]) < 0) return false;
      }
    }
    return true;
  }

  function match(program, text) {
    var p = expand(program);
    if (!p || typeof text !== "string" || text === "") return false;
    var s = segments(text);
    if (!prefilter(p, s.text)) return false;
    for (var i = 0; i < s.segs.length; i++) {
      if (search(p, s.segs[i])) return true;
    }
    for (i = 0; p.atStart && i < s.rest.length; i++) {
      if (search(p, s.rest[i])) return true;
    }
    return false;
  }

  root.ErrdocsPattern = {
    match: match,
    // search is the bare unanchored VM on a whole string, for tests.
    search: function (program, text) {
      var p = expand(program);
      return !!p && search(p, codePoints(String(text)));
    },
    MAX_INPUT: MAX_INPUT
  };
})(typeof window !== "undefined" ? window : globalThis);
