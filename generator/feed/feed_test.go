package feed_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errdocs/errdocs/generator/feed"
	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/record"
)

const base = "https://example.org/docs/errors/"

// rec makes a record that is indexable on its own: a unique error code (no
// duplicate group), documentation over 200 characters and a solution.
func rec(repo string, n int, at time.Time) *record.Record {
	return &record.Record{
		ID: fmt.Sprintf("%016x", n), Repo: repo, Slug: fmt.Sprintf("error-%d", n),
		ErrorCode: fmt.Sprintf("E%d", n), ErrorMessage: fmt.Sprintf("failure number %d", n),
		MessagePattern: fmt.Sprintf("failure number %d", n), ErrorType: "exception", Severity: "error",
		FilePath: "src/main.go", Documentation: strings.Repeat("Explains the error. ", 12),
		Solutions: []string{"Fix it."}, Tags: []string{"io"},
		AnalyzedAt: at.UTC().Format(time.RFC3339),
	}
}

func buildSite(rs []*record.Record) *model.Model {
	var b model.Builder
	for _, r := range rs {
		b.Add(model.Summarize(r))
	}
	return b.Build()
}

func write(t testing.TB, s *model.Model, o feed.Options) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := feed.Write(s, o, func(p string, b []byte) error {
		if _, dup := out[p]; dup {
			t.Errorf("%s written twice", p)
		}
		out[p] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type urlset struct {
	XMLName xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
	URLs    []struct {
		Loc     string `xml:"loc"`
		Lastmod string `xml:"lastmod"`
	} `xml:"url"`
}

type sitemapindex struct {
	XMLName  xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 sitemapindex"`
	Sitemaps []struct {
		Loc     string `xml:"loc"`
		Lastmod string `xml:"lastmod"`
	} `xml:"sitemap"`
}

// sitemapURLs checks the index and every file it names and returns the
// URLs of each file by path.
func sitemapURLs(t testing.TB, files map[string][]byte) map[string][]string {
	t.Helper()
	var idx sitemapindex
	if err := xml.Unmarshal(files["sitemap.xml"], &idx); err != nil {
		t.Fatalf("sitemap.xml: %v", err)
	}
	out := map[string][]string{}
	named := map[string]bool{}
	for _, sm := range idx.Sitemaps {
		rel, ok := strings.CutPrefix(sm.Loc, base)
		if !ok {
			t.Fatalf("sitemap %s is not under %s", sm.Loc, base)
		}
		named[rel] = true
		b, ok := files[rel]
		if !ok {
			t.Fatalf("the index names %s, which was not written", rel)
		}
		if len(b) > feed.MaxBytes {
			t.Errorf("%s is %d bytes, over 50 MB", rel, len(b))
		}
		var us urlset
		if err := xml.Unmarshal(b, &us); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if len(us.URLs) > feed.MaxURLs {
			t.Errorf("%s holds %d URLs, over %d", rel, len(us.URLs), feed.MaxURLs)
		}
		for _, u := range us.URLs {
			if !strings.HasPrefix(u.Loc, base) {
				t.Errorf("%s: %s is not under the base", rel, u.Loc)
			}
			out[rel] = append(out[rel], u.Loc)
		}
	}
	for p := range files {
		if strings.HasPrefix(p, feed.SitemapDir) && !named[p] {
			t.Errorf("%s was written but the index does not name it", p)
		}
	}
	return out
}

// changed lists the sitemap files (not the index) whose bytes differ, or
// that exist in only one of a and b.
func changed(a, b map[string][]byte) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(a)) {
		if strings.HasPrefix(p, feed.SitemapDir) && !bytes.Equal(a[p], b[p]) {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok && strings.HasPrefix(p, feed.SitemapDir) {
			out = append(out, p)
		}
	}
	return out
}

// TestLargeSiteSplitsAndStaysStable: 120,000 indexable records go into
// sitemap files of at most 50,000 URLs, every record listed once; adding
// one record rewrites exactly one record sitemap file.
func TestLargeSiteSplitsAndStaysStable(t *testing.T) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var rs []*record.Record
	for n := range 120000 {
		r := rec(fmt.Sprintf("owner%d/repo", n%300), n, start.Add(time.Duration(n)*time.Second))
		// No tags: related records over one huge tag would dominate the
		// test's time and say nothing about sitemaps.
		r.Tags = nil
		rs = append(rs, r)
	}
	before := write(t, buildSite(rs), feed.Options{BaseURL: base, Title: "t"})
	urls := sitemapURLs(t, before)
	seen := map[string]bool{}
	recordFiles := 0
	for p, us := range urls {
		if !strings.HasPrefix(p, "sitemaps/sitemap-pages-") {
			recordFiles++
		}
		for _, u := range us {
			if seen[u] {
				t.Errorf("%s listed twice", u)
			}
			seen[u] = true
		}
	}
	if recordFiles < 3 {
		t.Errorf("120,000 records in %d record sitemap files: cannot be within 50,000 each", recordFiles)
	}
	for _, r := range rs[:1000] {
		if !seen[base+r.Path()] {
			t.Fatalf("%s is not in any sitemap", r.Path())
		}
	}
	// 120,000 records + home, 3 listings, 300 repos.
	if want := 120000 + 4 + 300; len(seen) != want {
		t.Errorf("%d URLs listed, want %d", len(seen), want)
	}

	// A record older than its repo's newest changes no binding page's
	// lastmod: exactly one file changes.
	old := rec("owner7/repo", 999999, start)
	old.Tags = nil
	after := write(t, buildSite(append(slices.Clone(rs), old)), feed.Options{BaseURL: base, Title: "t"})
	if c := changed(before, after); len(c) != 1 || strings.HasPrefix(c[0], "sitemaps/sitemap-pages-") {
		t.Errorf("adding one record changed %v, want exactly one record sitemap file", c)
	}

	// A newer record changes its own file and the binding pages' files
	// (their lastmod moves), but still only one record file.
	fresh := rec("owner7/repo", 1000000, start.Add(1000*time.Hour))
	fresh.Tags = nil
	after = write(t, buildSite(append(slices.Clone(rs), fresh)), feed.Options{BaseURL: base, Title: "t"})
	n := 0
	for _, p := range changed(before, after) {
		if !strings.HasPrefix(p, "sitemaps/sitemap-pages-") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("adding one newer record changed %d record sitemap files, want 1", n)
	}
}

