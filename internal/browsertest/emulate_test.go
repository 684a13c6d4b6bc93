package browsertest_test

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/internal/browsertest"
	"github.com/errdocs/errdocs/internal/testtools"
)

// TestPhoneDarkScreenshot: the phone viewport and the dark scheme are what
// the page sees, a page without a viewport meta tag is laid out as a phone
// lays it out (980 CSS pixels wide), and the screenshot is of the viewport.
func TestPhoneDarkScreenshot(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><html lang="en"><title>t</title><meta name="viewport" content="width=device-width"><p>x</p>`
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plain.html"), []byte(`<!doctype html><title>t</title><p>x`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.New(t)
	browsertest.Viewport(t, ctx, 390, 844)
	browsertest.ColorScheme(t, ctx, "dark")
	browsertest.Navigate(t, ctx, browsertest.Serve(t, dir))
	if got := browsertest.Eval[string](t, ctx, `innerWidth + "x" + innerHeight + " " + matchMedia("(prefers-color-scheme: dark)").matches`); got != "390x844 true" {
		t.Errorf("the page sees %q, want 390x844 and dark", got)
	}
	browsertest.Navigate(t, ctx, browsertest.Serve(t, dir)+"plain.html")
	if got := browsertest.Eval[int](t, ctx, `innerWidth`); got != 980 {
		t.Errorf("a page without a viewport meta tag is %d wide, want 980 (mobile)", got)
	}
	file := filepath.Join(t.TempDir(), "shot.png")
	browsertest.Screenshot(t, ctx, file)
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if c, err := png.DecodeConfig(f); err != nil || c.Width != 390 || c.Height != 844 {
		t.Errorf("screenshot: %dx%d (%v), want 390x844", c.Width, c.Height, err)
	}
	browsertest.Viewport(t, ctx, 1280, 900)
	browsertest.ColorScheme(t, ctx, "light")
	if got := browsertest.Eval[string](t, ctx, `innerWidth + " " + matchMedia("(prefers-color-scheme: light)").matches`); got != "1280 true" {
		t.Errorf("back on the desktop the page sees %q, want 1280 and light", got)
	}
}

// TestAxeFindsViolation: a page with an image without alternative text
// and a button without a name has those two violations, and a clean page
// none.
func TestAxeFindsViolation(t *testing.T) {
	axe := testtools.Axe(t)
	dir := t.TempDir()
	bad := `<!doctype html><html lang="en"><title>t</title><main><h1>t</h1><img src="x.png"><button></button></main>`
	good := `<!doctype html><html lang="en"><title>t</title><main><h1>t</h1><img src="x.png" alt="x"><button>Go</button></main>`
	os.WriteFile(filepath.Join(dir, "bad.html"), []byte(bad), 0o644)
	os.WriteFile(filepath.Join(dir, "good.html"), []byte(good), 0o644)
	ctx := browsertest.New(t)
	base := browsertest.Serve(t, dir)
	browsertest.Navigate(t, ctx, base+"bad.html")
	got := strings.Join(browsertest.AxeViolations(t, ctx, axe), "\n")
	for _, rule := range []string{"image-alt [critical]", "button-name [critical]"} {
		if !strings.Contains(got, rule) {
			t.Errorf("violations %q lack %s", got, rule)
		}
	}
	browsertest.Navigate(t, ctx, base+"good.html")
	if v := browsertest.AxeViolations(t, ctx, axe); len(v) > 0 {
		t.Errorf("a clean page has violations: %q", v)
	}
}
