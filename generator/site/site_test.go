package site

import (
	"fmt"
	"slices"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
)

func rec(id, repo, slug, family string, tags ...string) *record.Record {
	return &record.Record{ID: id, Repo: repo, Slug: slug, BackgroundTag: family, Tags: tags,
		ErrorMessage: "m " + slug, Severity: "error", ErrorType: "exception", FilePath: "a.py",
		MessagePattern: "m " + slug, AnalyzedAt: "2026-01-0" + id[15:] + "T00:00:00Z"}
}

func TestRelatedPrefersFamilyInOtherRepos(t *testing.T) {
	var b Builder
	b.Add(Summarize(rec("0000000000000001", "a/x", "one", "fam", "t1", "t2")))
	b.Add(Summarize(rec("0000000000000002", "a/x", "two", "fam", "t1", "t2"))) // same repo, same family, shares 2 tags
	b.Add(Summarize(rec("0000000000000003", "b/y", "three", "fam")))           // other repo, same family
	b.Add(Summarize(rec("0000000000000004", "c/z", "four", "other", "t1")))    // shares 1 tag
	b.Add(Summarize(rec("0000000000000005", "c/z", "five", "other")))          // unrelated
	s := b.Build()
	got := s.Related(0)
	want := []int32{2, 1, 3}
	if !slices.Equal(got, want) {
		t.Fatalf("Related(0) = %v, want %v", got, want)
	}
	if again := b.Build().Related(0); !slices.Equal(again, got) {
		t.Fatalf("Related not deterministic: %v then %v", got, again)
	}
}

func TestRelatedCapped(t *testing.T) {
	var b Builder
	for i := 0; i < 20; i++ {
		b.Add(Summarize(rec(fmt.Sprintf("%016x", i+1), fmt.Sprintf("o/r%d", i), fmt.Sprintf("s%d", i), "fam")))
	}
	s := b.Build()
	for i := range s.Summaries {
		if n := len(s.Related(int32(i))); n != MaxRelated {
			t.Fatalf("record %d has %d related, want %d", i, n, MaxRelated)
		}
		if slices.Contains(s.Related(int32(i)), int32(i)) {
			t.Fatalf("record %d is related to itself", i)
		}
	}
}

func TestCanonicalGroup(t *testing.T) {
	var b Builder
	a := rec("0000000000000001", "a/x", "bbb", "")
	a.ErrorCode = "E1"
	c := rec("0000000000000002", "b/y", "aaa", "")
	c.ErrorCode = "E1"
	c.Solutions = []string{"fix"}
	d := rec("0000000000000003", "b/y", "alone", "")
	for _, r := range []*record.Record{a, c, d} {
		b.Add(Summarize(r))
	}
	s := b.Build()
	if s.Canonical(0) != 1 || s.Canonical(1) != 1 || s.Canonical(2) != 2 {
		t.Fatalf("canonical = %d %d %d, want 1 1 2", s.Canonical(0), s.Canonical(1), s.Canonical(2))
	}
}

func TestPaginate(t *testing.T) {
	items := make([]int32, 250)
	pages := Paginate(items, 100)
	if len(pages) != 3 || len(pages[2].Items) != 50 || pages[1].Number != 2 || pages[0].Total != 3 {
		t.Fatalf("bad pages: %d pages", len(pages))
	}
	if len(Paginate(nil, 100)) != 1 {
		t.Fatal("empty listing must have one page")
	}
	if PagePath("o/n/", 1) != "o/n/" || PagePath("o/n/", 3) != "o/n/page/3/" {
		t.Fatal("PagePath")
	}
}

func TestLinks(t *testing.T) {
	cases := []struct {
		from, to  string
		indexFile bool
		want      string
	}{
		{"", "", false, "./"},
		{"", "", true, "index.html"},
		{"", "tags/x/", false, "tags/x/"},
		{"a/b/c/", "", false, "../../../"},
		{"a/b/c/", "tags/x/", true, "../../../tags/x/index.html"},
		{"a/b/c/", "o w/n?#/", false, "../../../o%20w/n%3F%23/"},
		{"404.html", "tags/", false, "tags/"},
		{"", "javascript:alert(1)/x/", false, "javascript%3Aalert%281%29/x/"},
	}
	for _, c := range cases {
		if got := (Links{From: c.from, IndexFile: c.indexFile}).Link(c.to); got != c.want {
			t.Errorf("Link(%q from %q) = %q, want %q", c.to, c.from, got, c.want)
		}
	}
	l := Links{From: "a/", Assets: map[string]string{"style.css": "static/style.abc.css"}}
	if got := l.Asset("style.css"); got != "../static/style.abc.css" {
		t.Errorf("Asset = %q", got)
	}
}
