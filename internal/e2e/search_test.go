// Package e2e holds browser tests of the built site's search, driven from Go
// in headless Chromium (internal/browsertest).
//
// Two kinds of site are searched:
//   - a harness site: templates/search.html rendered in a minimal layout
//     with the same Content-Security-Policy as the real one, ui.js and
//     pattern.js from static/search, and a stand-in engine
//     (testdata/mockengine.js) over a handful of records whose ranking the
//     test controls. It checks the page logic on its own: URL state, back
//     button, filters, paging, marking, paste matching.
//   - the real site, built by `errdocs build` from a generated dataset,
//     searched through the real index export and engine (see site_test.go
//     style helpers below: TestRealSite).
package e2e

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/index/export"
	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/browsertest"
	"github.com/errdocs/errdocs/internal/corpus"
	"github.com/errdocs/errdocs/internal/testtools"
)

// harnessPage is the template data of the harness site's search page: the
// methods the real render.Page offers to templates.
type harnessPage struct {
	from      string
	indexFile bool
	Search    bool
}

func (p harnessPage) Root() string {
	if d := strings.Count(p.from, "/"); d > 0 {
		return strings.Repeat("../", d)
	}
	return "./"
}
func (p harnessPage) IndexFile() bool { return p.indexFile }
func (p harnessPage) Link(path string) string {
	u := p.Root() + path
	if p.indexFile && (path == "" || strings.HasSuffix(path, "/")) {
		u += "index.html"
	}
	return u
}
func (p harnessPage) Asset(name string) string { return p.Root() + "static/" + name }

// mockDoc is one document of the stand-in engine, shaped as the real
// engine's doc data.
type mockDoc struct {
	ID        string          `json:"id"`
	Title     string          `json:"title"`
	URL       string          `json:"url"`
	Repo      string          `json:"repo"`
	Severity  string          `json:"severity"`
	ErrorType string          `json:"errorType"`
	Language  string          `json:"language"`
	Tags      []string        `json:"tags"`
	Snippet   string          `json:"snippet"`
	Pattern   json.RawMessage `json:"pattern,omitempty"`
	expr      string
}

// harnessDocs: the pasted-message test relies on "replica" outranking
// "primary" by text (it shares more words with the pasted message) while
// only "primary"'s pattern matches it.
var harnessDocs = []mockDoc{
	{ID: "0000000000000001", Title: "Connection refused: could not connect to server at db internal replica", URL: "acme/pg/replica-refused/",
		Repo: "acme/pg", Severity: "error", ErrorType: "exception", Language: "Go", Tags: []string{"network"},
		Snippet: "The replica <script>alert(1)</script> refused the connection.", expr: `^Connection refused: could not connect to server at db internal replica$`},
	{ID: "0000000000000002", Title: "Connection refused: could not connect to server at localhost:5432", URL: "acme/pg/primary-refused/",
		Repo: "acme/pg", Severity: "critical", ErrorType: "exception", Language: "Go", Tags: []string{"network", "database"},
		Snippet: "The server is not listening on that host and port.", expr: `Connection refused: could not connect to server at \S+:\d+`},
	{ID: "0000000000000003", Title: "Disk quota exceeded while writing cache", URL: "acme/cache/quota/",
		Repo: "acme/cache", Severity: "warning", ErrorType: "console", Language: "Python", Tags: []string{"storage"},
		Snippet: "The cache folder hit its quota.", expr: `Disk quota exceeded while writing \w+`},
	{ID: "0000000000000004", Title: "Cache miss for key", URL: "acme/cache/miss/",
		Repo: "acme/cache", Severity: "info", ErrorType: "console", Language: "Python", Tags: []string{"storage"},
		Snippet: "A cache lookup found nothing.", expr: `(a+)+$`},
}