// TestShardCountGrowsByDoubling: shard counts are powers of two and a
// page's shard under 2n is its shard under n or that plus n, so growing
// the site moves at most half the pages, once per doubling.
func TestShardCountGrowsByDoubling(t *testing.T) {
	for _, n := range []int{0, 1, 25000, 25001, 50001, 120000} {
		paths := make([]string, n)
		for i := range paths {
			paths[i] = fmt.Sprintf("o/r/s-%d/", i)
		}
		c := feed.ShardCount(paths, base)
		if c&(c-1) != 0 {
			t.Errorf("%d pages: %d shards, not a power of two", n, c)
		}
	}
	for i := range 1000 {
		p := fmt.Sprintf("o/r/s-%d/", i)
		for n := 1; n < 64; n *= 2 {
			if a, b := feed.Shard(p, n), feed.Shard(p, 2*n); b != a && b != a+n {
				t.Fatalf("%s: shard %d of %d became %d of %d", p, a, n, b, 2*n)
			}
		}
	}
}

// TestOnlyIndexablePages: a duplicate (non-canonical) record and a thin
// canonical one are left out of the sitemaps; the feed still lists them.
func TestOnlyIndexablePages(t *testing.T) {
	at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	good := rec("a/b", 1, at)
	dup := rec("a/b", 2, at)
	dup.ErrorCode = good.ErrorCode
	dup.Solutions = nil
	thin := rec("a/b", 3, at)
	thin.Documentation, thin.Solutions = "Short.", nil
	files := write(t, buildSite([]*record.Record{good, dup, thin}), feed.Options{BaseURL: base})
	var all []string
	for _, us := range sitemapURLs(t, files) {
		all = append(all, us...)
	}
	if !slices.Contains(all, base+good.Path()) {
		t.Errorf("the canonical record %s is not listed", good.Path())
	}
	for _, r := range []*record.Record{dup, thin} {
		if slices.Contains(all, base+r.Path()) {
			t.Errorf("%s is listed but is not indexable", r.Path())
		}
	}
	if !bytes.Contains(files["feed.xml"], []byte(base+thin.Path())) {
		t.Errorf("the feed leaves out the recent record %s", thin.Path())
	}
}

// TestNoBaseURL: without a base URL there are no absolute URLs to give,
// so only robots.txt is written, and it names no sitemap.
func TestNoBaseURL(t *testing.T) {
	files := write(t, buildSite([]*record.Record{rec("a/b", 1, time.Now())}), feed.Options{})
	if len(files) != 1 || files["robots.txt"] == nil {
		t.Fatalf("wrote %v, want only robots.txt", slices.Sorted(maps.Keys(files)))
	}
	if bytes.Contains(files["robots.txt"], []byte("Sitemap")) {
		t.Errorf("robots.txt names a sitemap without a base URL:\n%s", files["robots.txt"])
	}
	// A nil site writes robots.txt too rather than failing.
	if err := feed.Write(nil, feed.Options{BaseURL: base}, func(string, []byte) error { return nil }); err != nil {
		t.Error(err)
	}
}

type atom struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string   `xml:"id"`
	Updated string   `xml:"updated"`
	Links   []struct {
		Rel  string `xml:"rel,attr"`
		Href string `xml:"href,attr"`
	} `xml:"link"`
	Entries []struct {
		Title   string `xml:"title"`
		ID      string `xml:"id"`
		Updated string `xml:"updated"`
		Summary string `xml:"summary"`
		Link    struct {
			Href string `xml:"href,attr"`
		} `xml:"link"`
	} `xml:"entry"`
}

