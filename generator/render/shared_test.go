package render

import (
	"bytes"
	"html/template"
	"io/fs"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
)

// TestSharedFragmentsFollowThePagesDepth renders a site whose pages sit at
// several depths and checks that each page's header, asset links and
// footer (shared fragments, executed once per depth) link from that page.
func TestSharedFragmentsFollowThePagesDepth(t *testing.T) {
	recs := []*record.Record{minimal("1", "o/n", "a"), minimal("2", "o/n", "b"), minimal("3", "p/q", "c")}
	r := newRenderer(t, Options{})
	pages := renderAll(t, r, build(recs), recs)
	brand := regexp.MustCompile(`<a class="brand" href="([^"]*)">`)
	footer := regexp.MustCompile(`<a href="([^"]*)">Repositories</a>`)
	style := regexp.MustCompile(`<link rel="stylesheet" href="([^"]*)">`)
	depths := map[int]bool{}
	for file, b := range pages {
		from, ok := strings.CutSuffix(file, "index.html")
		if !ok {
			continue
		}
		depths[strings.Count(from, "/")] = true
		l := model.Links{From: from}
		for _, c := range []struct {
			re   *regexp.Regexp
			want string
		}{{brand, l.Link("")}, {footer, l.Link("repos/")}, {style, l.Asset("style.css")}} {
			m := c.re.FindSubmatch(b)
			if m == nil || string(m[1]) != template.HTMLEscapeString(c.want) {
				t.Errorf("%s: %s gives %q, want %q", file, c.re, m, c.want)
			}
		}
	}
	if len(depths) < 3 {
		t.Fatalf("pages at depths %v only: the test needs several", depths)
	}
	// The built-in fragments use nothing but the site: each is shared.
	r.shared.Range(func(k, v any) bool {
		if v.(template.HTML) == notShared {
			t.Errorf("fragment %q is executed page by page: it uses more than the site", k.(sharedKey).name)
		}
		return true
	})
}

// TestSharedFragmentUsingThePage overrides the header with one that shows
// the page's own title (templates from disk may): the fragment cannot be
// shared, and each page still shows its own.
func TestSharedFragmentUsingThePage(t *testing.T) {
	files := fstest.MapFS{}
	err := fs.WalkDir(templatesDir, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(templatesDir, path)
		files[path] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	partials := string(files[partialsFile].Data)
	const open = `<header class="top">`
	if !strings.Contains(partials, open) {
		t.Fatalf("%s has no %s", partialsFile, open)
	}
	files[partialsFile].Data = []byte(strings.Replace(partials, open, open+`<p class="own">{{.Head.Title}}</p>`, 1))
	recs := []*record.Record{minimal("1", "o/n", "first"), minimal("2", "o/n", "second")}
	r := newRenderer(t, Options{Templates: files})
	s := build(recs)
	for i, rec := range recs {
		b, err := r.Record(s, int32(i), rec)
		if err != nil {
			t.Fatal(err)
		}
		want := `<p class="own">failed: ` + rec.Slug + ` — o/n · errdocs</p>`
		if !strings.Contains(string(b), want) {
			t.Errorf("page of %s lacks its own title in the header (%s)", rec.Slug, want)
		}
	}
}

// TestMemoizedTableOfContents renders records with different sections and
// checks that each page's "On this page" and headings are its own, though
// pages with the same sections share them.
func TestMemoizedTableOfContents(t *testing.T) {
	full := seed(t)
	bare := minimal("2", "o/n", "bare")
	bare.TriggerScenarios, bare.CommonSituations = "", ""
	recs := []*record.Record{full, bare, minimal("3", "o/n", "third")}
	r := newRenderer(t, Options{})
	s := build(recs)
	toc := regexp.MustCompile(`<li><a href="#([a-z-]+)">`)
	heading := regexp.MustCompile(`<h2 id="([a-z-]+)"><a class="anchor" href="#([a-z-]+)">([^<]+)</a></h2>`)
	var seen []string
	for i, rec := range recs {
		p, err := r.recordPage(s, int32(i), rec)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, l := range p.Data.(*recordData).Sections {
			want = append(want, l.Path)
		}
		b, err := r.Record(s, int32(i), rec)
		if err != nil {
			t.Fatal(err)
		}
		var got, heads []string
		for _, m := range toc.FindAllSubmatch(b, -1) {
			got = append(got, string(m[1]))
		}
		for _, m := range heading.FindAllSubmatch(b, -1) {
			if string(m[1]) != string(m[2]) || string(m[3]) != sectionTitles[string(m[1])] {
				t.Errorf("%s: heading %s", rec.Slug, m[0])
			}
			heads = append(heads, string(m[1]))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") || strings.Join(heads, " ") != strings.Join(want, " ") {
			t.Errorf("%s: contents %v, headings %v; want %v", rec.Slug, got, heads, want)
		}
		seen = append(seen, strings.Join(want, " "))
	}
	if seen[0] == seen[1] || seen[1] == seen[2] {
		t.Fatalf("the records' sections do not differ: %q", seen)
	}
}

// TestMemoRefusesOtherValues: a memo is kept by its argument's value, so
// only values without methods are accepted.
func TestMemoRefusesOtherValues(t *testing.T) {
	r := newRenderer(t, Options{})
	p := r.page("x/", "X")
	p.r, p.set = r, r.pages[recordPage]
	if _, err := p.Memo("h2", p); err == nil {
		t.Error("Memo took a page as its argument")
	}
	if h, err := p.Memo("h2", link{Name: "A <b>", Path: "a"}); err != nil || h != `<h2 id="a"><a class="anchor" href="#a">A &lt;b&gt;</a></h2>` {
		t.Errorf("Memo(h2) = %q, %v", h, err)
	}
}

// TestSharedFragmentsConcurrently renders record pages on several
// goroutines with a fresh renderer (its fragments made and first executed
// concurrently) and compares them with the same pages rendered one by one.
func TestSharedFragmentsConcurrently(t *testing.T) {
	all := corpus.Generate(40, 3).Records()
	recs := make([]*record.Record, len(all))
	for i := range all {
		recs[i] = &all[i]
	}
	s := build(recs)
	want := make([][]byte, len(recs))
	serial := newRenderer(t, Options{})
	for i, rec := range recs {
		b, err := serial.Record(s, int32(i), rec)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = b
	}
	r := newRenderer(t, Options{})
	got := make([][]byte, len(recs))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(recs); i += 4 {
				b, err := r.Record(s, int32(i), recs[i])
				if err != nil {
					t.Error(err)
					return
				}
				got[i] = b
			}
		})
	}
	wg.Wait()
	for i := range recs {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("record %s: page rendered concurrently differs from the one rendered alone", recs[i].Slug)
		}
	}
}
