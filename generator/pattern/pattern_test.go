package pattern

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"
)

// examples are realistic messagePatterns with a message each matches, in
// the styles a model writes them (anchored or not, escaped punctuation,
// (?i), classes, quantifiers, alternations).
var examples = []struct{ pattern, message string }{
	{`Host callback lowering created too many channels\. PjRt does not support more than \d+ channels`,
		`Host callback lowering created too many channels. PjRt does not support more than 65535 channels`},
	{`^ValueError: invalid literal for int\(\) with base \d+: '.*'$`, `ValueError: invalid literal for int() with base 10: 'abc'`},
	{`(?i)connection refused: .+:\d{1,5}`, `Connection Refused: localhost:5432`},
	{`open (.+): no such file or directory`, `open /etc/app/config.yaml: no such file or directory`},
	{`^panic: runtime error: index out of range \[(\d+)\] with length (\d+)$`, `panic: runtime error: index out of range [5] with length 3`},
	{`TypeError: Cannot read propert(y|ies) of (undefined|null) \(reading '[^']*'\)`, `TypeError: Cannot read properties of undefined (reading 'map')`},
	{`KeyError: '[\w.-]+'`, `KeyError: 'user_id'`},
	{`java\.lang\.NullPointerException: Cannot invoke "[\w.]+\(\)" because "\w+" is null`,
		`java.lang.NullPointerException: Cannot invoke "String.length()" because "s" is null`},
	{`HTTP (4|5)\d\d: .*`, `HTTP 503: Service Unavailable`},
	{`\bE\d{4}\b: mismatched types`, `E0308: mismatched types`},
	{`(?m)^error\[E\d+\]: .+$`, `error[E0502]: cannot borrow as mutable`},
	{`Expected (an? )?(string|number|boolean), got \S+`, `Expected a string, got undefined`},
	{`tensor of shape \(\d+(, ?\d+)*\) cannot be broadcast to \(\d+(, ?\d+)*\)`, `tensor of shape (3, 4) cannot be broadcast to (2, 4)`},
	{`(?i)^\s*warning:\s+deprecated\s+option\s+"--[a-z-]+"\s*$`, `Warning: deprecated option "--no-cache"`},
	{`Invalid value for '(.+?)': (.+)`, `Invalid value for '--port': 'abc' is not a valid integer`},
	{`ñandú «\S+» non trouvé`, `ñandú «clé» non trouvé`},
	{`(?s)Traceback.*ZeroDivisionError: division by zero`, "Traceback (most recent call last):\n  File \"x.py\", line 1\nZeroDivisionError: division by zero"},
	{`(?i)straße k\w+`, `STRAẞE Kelvin`},
	{`[Kk]ey "\w+" too long \(max \d+ bytes\)`, `key "session" too long (max 250 bytes)`},
	{`(a+)+$`, `aaaa`},
	{`\p{Greek}+ error`, `αβγ error`},
	{`failed after \d+ retr(y|ies)\.?$`, `failed after 3 retries.`},
	{`^\[\d{4}-\d{2}-\d{2}T[\d:.]+Z\] FATAL .*`, `[2024-01-02T03:04:05.123Z] FATAL out of memory`},
	{`Module not found: Error: Can't resolve '([^']+)' in '([^']+)'`, `Module not found: Error: Can't resolve './App' in '/src'`},
	{`x{2,3}y`, `xxy`},
	{`😀 emoji \x{1F600}`, `😀 emoji 😀`},
}

// mutations returns texts derived from a message: the reader's own values,
// pasted context around it, and changes that should break a match.
func mutations(msg string) []string {
	digits := regexp.MustCompile(`\d+`)
	quoted := regexp.MustCompile(`'[^']*'|"[^"]*"`)
	words := regexp.MustCompile(`[A-Za-z_]\w*`)
	out := []string{
		msg,
		digits.ReplaceAllString(msg, "4711"),
		digits.ReplaceAllString(msg, "x"),
		quoted.ReplaceAllStringFunc(msg, func(s string) string { return s[:1] + "other_value" + s[len(s)-1:] }),
		quoted.ReplaceAllStringFunc(msg, func(s string) string { return s[:1] + s[len(s)-1:] }),
		"ERROR: " + msg,
		"2024-05-06 12:00:00 " + msg + " (at main.go:12)",
		"Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n" + msg + "\n",
		"  " + msg + "  \r\n",
		strings.ReplaceAll(msg, " ", "\r\n"),
		strings.ToUpper(msg),
		strings.ToLower(msg),
		msg[:len(msg)/2],
		msg + msg,
		strings.Replace(msg, " ", "  ", 1),
		"\ufeff" + msg + "\u0085",
		"\u00a0" + msg + "\u2028",
	}
	if w := words.FindAllString(msg, -1); len(w) > 1 {
		out = append(out, strings.Replace(msg, w[len(w)-1], "zz", 1))
	}
	if len(msg) > 2 {
		out = append(out, msg[1:], msg[:len(msg)-1], msg[:1]+"\n"+msg[1:])
	}
	return out
}