// buildHarness writes the harness site into a temp folder and returns it.
func buildHarness(t *testing.T, indexFile bool, extra int) string {
	t.Helper()
	root := testtools.ModuleRoot(t)
	dir := t.TempDir()
	tmpl, err := template.ParseFiles(filepath.Join(root, "internal/e2e/testdata/layout.html"), filepath.Join(root, "templates/search.html"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var page strings.Builder
	if err := tmpl.ExecuteTemplate(&page, "layout.html", harnessPage{from: "search/", indexFile: indexFile, Search: true}); err != nil {
		t.Fatal(err)
	}
	write("search/index.html", []byte(page.String()))
	for _, name := range []string{"search/pattern.js", "search/ui.js", "search/header.js", "style.css"} {
		b, err := os.ReadFile(filepath.Join(root, "static", name))
		if err != nil {
			t.Fatal(err)
		}
		write("static/"+name, b)
	}
	mock, err := os.ReadFile(filepath.Join(root, "internal/e2e/testdata/mockengine.js"))
	if err != nil {
		t.Fatal(err)
	}
	write("static/search/engine.js", mock)
	write("static/search/analyzer.js", []byte("// the stand-in engine analyses for itself\n"))

	docs := append([]mockDoc(nil), harnessDocs...)
	for i := range extra {
		docs = append(docs, mockDoc{ID: fmt.Sprintf("1%015d", i), Title: fmt.Sprintf("Timeout number %d waiting for lock", i),
			URL: fmt.Sprintf("acme/lock/timeout-%d/", i), Repo: "acme/lock", Severity: "warning", ErrorType: "exception",
			Language: "Rust", Snippet: "A lock was held too long.", expr: `Timeout number \d+ waiting for lock`})
	}
	for i := range docs {
		prog, err := pattern.Compile(docs[i].expr)
		if err != nil {
			t.Fatalf("pattern %q: %v", docs[i].expr, err)
		}
		docs[i].Pattern = prog
		write(docs[i].URL+"index.html", []byte(`<!doctype html><html lang="en"><meta charset="utf-8"><title>record</title><h1 id="record">`+
			template.HTMLEscapeString(docs[i].Title)+`</h1>`))
	}
	data, err := json.Marshal(docs)
	if err != nil {
		t.Fatal(err)
	}
	write("search/data.js", []byte("window.MockSearchData = "+string(data)+";\n"))
	return dir
}

// ui drives the search page in one tab.
type ui struct {
	t   *testing.T
	ctx context.Context
}

func (u ui) eval(expr string) string {
	u.t.Helper()
	return browsertest.Eval[string](u.t, u.ctx, "String("+expr+")")
}

func (u ui) wait(expr string) {
	u.t.Helper()
	browsertest.WaitFor(u.t, u.ctx, expr, 10*time.Second)
}

// settled waits until the page shows the outcome of its latest search.
func (u ui) settled() {
	u.t.Helper()
	u.wait(`(function(){var a=document.querySelector('[data-search-app]');return a&&!a.hasAttribute('aria-busy')&&/^(results|empty|idle|error)$/.test(a.getAttribute('data-state'))})()`)
}

// results lists the shown results by the site path of their record page
// ("owner/name/slug/"), from each result's first link.
func (u ui) results() []string {
	u.t.Helper()
	s := u.eval(`Array.from(document.querySelectorAll('#results li.result')).map(function(li){var a=li.querySelector('a');return a?a.getAttribute('href'):''}).join('\n')`)
	if s == "" {
		return nil
	}
	paths := strings.Split(s, "\n")
	for i, p := range paths {
		p = strings.TrimSuffix(p, "index.html")
		for strings.HasPrefix(p, "../") {
			p = p[3:]
		}
		paths[i] = p
	}
	return paths
}

// harnessPath is the site path of the harness record with this id.
func harnessPath(t *testing.T, id string) string {
	t.Helper()
	for _, d := range harnessDocs {
		if d.ID == id {
			return d.URL
		}
	}
	t.Fatalf("no harness record %s", id)
	return ""
}

func (u ui) query() url.Values {
	u.t.Helper()
	v, err := url.ParseQuery(strings.TrimPrefix(u.eval("location.search"), "?"))
	if err != nil {
		u.t.Fatal(err)
	}
	return v
}

func (u ui) typeText(s string) {
	u.t.Helper()
	if err := chromedp.Do(browsertest.Timeout(u.t, u.ctx, 20*time.Second), chromedp.SendKeys(chromedp.CSS("#search-q"), s)); err != nil {
		u.t.Fatalf("typing %q: %v", s, err)
	}
}

func (u ui) clearBox() {
	u.t.Helper()
	u.eval(`(function(){var i=document.getElementById('search-q');i.value='';i.dispatchEvent(new Event('input',{bubbles:true}));return 1})()`)
}

// paste fires a paste event carrying text, as a person pasting would.
func (u ui) paste(text string) {
	u.t.Helper()
	b, _ := json.Marshal(text)
	u.eval(`(function(){var i=document.getElementById('search-q');i.focus();var dt=new DataTransfer();dt.setData('text/plain',` + string(b) +
		`);i.dispatchEvent(new ClipboardEvent('paste',{clipboardData:dt,bubbles:true,cancelable:true}));return 1})()`)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (u ui) selectFilter(id, value string) {
	u.t.Helper()
	b, _ := json.Marshal(value)
	u.eval(`(function(){var s=document.getElementById('` + id + `');s.value=` + string(b) + `;s.dispatchEvent(new Event('change',{bubbles:true}));return 1})()`)
}

func (u ui) navigate(url string) {
	u.t.Helper()
	browsertest.Navigate(u.t, u.ctx, url)
	u.settled()
}

// TestSearchUI runs the page logic over the harness site, served over
// loopback HTTP and opened from file:// (as the offline bundle is).
func TestSearchUI(t *testing.T) {
	ctx := browsertest.New(t)
	for _, mode := range []struct {
		name      string
		indexFile bool
		base      func(dir string) string
	}{
		{"http", false, func(dir string) string { return browsertest.Serve(t, dir) }},
		{"file", true, func(dir string) string { return "file://" + filepath.ToSlash(dir) + "/" }},
	} {
		t.Run(mode.name, func(t *testing.T) {
			dir := buildHarness(t, mode.indexFile, 45)
			base := mode.base(dir)
			u := ui{t, ctx}
			search := base + "search/index.html"

			// A link with ?q= opens with results; words are marked, record
			// text stays text.
			u.navigate(search + "?q=" + url.QueryEscape("disk quota"))
			if got := u.results(); len(got) == 0 || got[0] != harnessPath(t, "0000000000000003") {
				t.Fatalf("?q=disk quota: results %v, want the quota record first", got)
			}
			if got := u.eval(`document.getElementById('search-q').value`); got != "disk quota" {
				t.Errorf("search box holds %q after load", got)
			}
			if got := u.eval(`Array.from(document.querySelectorAll('#results li:first-child a mark')).map(function(m){return m.textContent}).join('|')`); got != "Disk|quota" {
				t.Errorf("marked words %q, want Disk|quota", got)
			}
			if got := u.eval(`getComputedStyle(document.querySelector('.load-failed')).display`); got != "none" {
				t.Errorf("the search-did-not-start notice is still laid out (display %s)", got)
			}

			// Typing searches as you type and keeps the URL in step with
			// one history entry for the new search, not one per key.
			entries := u.eval(`history.length`)
			u.clearBox()
			u.typeText("cache")
			u.wait(`new URLSearchParams(location.search).get('q')==='cache' && document.querySelectorAll('#results li').length===2`)
			u.settled()
			if got := u.eval(`history.length - ` + entries); got != "1" {
				t.Errorf("typing a new search added %s history entries, want 1", got)
			}
			if got := u.eval(`document.getElementById('result-count').textContent`); !strings.HasPrefix(got, "2 results") {
				t.Errorf("count says %q", got)
			}

			// A filter narrows the results and pushes a history entry.
			u.selectFilter("filter-severity", "info")
			u.wait(`new URLSearchParams(location.search).get('severity')==='info'`)
			u.settled()
			if got := u.results(); len(got) != 1 || got[0] != harnessPath(t, "0000000000000004") {
				t.Errorf("cache + severity=info: %v", got)
			}
			if q := u.query(); q.Get("q") != "cache" {
				t.Errorf("URL lost the query: %v", q)
			}

			// Back restores the previous search, box and results.
			u.eval(`history.back()`)
			u.wait(`!new URLSearchParams(location.search).has('severity')`)
			u.settled()
			if got := u.results(); len(got) != 2 {
				t.Errorf("after back: results %v, want the 2 cache records", got)
			}
			if got := u.eval(`document.querySelectorAll('.filter-chip').length`); got != "0" {
				t.Errorf("after back: %s filter chips remain", got)
			}
			// Back again: the search the page opened with.
			u.eval(`history.back()`)
			u.wait(`new URLSearchParams(location.search).get('q')==='disk quota'`)
			u.settled()
			if got := u.results(); len(got) == 0 || got[0] != harnessPath(t, "0000000000000003") {
				t.Errorf("after back to the first search: results %v", got)
			}
			if got := u.eval(`document.getElementById('search-q').value`); got != "disk quota" {
				t.Errorf("after back to the first search: box holds %q", got)
			}

			// A filter on its own, from the URL as repo pages link to it;
			// then "more results".
			u.navigate(search + "?repo=acme%2Flock")
			if got := u.results(); len(got) != 20 {
				t.Fatalf("repo filter alone: %d results, want a first page of 20", len(got))
			}
			if got := u.eval(`document.getElementById('result-count').textContent`); !strings.HasPrefix(got, "45 results") {
				t.Errorf("count says %q", got)
			}
			u.eval(`document.getElementById('more-results').click()`)
			u.wait(`document.querySelectorAll('#results li').length===40`)

			// A text query with more than a page of matches: the total says
			// so (no result beyond the page is fetched), "more" shows them.
			u.navigate(search + "?q=acme%2Flock")
			if got := u.results(); len(got) != 20 {
				t.Fatalf("query acme/lock: %d results, want a first page of 20", len(got))
			}
			if got := u.eval(`document.getElementById('more-results').hidden`); got != "false" {
				t.Errorf("query acme/lock: the more button is hidden (%s)", got)
			}
			u.eval(`document.getElementById('more-results').click()`)
			u.wait(`document.querySelectorAll('#results li').length===40`)

			// Nothing found.
			u.navigate(search + "?q=zebra")
			if got := u.eval(`document.querySelector('[data-search-app]').getAttribute('data-state')`); got != "empty" {
				t.Errorf("state %q for a query with no results", got)
			}
			if got := u.eval(`document.getElementById('result-count').textContent`); !strings.Contains(got, "No results") {
				t.Errorf("count says %q", got)
			}

			// Paste an error with the reader's own values: text ranks the
			// replica record first, the pattern puts primary on top.
			u.navigate(search)
			pasted := "Traceback (most recent call last):\n  File \"app.py\", line 3\nConnection refused: could not connect to server at db.internal:6543\n"
			if first := browsertest.Eval[string](t, ctx, `window.ErrdocsSearch.search(`+jsString(pasted)+`,{filters:{},limit:5}).then(function(r){return r.results[0].doc.url})`); first != harnessPath(t, "0000000000000001") {
				t.Fatalf("precondition: text search ranks %s first, want the replica record", first)
			}
			u.paste(pasted)
			u.wait(`document.querySelector('#results li.exact')`)
			u.settled()
			got := u.results()
			if len(got) < 2 || got[0] != harnessPath(t, "0000000000000002") {
				t.Fatalf("pasted message: results %v, want the primary record first", got)
			}
			if n := u.eval(`document.querySelectorAll('#results .exact-match').length`); n != "1" {
				t.Errorf("%s records marked exact match, want 1", n)
			}
			if q := u.query().Get("q"); strings.Contains(q, "\n") || !strings.Contains(q, "db.internal:6543") {
				t.Errorf("URL q after paste = %q", q)
			}
			// The snippet's markup is shown as text.
			if n := u.eval(`document.querySelectorAll('#results script').length`); n != "0" {
				t.Errorf("record text became markup: %s script elements", n)
			}

			// A catastrophic pattern does not hang the page.
			u.navigate(search)
			start := time.Now()
			u.paste("Cache miss for key " + strings.Repeat("a", 20000) + "!")
			u.settled()
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("pasting a long text took %v", d)
			}

			// Following the first result opens its record page.
			u.navigate(search + "?q=" + url.QueryEscape("disk quota"))
			href := u.eval(`document.querySelector('#results li a').getAttribute('href')`)
			if mode.indexFile != strings.HasSuffix(href, "index.html") {
				t.Errorf("record link %q (offline bundle: %v)", href, mode.indexFile)
			}
			if err := chromedp.Do(browsertest.Timeout(t, ctx, 20*time.Second), chromedp.Click(chromedp.CSS("#results li a"))); err != nil {
				t.Fatal(err)
			}
			u.wait(`document.getElementById('record') && document.getElementById('record').textContent.indexOf('Disk quota') === 0`)
		})
	}
}

// TestScriptsAvoidUnsafeAPIs guards the page's security rules at the
// source: no eval, no code from strings, no HTML from strings, and no
// RegExp built at run time (a record's pattern must never reach one).
func TestScriptsAvoidUnsafeAPIs(t *testing.T) {
	root := testtools.ModuleRoot(t)
	for _, name := range []string{"ui.js", "pattern.js"} {
		b, err := os.ReadFile(filepath.Join(root, "static/search", name))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for _, bad := range []string{"eval(", "new Function", "Function(", "innerHTML", "outerHTML", "insertAdjacentHTML",
			"document.write", "RegExp(", "setTimeout(\"", "setTimeout('"} {
			if strings.Contains(src, bad) {
				t.Errorf("%s uses %s", name, bad)
			}
		}
	}
}

// TestOpenSearchTemplate renders templates/opensearch.xml as the render
// package does (html/template) and checks it is well-formed XML with the
// search URL template, absolute with a base URL and relative without.
func TestOpenSearchTemplate(t *testing.T) {
	root := testtools.ModuleRoot(t)
	tmpl, err := template.ParseFiles(filepath.Join(root, "templates/opensearch.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ base, want string }{
		{"https://errors.example.org/docs/", "https://errors.example.org/docs/search/?q={searchTerms}"},
		{"", "search/?q={searchTerms}"},
	} {
		var b strings.Builder
		data := struct{ Title, BaseURL string }{`Errors & "Docs" <of> a very long name`, c.base}
		if err := tmpl.Execute(&b, data); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			XMLName   xml.Name `xml:"http://a9.com/-/spec/opensearch/1.1/ OpenSearchDescription"`
			ShortName string   `xml:"ShortName"`
			URL       struct {
				Type     string `xml:"type,attr"`
				Template string `xml:"template,attr"`
			} `xml:"Url"`
		}
		if err := xml.Unmarshal([]byte(b.String()), &doc); err != nil {
			t.Fatalf("not XML: %v\n%s", err, b.String())
		}
		if doc.URL.Template != c.want || doc.URL.Type != "text/html" {
			t.Errorf("Url template %q type %q, want %q", doc.URL.Template, doc.URL.Type, c.want)
		}
		if n := len([]rune(doc.ShortName)); n == 0 || n > 16 {
			t.Errorf("ShortName %q: %d characters, want 1 to 16", doc.ShortName, n)
		}
	}
}

// realSite builds the errdocs command and, from a generated dataset, a
// site (for HTTP) and an offline bundle (for file://).
type realSite struct {
	records      []record.Record
	httpDir      string
	bundleDir    string
	buildOutputs string
}

func buildRealSite(t *testing.T) *realSite {
	t.Helper()
	root := testtools.ModuleRoot(t)
	if _, err := os.Stat(filepath.Join(root, "static/search/engine.js")); err != nil {
		t.Skip("static/search/engine.js does not exist yet: the real-site search test needs the engine")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "errdocs")
	build := exec.Command("go", "build", "-o", bin, "./cmd/errdocs")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/errdocs: %v\n%s", err, out)
	}
	ds := corpus.Generate(400, 7)
	data := filepath.Join(tmp, "data")
	if err := ds.WriteExport(data, false); err != nil {
		t.Fatal(err)
	}
	s := &realSite{records: ds.Records(), httpDir: filepath.Join(tmp, "site")}
	run := func(args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = tmp
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("errdocs %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("build", data, "--out", s.httpDir, "--cache", filepath.Join(tmp, "cache1"), "--quiet")
	archive := filepath.Join(tmp, "bundle.tar.gz")
	run("bundle", data, "--out", archive, "--cache", filepath.Join(tmp, "cache2"), "--quiet")
	s.bundleDir = filepath.Join(tmp, "bundle")
	untar(t, archive, s.bundleDir)
	// The archive may hold the site in a folder of its own.
	found := ""
	filepath.WalkDir(s.bundleDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && found == "" && strings.HasSuffix(filepath.ToSlash(p), "/search/index.html") {
			found = filepath.Dir(filepath.Dir(p))
		}
		return nil
	})
	if found == "" {
		t.Fatal("the bundle has no search/index.html")
	}
	s.bundleDir = found
	return s
}

func untar(t *testing.T, archive, dir string) {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if strings.HasPrefix(name, "..") || filepath.IsAbs(name) {
			t.Fatalf("archive entry %q escapes the folder", h.Name)
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			os.MkdirAll(p, 0o755)
		case tar.TypeReg:
			os.MkdirAll(filepath.Dir(p), 0o755)
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// pasteTarget picks a record and a message with the reader's own values
// (changed numbers or quoted names) that its pattern matches and no other
// record's pattern does, so that it must come first when pasted.
func pasteTarget(t *testing.T, rs []record.Record) (record.Record, string) {
	t.Helper()
	digits := regexp.MustCompile(`\d+`)
	quoted := regexp.MustCompile(`'[^']+'|"[^"]+"`)
	var compiled []*regexp.Regexp
	for _, r := range rs {
		re, err := regexp.Compile(r.MessagePattern)
		if _, perr := pattern.Compile(r.MessagePattern); err != nil || perr != nil {
			re = nil
		}
		compiled = append(compiled, re)
	}
	for i, r := range rs {
		if compiled[i] == nil {
			continue
		}
		for _, m := range []string{
			digits.ReplaceAllString(r.ErrorMessage, "4711"),
			quoted.ReplaceAllStringFunc(r.ErrorMessage, func(s string) string { return s[:1] + "my_value" + s[len(s)-1:] }),
		} {
			if m == r.ErrorMessage || len(strings.Fields(m)) < 4 || !pattern.MatchRegexp(compiled[i], m) {
				continue
			}
			unique := true
			for j, re := range compiled {
				if j != i && re != nil && pattern.MatchRegexp(re, m) {
					unique = false
					break
				}
			}
			if unique {
				return r, m
			}
		}
	}
	t.Fatal("no record in the generated dataset has a message with variable parts that only its pattern matches")
	return record.Record{}, ""
}

// TestRealSite searches a site built by errdocs from a generated dataset,
// over loopback HTTP and from file:// (the offline bundle): a link with
// ?q= opens with results, typing searches, a filter narrows, back restores,
// a pasted message with changed values finds its record first, and a
// result leads to its page.
func TestRealSite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a site: skipped in -short mode")
	}
	ctx := browsertest.New(t)
	s := buildRealSite(t)
	target, pasted := pasteTarget(t, s.records)
	t.Logf("paste target %s (%s): pattern %q, pasted %q", target.ID, target.Path(), target.MessagePattern, pasted)
	for _, mode := range s.modes(t) {
		t.Run(mode.name, func(t *testing.T) {
			searchFlow(t, ui{t, ctx}, mode.base, mode.indexFile, target, pasted)
			familySearch(t, ui{t, ctx}, mode.base, mode.indexFile, s.records, target.BackgroundTag)
		})
	}
}

// siteMode is one way a reader opens the real site: over HTTP, or the
// offline bundle from file:// (whose links name index.html files).
type siteMode struct {
	name      string
	indexFile bool
	base      string // the site's root URL, with a trailing slash
}

// modes serves the site over loopback HTTP until the test ends and
// returns both ways to open it.
func (s *realSite) modes(t *testing.T) []siteMode {
	return []siteMode{
		{"http", false, browsertest.Serve(t, s.httpDir)},
		{"file", true, "file://" + filepath.ToSlash(s.bundleDir) + "/"},
	}
}

// familySearch follows a family page's search link: the search page opens
// filtered to that family (?family=) and lists its records, all of them
// and only them.
func familySearch(t *testing.T, u ui, base string, indexFile bool, rs []record.Record, family string) {
	t.Helper()
	if family == "" {
		t.Fatal("the paste target has no family")
	}
	paths := map[string]bool{}
	for _, r := range rs {
		if r.BackgroundTag == family {
			paths[r.Path()] = true
		}
	}
	page := base + model.FamilyPath(family)
	if indexFile {
		page += "index.html"
	}
	browsertest.Navigate(t, u.ctx, page)
	link := u.eval(`(function(){var a=document.querySelector('a[href*="family="]');return a?a.getAttribute('href'):''})()`)
	if !strings.Contains(link, "family="+url.QueryEscape(family)) {
		t.Fatalf("family page %s: search link %q, want one with family=%s", page, link, family)
	}
	if err := chromedp.Do(browsertest.Timeout(t, u.ctx, 20*time.Second), chromedp.Click(chromedp.CSS(`a[href*="family="]`))); err != nil {
		t.Fatal(err)
	}
	u.wait(`new URLSearchParams(location.search).get('family')===` + jsString(family) + ` && document.readyState === 'complete'`)
	u.settled()
	count := u.eval(`document.getElementById('result-count').textContent`)
	if want := fmt.Sprintf("%d result", len(paths)); !strings.HasPrefix(count, want) {
		t.Errorf("family %s (%d records): the search page says %q", family, len(paths), count)
	}
	got := u.results()
	if len(got) == 0 {
		t.Fatalf("family %s: no results shown", family)
	}
	for _, p := range got {
		if !paths[p] {
			t.Errorf("family %s: result %s is not one of its records", family, p)
		}
	}
}

// searchFlow is the person's path through a real site's search: a link
// with ?q= opens with results, typing searches, a filter narrows, back
// restores, a pasted message with changed values finds its record first,
// and that result leads to its page.
func searchFlow(t *testing.T, u ui, base string, indexFile bool, target record.Record, pasted string) {
	ctx := u.ctx
	words := strings.Fields(target.ErrorMessage)
	if len(words) > 3 {
		words = words[:3]
	}
	query := strings.Join(words, " ")
	search := base + "search/index.html"

	// ?q= opens with results.
	u.navigate(search + "?q=" + url.QueryEscape(query))
	if got := u.results(); len(got) == 0 {
		t.Fatalf("?q=%s: no results (%s)", query, u.eval(`document.getElementById('result-count').textContent`))
	}

	// Typing searches and keeps the URL in step.
	u.navigate(search)
	u.typeText(query)
	u.wait(`new URLSearchParams(location.search).get('q')===` + jsString(query))
	u.settled()
	before := u.results()
	if len(before) == 0 {
		t.Fatalf("typed %q: no results", query)
	}
	u.eval(`document.querySelector('.search-form button[type=submit]').click()`)
	u.settled()

	// A filter narrows to that severity and pushes a history entry.
	u.selectFilter("filter-severity", target.Severity)
	u.wait(`new URLSearchParams(location.search).get('severity')===` + jsString(target.Severity))
	u.settled()
	sevs := u.eval(`Array.from(document.querySelectorAll('#results .severity')).map(function(e){return e.textContent}).join(',')`)
	for _, sv := range strings.Split(sevs, ",") {
		if sv != target.Severity {
			t.Errorf("severity filter %s: a result has severity %q", target.Severity, sv)
			break
		}
	}
	// Back restores the unfiltered search.
	u.eval(`history.back()`)
	u.wait(`!new URLSearchParams(location.search).has('severity')`)
	u.settled()
	if got := u.results(); strings.Join(got, ",") != strings.Join(before, ",") {
		t.Errorf("after back: results %v, want %v", got, before)
	}
	if got := u.eval(`document.getElementById('search-q').value`); got != query {
		t.Errorf("after back: search box %q, want %q", got, query)
	}

	// Paste the message with the reader's own values.
	u.navigate(search)
	u.paste("ERROR 2026-01-02 10:00:00\n" + pasted + "\n")
	u.settled()
	got := u.results()
	if len(got) == 0 || got[0] != target.Path() {
		t.Fatalf("pasted %q: results %v, want %s (%s) first", pasted, got, target.Path(), target.ID)
	}
	if n := u.eval(`document.querySelectorAll('#results li:first-child .exact-match').length`); n != "1" {
		t.Errorf("the first result is not marked exact match")
	}

	// Follow it to its page.
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 20*time.Second), chromedp.Click(chromedp.CSS("#results li a"))); err != nil {
		t.Fatal(err)
	}
	want := "/" + target.Path()
	if indexFile {
		want += "index.html"
	}
	u.wait(`decodeURIComponent(location.pathname).endsWith(` + jsString(want) + `) && document.readyState === 'complete'`)
	if h1 := u.eval(`document.querySelector('h1') ? document.querySelector('h1').textContent : ''`); !strings.Contains(h1, strings.Fields(target.ErrorMessage)[0]) {
		t.Errorf("record page heading %q does not show the message %q", h1, target.ErrorMessage)
	}
}

