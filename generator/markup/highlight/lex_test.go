package highlight

import (
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
