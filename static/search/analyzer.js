/*
 * errdocs search: query analysis identical to the bleve analyzers the index
 * was built with (generator/index/mapping.go). Plain script, no modules, no
 * eval: it runs under CSP script-src 'self' and in Node (tests).
 *
 * Global: ErrdocsAnalyzer = {
 *   analyze(analyzerName, text) -> [{term, start, end}]   (start/end: UTF-16 offsets)
 *   terms(analyzerName, text)   -> [term]
 *   porter(word) -> stem, lower(word) -> lowercased (bleve's rules),
 *   STOP: {word: true}
 * }
 * Analyzer names: "en" (unicode tokenizer, possessive, lowercase, English
 * stop words, Porter), "errdocs_ident" (unicode tokenizer, lowercase),
 * "errdocs_code" (whole text as one token, lowercase), "errdocs_qcode"
 * (whitespace tokenizer, lowercase).
 */
(function (root) {
  "use strict";

  // Lucene's English stop words as bleve loads them (174 words).
  var STOP = {};
  ("a about above after again against all am an and any are aren't as at be because been before being below " +
    "between both but by can't cannot could couldn't did didn't do does doesn't doing don't down during each few " +
    "for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself " +
    "him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most " +
    "mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own same shan't " +
    "she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves then " +
    "there there's these they they'd they'll they're they've this those through to too under until up very was " +
    "wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while who who's " +
    "whom why why's with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves")
    .split(" ").forEach(function (w) { STOP[w] = true; });

  // ---- unicode tokenizer (UAX#29 words, as github.com/blevesearch/segment) ----
  var segmenter = null;
  function getSegmenter() {
    if (!segmenter) segmenter = new Intl.Segmenter("und", { granularity: "word" });
    return segmenter;
  }
  // ICU segments Han and Hiragana with a dictionary; UAX#29 (and bleve)
  // makes each such character a token of its own. Katakana runs stay
  // together (WB13), as do letters joined to them by ExtendNumLet (WB13a/b).
  var reSplitCJ = /[\p{Script=Han}\p{Script=Hiragana}]/u;
  var reHanHira = /^[\p{Script=Han}\p{Script=Hiragana}]$/u;
  // Scripts that UAX#29 leaves to dictionary segmentation (Line_Break=SA):
  // the segment library marks them as no word, so bleve drops them.
  var reSA = /^[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tai_Tham}\p{Script=Tai_Viet}\p{Script=New_Tai_Lue}\p{Script=Tai_Le}]/u;

  // A run of ExtendNumLet (connector punctuation such as "_") is a word
  // for the segment library, not for ICU.
  var reConnector = /^\p{Pc}+$/u;

  // UAX#29 keeps letters joined by one MidLetter, MidNumLet or
  // Single_Quote character in a word (WB6/WB7: "out.bin", "a:b",
  // "java.lang.Foo"), and digits joined by MidNum, MidNumLet or
  // Single_Quote (WB11/WB12: "3.14", "1,000"), as the segment library and
  // Node's ICU do. Chromium's ICU (156) splits letters at "." and ":", so
  // the segments are joined again here.
  var reMidLetter = /^[:\u00B7\u0387\u055F\u05F4\u2027\uFE13\uFE55\uFF1A.\u2018\u2019\u2024\uFE52\uFF07\uFF0E']$/;
  var reMidNum = /^[,;\u037E\u0589\u060C\u060D\u066C\u07F8\u2044\uFE10\uFE14\uFE50\uFE54\uFF0C\uFF1B.\u2018\u2019\u2024\uFE52\uFF07\uFF0E']$/;
  var reALetter = /^[\p{Alphabetic}]$/u;
  var reNotALetter = /^[\p{Ideographic}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]$/u;
  var reNumeric = /^[\p{Nd}]$/u;
  function isALetter(ch) { return reALetter.test(ch) && !reNotALetter.test(ch); }
  function lastChar(w) { var a = Array.from(w); return a[a.length - 1]; }
  function firstChar(w) { return String.fromCodePoint(w.codePointAt(0)); }
  function joinable(a, mid, b) {
    if (!a.isWordLike || !b.isWordLike) return false;
    var x = lastChar(a.segment), y = firstChar(b.segment);
    if (isALetter(x) && isALetter(y) && reMidLetter.test(mid.segment)) return true;
    return reNumeric.test(x) && reNumeric.test(y) && reMidNum.test(mid.segment);
  }
  function segments(text) {
    var segs = [];
    for (var s of getSegmenter().segment(text)) segs.push({ segment: s.segment, index: s.index, isWordLike: s.isWordLike });
    var out = [];
    for (var i = 0; i < segs.length; i++) {
      var cur = segs[i];
      while (i + 2 < segs.length && joinable(cur, segs[i + 1], segs[i + 2])) {
        cur = { segment: cur.segment + segs[i + 1].segment + segs[i + 2].segment, index: cur.index, isWordLike: true };
        i += 2;
      }
      out.push(cur);
    }
    return out;
  }

  function unicodeTokens(text) {
    var out = [];
    var it = segments(text);
    for (var s of it) {
      var w = s.segment, start = s.index;
      if (!s.isWordLike && !reConnector.test(w)) continue;
      if (reSA.test(w)) continue;
      if (reSplitCJ.test(w)) {
        // split into single Han/Hiragana characters and the runs between
        var cur = "", curStart = start, pos = start;
        for (var ch of w) {
          if (reHanHira.test(ch)) {
            if (cur) { out.push({ term: cur, start: curStart, end: pos }); cur = ""; }
            out.push({ term: ch, start: pos, end: pos + ch.length });
            curStart = pos + ch.length;
          } else {
            if (!cur) curStart = pos;
            cur += ch;
          }
          pos += ch.length;
        }
        if (cur) out.push({ term: cur, start: curStart, end: pos });
        continue;
      }
      out.push({ term: w, start: start, end: start + w.length });
    }
    return out;
  }

  // ---- whitespace tokenizer: runs of runes that are not unicode.IsSpace ----
  var reSpace = /[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/g;
  function whitespaceTokens(text) {
    var out = [], last = 0, m;
    reSpace.lastIndex = 0;
    while ((m = reSpace.exec(text)) !== null) {
      if (m.index > last) out.push({ term: text.slice(last, m.index), start: last, end: m.index });
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push({ term: text.slice(last), start: last, end: text.length });
    return out;
  }

  function singleToken(text) {
    return [{ term: text, start: 0, end: text.length }];
  }

  // ---- lowercase filter: Go's unicode.ToLower per rune, with bleve's
  // final-sigma rule and its fallback to bytes.ToLower after a rune whose
  // lowercase is longer in UTF-8 ----
  function utf8Len(cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }
  var lowerCache = {};
  function lowerCP(cp) {
    if (cp < 0x80) return (cp >= 65 && cp <= 90) ? cp + 32 : cp;
    if (cp === 0x130) return 0x69; // simple mapping; JS would give "i̇"
    var c = lowerCache[cp];
    if (c !== undefined) return c;
    var s = String.fromCodePoint(cp).toLowerCase();
    var l = s.codePointAt(0);
    // a multi-character full mapping has no simple mapping in Go
    c = (s.length === (l > 0xffff ? 2 : 1)) ? l : cp;
    lowerCache[cp] = c;
    return c;
  }
  function lower(term) {
    var out = "", cps = Array.from(term), deferred = false;
    for (var i = 0; i < cps.length; i++) {
      var r = cps[i].codePointAt(0);
      var l = lowerCP(r);
      if (!deferred && l !== r) {
        if (l === 0x3C3 && i === cps.length - 1) l = 0x3C2; // final sigma
        var lw = utf8Len(l), rw = utf8Len(r);
        if (lw < rw) return lowerBytes(term);
        if (lw > rw) deferred = true; // rest via bytes.ToLower: no sigma rule
      }
      out += String.fromCodePoint(l);
    }
    return out;
  }

  // bleve's toLowerDeferredCopy, byte for byte, for the rare tokens holding
  // a rune whose lowercase is shorter in UTF-8 (İ, the Kelvin, Ångström and
  // Ohm signs): bleve then leaves stale bytes behind, and the index holds
  // that damaged term. Bytes that are not valid UTF-8 come out as U+FFFD,
  // one per byte, as Go's encoding/json writes them into the export.
  function lowerBytes(term) {
    var s = utf8Encode(term), n = s.length, i = 0, j = 0;
    while (i < n) {
      var d = decodeRune(s, i), r = d[0], wid = d[1];
      var l = lowerCP(r);
      if (l === r) { i += wid; j += wid; continue; }
      if (l === 0x3C3 && i + 2 === n) l = 0x3C2;
      var lwid = utf8Len(l);
      if (lwid > wid) {
        // bytes.ToLower of the rest (Map: invalid bytes become U+FFFD)
        var rest = "", k = i;
        while (k < n) { var e = decodeRune(s, k); rest += String.fromCodePoint(e[2] ? 0xFFFD : lowerCP(e[0])); k += e[1]; }
        return decodeGo(s.subarray(0, j)) + rest;
      }
      encodeRune(s, j, l);
      i += wid; j += lwid;
    }
    return decodeGo(s.subarray(0, j));
  }
  function utf8Encode(str) {
    var out = [];
    for (var ch of str) {
      var c = ch.codePointAt(0);
      if (c >= 0xD800 && c <= 0xDFFF) c = 0xFFFD;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xC0 | c >> 6, 0x80 | c & 63);
      else if (c < 0x10000) out.push(0xE0 | c >> 12, 0x80 | c >> 6 & 63, 0x80 | c & 63);
      else out.push(0xF0 | c >> 18, 0x80 | c >> 12 & 63, 0x80 | c >> 6 & 63, 0x80 | c & 63);
    }
    return new Uint8Array(out);
  }
  function encodeRune(s, j, c) {
    if (c < 0x80) s[j] = c;
    else if (c < 0x800) { s[j] = 0xC0 | c >> 6; s[j + 1] = 0x80 | c & 63; }
    else if (c < 0x10000) { s[j] = 0xE0 | c >> 12; s[j + 1] = 0x80 | c >> 6 & 63; s[j + 2] = 0x80 | c & 63; }
    else { s[j] = 0xF0 | c >> 18; s[j + 1] = 0x80 | c >> 12 & 63; s[j + 2] = 0x80 | c >> 6 & 63; s[j + 3] = 0x80 | c & 63; }
  }
  // Go's utf8.DecodeRune: [rune, width, invalid]
  function decodeRune(s, i) {
    var n = s.length, b0 = s[i];
    if (b0 < 0x80) return [b0, 1, false];
    var bad = [0xFFFD, 1, true];
    function cont(k) { return i + k < n && (s[i + k] & 0xC0) === 0x80; }
    if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? [(b0 & 31) << 6 | s[i + 1] & 63, 2, false] : bad;
    if (b0 >= 0xE0 && b0 <= 0xEF) {
      if (!cont(1) || !cont(2)) return bad;
      var b1 = s[i + 1];
      if (b0 === 0xE0 && b1 < 0xA0 || b0 === 0xED && b1 > 0x9F) return bad;
      return [(b0 & 15) << 12 | (b1 & 63) << 6 | s[i + 2] & 63, 3, false];
    }
    if (b0 >= 0xF0 && b0 <= 0xF4) {
      if (!cont(1) || !cont(2) || !cont(3)) return bad;
      var c1 = s[i + 1];
      if (b0 === 0xF0 && c1 < 0x90 || b0 === 0xF4 && c1 > 0x8F) return bad;
      return [(b0 & 7) << 18 | (c1 & 63) << 12 | (s[i + 2] & 63) << 6 | s[i + 3] & 63, 4, false];
    }
    return bad;
  }
  function decodeGo(s) {
    var out = "", i = 0;
    while (i < s.length) { var d = decodeRune(s, i); out += String.fromCodePoint(d[0]); i += d[1]; }
    return out;
  }

  // ---- possessive filter (en): strip 's, ’s, ＇s (any case of s) ----
  function possessive(term) {
    var n = term.length;
    if (n < 2) return term;
    var last = term.charCodeAt(n - 1);
    if (last !== 115 && last !== 83) return term;
    var prev = term.charCodeAt(n - 2);
    if (prev === 0x27 || prev === 0x2019 || prev === 0xFF07) return term.slice(0, n - 2);
    return term;
  }

  // ---- Porter stemmer: a port of github.com/blevesearch/go-porterstemmer
  // (StemWithoutLowerCasing), quirks included: hasSuffix needs a longer
  // word than the suffix; non-ASCII runes count as consonants. ----
  function isCons(s, i) {
    var c = s[i];
    if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return false;
    if (c === "y") return i === 0 ? true : !isCons(s, i - 1);
    return true;
  }
  function measure(s) {
    var n = s.length, m = 0, i = 0;
    if (n === 0) return 0;
    while (isCons(s, i)) { i++; if (i >= n) return 0; }
    while (i < n) {
      while (!isCons(s, i)) { i++; if (i >= n) return m; }
      while (isCons(s, i)) { i++; if (i >= n) return m + 1; }
      m++;
    }
    return m;
  }
  function hasSuffix(s, suf) {
    var n = s.length, k = suf.length;
    if (n <= k) return false;
    for (var i = 0; i < k; i++) if (s[n - k + i] !== suf[i]) return false;
    return true;
  }
  function containsVowel(s) {
    for (var i = 0; i < s.length; i++) if (!isCons(s, i)) return true;
    return false;
  }
  function doubleCons(s) {
    var n = s.length;
    return n >= 2 && s[n - 1] === s[n - 2] && isCons(s, n - 1);
  }
  function cvc(s) {
    var n = s.length;
    return n >= 3 && isCons(s, n - 3) && !isCons(s, n - 2) && isCons(s, n - 1);
  }
  function step1a(s) {
    var n = s.length;
    if (hasSuffix(s, "sses")) return s.slice(0, n - 2);
    if (hasSuffix(s, "ies")) return s.slice(0, n - 2);
    if (hasSuffix(s, "ss")) return s;
    if (hasSuffix(s, "s")) return s.slice(0, n - 1);
    return s;
  }
  function step1bTail(s, suffixLen, ingMode) {
    var n = s.length, sub = s.slice(0, n - suffixLen);
    if (!containsVowel(sub)) return s;
    var r;
    if (hasSuffix(sub, "at") || hasSuffix(sub, "bl") || hasSuffix(sub, "iz")) {
      r = s.slice(0, n - suffixLen + 1);
      if (ingMode) r[r.length - 1] = "e";
      return r;
    }
    var c = sub[sub.length - 1];
    if (c !== "l" && c !== "s" && c !== "z" && doubleCons(sub)) return sub.slice(0, sub.length - 1);
    if (measure(sub) === 1 && cvc(sub) && c !== "w" && c !== "x" && c !== "y") {
      r = s.slice(0, n - suffixLen + 1);
      r[r.length - 1] = "e";
      return r;
    }
    return sub;
  }
  function step1b(s) {
    var n = s.length;
    if (hasSuffix(s, "eed")) {
      if (measure(s.slice(0, n - 3)) > 0) return s.slice(0, n - 1);
      return s;
    }
    if (hasSuffix(s, "ed")) return step1bTail(s, 2, false);
    if (hasSuffix(s, "ing")) return step1bTail(s, 3, true);
    return s;
  }
  function step1c(s) {
    var n = s.length;
    if (n < 2) return s;
    if (s[n - 1] === "y" && containsVowel(s.slice(0, n - 1))) { s = s.slice(); s[n - 1] = "i"; }
    else if (s[n - 1] === "Y" && containsVowel(s.slice(0, n - 1))) { s = s.slice(); s[n - 1] = "I"; }
    return s;
  }
  function m0(s, k) { return measure(s.slice(0, s.length - k)) > 0; }
  function step2(s) {
    var n = s.length, r;
    if (hasSuffix(s, "ational")) { if (m0(s, 7)) { r = s.slice(); r[n - 5] = "e"; return r.slice(0, n - 4); } return s; }
    if (hasSuffix(s, "tional")) { return m0(s, 6) ? s.slice(0, n - 2) : s; }
    if (hasSuffix(s, "enci")) { if (m0(s, 4)) { r = s.slice(); r[n - 1] = "e"; return r; } return s; }
    if (hasSuffix(s, "anci")) { if (m0(s, 4)) { r = s.slice(); r[n - 1] = "e"; return r; } return s; }
    if (hasSuffix(s, "izer")) { return m0(s, 4) ? s.slice(0, n - 1) : s; }
    if (hasSuffix(s, "bli")) { if (m0(s, 3)) { r = s.slice(); r[n - 1] = "e"; return r; } return s; }
    if (hasSuffix(s, "alli")) { return m0(s, 4) ? s.slice(0, n - 2) : s; }
    if (hasSuffix(s, "entli")) { return m0(s, 5) ? s.slice(0, n - 2) : s; }
    if (hasSuffix(s, "eli")) { return m0(s, 3) ? s.slice(0, n - 2) : s; }
    if (hasSuffix(s, "ousli")) { return m0(s, 5) ? s.slice(0, n - 2) : s; }
    if (hasSuffix(s, "ization")) { if (m0(s, 7)) { r = s.slice(); r[n - 5] = "e"; return r.slice(0, n - 4); } return s; }
    if (hasSuffix(s, "ation")) { if (m0(s, 5)) { r = s.slice(); r[n - 3] = "e"; return r.slice(0, n - 2); } return s; }
    if (hasSuffix(s, "ator")) { if (m0(s, 4)) { r = s.slice(); r[n - 2] = "e"; return r.slice(0, n - 1); } return s; }
    if (hasSuffix(s, "alism")) { return m0(s, 5) ? s.slice(0, n - 3) : s; }
    if (hasSuffix(s, "iveness")) { return m0(s, 7) ? s.slice(0, n - 4) : s; }
    if (hasSuffix(s, "fulness")) { return m0(s, 7) ? s.slice(0, n - 4) : s; }
    if (hasSuffix(s, "ousness")) { return m0(s, 7) ? s.slice(0, n - 4) : s; }
    if (hasSuffix(s, "aliti")) { return m0(s, 5) ? s.slice(0, n - 3) : s; }
    if (hasSuffix(s, "iviti")) { if (m0(s, 5)) { r = s.slice(); r[n - 3] = "e"; return r.slice(0, n - 2); } return s; }
    if (hasSuffix(s, "biliti")) { if (m0(s, 6)) { r = s.slice(); r[n - 5] = "l"; r[n - 4] = "e"; return r.slice(0, n - 3); } return s; }
    if (hasSuffix(s, "logi")) { return m0(s, 4) ? s.slice(0, n - 1) : s; }
    return s;
  }
  function step3(s) {
    var n = s.length;
    if (hasSuffix(s, "icate")) return m0(s, 5) ? s.slice(0, n - 3) : s;
    if (hasSuffix(s, "ative")) return m0(s, 5) ? s.slice(0, n - 5) : s;
    if (hasSuffix(s, "alize")) return m0(s, 5) ? s.slice(0, n - 3) : s;
    if (hasSuffix(s, "iciti")) return m0(s, 5) ? s.slice(0, n - 3) : s;
    if (hasSuffix(s, "ical")) return m0(s, 4) ? s.slice(0, n - 2) : s;
    if (hasSuffix(s, "ful")) return m0(s, 3) ? s.slice(0, n - 3) : s;
    if (hasSuffix(s, "ness")) return m0(s, 4) ? s.slice(0, n - 4) : s;
    return s;
  }
  var STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];
  function step4(s) {
    var n = s.length;
    for (var i = 0; i < STEP4.length; i++) {
      var suf = STEP4[i];
      if (!hasSuffix(s, suf)) continue;
      var sub = s.slice(0, n - suf.length);
      if (suf === "ion") {
        var c = sub[sub.length - 1];
        return (measure(sub) > 1 && (c === "s" || c === "t")) ? sub : s;
      }
      return measure(sub) > 1 ? sub : s;
    }
    return s;
  }
  function step5a(s) {
    var n = s.length;
    if (s[n - 1] !== "e") return s;
    var sub = s.slice(0, n - 1), m = measure(sub);
    if (m > 1) return sub;
    if (m === 1) {
      var c = sub[sub.length - 1];
      if (!(cvc(sub) && c !== "w" && c !== "x" && c !== "y")) return sub;
    }
    return s;
  }
  function step5b(s) {
    var n = s.length;
    if (n > 2 && s[n - 2] === "l" && s[n - 1] === "l" && measure(s.slice(0, n - 1)) > 1) return s.slice(0, n - 1);
    return s;
  }
  function porter(word) {
    var s = Array.from(word);
    if (s.length <= 2) return word;
    s = step1a(s); s = step1b(s); s = step1c(s); s = step2(s);
    s = step3(s); s = step4(s); s = step5a(s); s = step5b(s);
    return s.join("");
  }

  function analyze(name, text) {
    text = String(text == null ? "" : text);
    var toks, i, out = [];
    switch (name) {
      case "en":
        toks = unicodeTokens(text);
        for (i = 0; i < toks.length; i++) {
          var t = lower(possessive(toks[i].term));
          if (STOP[t] === true) continue;
          out.push({ term: porter(t), start: toks[i].start, end: toks[i].end });
        }
        return out;
      case "errdocs_ident":
        toks = unicodeTokens(text);
        break;
      case "errdocs_code":
        toks = singleToken(text);
        break;
      case "errdocs_qcode":
        toks = whitespaceTokens(text);
        break;
      default:
        throw new Error("errdocs: unknown analyzer " + name);
    }
    for (i = 0; i < toks.length; i++) out.push({ term: lower(toks[i].term), start: toks[i].start, end: toks[i].end });
    return out;
  }

  root.ErrdocsAnalyzer = {
    analyze: analyze,
    terms: function (name, text) { return analyze(name, text).map(function (t) { return t.term; }); },
    porter: porter,
    lower: lower,
    STOP: STOP
  };
})(typeof window !== "undefined" ? window : globalThis);
