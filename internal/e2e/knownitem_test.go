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
// ERRDOCS_KNOWN_Q the number of queries of each kind (default 200), and
// ERRDOCS_KNOWN_MESSAGES=real gives the records real messages (raised in
// public repositories, internal/corpus UseRealMessages) in place of the
// generator's templates:
//
//	ERRDOCS_KNOWN_MESSAGES=real go test ./internal/e2e -run '^$' -bench KnownItem -benchtime 1x -timeout 60m
//
// The
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
	skels   map[string]map[string]bool // message -> the skeletons of its records (knownitem.Skeleton)
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
	if err := ds.UseMessages(os.Getenv("ERRDOCS_KNOWN_MESSAGES")); err != nil {
		b.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	if err := ds.WriteExport(data, false); err != nil {
		b.Fatal(err)
	}
	site := filepath.Join(dir, "site")
	runErrdocs(b, dir, "build", data, "--out", site)
	recs := ds.Records()
	ks := &knownSite{site: site, queries: knownitem.Make(recs, nq, 5), msgOf: map[string]string{}, pats: map[string]map[string]bool{}, skels: map[string]map[string]bool{}}
	for _, r := range recs {
		if ks.pats[r.ErrorMessage] == nil {
			ks.pats[r.ErrorMessage] = map[string]bool{}
		}
		ks.pats[r.ErrorMessage][r.MessagePattern] = true
		if ks.skels[r.ErrorMessage] == nil {
			ks.skels[r.ErrorMessage] = map[string]bool{}
		}
		ks.skels[r.ErrorMessage][knownitem.Skeleton(r.ErrorMessage, r.MessagePattern)] = true
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

// sameError says whether the record page at path raises the same error as
// q's target as far as a message tells: the same skeleton (its words
// apart from its values), the target's or another record's of that
// message.
func (ks *knownSite) sameError(path string, q knownitem.Query) bool {
	m, ok := ks.msgOf[path]
	return ok && ks.skels[m][q.TargetSkeleton]
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
	ms, msKeywords, msPaste    float64 // median engine time: all queries, by kind
	// the same under sameError (records that raise the same error with
	// other values count as the answer)
	kwS1Same, kwMRRSame, pasteS1Same float64
}

// rankOf is the rank (1-10) of the first URL right answers, or 0.
func rankOf(urls []string, right func(string) bool) int {
	for j, u := range urls {
		if j < 10 && right(u) {
			return j + 1
		}
	}
	return 0
}

func (ks *knownSite) score(runs []knownRun) knownFigures {
	var f knownFigures
	var counts, bytesQ, ms, msKw, msPaste []float64
	nkw, np := 0, 0
	for i, q := range ks.queries {
		r := runs[i]
		rank := rankOf(r.URLs, func(u string) bool { return ks.right(u, q) })
		same := rankOf(r.URLs, func(u string) bool { return ks.sameError(u, q) })
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
			msKw = append(msKw, r.MS)
			counts = append(counts, float64(r.Count))
			f.kwS1 += at1(rank)
			f.kwMRR += reciprocal(rank)
			f.kwS1Same += at1(same)
			f.kwMRRSame += reciprocal(same)
		} else {
			np++
			msPaste = append(msPaste, r.MS)
			f.pasteS1 += at1(rank)
			f.pasteS1Same += at1(same)
		}
	}
	for _, x := range []*float64{&f.kwS1, &f.kwMRR, &f.kwS1Same, &f.kwMRRSame} {
		*x /= float64(nkw)
	}
	f.pasteS1 /= float64(np)
	f.pasteS1Same /= float64(np)
	f.kwCount = median(counts)
	f.bytesQ = median(bytesQ)
	f.ms, f.msKeywords, f.msPaste = median(ms), median(msKw), median(msPaste)
	return f
}

func at1(rank int) float64 {
	if rank == 1 {
		return 1
	}
	return 0
}

func reciprocal(rank int) float64 {
	if rank == 0 {
		return 0
	}
	return 1 / float64(rank)
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
	b.ReportMetric(f.kwMRRSame, "kw-MRR@10-same-error")
	b.ReportMetric(f.pasteS1Same, "paste-success@1-same-error")
	b.ReportMetric(f.kwCount, "kw-median-count")
	b.ReportMetric(f.bytesQ, "gzip-B/query")
	b.ReportMetric(f.bytesCold, "gzip-B/cold-first")
	b.ReportMetric(f.ms, "ms/query")
	b.Logf("%s: keywords success@1 %.3f, MRR@10 %.3f, median count %.0f; paste success@1 %.3f; "+
		"same error: keywords success@1 %.3f, MRR@10 %.3f, paste success@1 %.3f; "+
		"gzip bytes per query %.0f (median; cold first query with page %.0f); "+
		"engine time, median: %.1f ms (keywords %.1f, pastes %.1f)",
		name, f.kwS1, f.kwMRR, f.kwCount, f.pasteS1, f.kwS1Same, f.kwMRRSame, f.pasteS1Same,
		f.bytesQ, f.bytesCold, f.ms, f.msKeywords, f.msPaste)
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
		same := ""
		if len(r.URLs) > 0 && ks.sameError(r.URLs[0], q) {
			same = " [first is the same error]"
		}
		fmt.Fprintf(&buf, "%s %q (count %d)%s\n  want %q\n", q.Kind, q.Text, r.Count, same, q.Target)
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
	// Every engine call the page makes is recorded, to be replayed for
	// the engine's time once the query's files are loaded.
	browsertest.Eval[bool](b, ctx, `(function(){var s=ErrdocsSearch.search;window.__calls=[];
		ErrdocsSearch.search=function(q,o){window.__calls.push([q,o]);return s.apply(this,arguments)};return true})()`)
	runs := make([]knownRun, len(ks.queries))
	for i, q := range ks.queries {
		if i > 0 {
			browsertest.Eval[bool](b, ctx, `performance.clearResourceTimings(), true`)
		}
		browsertest.Eval[bool](b, ctx, `(window.__calls=[], true)`)
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
		// the engine's own time for the calls the page made, their files
		// now loaded (the median of three replays)
		runs[i].MS = browsertest.Eval[float64](b, ctx, `(async function(){var cs=window.__calls.slice(), ts=[];
			for (var r = 0; r < 3; r++) { var t0=performance.now();
				for (var j = 0; j < cs.length; j++) await ErrdocsSearch.search(cs[j][0], cs[j][1]);
				ts.push(performance.now()-t0); }
			return ts.sort(function(a,b){return a-b})[1]})()`)
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