func TestExamplesMatchTheirMessages(t *testing.T) {
	for _, e := range examples {
		ok, err := Match(e.pattern, e.message)
		if err != nil || !ok {
			t.Errorf("Match(%q, %q) = %v, %v; want true", e.pattern, e.message, ok, err)
		}
		if _, err := Compile(e.pattern); err != nil {
			t.Errorf("Compile(%q): %v", e.pattern, err)
		}
	}
}

func TestRejects(t *testing.T) {
	for _, c := range []struct{ pattern, why string }{
		{`(?=foo)bar`, "lookahead"},
		{`foo(?!bar)`, "lookahead"},
		{`(?<=\$)\d+`, "lookbehind"},
		{`(?<!x)y`, "lookbehind"},
		{`(a)\1`, "backreference"},
		{`(?<q>['"]).*\k<q>`, "backreference"},
		{`a++b`, "possessive"},
		{`\d*+x`, "possessive"},
		{`(?>abc)`, "atomic group"},
		{`a{1001}`, "repeat count"},
		{`((((a{1000}){1000}){1000}){1000})`, ""},
		{`a{1000}b{1000}c{100}`, "instructions"},
		{`.*`, "empty text"},
		{`(foo)?`, "empty text"},
		{`[unclosed`, "RE2 cannot parse"},
		{``, "empty pattern"},
		{"\xff", "UTF-8"},
		{strings.Repeat("a", MaxPattern+1), "over the limit"},
	} {
		b, err := Compile(c.pattern)
		if err == nil {
			t.Errorf("Compile(%q) = %s, want an error", c.pattern, b)
			continue
		}
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("Compile(%q): error %T, want *Error", c.pattern, err)
		}
		if !strings.Contains(err.Error(), c.why) {
			t.Errorf("Compile(%q) = %v; want the reason to mention %q", c.pattern, err, c.why)
		}
	}
}

// TestLiteralsAreRequired checks the prefilter's promise: whenever Go's
// regexp finds a match in a segment, the text holds every literal.
func TestLiteralsAreRequired(t *testing.T) {
	check := func(expr string, texts []string) {
		p, err := compile(expr)
		if err != nil {
			return
		}
		re := regexp.MustCompile(expr)
		for _, text := range texts {
			if !MatchRegexp(re, text) {
				continue
			}
			norm := strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
			for _, l := range p.Lits {
				if !strings.Contains(norm, l) {
					t.Errorf("%q matches %q but literal %q is missing", expr, text, l)
				}
			}
			for _, l := range p.ILits {
				if !strings.Contains(asciiLower(norm), l) {
					t.Errorf("%q matches %q but literal %q (any case) is missing", expr, text, l)
				}
			}
		}
	}
	for _, e := range examples {
		check(e.pattern, mutations(e.message))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		expr := randomPattern(r, 3)
		var texts []string
		for range 8 {
			texts = append(texts, randomText(r))
		}
		if re, err := syntax.Parse(expr, syntax.Perl); err == nil {
			for range 4 {
				texts = append(texts, generate(r, re.Simplify(), 0))
			}
		}
		check(expr, texts)
	}
}

// asciiLower stands in for JS toLowerCase on what matters: an ASCII
// literal is found in a lowercased text exactly when found here, except
// for non-ASCII letters lowering to ASCII ones (only false positives).
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

