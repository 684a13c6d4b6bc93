package render

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errdocs/errdocs"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/browsertest"
	"github.com/errdocs/errdocs/internal/testtools"
)

// writeSite writes rendered pages and the static files they use to a new
// temporary folder.
func writeSite(t *testing.T, pages map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]byte{}
	for p, b := range pages {
		files[p] = b
	}
	css, err := StyleSheet(errdocs.Static)
	if err != nil {
		t.Fatal(err)
	}
	files["static/"+StyleName] = css
	for _, f := range []string{PageScriptName, ThemeScriptName, "favicon.svg"} {
		b, err := fs.ReadFile(errdocs.Static, f)
		if err != nil {
			t.Fatal(err)
		}
		files["static/"+f] = b
	}
	for p, b := range files {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBrowserHostileRunsNothing opens hostile pages from file:// and checks
// that no payload ran, while our own checklist script did.
func TestBrowserHostileRunsNothing(t *testing.T) {
	ctx := browsertest.New(t)
	recs := []*record.Record{hostile("0000000000000001", false), hostile("0000000000000002", false)}
	s := build(recs, hostileInfo())
	pages := renderAll(t, newRenderer(t, Options{Title: payload, Description: payload, IndexFile: true}), s, recs)
	dir := writeSite(t, pages)
	for name := range pages {
		if name == "search/index.html" {
			continue // its scripts are the search feature's, not written here
		}
		browsertest.Navigate(t, ctx, "file://"+filepath.Join(dir, filepath.FromSlash(name)))
		// Give load-time handlers (img onerror, svg onload) a moment.
		time.Sleep(50 * time.Millisecond)
		if got := browsertest.Eval[string](t, ctx, "typeof window.__xss"); got != "undefined" {
			t.Errorf("%s: a payload ran (window.__xss is %s)", name, got)
		}
	}
	browsertest.Navigate(t, ctx, "file://"+filepath.Join(dir, "evil/repo/x0000000000000001/index.html"))
	browsertest.WaitFor(t, ctx, `document.querySelector("ul.checklist.js input[type=checkbox]")`, 5*time.Second)
}

// TestBrowserChecklistPersists ticks a tip, reloads, and finds it ticked;
// another record's checklist stays unticked.
func TestBrowserChecklistPersists(t *testing.T) {
	ctx := browsertest.New(t)
	recs := sample(t)
	other := minimal("0000000000000003", "rust-lang/regex", "tips")
	other.PreventionTips = []string{"one", "two"}
	recs = append(recs, other)
	pages := renderAll(t, newRenderer(t, Options{IndexFile: true}), build(recs), recs)
	dir := writeSite(t, pages)
	seedURL := "file://" + filepath.Join(dir, filepath.FromSlash(recs[0].Path()), "index.html")
	boxes := `document.querySelectorAll("ul.checklist input[type=checkbox]")`
	browsertest.Navigate(t, ctx, seedURL)
	browsertest.WaitFor(t, ctx, boxes+".length === 3", 5*time.Second)
	browsertest.Eval[bool](t, ctx, boxes+"[1].click(), true")
	browsertest.Navigate(t, ctx, seedURL)
	browsertest.WaitFor(t, ctx, boxes+".length === 3", 5*time.Second)
	got := browsertest.Eval[[]bool](t, ctx, "Array.from("+boxes+", b => b.checked)")
	if len(got) != 3 || got[0] || !got[1] || got[2] {
		t.Errorf("after reload ticks are %v, want [false true false]", got)
	}
	browsertest.Navigate(t, ctx, "file://"+filepath.Join(dir, filepath.FromSlash(other.Path()), "index.html"))
	browsertest.WaitFor(t, ctx, boxes+".length === 2", 5*time.Second)
	if got := browsertest.Eval[[]bool](t, ctx, "Array.from("+boxes+", b => b.checked)"); got[0] || got[1] {
		t.Errorf("another record's ticks are %v, want none", got)
	}
}

// TestBrowserAccessible runs axe-core (WCAG 2 A and AA) on the home page, a
// repo page and a record page, in the light and the dark scheme, when
// axe-core is installed (npm ci --prefix internal/testtools).
func TestBrowserAccessible(t *testing.T) {
	axe := testtools.Axe(t)
	ctx := browsertest.New(t)
	recs := sample(t)
	pages := renderAll(t, newRenderer(t, Options{Title: "errdocs", Description: "Errors explained."}), build(recs), recs)
	base := browsertest.Serve(t, writeSite(t, pages))
	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, ctx, scheme)
		for _, p := range []string{"", "jax-ml/jax/", recs[0].Path(), "tags/jax/", "families/resource-limit-exceeded/"} {
			browsertest.Navigate(t, ctx, base+p)
			v := browsertest.AxeViolations(t, ctx, axe)
			if len(v) > 0 {
				t.Errorf("%s, %s scheme: %s", "/"+p, scheme, strings.Join(v, "\n"))
			}
		}
	}
}
