package highlight_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/errdocs/errdocs/generator/markup/highlight"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
	"github.com/errdocs/errdocs/internal/testseed"
)

type seedRecord struct {
	FilePath        string `json:"filePath"`
	LineNumber      int    `json:"lineNumber"`
	SourceCode      string `json:"sourceCode"`
	SourceCodeStart int    `json:"sourceCodeStart"`
	ExampleFix      string `json:"exampleFix"`
	TryCatchPattern string `json:"tryCatchPattern"`
}

func seed(t testing.TB) seedRecord {
	t.Helper()
	b := testseed.JSON()
	var w struct {
		Record seedRecord `json:"record"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return w.Record
}

func newH(t testing.TB, opts highlight.Options) *highlight.Highlighter {
	t.Helper()
	h, err := highlight.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func excerpt(t testing.TB, h *highlight.Highlighter, code, path string, start, mark int) string {
	t.Helper()
	out, err := h.Excerpt(code, path, start, mark)
	if err != nil {
		t.Fatalf("Excerpt(%q): %v", path, err)
	}
	return string(out)
}

var lnRE = regexp.MustCompile(`<span class="ln" data-n=" *([0-9]+)"></span>`)

// lineNumbers returns the numbers shown, in order.
func lineNumbers(out string) []int {
	var ns []int
	for _, m := range lnRE.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		ns = append(ns, n)
	}
	return ns
}

func TestExcerptLineNumbersAndMark(t *testing.T) {
	s := seed(t)
	h := newH(t, highlight.Options{})
	out := excerpt(t, h, s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber)
	ns := lineNumbers(out)
	if len(ns) != 36 || ns[0] != 895 || ns[len(ns)-1] != 930 {
		t.Fatalf("line numbers %v, want 895..930", ns)
	}
	for i, n := range ns {
		if n != 895+i {
			t.Fatalf("line numbers not consecutive: %v", ns)
		}
	}
	if c := strings.Count(out, `<mark class="hll">`); c != 1 {
		t.Fatalf("%d marked lines, want 1", c)
	}
	if !strings.Contains(out, `<mark class="hll"><span class="ln" data-n="913"></span>      <span class="k">raise</span> `) {
		t.Errorf("line 913 is not the marked line:\n%s", out)
	}
	// The mark holds exactly one line.
	i := strings.Index(out, `<mark`)
	j := strings.Index(out[i:], `</mark>`)
	if strings.Count(out[i:i+j], `class="ln"`) != 1 {
		t.Errorf("mark spans more than one line: %s", out[i:i+j])
	}
	if n := len(out); n > 10000 {
		t.Errorf("seed excerpt is %d bytes of HTML, want under 10 KB", n)
	}

	for _, c := range []struct{ start, mark, first, marks int }{
		{0, 0, 1, 0},     // start 0 means 1; no mark
		{1, 3, 1, 1},     //
		{10, 9, 10, 0},   // mark before the excerpt: nothing marked
		{10, 500, 10, 0}, // mark after it: nothing marked
	} {
		out := excerpt(t, h, "a\nb\nc\nd\n", "x.txt", c.start, c.mark)
		if ns := lineNumbers(out); len(ns) != 4 || ns[0] != c.first {
			t.Errorf("start %d: line numbers %v, want 4 from %d", c.start, ns, c.first)
		}
		if got := strings.Count(out, "<mark"); got != c.marks {
			t.Errorf("start %d mark %d: %d marks, want %d", c.start, c.mark, got, c.marks)
		}
	}
	if _, err := h.Excerpt("x", "a.py", -1, 0); err == nil {
		t.Error("negative start line: no error")
	}
}

func TestLineNumbersArePadded(t *testing.T) {
	h := newH(t, highlight.Options{})
	out := excerpt(t, h, strings.Repeat("x\n", 5), "a.txt", 98, 0)
	for _, want := range []string{`data-n=" 98"`, `data-n=" 99"`, `data-n="100"`, `data-n="102"`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in %s", want, out)
		}
	}
}

func TestLexerByExtension(t *testing.T) {
	h := newH(t, highlight.Options{})
	code := "def f(x):\n    return 'a' # note\n"
	py := excerpt(t, h, code, "pkg/mod.py", 1, 0)
	for _, want := range []string{`<span class="k">def</span>`, `<span class="s">'a'</span>`, `<span class="c"># note</span>`} {
		if !strings.Contains(py, want) {
			t.Errorf(".py output lacks %s:\n%s", want, py)
		}
	}
	upper := excerpt(t, h, code, "PKG/MOD.PY", 1, 0)
	if upper != py {
		t.Errorf(".PY and .py differ")
	}
	for _, p := range []string{"notes.unknownext", "README", "no/ext/at/all", "weird.p$y", ""} {
		out := excerpt(t, h, code, p, 1, 0)
		if strings.Contains(strings.ReplaceAll(out, `<span class="ln"`, ""), "<span") {
			t.Errorf("%q: want plain text, got %s", p, out)
		}
		if !strings.Contains(out, "def f(x):") {
			t.Errorf("%q: text lost: %s", p, out)
		}
	}
	for path, want := range map[string]string{
		"a.py": "Python", "b.go": "Go", "c.ts": "TypeScript", "d.rs": "Rust", "e.java": "Java",
		"f.cpp": "C++", "g.m": "Objective-C", "h.txt": "", "i.zzz": "", "Makefile": "Makefile",
	} {
		if got := h.LexerName(path); got != want {
			t.Errorf("LexerName(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestCodeHasNoLineNumbers(t *testing.T) {
	s := seed(t)
	h := newH(t, highlight.Options{})
	out, err := h.Code(s.ExampleFix, s.FilePath)
	if err != nil {
		t.Fatal(err)
	}
	o := string(out)
	if strings.Contains(o, `class="ln"`) || strings.Contains(o, "<mark") {
		t.Errorf("Code output has line numbers or a mark:\n%s", o)
	}
	if !strings.HasPrefix(o, `<pre class="hl" tabindex="0"><code>`) || !strings.HasSuffix(o, "</code></pre>") {
		t.Errorf("Code output framing: %s", o)
	}
	if !strings.Contains(o, `<span class="nd">@jax.jit</span>`) {
		t.Errorf("Code output not highlighted as Python:\n%s", o)
	}
	if empty, err := h.Code(" \n\t\n", "a.py"); err != nil || empty != "" {
		t.Errorf("Code(blank) = %q, %v; want empty", empty, err)
	}
}

func TestLongLinesAndInputsAreCut(t *testing.T) {
	h := newH(t, highlight.Options{MaxLineLen: 50, MaxLines: 10})
	long := "x = '" + strings.Repeat("é", 300) + "'"
	out := excerpt(t, h, "a = 1\n"+long+"\nb = 2\n", "a.py", 1, 2)
	if !strings.Contains(out, `<span class="cut">… [cut 256 chars]</span>`) {
		t.Errorf("no cut marker for a 306-character line:\n%s", out)
	}
	if strings.Count(out, "é") != 45 {
		t.Errorf("cut line keeps %d of 45 é", strings.Count(out, "é"))
	}
	if ns := lineNumbers(out); len(ns) != 3 {
		t.Errorf("line numbers %v after a cut line", ns)
	}
	many, err := h.Code(strings.Repeat("print(1)\n", 25), "a.py")
	if err != nil {
		t.Fatal(err)
	}
	if c := strings.Count(string(many), "print"); c != 10 {
		t.Errorf("MaxLines 10: %d lines printed", c)
	}
	if !strings.Contains(string(many), `<span class="cut">… [15 more lines not shown]</span>`) {
		t.Errorf("no more-lines marker:\n%s", many)
	}
	// Defaults: 200 characters.
	d := newH(t, highlight.Options{})
	out = excerpt(t, d, strings.Repeat("a", 1000), "a.txt", 1, 0)
	if !strings.Contains(out, "[cut 800 chars]") || len(out) > 1000 {
		t.Errorf("default cut: %d bytes: %s", len(out), out)
	}
}

func TestHostileCodeIsEscaped(t *testing.T) {
	h := newH(t, highlight.Options{})
	code := "x = \"</pre><script>alert(1)</script>\" & 'y' <!-- z -->\n</code></pre><img src=x onerror=alert(1)>\n# ]]> <![CDATA[ \x00\x1b\x7f\u0085 \xff\n"
	for _, path := range []string{"a.py", "a.js", "a.html", "a.go", "a.unknown", "a.sh"} {
		for _, out := range []string{excerpt(t, h, code, path, 1, 2), mustCode(t, h, code, path)} {
			if strings.Count(out, "<pre") != 1 || strings.Count(out, "</pre>") != 1 || strings.Count(out, "</code>") != 1 {
				t.Errorf("%s: pre/code broken out of:\n%s", path, out)
			}
			for _, bad := range []string{"<script", "<img", "<!--", "<![CDATA"} {
				if strings.Contains(out, bad) {
					t.Errorf("%s: output contains %q:\n%s", path, bad, out)
				}
			}
			text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(out, "")
			if strings.ContainsAny(text, "<>") {
				t.Errorf("%s: unescaped < or > in text: %q", path, text)
			}
			if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(text, "&amp;", ""), "&lt;", ""), "&gt;", ""), "&") {
				t.Errorf("%s: unescaped &: %q", path, text)
			}
			for _, r := range out {
				if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f {
					t.Errorf("%s: control character %U in output", path, r)
				}
			}
			if !strings.Contains(text, "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;") {
				t.Errorf("%s: hostile text not shown:\n%s", path, out)
			}
		}
	}
}