// dirWriter writes exported index files under a folder.
type dirWriter string

func (d dirWriter) WriteFile(rel string, data []byte) error {
	p := filepath.Join(string(d), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// buildEngineSite makes a site of the generated records without the errdocs
// command: the real bleve index and export (generator/index) with the
// pattern hook, the real engine, analyzer, matcher and page script, the
// search page rendered in the harness layout, and a stub page per record.
// It isolates the search from the rest of the build.
func buildEngineSite(t *testing.T, rs []record.Record, indexFile bool) string {
	t.Helper()
	root := testtools.ModuleRoot(t)
	if _, err := os.Stat(filepath.Join(root, "static/search/engine.js")); err != nil {
		t.Skip("static/search/engine.js does not exist yet")
	}
	dir := t.TempDir()
	ix, err := index.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(index.Records(rs)); err != nil {
		t.Fatal(err)
	}
	if _, err := export.New(ix).Export(dirWriter(dir), export.Options{Pattern: pattern.Compile}); err != nil {
		t.Fatal(err)
	}
	w := dirWriter(dir)
	tmpl, err := template.ParseFiles(filepath.Join(root, "internal/e2e/testdata/layout.html"), filepath.Join(root, "templates/search.html"))
	if err != nil {
		t.Fatal(err)
	}
	var page strings.Builder
	if err := tmpl.ExecuteTemplate(&page, "layout.html", harnessPage{from: "search/", indexFile: indexFile, Search: true}); err != nil {
		t.Fatal(err)
	}
	w.WriteFile("search/index.html", []byte(page.String()))
	for _, name := range []string{"search/analyzer.js", "search/engine.js", "search/pattern.js", "search/ui.js", "search/header.js", "style.css"} {
		b, err := os.ReadFile(filepath.Join(root, "static", name))
		if err != nil {
			t.Fatal(err)
		}
		w.WriteFile("static/"+name, b)
	}
	for _, r := range rs {
		w.WriteFile(r.Path()+"index.html", []byte(`<!doctype html><html lang="en"><meta charset="utf-8"><title>record</title><h1>`+
			template.HTMLEscapeString(r.ErrorMessage)+`</h1>`))
	}
	return dir
}

// TestEngineSearch runs searchFlow over the real index and engine in the
// harness site, over HTTP and from file://.
func TestEngineSearch(t *testing.T) {
	ctx := browsertest.New(t)
	rs := corpus.Generate(600, 3).Records()
	target, pasted := pasteTarget(t, rs)
	t.Logf("paste target %s (%s): pattern %q, pasted %q", target.ID, target.Path(), target.MessagePattern, pasted)
	for _, mode := range []struct {
		name      string
		indexFile bool
	}{{"http", false}, {"file", true}} {
		t.Run(mode.name, func(t *testing.T) {
			dir := buildEngineSite(t, rs, mode.indexFile)
			base := "file://" + filepath.ToSlash(dir) + "/"
			if !mode.indexFile {
				base = browsertest.Serve(t, dir)
			}
			searchFlow(t, ui{t, ctx}, base, mode.indexFile, target, pasted)
		})
	}
}

// TestSearchPageAccessibility runs axe-core (WCAG 2.1 A and AA rules) on
// the search page with results, filters and the paste badge showing.
func TestSearchPageAccessibility(t *testing.T) {
	axe := testtools.Axe(t)
	ctx := browsertest.New(t)
	dir := buildHarness(t, false, 30)
	if err := os.WriteFile(filepath.Join(dir, "axe.min.js"), []byte(axe), 0o644); err != nil {
		t.Fatal(err)
	}
	u := ui{t, ctx}
	base := browsertest.Serve(t, dir)
	u.navigate(base + "search/index.html?q=" + url.QueryEscape("connection refused could not connect") + "&severity=critical")
	u.paste("Connection refused: could not connect to server at db.internal:6543")
	u.settled()
	u.eval(`(function(){var s=document.createElement('script');s.src='../axe.min.js';document.head.appendChild(s);return 1})()`)
	u.wait(`window.axe`)
	res := browsertest.Eval[string](t, ctx, `axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}}).then(function(r){
		return JSON.stringify({passes: r.passes.length, violations: r.violations.map(function(v){return {id: v.id, help: v.help, nodes: v.nodes.map(function(n){return n.target.join(' ')})}})})})`)
	var out struct {
		Passes     int
		Violations []struct {
			ID, Help string
			Nodes    []string
		}
	}
	if err := json.Unmarshal([]byte(res), &out); err != nil {
		t.Fatal(err)
	}
	if out.Passes == 0 {
		t.Error("axe checked no rules")
	}
	t.Logf("axe: %d rules passed, %d violated", out.Passes, len(out.Violations))
	for _, v := range out.Violations {
		t.Errorf("axe %s: %s at %v", v.ID, v.Help, v.Nodes)
	}
}

// TestSearchHelps checks what the page offers beyond the results, over the
// harness site: no-results help (the query without its filters, the
// engine's spelling suggestion, both one click), and the repository filter
// that takes part of a name and suggests the repositories it matches.
func TestSearchHelps(t *testing.T) {
	ctx := browsertest.New(t)
	dir := buildHarness(t, false, 3)
	base := browsertest.Serve(t, dir)
	u := ui{t, ctx}
	search := base + "search/index.html"

	// Filters that leave nothing: the query without them, one click.
	u.navigate(search + "?q=" + url.QueryEscape("disk quota") + "&severity=critical")
	if got := u.eval(`document.querySelector('[data-search-app]').getAttribute('data-state')`); got != "empty" {
		t.Fatalf("disk quota, severity critical: state %q, want empty", got)
	}
	u.wait(`!document.getElementById('no-results-help').hidden`)
	link := u.eval(`(Array.from(document.querySelectorAll('#no-results-help a')).find(function(a){return /Without filters|Remove all filters/.test(a.parentNode.textContent)})||{}).textContent`)
	if !strings.Contains(link, "1 result") {
		t.Errorf("no-results help offers %q, want the unfiltered count (1 result)", link)
	}
	u.eval(`Array.from(document.querySelectorAll('#no-results-help a')).find(function(a){return /Without filters/.test(a.parentNode.textContent)}).click()`)
	u.wait(`!new URLSearchParams(location.search).has('severity')`)
	u.settled()
	if got := u.results(); len(got) != 1 || got[0] != harnessPath(t, "0000000000000003") {
		t.Errorf("after removing the filters: %v, want the quota record", got)
	}

	// A misspelt word: the engine's spelling suggestion, one click.
	u.navigate(search + "?q=quotta")
	u.wait(`!document.getElementById('no-results-help').hidden`)
	if got := u.eval(`document.getElementById('no-results-help').textContent`); !strings.Contains(got, "Did you mean quota") {
		t.Errorf("no-results help says %q, want a spelling suggestion", got)
	}
	u.eval(`Array.from(document.querySelectorAll('#no-results-help a')).find(function(a){return a.textContent==='quota'}).click()`)
	u.wait(`new URLSearchParams(location.search).get('q')==='quota'`)
	u.settled()
	if got := u.results(); len(got) == 0 || got[0] != harnessPath(t, "0000000000000003") {
		t.Errorf("after the spelling link: %v", got)
	}
	if n := u.eval(`history.length`); n == "1" {
		t.Errorf("the suggestion did not add a history entry")
	}

	// Part of a repository name: suggestions as they type, and Enter takes
	// the part, which searches every repository containing it.
	u.navigate(search + "?q=cache")
	u.eval(`document.getElementById('filter-fold').open=true`)
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 20*time.Second), chromedp.Click(chromedp.CSS("#filter-repo")), chromedp.KeyEvent("cach")); err != nil {
		t.Fatal(err)
	}
	u.wait(`!document.getElementById('repo-suggest').hidden`)
	if got := u.eval(`Array.from(document.querySelectorAll('#repo-suggest [role=option]')).map(function(o){return o.textContent}).join(',')`); got != "acme/cache" {
		t.Errorf("repository suggestions for 'cach': %q, want acme/cache", got)
	}
	if got := u.eval(`document.getElementById('repo-suggest-status').textContent`); !strings.HasPrefix(got, "1 repository") {
		t.Errorf("suggestion status %q", got)
	}
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 10*time.Second), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	u.wait(`new URLSearchParams(location.search).get('repo')==='cach'`)
	u.settled()
	if got := u.results(); len(got) != 2 {
		t.Errorf("cache in repositories containing 'cach': %v, want the 2 acme/cache records", got)
	}
	if got := u.eval(`document.getElementById('filter-count').textContent`); got != "(1 active)" {
		t.Errorf("the filter control says %q, want (1 active)", got)
	}
	// Arrow down and Enter picks a suggestion.
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 20*time.Second), chromedp.Click(chromedp.CSS("#filter-repo")), chromedp.KeyEvent("acme/l"),
		chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	u.wait(`new URLSearchParams(location.search).getAll('repo').indexOf('acme/lock')>=0`)
}
