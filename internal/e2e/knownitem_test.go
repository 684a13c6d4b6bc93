package e2e

// The known-item search benchmark: a generated site of realistic error
// records (internal/corpus) built by the errdocs command, and queries a
// person makes with one record in mind (internal/knownitem: three words of
// its message; its message pasted with other values and a runtime's
// prefix), run through the real search page in headless Chromium, and
// through Pagefind (npm package pagefind, run over the same built pages)
// with the same queries. A result is right when its message is the
// target's, or its messagePattern is (the same error with other values).
//
//	go test ./internal/e2e -run '^$' -bench KnownItem -benchtime 1x -timeout 60m
//
// ERRDOCS_KNOWN_N sets the number of records (default 10,000),
// ERRDOCS_KNOWN_Q the number of queries of each kind (default 200). The
// figures: keywords success@1 and MRR@10 (a result is right when its
// message is the target's), paste success@1, the median result count the
// page reports for keyword queries, the median gzip bytes a query loads in
// a session (and a cold first query), and the engine's time per query
// once its files are loaded.

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errdocs/errdocs/internal/browsertest"
	"github.com/errdocs/errdocs/internal/corpus"
	"github.com/errdocs/errdocs/internal/knownitem"
	"github.com/errdocs/errdocs/internal/testtools"
)

// knownSite is a built site of generated records and its query set.
type knownSite struct {
	site    string
	queries []knownitem.Query
	msgOf   map[string]string          // record page path ("/owner/name/slug/") -> message
	pats    map[string]map[string]bool // message -> the messagePatterns of its records
	gz      sync.Map                   // path -> gzip size
}

func knownEnv(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func buildKnownSite(b *testing.B) *knownSite {
	n := knownEnv("ERRDOCS_KNOWN_N", 10000)
	nq := knownEnv("ERRDOCS_KNOWN_Q", 200)
	dir := b.TempDir()
	ds := corpus.Generate(n, 11)
	data := filepath.Join(dir, "data")
	if err := ds.WriteExport(data, false); err != nil {
		b.Fatal(err)
	}
	site := filepath.Join(dir, "site")
	runErrdocs(b, dir, "build", data, "--out", site)
	recs := ds.Records()
	ks := &knownSite{site: site, queries: knownitem.Make(recs, nq, 5), msgOf: map[string]string{}, pats: map[string]map[string]bool{}}
	for _, r := range recs {
		if ks.pats[r.ErrorMessage] == nil {
			ks.pats[r.ErrorMessage] = map[string]bool{}
		}
		ks.pats[r.ErrorMessage][r.MessagePattern] = true
	}
	h1 := regexp.MustCompile(`<h1 class="msg">([^<]*)</h1>`)
	err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "index.html" {
			return err
		}
		body, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if m := h1.FindSubmatch(body); m != nil {
			rel, _ := filepath.Rel(site, filepath.Dir(p))
			ks.msgOf["/"+filepath.ToSlash(rel)+"/"] = html.UnescapeString(string(m[1]))
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if len(ks.msgOf) < n/2 {
		b.Fatalf("found %d record pages for %d records", len(ks.msgOf), n)
	}
	return ks
}

// gzipSize is the bytes of the file at a URL path of the site sent
// compressed (a file already compressed, as Pagefind's are, counts as is).
func (ks *knownSite) gzipSize(path string) int {
	if v, ok := ks.gz.Load(path); ok {
		return v.(int)
	}
	raw, err := os.ReadFile(filepath.Join(ks.site, filepath.FromSlash(strings.TrimPrefix(path, "/"))))
	if err != nil {
		return 0
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	n := min(len(raw), buf.Len())
	ks.gz.Store(path, n)
	return n
}

// right says whether the record page at path answers q: the same message,
// or the same messagePattern (the same error with other values).
func (ks *knownSite) right(path string, q knownitem.Query) bool {
	m, ok := ks.msgOf[path]
	return ok && (m == q.Target || q.TargetPattern != "" && ks.pats[m][q.TargetPattern])
}

// serveLogged serves the site and records the path of every request
// (what a query loads, whatever the browser's timing APIs report).
func (ks *knownSite) serveLogged(b *testing.B) (base string, taken func() []string) {
	var mu sync.Mutex
	var paths []string
	fs := http.FileServer(http.Dir(ks.site))
	base = browsertest.ServeHandler(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		fs.ServeHTTP(w, r)
	}))
	return base, func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := paths
		paths = nil
		return out
	}
}

