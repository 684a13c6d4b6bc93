package e2e

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/browsertest"
)

// serving is the line serve prints once it listens.
var servingRE = regexp.MustCompile(`serving .* at (http://127\.0\.0\.1:\d+/)`)

// startServe runs `errdocs serve` on records in dir with --port 0 and
// returns the URL it prints. The server is stopped (interrupted, as Ctrl+C
// does) when the test ends.
func startServe(t *testing.T, work string, args ...string) string {
	t.Helper()
	cmd := exec.Command(errdocsBin, append([]string{"serve", "--port", "0", "--poll", "100ms"}, args...)...)
	cmd.Dir = work
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("errdocs serve did not stop within 5 s of an interrupt")
			cmd.Process.Kill()
			<-done
		}
	})
	found := make(chan string, 1)
	var mu sync.Mutex
	var log strings.Builder
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		cmd.Wait()
	}()
	select {
	case u := <-found:
		return u
	case <-done:
		t.Fatalf("errdocs serve exited before serving:\n%s%s", log.String(), stderr.String())
	case <-time.After(60 * time.Second):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("errdocs serve printed no serving line in 60 s:\n%s", log.String())
	}
	return ""
}

// resolve returns the absolute URL of ref on the page at pageURL.
func resolve(t *testing.T, pageURL, ref string) string {
	t.Helper()
	b, err := url.Parse(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	r, err := url.Parse(ref)
	if err != nil {
		t.Fatalf("%s on %s: %v", ref, pageURL, err)
	}
	return b.ResolveReference(r).String()
}

// TestServe runs `errdocs serve` on a folder of records: pages come with
// the right content types, gzip when asked for, a missing path gives the
// 404 page with status 404, and an edit to a record's errorMessage shows
// up in the record's page, open in Chromium, within 10 s (live reload).
func TestServe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the preview server: skipped in -short mode")
	}
	_, recs := sampleData(t)
	recs = recs[:min(40, len(recs))]
	work := t.TempDir()
	data := filepath.Join(work, "records")
	writeRecords(t, data, recs...)
	// A config naming the hosted site: the preview must still be served,
	// and link, as itself.
	if err := os.WriteFile(filepath.Join(work, "errdocs.toml"), []byte("baseURL = \""+hostedBase+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := startServe(t, work, data, "--out", filepath.Join(work, "site"), "--cache", filepath.Join(work, "cache"))

	t.Run("content types", func(t *testing.T) {
		code, hdr, home := get(t, base)
		if code != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
			t.Fatalf("home: %d %s", code, hdr.Get("Content-Type"))
		}
		want := map[string]string{".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml", ".html": "text/html"}
		seen := map[string]bool{}
		for _, u := range append(pageLinks(home), "search/", "robots.txt") {
			if external(u) || strings.HasPrefix(u, "#") {
				continue
			}
			ext := filepath.Ext(strings.TrimSuffix(u, "/"))
			if strings.HasSuffix(u, "/") {
				ext = ".html"
			}
			if seen[ext] {
				continue
			}
			seen[ext] = true
			full := resolve(t, base, u)
			code, hdr, _ := get(t, full)
			ct := hdr.Get("Content-Type")
			if code != http.StatusOK {
				t.Errorf("%s: status %d", full, code)
			}
			if w, ok := want[ext]; ok && !strings.HasPrefix(ct, w) {
				t.Errorf("%s: Content-Type %q, want %s", full, ct, w)
			}
			if hdr.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: no X-Content-Type-Options: nosniff", full)
			}
		}
		// The search page loads scripts: check one of them as well.
		_, _, search := get(t, base+"search/")
		for _, u := range pageLinks(search) {
			if strings.HasSuffix(u, ".js") && !external(u) {
				seen[".js"] = true
				full := resolve(t, base+"search/", u)
				if _, hdr, _ := get(t, full); !strings.HasPrefix(hdr.Get("Content-Type"), "text/javascript") {
					t.Errorf("%s: Content-Type %q, want text/javascript", full, hdr.Get("Content-Type"))
				}
				break
			}
		}
		for _, ext := range []string{".css", ".js", ".html"} {
			if !seen[ext] {
				t.Errorf("found no %s file to check", ext)
			}
		}
	})

	t.Run("gzip", func(t *testing.T) {
		tr := &http.Transport{DisableCompression: true}
		defer tr.CloseIdleConnections()
		for _, gz := range []bool{true, false} {
			req, _ := http.NewRequest("GET", base, nil)
			if gz {
				req.Header.Set("Accept-Encoding", "gzip")
			}
			res, err := tr.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			enc := res.Header.Get("Content-Encoding")
			if !gz {
				if enc != "" || !bytes.Contains(body, []byte("<html")) {
					t.Errorf("without Accept-Encoding: Content-Encoding %q", enc)
				}
				continue
			}
			if enc != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
				t.Fatalf("with Accept-Encoding: gzip: Content-Encoding %q, Vary %q", enc, res.Header.Get("Vary"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			plain, err := io.ReadAll(zr)
			if err != nil || !bytes.Contains(plain, []byte("</html>")) {
				t.Errorf("the gzipped home page does not decompress to HTML: %v", err)
			}
		}
	})

	t.Run("folder redirect keeps the query", func(t *testing.T) {
		code, hdr, _ := get(t, base+"search?q=timeout")
		if loc := hdr.Get("Location"); code != http.StatusMovedPermanently || loc != "/search/?q=timeout" {
			t.Errorf("/search?q=timeout: %d to %q, want 301 to /search/?q=timeout", code, loc)
		}
	})

	t.Run("404", func(t *testing.T) {
		for _, p := range []string{"no/such/page/", "no-such-file.css", "static/missing.js"} {
			code, hdr, body := get(t, base+p)
			if code != http.StatusNotFound {
				t.Errorf("%s: status %d, want 404", p, code)
			}
			if !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") || !bytes.Contains(body, []byte("Page not found")) {
				t.Errorf("%s: not the 404 page (%s):\n%.300s", p, hdr.Get("Content-Type"), body)
			}
		}
		// The 404 page, shown at any depth, loads its style.
		_, _, body := get(t, base+"no/such/deep/page/")
		for _, u := range pageLinks(body) {
			if strings.HasSuffix(u, ".css") {
				if !strings.HasPrefix(u, base) {
					t.Errorf("the 404 page's stylesheet %s is not on the preview server %s", u, base)
				} else if code, _, _ := get(t, u); code != http.StatusOK {
					t.Errorf("the 404 page's stylesheet %s: status %d", u, code)
				}
			}
		}
	})

	t.Run("live reload", func(t *testing.T) {
		ctx := browsertest.New(t)
		target := recs[len(recs)/2]
		page := base + target.Path()
		browsertest.Navigate(t, ctx, page)
		browsertest.WaitFor(t, ctx, `document.querySelector('h1') !== null`, 5*time.Second)
		const mark = " (edited by the live reload test)"
		edited := make([]record.Record, len(recs))
		copy(edited, recs)
		for i := range edited {
			if edited[i].ID == target.ID {
				edited[i].ErrorMessage += mark
			}
		}
		start := time.Now()
		writeRecords(t, data, edited...)
		browsertest.WaitFor(t, ctx, `document.querySelector('h1') && document.querySelector('h1').textContent.includes(`+jsString(mark)+`)`, 10*time.Second)
		t.Logf("the open page showed the edit %v after it was saved", time.Since(start).Round(10*time.Millisecond))
		if got := browsertest.Eval[string](t, ctx, `location.href`); got != page {
			t.Errorf("after reload the page is %s, want %s", got, page)
		}
		if c := browsertest.Eval[string](t, ctx, `(document.querySelector('link[rel=canonical]')||{}).href||''`); c != "" && !strings.HasPrefix(c, base) {
			t.Errorf("the preview's canonical link %s leaves the preview server %s", c, base)
		}
	})
}
