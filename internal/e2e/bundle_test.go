package e2e

import (
	"bytes"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/browsertest"
)

// TestBundle makes the offline bundle of the sample dataset as a .zip and
// as a .tar.gz, unpacks each into a temporary folder and checks that it
// works from disk: every internal link of every page names a file (a
// folder link would show a listing) that exists; in Chromium with the
// network disabled, the home page, a record page and a search that finds
// a record work from file://, and no request other than file:// (or
// data:) is attempted. The bundle is made with a base URL in the config,
// as a project that also hosts its site would have: the bundle must not
// reach for the hosted site.
func TestBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bundles: skipped in -short mode")
	}
	data, recs := sampleData(t)
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "errdocs.toml"), []byte("title = \"Errors offline\"\nbaseURL = \""+hostedBase+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"zip", "tar.gz"} {
		t.Run(format, func(t *testing.T) {
			archive := filepath.Join(tmp, "bundle."+format)
			runErrdocs(t, tmp, "bundle", data, "--out", archive, "--quiet")
			dir := filepath.Join(t.TempDir(), "unpacked")
			if format == "zip" {
				unzip(t, archive, dir)
			} else {
				untar(t, archive, dir)
			}
			if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
				t.Fatalf("the bundle has no index.html at its top: %v", err)
			}
			t.Run("links", func(t *testing.T) { checkBundleLinks(t, dir) })
			t.Run("browser", func(t *testing.T) { checkBundleBrowser(t, dir, recs) })
		})
	}
}

var (
	loadingRE     = regexp.MustCompile(`<(link|script|img|iframe|source|video|audio)\s[^>]*>`)
	fetchedLinkRE = regexp.MustCompile(`\srel="(stylesheet|icon|preload|modulepreload|prefetch|manifest|search)"`)
)

// checkBundleLinks walks every HTML file of the bundle: each relative URL
// must name a file (index.html explicitly for a page) that exists, and no
// page may load anything from the network.
func checkBundleLinks(t *testing.T, dir string) {
	files := htmlFiles(t, dir)
	if len(files) == 0 {
		t.Fatal("no HTML files")
	}
	n := 0
	for _, f := range files {
		page, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		// Elements that load what they name; a canonical or alternate
		// link only names a URL, and may well be absolute.
		for _, tag := range loadingRE.FindAll(page, -1) {
			if bytes.HasPrefix(tag, []byte("<link")) && !fetchedLinkRE.Match(tag) {
				continue
			}
			for _, u := range pageLinks(append([]byte(" "), tag...)) {
				if external(u) && !strings.HasPrefix(u, "data:") {
					t.Errorf("%s loads %s from the network: %s", f, u, tag)
				}
			}
		}
		for _, u := range pageLinks(page) {
			if external(u) || strings.HasPrefix(u, "#") {
				continue
			}
			n++
			p, _, _ := strings.Cut(u, "#")
			p, _, _ = strings.Cut(p, "?")
			if p == "" || strings.HasSuffix(p, "/") || strings.HasSuffix(p, "..") || strings.HasSuffix(p, "/.") || p == "." {
				t.Errorf("%s links to %q, a folder: from disk it shows a listing, not the page", f, u)
				continue
			}
			if strings.HasPrefix(p, "/") {
				t.Errorf("%s links to %q, from the file system's root", f, u)
				continue
			}
			dec, err := url.PathUnescape(p)
			if err != nil {
				t.Errorf("%s: link %q: %v", f, u, err)
				continue
			}
			target := path.Join(path.Dir(f), dec)
			if strings.HasPrefix(target, "../") {
				t.Errorf("%s links to %q, outside the bundle", f, u)
				continue
			}
			if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil || fi.IsDir() {
				t.Errorf("%s links to %q: %s is not a file of the bundle", f, u, target)
			}
		}
	}
	t.Logf("%d HTML files, %d internal links checked", len(files), n)
}