// knownRun is what one query gave.
type knownRun struct {
	URLs  []string `json:"urls"`  // result paths, best first (up to 10)
	Count int      `json:"count"` // the result count reported
	Files []string `json:"files"` // URLs loaded for the query
	MS    float64  `json:"ms"`    // the engine's time once loaded
}

// knownFigures scores runs against their queries.
type knownFigures struct {
	kwS1, kwMRR, pasteS1       float64
	kwCount, bytesQ, bytesCold float64
	ms                         float64
}

func (ks *knownSite) score(runs []knownRun) knownFigures {
	var f knownFigures
	var counts, bytesQ, ms []float64
	nkw, np := 0, 0
	for i, q := range ks.queries {
		r := runs[i]
		rank := 0
		for j, u := range r.URLs {
			if j < 10 && ks.right(u, q) {
				rank = j + 1
				break
			}
		}
		b := 0
		for _, u := range r.Files {
			if pu, err := url.Parse(u); err == nil {
				b += ks.gzipSize(pu.Path)
			}
		}
		if i == 0 {
			f.bytesCold = float64(b)
		} else {
			bytesQ = append(bytesQ, float64(b))
		}
		ms = append(ms, r.MS)
		if q.Kind == "keywords" {
			nkw++
			counts = append(counts, float64(r.Count))
			if rank == 1 {
				f.kwS1++
			}
			if rank > 0 {
				f.kwMRR += 1 / float64(rank)
			}
		} else {
			np++
			if rank == 1 {
				f.pasteS1++
			}
		}
	}
	f.kwS1 /= float64(nkw)
	f.kwMRR /= float64(nkw)
	f.pasteS1 /= float64(np)
	f.kwCount = median(counts)
	f.bytesQ = median(bytesQ)
	f.ms = median(ms)
	return f
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func (f knownFigures) report(b *testing.B, name string) {
	b.ReportMetric(f.kwS1, "kw-success@1")
	b.ReportMetric(f.kwMRR, "kw-MRR@10")
	b.ReportMetric(f.pasteS1, "paste-success@1")
	b.ReportMetric(f.kwCount, "kw-median-count")
	b.ReportMetric(f.bytesQ, "gzip-B/query")
	b.ReportMetric(f.bytesCold, "gzip-B/cold-first")
	b.ReportMetric(f.ms, "ms/query")
	b.Logf("%s: keywords success@1 %.3f, MRR@10 %.3f, median count %.0f; paste success@1 %.3f; gzip bytes per query %.0f (median; cold first query with page %.0f); engine time %.1f ms (median)",
		name, f.kwS1, f.kwMRR, f.kwCount, f.pasteS1, f.bytesQ, f.bytesCold, f.ms)
}

// knownMisses writes the queries whose target was not first, for reading.
func (ks *knownSite) misses(b *testing.B, name string, runs []knownRun) {
	out := os.Getenv("ERRDOCS_KNOWN_OUT")
	if out == "" {
		return
	}
	var buf bytes.Buffer
	for i, q := range ks.queries {
		r := runs[i]
		if len(r.URLs) > 0 && ks.right(r.URLs[0], q) {
			continue
		}
		fmt.Fprintf(&buf, "%s %q (count %d)\n  want %q\n", q.Kind, q.Text, r.Count, q.Target)
		for j, u := range r.URLs {
			if j < 3 {
				fmt.Fprintf(&buf, "  got  %q (%s)\n", ks.msgOf[u], u)
			}
		}
	}
	os.WriteFile(filepath.Join(out, name+"-misses.txt"), buf.Bytes(), 0o644)
}

func BenchmarkKnownItem(b *testing.B) {
	ks := buildKnownSite(b)
	b.Logf("%d record pages, %d queries", len(ks.msgOf), len(ks.queries))
	b.Run("errdocs", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			runs := ks.runErrdocs(b)
			ks.misses(b, "errdocs", runs)
			ks.score(runs).report(b, "errdocs")
		}
	})
	b.Run("pagefind", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			runs := ks.runPagefind(b)
			ks.misses(b, "pagefind", runs)
			ks.score(runs).report(b, "pagefind")
		}
	})
}

// knownResults reads the search page's settled results: paths of the
// first ten, the count its status line gives, and the files loaded since
// the timings were cleared.
const knownResults = `(function(){
  var urls = Array.from(document.querySelectorAll('#results li.result')).slice(0, 10).map(function (li) {
    var a = li.querySelector('a'); return a ? new URL(a.href).pathname.replace(/index\.html$/, '') : ''; });
  var st = (document.getElementById('result-count') || {}).textContent || '';
  var m = /([0-9][0-9,]*) results?/.exec(st);
  var files = performance.getEntriesByType('resource').map(function (e) { return e.name; });
  return {urls: urls, count: m ? Number(m[1].replace(/,/g, '')) : 0, files: files};
})()`