func TestLiterals(t *testing.T) {
	for _, c := range []struct {
		pattern     string
		lits, ilits []string
	}{
		{`open (.+): no such file`, []string{": no such file", "open "}, nil},
		{`(?i)Key error: '(\w+)' not found`, nil, []string{"ey error: '", "' not found"}},
		{`(foo|bar)baz+`, []string{"ba"}, nil},
		{`a(bc)d`, []string{"abcd"}, nil},
		{`x\d+`, nil, nil},
	} {
		p, err := compile(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(p.Lits, "|") != strings.Join(c.lits, "|") || strings.Join(p.ILits, "|") != strings.Join(c.ilits, "|") {
			t.Errorf("%q: lits %q ilits %q; want %q %q", c.pattern, p.Lits, p.ILits, c.lits, c.ilits)
		}
	}
}

func TestEncodingIsCompact(t *testing.T) {
	b, err := Compile(examples[0].pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 3*len(examples[0].pattern) {
		t.Errorf("program for a mostly literal pattern is %d bytes: %s", len(b), b)
	}
	var p Program
	if err := json.Unmarshal(b, &p); err != nil || p.V != 1 {
		t.Errorf("program does not decode: %v %s", err, b)
	}
}

func TestPin(t *testing.T) {
	for _, c := range []struct {
		expr string
		pin  int
	}{
		{`invalid value for [A-Za-z_]\w*: expected \S+, got [^']+`, len("invalid value for ") + len(": expected ") + len(", got ")},
		{`^tls: handshake failure while connecting to \S+$`, len("tls: handshake failure while connecting to ")},
		{`(?i)é+ au revoir`, len("é au revoir") - 1}, // code points, not bytes
		{`GET|POST \d+`, 0},
	} {
		b, err := Compile(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		var p Program
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		if p.Pin != c.pin {
			t.Errorf("%s: pin %d, want %d", c.expr, p.Pin, c.pin)
		}
	}
}

func TestSegments(t *testing.T) {
	got := Segments(" a\r\n b \rc ")
	want := []string{"a\n b \nc", "a", "b", "c"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Segments = %q, want %q", got, want)
	}
	// the rest of a line after a class or log prefix
	got = Segments("Uncaught TypeError: x is undefined\nERROR a: b: c: d: e\nend: ")
	want = []string{"Uncaught TypeError: x is undefined\nERROR a: b: c: d: e\nend:",
		"Uncaught TypeError: x is undefined", "x is undefined",
		"ERROR a: b: c: d: e", "b: c: d: e", "c: d: e", "d: e", "end:"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Segments = %q, want %q", got, want)
	}
	if got := Segments("ValueError: value 3 out of range"); len(got) != 2 || got[1] != "value 3 out of range" {
		t.Errorf("Segments of one line = %q", got)
	}
	if ok, _ := Match(`^value \d+ out of range$`, "ValueError: value 3 out of range"); !ok {
		t.Error("an anchored pattern does not match its message behind a class prefix")
	}
	long := strings.Repeat("x", MaxInput) + "tail"
	segs := Segments(long)
	if len(segs) != 2 || !strings.HasSuffix(segs[1], "tail") || len([]rune(segs[0])) != MaxInput/2 {
		t.Errorf("long text: %d segments", len(segs))
	}
}

// randomPattern builds a pattern from a small grammar over a small
// alphabet, so that random texts over that alphabet often match.
func randomPattern(r *rand.Rand, depth int) string {
	atoms := []string{"a", "b", "c", "A", "é", " ", "\\n", ".", "\\d", "\\w", "\\s", "\\S", "[ab]", "[^a]", "[a-c]",
		"\\b", "\\B", "^", "$", "(?i:a)", "(?i:k)", "(?i:é)", "x", "1", "\\.", "_"}
	if depth == 0 || r.IntN(3) == 0 {
		return atoms[r.IntN(len(atoms))]
	}
	switch r.IntN(8) {
	case 0, 1, 2:
		var b strings.Builder
		for range 1 + r.IntN(4) {
			b.WriteString(randomPattern(r, depth-1))
		}
		return b.String()
	case 3:
		return "(" + randomPattern(r, depth-1) + "|" + randomPattern(r, depth-1) + ")"
	case 4:
		return "(" + randomPattern(r, depth-1) + ")" + []string{"*", "+", "?", "{2}", "{1,3}", "*?", "+?"}[r.IntN(7)]
	case 5:
		return "(?m:" + randomPattern(r, depth-1) + ")"
	case 6:
		return "(?s:" + randomPattern(r, depth-1) + ")"
	default:
		return "(?i)" + randomPattern(r, depth-1)
	}
}

func randomText(r *rand.Rand) string {
	alphabet := []string{"a", "b", "c", "A", "B", "é", "É", " ", "\n", "\r", "x", "1", "9", ".", "_", "K", "k", "\u212a", "ſ", "s", "S", "\t", "😀"}
	var b strings.Builder
	for range r.IntN(14) {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// generate returns a random string re matches (assertions aside), to give
// the random tests texts that exercise matching paths.
func generate(r *rand.Rand, re *syntax.Regexp, depth int) string {
	if depth > 20 {
		return ""
	}
	pick := func(rs []rune) string {
		if len(rs) == 0 {
			return ""
		}
		i := r.IntN(len(rs)/2) * 2
		lo, hi := rs[i], rs[i+1]
		if hi-lo > 200 {
			hi = lo + 200
		}
		return string(lo + rune(r.IntN(int(hi-lo)+1)))
	}
	var b strings.Builder
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && r.IntN(2) == 0 {
				c = unicode.ToUpper(c)
			}
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		b.WriteString(pick(re.Rune))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteString(pick([]rune{'a', 'z'}))
	case syntax.OpCapture:
		b.WriteString(generate(r, re.Sub[0], depth+1))
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		n := r.IntN(3)
		switch re.Op {
		case syntax.OpPlus:
			n++
		case syntax.OpQuest:
			n %= 2
		case syntax.OpRepeat:
			n = re.Min
		}
		for range n {
			b.WriteString(generate(r, re.Sub[0], depth+1))
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			b.WriteString(generate(r, s, depth+1))
		}
	case syntax.OpAlternate:
		b.WriteString(generate(r, re.Sub[r.IntN(len(re.Sub))], depth+1))
	}
	return b.String()
}