// checkBundleBrowser opens the unpacked bundle from file:// with the
// network disabled and records every request the browser attempts.
func checkBundleBrowser(t *testing.T, dir string, recs []record.Record) {
	ctx := browsertest.New(t, browsertest.Options{Offline: true})
	var mu sync.Mutex
	var requests []string
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	root := "file://" + filepath.ToSlash(dir) + "/"

	// The home page, styled.
	browsertest.Navigate(t, ctx, root+"index.html")
	if !browsertest.Eval[bool](t, ctx, `Array.from(document.querySelectorAll('link[rel=stylesheet]')).every(function(l){return l.sheet!==null}) && document.querySelectorAll('link[rel=stylesheet]').length>0`) {
		t.Error("the home page's stylesheet did not load from file://")
	}

	// A record page, reached by following links from the home page.
	href := browsertest.Eval[string](t, ctx, `(function(){var a=Array.from(document.querySelectorAll('main a[href]')).find(function(a){return /\/[^\/]+\/[^\/]+\/[^\/]+\/index\.html$/.test(a.href)});return a?a.href:''})()`)
	if href == "" {
		t.Fatal("the home page links to no record page")
	}
	browsertest.Navigate(t, ctx, href)
	if h1 := browsertest.Eval[string](t, ctx, `(document.querySelector('h1')||{}).textContent||''`); h1 == "" {
		t.Errorf("%s shows no heading", href)
	}
	if !browsertest.Eval[bool](t, ctx, `document.querySelectorAll('.hl, pre code').length === 0 || Array.from(document.querySelectorAll('link[rel=stylesheet]')).every(function(l){return l.sheet!==null})`) {
		t.Errorf("%s: highlighting styles did not load", href)
	}

	t.Run("search", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(dir, "search", "index.html")); err != nil {
			t.Fatalf("SEARCH NOT IN THE BUNDLE (search/index.html missing): the search engineer's part is not wired into the build yet: %v", err)
		}
		target, word := searchWord(recs)
		if word == "" {
			t.Fatal("no record message has a word to search for")
		}
		browsertest.Navigate(t, ctx, root+"search/index.html?q="+url.QueryEscape(word))
		deadline := time.Now().Add(15 * time.Second)
		for !browsertest.Eval[bool](t, ctx, `document.querySelectorAll('#results li').length > 0`) {
			if time.Now().After(deadline) {
				state := browsertest.Eval[string](t, ctx, `(function(){var a=document.querySelector('[data-search-app]');return a?String(a.getAttribute('data-state'))+' / '+(document.getElementById('result-count')||{}).textContent:'no search app on the page'})()`)
				t.Fatalf("SEARCH NOT WORKING OFFLINE: ?q=%s (a word of %s's message) showed no results in 15 s (state: %s). Tell the search engineer.", word, target.ID, state)
			}
			time.Sleep(100 * time.Millisecond)
		}
		links := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#results li a[href]')).map(function(a){return a.href})`)
		found := false
		for _, l := range links {
			found = found || strings.HasSuffix(l, "/"+target.Path()+"index.html")
		}
		if !found {
			t.Errorf("?q=%s: results %v do not include %s", word, links, target.Path())
		}
		for _, l := range links {
			if !strings.HasPrefix(l, "file://") || !strings.HasSuffix(l, "/index.html") {
				t.Errorf("a result links to %s: not a page of the bundle named by index.html", l)
			}
		}
	})

	// No request left file:// (the offline browser would fail it, but
	// the bundle must not even try), by the network log and by the
	// page's own resource timing.
	// Copy the log and let go of the lock before talking to the browser
	// again: chromedp calls the listener on the goroutine that delivers
	// the browser's replies, so a request seen while the lock is held
	// (a late chunk, a favicon) would block the reply to the Eval below.
	mu.Lock()
	seen := append([]string(nil), requests...)
	mu.Unlock()
	if len(seen) == 0 {
		t.Error("no requests were recorded: the network listener saw nothing")
	}
	for _, u := range seen {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the bundle requested %s", u)
		}
	}
	for _, u := range browsertest.Eval[[]string](t, ctx, `performance.getEntriesByType('resource').map(function(e){return e.name})`) {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page loaded %s", u)
		}
	}
	t.Logf("%d requests, all file://", len(seen))
}

// searchWord picks a record and a distinctive word of its message: a
// plain word of at least 7 letters that few other messages share.
func searchWord(recs []record.Record) (record.Record, string) {
	word := regexp.MustCompile(`^[A-Za-z]{7,}$`)
	count := map[string]int{}
	for _, r := range recs {
		seen := map[string]bool{}
		for _, w := range strings.Fields(r.ErrorMessage) {
			w = strings.ToLower(w)
			if !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	var best record.Record
	bestWord, bestN := "", 0
	for _, r := range recs {
		for _, w := range strings.Fields(r.ErrorMessage) {
			n := count[strings.ToLower(w)]
			if word.MatchString(w) && (bestWord == "" || n < bestN) {
				best, bestWord, bestN = r, w, n
			}
		}
	}
	return best, bestWord
}
