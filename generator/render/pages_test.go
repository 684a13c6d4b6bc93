package render

import (
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/record"
)

// entryRE matches a record's entry in a listing.
var entryRE = regexp.MustCompile(`<li><a href="[^"]*">[^<]*</a> <span class="badge`)

var hrefRE = regexp.MustCompile(`(?:href|action)="([^"]*)"`)

// checkLinks resolves every internal link of every page and fails for one
// that names no page emitted. Static assets and the search page (another
// feature's) are left out unless emitted.
func checkLinks(t *testing.T, pages map[string][]byte, indexFile bool) int {
	t.Helper()
	base, _ := url.Parse("http://site.test/")
	n := 0
	for name, b := range pages {
		from := base.ResolveReference(&url.URL{Path: name})
		for _, m := range hrefRE.FindAllSubmatch(b, -1) {
			raw := strings.ReplaceAll(string(m[1]), "&amp;", "&")
			u, err := url.Parse(raw)
			if err != nil {
				t.Errorf("%s: bad URL %q", name, raw)
				continue
			}
			to := from.ResolveReference(u)
			if to.Host != base.Host || u.Path == "" && u.Fragment != "" {
				continue
			}
			p := strings.TrimPrefix(to.Path, "/")
			if strings.HasPrefix(p, "static/") {
				continue
			}
			if strings.HasSuffix(p, "/") || p == "" {
				if indexFile {
					t.Errorf("%s: link %q names a folder in an index-file build", name, raw)
				}
				p += "index.html"
			}
			if _, ok := pages[p]; !ok {
				t.Errorf("%s: link %q resolves to %s, which is not a page", name, raw, p)
			}
			n++
		}
	}
	return n
}

func TestLinksResolve(t *testing.T) {
	for _, indexFile := range []bool{false, true} {
		recs := sample(t)
		s := build(recs)
		pages := renderAll(t, newRenderer(t, Options{IndexFile: indexFile}), s, recs)
		if n := checkLinks(t, pages, indexFile); n < 50 {
			t.Errorf("only %d links checked", n)
		}
		rp := string(pages[recs[0].Path()+"index.html"])
		// The seed's family holds the minimal record from another repo:
		// it is related, and so are records sharing tags.
		for _, want := range []string{"families/resource-limit-exceeded/", "tags/jax/", "rust-lang/regex/too-big/", "rust-lang/regex/other/"} {
			if !strings.Contains(rp, want) {
				t.Errorf("seed page (indexFile=%v) lacks a link to %s", indexFile, want)
			}
		}
	}
}

func TestNullFieldsLeaveNoHeading(t *testing.T) {
	recs := append(sample(t), minimal("0000000000000009", "lone/repo", "alone"))
	pages := renderAll(t, newRenderer(t, Options{}), build(recs), recs)
	page := string(pages[recs[3].Path()+"index.html"]) // every nullable field null, no tags
	for _, absent := range []string{"Solutions", "Example fix", "Handling it", "Prevention checklist",
		"Related errors", "<dt>Error class", "<dt>Error code", "<dt>HTTP status", "<dt>Family", "checklist", "<pre"} {
		if strings.Contains(page, absent) {
			t.Errorf("minimal record page holds %q", absent)
		}
	}
	if regexp.MustCompile(`<h[1-6][^>]*>\s*</h[1-6]>`).MatchString(page) {
		t.Error("empty heading")
	}
	if emptyContentList(page) {
		t.Error("empty list")
	}
	if strings.Count(page, "<h1") != 1 {
		t.Error("want exactly one h1")
	}
}

// emptyContentList reports a list with no items in page, leaving out the
// header search box's listbox, which its script fills as the reader types.
func emptyContentList(page string) bool {
	for _, m := range regexp.MustCompile(`<(ul|ol|dl)([^>]*)>\s*</(ul|ol|dl)>`).FindAllStringSubmatch(page, -1) {
		if !strings.Contains(m[2], `role="listbox"`) {
			return true
		}
	}
	return false
}

// manyRecords makes n records in one repo with long messages.
func manyRecords(n int) []*record.Record {
	var recs []*record.Record
	for i := range n {
		r := minimal(fmt.Sprintf("%016x", i+1), "big/repo", fmt.Sprintf("error-%04d", i))
		r.ErrorMessage = strings.Repeat("a very long & <angled> message ", 40)
		r.Tags = []string{"common"}
		r.BackgroundTag = "fam"
		recs = append(recs, r)
	}
	return recs
}

