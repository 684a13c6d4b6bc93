// Package browsertest starts a real headless Chromium (Debian's chromium)
// for tests, and serves folders over loopback HTTP.
//
// A test that needs a browser calls New; where no Chromium is installed the
// test is skipped with a clear message, except under CI (CI=true), where a
// missing browser fails the test: CI installs it.
package browsertest

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// Chromium returns the path of the browser binary, or "" when none is found.
func Chromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Require skips the test when tool is missing, or fails it under CI.
func Require(t testing.TB, tool, path string) {
	t.Helper()
	if path != "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is required under CI but was not found; .ci/run installs it", tool)
	}
	t.Skipf("%s not found: skipping (install it to run this test; under CI=true it is required)", tool)
}

// Options tune the browser.
type Options struct {
	// Offline blocks every network request, loopback included, by
	// pointing the browser at a proxy that does not exist and removing
	// Chromium's implicit loopback bypass: only file:// pages load.
	Offline bool
}

// New starts headless Chromium and returns a browser context for chromedp.
// The browser is closed when the test ends.
func New(t testing.TB, opts ...Options) context.Context {
	t.Helper()
	path := Chromium()
	Require(t, "chromium", path)
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	flags := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		// file:// pages may load sibling classic scripts; this is the
		// default, made explicit because the offline bundle relies on it.
		chromedp.Flag("allow-file-access-from-files", false),
	)
	if o.Offline {
		flags = append(flags,
			chromedp.ProxyServer("http://127.0.0.1:9"),
			chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		)
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), flags...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	// Start the browser now so a failure is reported here, not at first use.
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		cancelAlloc()
		t.Fatalf("starting chromium: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	return ctx
}

// Navigate opens url in the context's tab and waits for the load event.
func Navigate(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(Timeout(t, ctx, 30*time.Second), chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigate %s: %v", url, err)
	}
}

// Eval evaluates a JavaScript expression in the page and returns its value
// decoded into T. A promise is awaited.
func Eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(Timeout(t, ctx, 30*time.Second), chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("eval %q: %v", expr, err)
	}
	return v
}

// WaitFor polls a JavaScript boolean expression until it is true, failing
// the test after d.
func WaitFor(t testing.TB, ctx context.Context, expr string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		v, err := chromedp.Run(Timeout(t, ctx, 10*time.Second), chromedp.Evaluate[bool]("!!("+expr+")"))
		if err == nil && v {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s (last error: %v)", d, expr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Timeout returns a child of ctx that ends after d, for one test step.
func Timeout(t testing.TB, ctx context.Context, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(ctx, d)
	t.Cleanup(cancel)
	return ctx
}

// Serve serves dir over HTTP on a loopback port until the test ends and
// returns its base URL with a trailing slash.
func Serve(t testing.TB, dir string) string {
	return ServeHandler(t, http.FileServer(http.Dir(dir)))
}

// ServeHandler serves h on a loopback port until the test ends.
func ServeHandler(t testing.TB, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/"
}

// ScreenshotDir is where a test saves its screenshots for a person to look
// at: $ERRDOCS_SCREENSHOTS, else errdocs-screenshots under the system's
// temporary folder (it outlives the test), in a folder named for the test.
func ScreenshotDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("ERRDOCS_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "errdocs-screenshots")
	}
	dir = filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "-"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Viewport sets the tab's size; a width under 600 is a phone's (mobile
// metrics: the page's viewport meta tag is honoured).
func Viewport(t testing.TB, ctx context.Context, width, height int64) {
	t.Helper()
	var opts []chromedp.EmulateViewportOption
	if width < 600 {
		opts = append(opts, chromedp.EmulateMobile)
	}
	if err := chromedp.Do(Timeout(t, ctx, 10*time.Second), chromedp.EmulateViewport(width, height, opts...)); err != nil {
		t.Fatalf("viewport %dx%d: %v", width, height, err)
	}
}

// ColorScheme makes the tab's pages see prefers-color-scheme: scheme
// ("light" or "dark").
func ColorScheme(t testing.TB, ctx context.Context, scheme string) {
	t.Helper()
	_, err := chromedp.Call(Timeout(t, ctx, 10*time.Second), emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
	if err != nil {
		t.Fatalf("colour scheme %s: %v", scheme, err)
	}
}

// Screenshot saves what the tab shows (its viewport) as a PNG file.
func Screenshot(t testing.TB, ctx context.Context, file string) {
	t.Helper()
	png, err := chromedp.Run(Timeout(t, ctx, 30*time.Second), chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", file, err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// AxeViolations runs axe-core (its script's source, see
// internal/testtools) with the WCAG 2.1 A and AA rules on the page as it
// is, and returns one line per violated rule: its id, impact, help and up
// to eight offending nodes with axe's summary of each.
func AxeViolations(t testing.TB, ctx context.Context, axe string) []string {
	t.Helper()
	Eval[bool](t, ctx, axe+";true")
	return Eval[[]string](t, ctx, `axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}})
		.then(r => r.violations.map(v => v.id + " [" + v.impact + "] " + v.help + " (" + v.nodes.length + " nodes): " +
			v.nodes.slice(0, 8).map(n => n.target.join(" ") + (n.failureSummary ? " — " + n.failureSummary.replace(/\s+/g, " ") : "")).join(" | ")))`)
}
