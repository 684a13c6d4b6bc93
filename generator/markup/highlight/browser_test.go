package highlight_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/markup/highlight"
	"github.com/errdocs/errdocs/internal/browsertest"
	"github.com/errdocs/errdocs/internal/testtools"
)

// TestBrowser renders highlighted code in headless Chromium and checks
// what only a browser can tell: axe-core finds no WCAG 2 A/AA violation
// (colour contrast included) in either colour scheme, the marked line is
// one line tall, and selecting the code does not select the line numbers
// or the marker.
func TestBrowser(t *testing.T) {
	axe := testtools.Axe(t)
	s := seed(t)
	h := newH(t, highlight.Options{MaxLineLen: 60})
	var body strings.Builder
	body.WriteString(excerpt(t, h, s.SourceCode, s.FilePath, s.SourceCodeStart, s.LineNumber))
	for path, code := range map[string]string{
		"a.go":   "package main\n\n// main runs.\nfunc main() {\n\tfmt.Println(`raw`, 'c', 1.5e3, nil, true)\n}\n",
		"a.ts":   "export class A<T> extends B { private x = 1; /* c */ async f(): Promise<void> { throw new Error(`x ${y}`); } }\n",
		"a.rs":   "#[derive(Debug)]\npub struct S<'a> { x: &'a str }\nfn main() { println!(\"{}\", 1u8); }\n",
		"a.diff": "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n",
		"a.py":   s.TryCatchPattern,
	} {
		body.WriteString(mustCode(t, h, code, path))
	}
	page := "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>highlight</title><style>" +
		"body{font-family:sans-serif;max-width:40rem;margin:1rem auto}" + highlight.CSS() +
		"</style></head><body><main><h1>Highlight</h1>" + body.String() + "</main></body></html>"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.New(t)
	base := browsertest.Serve(t, dir)
	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, ctx, scheme)
		browsertest.Navigate(t, ctx, base)
		v := browsertest.AxeViolations(t, ctx, axe)
		if len(v) > 0 {
			t.Errorf("%s scheme: %s", scheme, strings.Join(v, "\n"))
		}
	}
	// The marked line is as tall as any other line (no stray blank line
	// from its newline).
	heights := browsertest.Eval[[]float64](t, ctx, `(() => {
		const m = document.querySelector("mark.hll");
		const pre = m.closest("pre");
		const lines = pre.querySelectorAll(".ln").length;
		return [m.getBoundingClientRect().height, pre.querySelector("code").getBoundingClientRect().height / lines];
	})()`)
	t.Logf("marked line %.1fpx, mean line %.1fpx", heights[0], heights[1])
	if d := heights[0] - heights[1]; d > 1 || d < -1 {
		t.Errorf("marked line is %.1fpx tall, other lines %.1fpx", heights[0], heights[1])
	}
	// Selecting the whole excerpt selects the code alone.
	sel := browsertest.Eval[string](t, ctx, `(() => {
		const r = document.createRange();
		r.selectNodeContents(document.querySelector("pre.hl-n code"));
		const s = getSelection(); s.removeAllRanges(); s.addRange(r);
		return s.toString();
	})()`)
	t.Logf("selection starts %q", sel[:min(len(sel), 70)])
	first := strings.SplitN(s.SourceCode, "\n", 2)[0]
	if !strings.HasPrefix(sel, first[:60]) || strings.Contains(sel, "895") || strings.Contains(sel, "▶") {
		t.Errorf("selected text starts %q, want the code without numbers or marker", sel[:min(len(sel), 80)])
	}
}