func TestPagination(t *testing.T) {
	recs := manyRecords(250)
	s := build(recs)
	pages := renderAll(t, newRenderer(t, Options{}), s, recs)
	for _, base := range []string{"big/repo/", "tags/common/", "families/fam/"} {
		for n := 1; n <= 3; n++ {
			p := model.PagePath(base, n) + "index.html"
			b, ok := pages[p]
			if !ok {
				t.Fatalf("no page %s", p)
			}
			if len(b) > MaxPage {
				t.Errorf("%s is %d bytes", p, len(b))
			}
			if c := len(entryRE.FindAll(b, -1)); c != min(100, 250-(n-1)*100) {
				t.Errorf("%s lists %d records", p, c)
			}
		}
		if _, ok := pages[model.PagePath(base, 4)+"index.html"]; ok {
			t.Errorf("%s has a fourth page", base)
		}
	}
	p2 := string(pages["big/repo/page/2/index.html"])
	for _, want := range []string{`href="../../../../big/repo/" rel="prev"`, `href="../../../../big/repo/page/3/" rel="next"`, `aria-current="page">2<`, `<ol class="list" start="101">`} {
		if !strings.Contains(p2, want) {
			t.Errorf("page 2 lacks %q", want)
		}
	}
	checkLinks(t, pages, false)
}

func TestOversizedListingSplits(t *testing.T) {
	recs := manyRecords(30)
	for _, r := range recs {
		// Slugs are unbounded in the schema: make each entry ~20 KB.
		r.Slug = r.Slug + strings.Repeat("-x", 10000)
	}
	s := build(recs)
	pages := map[string][]byte{}
	if err := newRenderer(t, Options{}).Pages(s, func(p string, b []byte) error { pages[p] = b; return nil }); err != nil {
		t.Fatal(err)
	}
	listed := 0
	for p, b := range pages {
		if len(b) > MaxPage {
			t.Errorf("%s is %d bytes", p, len(b))
		}
		if strings.HasPrefix(p, "big/repo/") {
			listed += len(entryRE.FindAll(b, -1))
		}
	}
	if listed != 30 {
		t.Errorf("repo pages list %d records, want 30", listed)
	}
}

func TestDeterministic(t *testing.T) {
	recs := append(sample(t), manyRecords(120)...)
	var outs []map[string][]byte
	for range 2 {
		outs = append(outs, renderAll(t, newRenderer(t, Options{}), build(recs), recs))
	}
	if len(outs[0]) != len(outs[1]) {
		t.Fatal("different page sets")
	}
	names := make([]string, 0, len(outs[0]))
	for p := range outs[0] {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		if !bytes.Equal(outs[0][p], outs[1][p]) {
			t.Errorf("%s differs between two renders", p)
		}
	}
}

func TestNotFoundAbsolute(t *testing.T) {
	recs := sample(t)
	var page []byte
	r := newRenderer(t, Options{BaseURL: "https://example.org/docs/errors"})
	err := r.Pages(build(recs), func(p string, b []byte) error {
		if p == "404.html" {
			page = b
		}
		return nil
	})
	if err != nil || page == nil {
		t.Fatalf("no 404 page: %v", err)
	}
	n := 0
	for _, m := range regexp.MustCompile(`(?:href|action)="([^"#][^"]*)"`).FindAllSubmatch(page, -1) {
		n++
		if !strings.HasPrefix(string(m[1]), "https://example.org/docs/errors/") {
			t.Errorf("404 link %q is not absolute under the base URL", m[1])
		}
	}
	if n < 8 {
		t.Errorf("only %d links on the 404 page", n)
	}
}

func TestRecordErrors(t *testing.T) {
	recs := sample(t)
	r := newRenderer(t, Options{})
	if _, err := r.Record(build(recs), 7, recs[0]); err == nil {
		t.Error("record index out of range: no error")
	}
	if _, err := r.Record(build(recs), 0, nil); err == nil {
		t.Error("nil record: no error")
	}
	if _, err := New(Options{}); err == nil {
		t.Error("no templates: no error")
	}
}

// TestConcurrentRecords renders record pages from many goroutines, as the
// build does; run with -race.
func TestConcurrentRecords(t *testing.T) {
	recs := append(sample(t), manyRecords(40)...)
	s := build(recs)
	r := newRenderer(t, Options{})
	want := renderAll(t, r, s, recs)
	errs := make(chan error, len(recs))
	for i, rec := range recs {
		go func() {
			b, err := r.Record(s, int32(i), rec)
			if err == nil && !bytes.Equal(b, want[rec.Path()+"index.html"]) {
				err = fmt.Errorf("%s differs when rendered concurrently", rec.Path())
			}
			errs <- err
		}()
	}
	for range recs {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