// TestFeedAndHostileText: the feed lists the 50 newest records, newest
// first, with absolute links and ids; hostile record text (markup, CDATA
// ends, quotes, control characters, invalid UTF-8) stays text, and the
// files parse; robots.txt names the sitemap; two runs give the same bytes.
func TestFeedAndHostileText(t *testing.T) {
	at := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	hostile := "</title></entry><entry><title>x]]>\"'&amp;<script>alert(1)</script>\x01\x0b\xff\ufffe\""
	var rs []*record.Record
	for n := range 80 {
		r := rec("a/b", n, at.Add(time.Duration(n)*time.Minute))
		r.ErrorMessage = hostile + fmt.Sprint(n)
		r.Tags = []string{"io", "x\"><y"}
		rs = append(rs, r)
	}
	o := feed.Options{BaseURL: base, Title: "Errors <&> \"docs\"", Description: "]]></subtitle>"}
	files := write(t, buildSite(rs), o)
	again := write(t, buildSite(rs), o)
	for p := range files {
		if !bytes.Equal(files[p], again[p]) {
			t.Errorf("%s differs between two runs", p)
		}
	}
	if got, want := string(files["robots.txt"]), "Sitemap: "+base+"sitemap.xml\n"; !strings.Contains(got, want) {
		t.Errorf("robots.txt = %q, want a line %q", got, want)
	}
	var f atom
	if err := xml.Unmarshal(files["feed.xml"], &f); err != nil {
		t.Fatalf("feed.xml does not parse: %v\n%s", err, files["feed.xml"])
	}
	if len(f.Entries) != feed.FeedEntries {
		t.Fatalf("%d entries, want %d", len(f.Entries), feed.FeedEntries)
	}
	if f.ID != base || f.Updated != "2025-05-01T13:19:00Z" {
		t.Errorf("feed id %q updated %q", f.ID, f.Updated)
	}
	for k, e := range f.Entries {
		r := rs[79-k]
		if e.ID != base+r.Path() || e.Link.Href != base+r.Path() {
			t.Errorf("entry %d: id %q link %q, want %s", k, e.ID, e.Link.Href, base+r.Path())
		}
		if !strings.HasPrefix(e.Title, "</title></entry><entry><title>x]]>\"'&amp;<script>") {
			t.Errorf("entry %d title %q: the markup did not survive as text", k, e.Title)
		}
		if _, err := time.Parse(time.RFC3339, e.Updated); err != nil {
			t.Errorf("entry %d updated %q: %v", k, e.Updated, err)
		}
	}
	if bytes.Contains(files["feed.xml"], []byte("<script>")) || bytes.Count(files["feed.xml"], []byte("<entry>")) != feed.FeedEntries {
		t.Error("record text made markup in feed.xml")
	}
}

// TestBindingPagesLastmod: each binding page's lastmod is the newest
// analyzedAt of the records it lists (home and the listings: of all),
// compared as times, not text: a whole second sorts after a fraction of
// the one before, and an unreadable time counts for nothing.
func TestBindingPagesLastmod(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	a1 := rec("acme/a", 1, start)
	a1.AnalyzedAt = "2026-03-01T12:00:59.900Z"
	a2 := rec("acme/a", 2, start)
	a2.AnalyzedAt = "2026-03-01T12:01:00Z" // newer, though it sorts first as text
	b1 := rec("acme/b", 3, start.Add(-48*time.Hour))
	b1.Tags = []string{"net"}
	b2 := rec("acme/b", 4, start)
	b2.AnalyzedAt = "not a time"
	b2.Tags = []string{"net"}
	c1 := rec("acme/c", 5, start.Add(time.Hour+500*time.Millisecond))
	c1.Tags = []string{"disk"}
	files := write(t, buildSite([]*record.Record{a1, a2, b1, b2, c1}), feed.Options{BaseURL: base, Title: "t"})
	lastmod := map[string]string{}
	for p, data := range files {
		if !strings.HasPrefix(p, feed.SitemapDir+"sitemap-pages-") {
			continue
		}
		var u urlset
		if err := xml.Unmarshal(data, &u); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, x := range u.URLs {
			lastmod[strings.TrimPrefix(x.Loc, base)] = x.Lastmod
		}
	}
	newest := "2026-03-01T13:00:00Z" // c1's, cut to the second
	for path, want := range map[string]string{
		"": newest, model.ReposPath: newest, model.TagsPath: newest,
		"acme/a/":             "2026-03-01T12:01:00Z",
		"acme/b/":             start.Add(-48 * time.Hour).Format(time.RFC3339),
		"acme/c/":             newest,
		model.TagPath("io"):   "2026-03-01T12:01:00Z",
		model.TagPath("net"):  start.Add(-48 * time.Hour).Format(time.RFC3339),
		model.TagPath("disk"): newest,
	} {
		got, ok := lastmod[path]
		if !ok {
			t.Errorf("%q is in no binding sitemap; listed: %v", path, slices.Sorted(maps.Keys(lastmod)))
			continue
		}
		if got != want {
			t.Errorf("%q: lastmod %q, want %q", path, got, want)
		}
	}
}
