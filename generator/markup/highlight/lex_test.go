package highlight

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/errdocs/errdocs/internal/corpus"
)

// sameTokens checks that the fast lexer gives exactly chroma's tokens for
// text, with and without the NamedGroups map.
func sameTokens(t *testing.T, name string, l chroma.Lexer, text string) {
	t.Helper()
	untimeAll() // chroma's reference tokens must not depend on the clock either
	want, err := chroma.Tokenise(l, nil, text)
	if err != nil {
		t.Logf("%s: chroma: %v", name, err)
		return
	}
	fl := fastLexerFor(l)
	if fl == nil {
		t.Errorf("%s (%T): no fast lexer", name, l)
		return
	}
	for _, named := range []bool{fl.named, true} {
		f := *fl
		f.named = named
		var got []chroma.Token
		it := f.tokenise(text)
		for tk := it(); tk != chroma.EOF; tk = it() {
			got = append(got, tk)
		}
		if len(got) != len(want) {
			t.Errorf("%s (named %v): %d tokens, want %d", name, named, len(got), len(want))
			return
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s (named %v): token %d = %v, want %v", name, named, i, got[i], want[i])
				return
			}
		}
	}
}

// TestFastLexerCorpus compares the fast lexer with chroma's on the code of
// generated records, as the highlighter prepares it.
func TestFastLexerCorpus(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	h, err := New(Options{MemoryBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range corpus.Generate(n, 7).Records() {
		l := h.lexer(r.FilePath)
		if l == nil {
			continue
		}
		for _, code := range []string{r.SourceCode, r.ExampleFix, r.ValidationCode, r.TypeGuard, r.TryCatchPattern} {
			if strings.TrimSpace(code) == "" {
				continue
			}
			p := prepare(code, DefaultMaxLineLen, DefaultMaxLines)
			sameTokens(t, r.FilePath, l, strings.Join(p.lines, "\n")+"\n")
		}
		if t.Failed() {
			t.Fatalf("record %d (%s)", i, r.ID)
		}
	}
}

// TestFastLexerChromaSamples compares the fast lexer with chroma's on the
// sample file of every lexer chroma has one for (lexers/testdata in the
// chroma module, when the module's source is at hand).
func TestFastLexerChromaSamples(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/alecthomas/chroma/v2").Output()
	if err != nil {
		t.Skipf("chroma's source: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "lexers", "testdata", "*.actual"))
	if len(files) == 0 {
		t.Skip("no chroma samples")
	}
	tested := 0
	for _, f := range files {
		l := lexers.Get(strings.TrimSuffix(filepath.Base(f), ".actual"))
		if _, ok := l.(*chroma.RegexLexer); !ok {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameTokens(t, filepath.Base(f), l, string(b))
		tested++
	}
	t.Logf("%d lexers", tested)
}

// TestFastLexerText covers text that is not ASCII, and text that is not
// valid UTF-8 (groups are then converted from runes, as chroma does).
func TestFastLexerText(t *testing.T) {
	for _, name := range []string{"go", "python", "javascript", "java", "c++", "rust"} {
		l := lexers.Get(name)
		for _, text := range []string{
			"// héllo wörld ✓\nx := \"naïve ☃\" + 'é'\n",
			"s = \"\xff\xfe bad\" # \x80 also bad\nprint(s)\n",
			"a\r\nb\rc\n",
			"",
			"no newline at end",
		} {
			sameTokens(t, name, l, text)
		}
	}
}

// TestLinearRules compares each linear rule, and each rule matched by the
// counted search, of the corpus languages with regexp2 at every position
// of a text mixing their code.
func TestLinearRules(t *testing.T) {
	var b strings.Builder
	for _, r := range corpus.Generate(40, 3).Records() {
		b.WriteString(r.SourceCode)
		b.WriteString(r.TryCatchPattern)
		b.WriteString("é ☃ \"x\\\"y\" 'z' /* c */ # d\n")
		// Lookbehinds, optional groups, keyword lists with shared
		// prefixes, loops of choices, unclosed strings, raw strings.
		b.WriteString("x.self self .cls r#type r#1 yield from yield_ fin finally\\u0041bc$x \\u12 i8 i64 isize\n")
		b.WriteString("'\\\\\\' \"\\\" r##\"a\"# b\"## /* x */ `t ${a} `\n")
	}
	text := []rune(b.String())
	if len(text) > 6000 {
		text = text[:6000]
	}
	lins, searched := 0, 0
	for _, name := range []string{"go", "python", "cython", "java", "javascript", "typescript", "rust", "c++", "objective-c"} {
		fl := fastLexerFor(lexers.Get(name))
		if fl == nil {
			t.Fatalf("%s: no fast lexer", name)
		}
		seen := map[*chroma.CompiledRule]bool{}
		for _, fs := range fl.filters {
			for _, f := range fs {
				if f.lin == nil && f.counted == nil || seen[f.rule] {
					continue
				}
				seen[f.rule] = true
				if f.lin != nil {
					lins++
				} else {
					searched++
				}
				sameMatches(t, name, f, text)
			}
		}
	}
	t.Logf("%d linear rules, %d by the counted search", lins, searched)
	if lins < 300 || searched < 50 {
		t.Errorf("too few rules checked")
	}
}

// sameMatches checks rule f against regexp2 at every position of text.
func sameMatches(t *testing.T, name string, f ruleFilter, text []rune) {
	t.Helper()
	n := len(f.nums)
	caps := make([]span, n)
	for pos := range text {
		for j := range caps {
			caps[j] = span{0, -1}
		}
		var got bool
		if f.lin != nil {
			got = f.lin.match(text, pos, caps)
		} else {
			it := &fastIterator{limit: math.MaxInt}
			got = (&search{text: text, start: pos, caps: caps, it: it}).match(f.counted, pos)
		}
		m, err := f.rule.Regexp.FindRunesMatchStartingAt(text, pos)
		if err != nil {
			t.Fatal(err)
		}
		want := m != nil && m.RuneIndex == pos
		if got != want {
			t.Fatalf("%s %q at %d: got %v, regexp2 %v", name, f.pattern, pos, got, want)
		}
		if !got {
			continue
		}
		for j, g := range m.Groups() {
			c := caps[j]
			gs := ""
			if c.end >= 0 {
				gs = string(text[c.start:c.end])
			}
			if gs != g.String() {
				t.Fatalf("%s %q at %d: group %d = %q, want %q", name, f.pattern, pos, j, gs, g.String())
			}
		}
	}
}