func mustCode(t *testing.T, h *highlight.Highlighter, code, path string) string {
	t.Helper()
	out, err := h.Code(code, path)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestCache(t *testing.T) {
	s := seed(t)
	dir := t.TempDir()
	// Without any cache: the reference bytes.
	ref := excerpt(t, newH(t, highlight.Options{MemoryBytes: -1}), s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber)

	h := newH(t, highlight.Options{CacheDir: dir})
	first := excerpt(t, h, s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber)
	second := excerpt(t, h, s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber)
	if st := h.Stats(); st.Misses != 1 || st.MemoryHits != 1 || st.DiskHits != 0 {
		t.Errorf("stats after two calls: %+v, want 1 miss and 1 memory hit", st)
	}
	if first != ref || second != ref {
		t.Error("cached output differs from uncached output")
	}
	// Another mark, start, kind or language is another entry.
	excerpt(t, h, s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber+1)
	excerpt(t, h, s.SourceCode, s.FilePath, s.SourceCodeStart+1, s.LineNumber)
	excerpt(t, h, s.SourceCode, "other.txt", s.SourceCodeStart, s.LineNumber)
	mustCode(t, h, s.SourceCode, s.FilePath)
	if st := h.Stats(); st.Misses != 5 {
		t.Errorf("stats: %+v, want 5 misses", st)
	}
	// Same language, other file: shared.
	excerpt(t, h, s.SourceCode, "elsewhere/other.py", s.SourceCodeStart, s.LineNumber)
	if st := h.Stats(); st.Misses != 5 {
		t.Errorf("same lexer, other path: %+v, want still 5 misses", st)
	}

	// The entries are in one pack with its index, written on Close.
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	packs, _ := filepath.Glob(filepath.Join(dir, "pack-*.pack"))
	idxs, _ := filepath.Glob(filepath.Join(dir, "pack-*.idx"))
	if len(packs) != 1 || len(idxs) != 1 {
		t.Fatalf("cache folder holds packs %v and indexes %v, want one of each", packs, idxs)
	}

	// Close leaves the index sorted by key: a later build's lookups
	// bisect it with no sort of their own.
	if idx, _ := os.ReadFile(idxs[0]); !indexSorted(idx) {
		t.Error("Close left the pack index unsorted")
	}

	// A new highlighter (a later build) reads the disk.
	h2 := newH(t, highlight.Options{CacheDir: dir})
	if out := excerpt(t, h2, s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber); out != ref {
		t.Error("disk-cached output differs")
	}
	if st := h2.Stats(); st.DiskHits != 1 || st.Misses != 0 || st.Hits() != 1 {
		t.Errorf("second build stats %+v, want 1 disk hit", st)
	}
	h2.Close()

	// An index in write order (as close writes them) is read all the
	// same, and left sorted.
	idx, _ := os.ReadFile(idxs[0])
	const entry = 44
	n := len(idx) / entry
	if n < 2 || len(idx)%entry != 0 {
		t.Fatalf("index of %d bytes", len(idx))
	}
	rev := make([]byte, 0, len(idx))
	for i := n - 1; i >= 0; i-- {
		rev = append(rev, idx[i*entry:(i+1)*entry]...)
	}
	if bytes.Equal(rev, idx) {
		t.Fatal("index entries all alike")
	}
	os.WriteFile(idxs[0], rev, 0o644)
	h4 := newH(t, highlight.Options{CacheDir: dir})
	excerpt(t, h4, s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber+1)
	excerpt(t, h4, s.SourceCode, "other.txt", s.SourceCodeStart, s.LineNumber)
	if out := excerpt(t, h4, s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber); out != ref {
		t.Error("output read through an unsorted index differs")
	}
	if st := h4.Stats(); st.DiskHits != 3 || st.Misses != 0 {
		t.Errorf("through an unsorted index: %+v, want 3 disk hits", st)
	}
	h4.Close()
	if got, _ := os.ReadFile(idxs[0]); len(got) != len(idx) || !indexSorted(got) {
		t.Error("the unsorted index was not rewritten sorted")
	}

	// A pack whose build was killed before its index was written is not
	// read; nor is a damaged entry.
	h6 := newH(t, highlight.Options{CacheDir: dir})
	excerpt(t, h6, "killed = 1\n", "a.py", 1, 0) // never closed
	h7 := newH(t, highlight.Options{CacheDir: dir})
	excerpt(t, h7, "killed = 1\n", "a.py", 1, 0)
	if st := h7.Stats(); st.Misses != 1 {
		t.Errorf("entry of an unclosed pack was used: %+v", st)
	}
	data, _ := os.ReadFile(packs[0])
	damaged := bytes.Replace(data, []byte("RuntimeError"), []byte("RuntimeErrox"), 1)
	if bytes.Equal(damaged, data) {
		t.Fatal("test cannot find text to damage in the pack")
	}
	os.WriteFile(packs[0], damaged, 0o644)
	h3 := newH(t, highlight.Options{CacheDir: dir})
	if out := excerpt(t, h3, s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber); out != ref {
		t.Error("damaged cache entry was used")
	}
	if st := h3.Stats(); st.DiskHits != 0 || st.Misses != 1 {
		t.Errorf("damaged cache stats %+v, want a miss", st)
	}

	// An unwritable cache is counted, not fatal.
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	bad := newH(t, highlight.Options{CacheDir: blocker})
	if out := excerpt(t, bad, s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber); out != ref {
		t.Error("output with a broken cache differs")
	}
	if st := bad.Stats(); st.DiskErrors != 1 || st.FirstDiskError == nil {
		t.Errorf("broken cache stats %+v", st)
	}
}

func TestDeterministicAndConcurrent(t *testing.T) {
	s := seed(t)
	inputs := []string{s.SourceCode, s.ExampleFix, s.TryCatchPattern, "package main\n", "x\n"}
	ref := make([]string, len(inputs))
	for i, in := range inputs {
		ref[i] = excerpt(t, newH(t, highlight.Options{}), in, s.FilePath, 10, 12)
	}
	h := newH(t, highlight.Options{CacheDir: t.TempDir()})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 10; k++ {
				for i, in := range inputs {
					out, err := h.Excerpt(in, s.FilePath, 10, 12)
					if err != nil || string(out) != ref[i] {
						t.Errorf("concurrent Excerpt %d differs (%v)", i, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	st := h.Stats()
	if st.Misses != int64(len(inputs)) || st.Hits() != int64(8*10*len(inputs)-len(inputs)) {
		t.Errorf("stats %+v: want each input highlighted once", st)
	}
}

func TestPathologicalInputIsBounded(t *testing.T) {
	// Java's method declaration rule reads to the end of the text at
	// every word when no parenthesis follows: 200 lines of words took
	// chroma (untimed) 99 s. The input's work budget stops it.
	code := strings.Repeat(strings.Repeat("a ", 100)+"\n", 200)
	h := newH(t, highlight.Options{MemoryBytes: -1})
	out := mustCode(t, h, code, "Evil.java")
	if st := h.Stats(); st.OverBudget != 1 {
		t.Errorf("stats %+v, want 1 input over budget", st)
	}
	if strings.Contains(out, "<span") || !strings.Contains(out, "a a a") {
		t.Errorf("input over budget not printed as plain text: %.300s", out)
	}
	// JavaScript's single-quoted string rule backtracks exponentially over
	// an unclosed string of backslashes (2^60 ways here): chroma's 250 ms
	// timeout stopped it; the counted search's step limit does now, and
	// the rule does not match there, so the rest is highlighted.
	code = "s = '" + strings.Repeat(`\\`, 60) + "\nlet t = 1;\n"
	h = newH(t, highlight.Options{MemoryBytes: -1})
	out = mustCode(t, h, code, "evil.js")
	if st := h.Stats(); st.OverBudget != 0 {
		t.Errorf("stats %+v, want no input over budget", st)
	}
	if !strings.Contains(out, `<span class="k">let</span>`) {
		t.Errorf("the line after the unclosed string is not highlighted: %.400s", out)
	}
}

// TestEveryClassHasAStyle checks that the classes the formatter writes
// exist in the stylesheet, over several languages.
func TestEveryClassHasAStyle(t *testing.T) {
	h := newH(t, highlight.Options{})
	css := highlight.CSS()
	samples := map[string]string{
		"a.py":   seed(t).SourceCode,
		"a.go":   "package main\n\nimport \"fmt\"\n\n// main runs.\nfunc main() {\n\tvar x int = 0x1f\n\tfmt.Println(x, `raw`, 'c', 1.5e3, nil, true)\n}\n",
		"a.ts":   "import { a } from './a';\nexport class A<T> extends B { private x: number = 1; /* c */ async f(): Promise<void> { throw new Error(`x ${y}`); } }\n",
		"a.rs":   "#[derive(Debug)]\npub struct S<'a> { x: &'a str }\nfn main() -> Result<(), Box<dyn Error>> { let v = vec![1u8]; println!(\"{}\", v.len()); Ok(()) }\n",
		"a.java": "@Override\npublic static final int f(String s) throws IOException { return s.length() + 1L; } // x\n",
		"a.cpp":  "#include <vector>\ntemplate<typename T> class C { public: static constexpr int n = 3; virtual ~C() = default; };\n",
		"a.rb":   "class A < B\n  def f(x) = x.map { |y| :sym }\nend\n",
		"a.sh":   "#!/bin/sh\nexport A=\"$HOME\"; if [ -f x ]; then echo $1; fi\n",
		"a.diff": "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n",
	}
	re := regexp.MustCompile(`class="([a-z0-9 -]+)"`)
	for path, code := range samples {
		out := mustCode(t, h, code, path)
		for _, m := range re.FindAllStringSubmatch(out, -1) {
			for _, c := range strings.Fields(m[1]) {
				if !strings.Contains(css, "."+c+"{") && !strings.Contains(css, "."+c+" ") && !strings.Contains(css, "."+c+",") {
					t.Errorf("%s: class %q has no rule", path, c)
				}
			}
		}
	}
}

// TestCSSContrast computes, from the stylesheet itself, the WCAG contrast
// of every colour against every background it can be drawn on, in both
// themes: the code background and the marked line's background, or the
// rule's own background when it sets one.
func TestCSSContrast(t *testing.T) {
	css := highlight.CSS()
	i := strings.Index(css, "@media (prefers-color-scheme:dark){")
	if i < 0 {
		t.Fatal("no dark theme")
	}
	themes := map[string]string{"light": css[:i], "dark": css[i:]}
	ruleRE := regexp.MustCompile(`(?m)^([^{}@]+)\{([^{}]*)\}`)
	for name, part := range themes {
		var bg, markBg string
		type rule struct{ sel, color, bg string }
		var rules []rule
		for _, m := range ruleRE.FindAllStringSubmatch(part, -1) {
			sel := strings.TrimSpace(m[1])
			props := map[string]string{}
			for _, d := range strings.Split(m[2], ";") {
				if k, v, ok := strings.Cut(d, ":"); ok {
					props[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
			switch sel {
			case ".hl":
				if props["background"] != "" {
					bg = props["background"]
				}
			case ".hl .hll":
				markBg = props["background"]
			}
			if c := props["color"]; strings.HasPrefix(c, "#") {
				rules = append(rules, rule{sel, c, props["background"]})
			}
		}
		if bg == "" || markBg == "" {
			t.Fatalf("%s: backgrounds not found (%q, %q)", name, bg, markBg)
		}
		checked := 0
		for _, r := range rules {
			bgs := []string{bg, markBg}
			if strings.HasPrefix(r.bg, "#") {
				bgs = []string{r.bg}
			}
			for _, b := range bgs {
				c := contrast(t, r.color, b)
				if c < 4.5 {
					t.Errorf("%s: %s color %s on %s: contrast %.2f < 4.5", name, r.sel, r.color, b, c)
				}
				checked++
			}
		}
		if checked < 40 {
			t.Errorf("%s: only %d colour pairs checked", name, checked)
		}
		t.Logf("%s: %d colour pairs ≥ 4.5:1", name, checked)
	}
}

func contrast(t *testing.T, a, b string) float64 {
	lum := func(hex string) float64 {
		v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
		if err != nil || len(hex) != 7 {
			t.Fatalf("bad colour %q", hex)
		}
		ch := func(x uint64) float64 {
			s := float64(x) / 255
			if s <= 0.04045 {
				return s / 12.92
			}
			return math.Pow((s+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(v>>16&0xff) + 0.7152*ch(v>>8&0xff) + 0.0722*ch(v&0xff)
	}
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func BenchmarkExcerptCold(b *testing.B) {
	s := seed(b)
	h := newH(b, highlight.Options{MemoryBytes: -1})
	b.SetBytes(int64(len(s.SourceCode)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Excerpt(s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExcerptMemoryCached(b *testing.B) {
	s := seed(b)
	h := newH(b, highlight.Options{})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Excerpt(s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExcerptDiskCached(b *testing.B) {
	s := seed(b)
	dir := b.TempDir()
	excerpt(b, newH(b, highlight.Options{CacheDir: dir}), s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber)
	h := newH(b, highlight.Options{CacheDir: dir, MemoryBytes: -1})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Excerpt(s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber); err != nil {
			b.Fatal(err)
		}
	}
	if st := h.Stats(); st.Misses != 0 {
		b.Fatalf("disk benchmark missed: %+v", st)
	}
}

func ExampleHighlighter_Excerpt() {
	h, err := highlight.New(highlight.Options{})
	if err != nil {
		panic(err)
	}
	out, _ := h.Excerpt("if x:\n    raise E\n", "a.py", 41, 42)
	fmt.Println(out)
	// Output:
	// <pre class="hl hl-n" tabindex="0"><code><span class="ln" data-n="41"></span><span class="k">if</span> x:
	// <mark class="hll"><span class="ln" data-n="42"></span>    <span class="k">raise</span> E</mark></code></pre>
}

// BenchmarkCorpus highlights every code field and excerpt of 300 generated
// records (the languages and code shapes of a real dataset), uncached: the
// highlighting cost of a cold build per 300 records.
func BenchmarkCorpus(b *testing.B) {
	recs := corpus.Generate(300, 1).Records()
	benchmarkRecords(b, recs)
}

// indexSorted reports whether a pack index's 44-byte entries are in
// strictly increasing key order (the key: their first 32 bytes).
func indexSorted(idx []byte) bool {
	const entry = 44
	if len(idx)%entry != 0 {
		return false
	}
	for i := entry; i < len(idx); i += entry {
		if bytes.Compare(idx[i-entry:i-entry+32], idx[i:i+32]) >= 0 {
			return false
		}
	}
	return true
}

// BenchmarkRealCode highlights the source excerpts (real code from real
// repositories: internal/corpus's real-code dataset) and the code fields of
// 300 records, uncached: the highlighting cost of a real-code cold build
// per 300 records.
func BenchmarkRealCode(b *testing.B) {
	d := corpus.Generate(300, 1)
	if err := d.UseRealCode(); err != nil {
		b.Fatal(err)
	}
	recs := d.Records()
	benchmarkRecords(b, recs)
}

// benchmarkRecords highlights every excerpt and code field of recs,
// uncached, once per benchmark iteration.
func benchmarkRecords(b *testing.B, recs []record.Record) {
	h := newH(b, highlight.Options{MemoryBytes: -1})
	var n int64
	for _, r := range recs {
		n += int64(len(r.SourceCode) + len(r.ExampleFix) + len(r.ValidationCode) + len(r.TypeGuard) + len(r.TryCatchPattern))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for i := range recs {
			r := &recs[i]
			if _, err := h.Excerpt(r.SourceCode, r.FilePath, max(r.SourceCodeStart, 1), r.LineNumber); err != nil {
				b.Fatal(err)
			}
			for _, c := range []string{r.ExampleFix, r.ValidationCode, r.TypeGuard, r.TryCatchPattern} {
				if _, err := h.Code(c, r.FilePath); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
