package export

import (
	"encoding/json"
	"errors"
	"iter"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/record"
)

func TestSyncIncremental(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	ix, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs := genRecords(300, 5)
	st, err := ix.Sync(index.Records(recs))
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 300 || st.Updated+st.Deleted+st.Unchanged != 0 {
		t.Fatalf("first sync %+v", st)
	}
	if st, _ = ix.Sync(index.Records(recs)); st.Unchanged != 300 || st.Added+st.Updated+st.Deleted != 0 {
		t.Fatalf("no-change sync %+v", st)
	}
	recs[3].Documentation += " more"
	recs[4].SourceCode = "raise FooBarError(x)"
	gone := recs[7].ID
	recs = append(recs[:7], recs[8:]...)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	// Reopen: the side store carries the hashes over.
	if ix, err = index.Open(dir); err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err = ix.Sync(index.Records(recs))
	if err != nil {
		t.Fatal(err)
	}
	if st.Updated != 2 || st.Deleted != 1 || st.Unchanged != 297 || st.Added != 0 {
		t.Fatalf("sync after change %+v", st)
	}
	hits, _, err := search(ix, "FooBarError", QueryOptions{}, 5)
	if err != nil || len(hits) == 0 || hits[0].ID != recs[4].ID {
		t.Fatalf("changed record not found by its new identifier: %v %v", hits, err)
	}
	m := memWriter{}
	if _, err := New(ix).Export(m, Options{}); err != nil {
		t.Fatal(err)
	}
	for k, v := range m {
		if strings.HasPrefix(k, "search/r/") && strings.Contains(string(v), gone) {
			t.Errorf("deleted record %s still exported in %s", gone, k)
		}
	}
}

func TestBadInputNoPanic(t *testing.T) {
	ix, err := index.Open(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	weird := []*record.Record{nil, {}, {ID: "0000000000000001", Repo: "a/b", Slug: "x",
		ErrorMessage: "\xff\xfe bad utf8 İİ ΣΣ", Documentation: "```\nunterminated", SourceCode: "\"unterminated /* x",
		AnalyzedAt: "not a time", Tags: []string{""}, MessagePattern: "(a+)+$"}}
	seq := iter.Seq[*record.Record](func(yield func(*record.Record) bool) {
		for _, r := range weird {
			if !yield(r) {
				return
			}
		}
	})
	if _, err := ix.Sync(seq); err != nil {
		t.Fatal(err)
	}
	if _, _, err := search(ix, "bad", QueryOptions{Prefix: true, Fuzzy: true, Filters: map[string][]string{"repo": {"a/b"}}}, 10); err != nil {
		t.Fatal(err)
	}
	if _, _, err := search(ix, "x", QueryOptions{Filters: map[string][]string{"nope": {"a"}}}, 10); err == nil {
		t.Error("unknown filter field accepted")
	}
	failing := func(string) (json.RawMessage, error) { return nil, errors.New("no") }
	panicking := func(string) (json.RawMessage, error) { panic("boom") }
	for _, hook := range []func(string) (json.RawMessage, error){failing, panicking} {
		st, err := New(ix).Export(memWriter{}, Options{Pattern: hook})
		if err != nil {
			t.Fatal(err)
		}
		if st.PatternErrors != 1 {
			t.Errorf("pattern errors %d, want 1", st.PatternErrors)
		}
	}
	ix.Close()
	if _, err := New(ix).Export(memWriter{}, Options{}); err == nil {
		t.Error("Export on a closed index did not fail")
	}
	if _, err := ix.Sync(index.Records(nil)); err == nil {
		t.Error("Sync on a closed index did not fail")
	}
}

// TestPatternsInDocs checks that pattern programs reach the client through
// docs(ids) and search({patterns: true}), and stay out of plain results.
func TestPatternsInDocs(t *testing.T) {
	f := buildFixture(t, 400, 9, Options{DocsPerFile: 8, Pattern: func(expr string) (json.RawMessage, error) {
		return json.Marshal(map[string]string{"re": expr})
	}})
	r := f.recs[17]
	words := strings.Fields(r.ErrorMessage)
	q := strings.Join(words[:min(3, len(words))], " ")
	var resp struct{ Queries []jsQueryResult }
	runNode(t, map[string]interface{}{"site": f.site, "queries": []map[string]interface{}{
		{"q": q, "opts": map[string]interface{}{"patterns": true, "limit": 50}},
		{"q": q, "opts": map[string]interface{}{"limit": 50}},
	}}, &resp)
	found := false
	for _, res := range resp.Queries[0].Results {
		if res.ID == r.ID {
			found = true
			if !strings.Contains(string(res.Pattern), "re") {
				t.Errorf("pattern missing with patterns:true: %s", res.Pattern)
			}
		}
	}
	if !found {
		t.Fatalf("record %s not found by %q", r.ID, q)
	}
	for _, res := range resp.Queries[1].Results {
		if len(res.Pattern) > 0 && string(res.Pattern) != "null" {
			t.Errorf("pattern loaded without patterns:true")
		}
	}
}