func (ks *knownSite) runErrdocs(b *testing.B) []knownRun {
	ctx := browsertest.New(b)
	base, taken := ks.serveLogged(b)
	browsertest.Navigate(b, ctx, base+"search/")
	settled := `(function(){var a=document.querySelector('[data-search-app]');return a&&!a.hasAttribute('aria-busy')&&/^(results|empty)$/.test(a.getAttribute('data-state'))})()`
	browsertest.WaitFor(b, ctx, `window.ErrdocsSearch && document.querySelector('[data-search-app]')`, 30*time.Second)
	browsertest.Eval[bool](b, ctx, `performance.setResourceTimingBufferSize(100000), true`)
	runs := make([]knownRun, len(ks.queries))
	for i, q := range ks.queries {
		if i > 0 {
			browsertest.Eval[bool](b, ctx, `performance.clearResourceTimings(), true`)
		}
		qj, _ := json.Marshal(q.Raw)
		if q.Kind == "paste" {
			browsertest.Eval[bool](b, ctx, `(function(){var i=document.getElementById('search-q');i.value='';i.focus();
				var dt=new DataTransfer();dt.setData('text/plain',`+string(qj)+`);
				i.dispatchEvent(new ClipboardEvent('paste',{clipboardData:dt,bubbles:true,cancelable:true}));return true})()`)
		} else {
			browsertest.Eval[bool](b, ctx, `(function(){var i=document.getElementById('search-q');i.value=`+string(qj)+`;
				i.dispatchEvent(new Event('input',{bubbles:true}));return true})()`)
		}
		browsertest.WaitFor(b, ctx, settled, 60*time.Second)
		runs[i] = browsertest.Eval[knownRun](b, ctx, knownResults)
		runs[i].Files = taken()
		if os.Getenv("ERRDOCS_KNOWN_DEBUG") != "" {
			b.Logf("query %d: %d files %v", i, len(runs[i].Files), runs[i].Files)
		}
		// the engine's own time for the same query, its files now loaded
		tj, _ := json.Marshal(q.Text)
		runs[i].MS = browsertest.Eval[float64](b, ctx, `(function(){var t0=performance.now();
			return ErrdocsSearch.search(`+string(tj)+`,{limit:20}).then(function(){return performance.now()-t0})})()`)
		taken() // files of that timing run: not the next query's
	}
	return runs
}

func (ks *knownSite) runPagefind(b *testing.B) []knownRun {
	bin := testtools.Pagefind(b)
	// Pagefind indexes the record pages (not listings, which repeat
	// their messages), each page's main element, as its docs advise.
	pf := filepath.Join(filepath.Dir(ks.site), "pfsite")
	for p := range ks.msgOf {
		dst := filepath.Join(pf, filepath.FromSlash(p), "index.html")
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.Link(filepath.Join(ks.site, filepath.FromSlash(p), "index.html"), dst); err != nil {
			b.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "--site", pf, "--output-path", filepath.Join(ks.site, "_pagefind"), "--root-selector", "main", "--quiet")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("pagefind: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(ks.site, "_pfbench.html"), []byte("<!doctype html><title>pagefind</title>"), 0o644); err != nil {
		b.Fatal(err)
	}
	ctx := browsertest.New(b)
	base, taken := ks.serveLogged(b)
	browsertest.Navigate(b, ctx, base+"_pfbench.html")
	browsertest.Eval[bool](b, ctx, `performance.setResourceTimingBufferSize(100000), true`)
	runs := make([]knownRun, len(ks.queries))
	for i, q := range ks.queries {
		if i > 0 {
			browsertest.Eval[bool](b, ctx, `performance.clearResourceTimings(), true`)
		}
		qj, _ := json.Marshal(q.Text)
		runs[i] = browsertest.Eval[knownRun](b, ctx, `(async function(){
			var pf = window.__pf || (window.__pf = await import('/_pagefind/pagefind.js'));
			await pf.options({ excerptLength: 30 });
			var r = await pf.search(`+string(qj)+`);
			var top = await Promise.all(r.results.slice(0, 10).map(function (x) { return x.data(); }));
			var t0 = performance.now();
			await pf.search(`+string(qj)+`);
			var ms = performance.now() - t0;
			return {urls: top.map(function (d) { return new URL(d.url, location.href).pathname; }), count: r.results.length,
				ms: ms, files: []};
		})()`)
		runs[i].Files = taken()
	}
	return runs
}
