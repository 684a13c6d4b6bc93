package browsertest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestBrowserRunsPage checks the harness itself: a page served over
// loopback and one opened from file:// both run their classic scripts.
func TestBrowserRunsPage(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte(`<!doctype html><title>t</title><script src="a.js"></script>`), 0o644)
	os.WriteFile(filepath.Join(dir, "a.js"), []byte(`window.answer = 6 * 7;`), 0o644)
	ctx := New(t)
	for _, url := range []string{Serve(t, dir) + "index.html", "file://" + filepath.Join(dir, "index.html")} {
		Navigate(t, ctx, url)
		WaitFor(t, ctx, "window.answer === 42", 5*time.Second)
		if got := Eval[float64](t, ctx, "window.answer"); got != 42 {
			t.Errorf("%s: answer = %v, want 42", url, got)
		}
	}
}
