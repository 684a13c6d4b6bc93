package index

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDirtyCacheIsRebuilt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs := genRecords(50, 2)
	if _, err := ix.Sync(Records(recs)); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	// An interrupted Sync leaves the marker: the cache must not be trusted.
	if err := os.WriteFile(filepath.Join(dir, dirtyFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Sync(Records(recs))
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 50 {
		t.Fatalf("dirty cache not rebuilt: %+v", st)
	}
}

func TestIdentifierText(t *testing.T) {
	got := IdentifierText("*java.lang.NullPointerException", 0)
	for _, w := range []string{"java.lang.NullPointerException", "NullPointerException", "Null", "Pointer", "Exception"} {
		if !strings.Contains(" "+got+" ", " "+w+" ") {
			t.Errorf("IdentifierText misses %q: %q", w, got)
		}
	}
	src := "# comment words here\nconst parseURLString = new HTTPServerError('some message');\nitem.forEach(x)"
	got = SourceIdentifiers(src)
	if strings.Contains(got, "comment") || strings.Contains(got, "message") || strings.Contains(got, "item ") {
		t.Errorf("SourceIdentifiers kept prose or plain words: %q", got)
	}
	for _, w := range []string{"parseURLString", "HTTPServerError", "Server", "URL"} {
		if !strings.Contains(" "+got+" ", " "+w+" ") {
			t.Errorf("SourceIdentifiers misses %q: %q", w, got)
		}
	}
}

// A new index keeps the merge options it was made with (bleve writes them
// beside it), so that scorch's merges beside a cold build take up to
// mergeTier segments at a time, and so do the next builds' on it.
func TestNewIndexMergeOptions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Sync(Records(genRecords(20, 2))); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if ix, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.Len() != 20 {
		t.Fatalf("reopened index holds %d records, want 20", ix.Len())
	}
	b, err := os.ReadFile(filepath.Join(dir, bleveDir, "index_meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Config struct {
			Plan struct{ MaxSegmentsPerTier, SegmentsPerMergeTask int } `json:"scorchMergePlanOptions"`
		} `json:"config"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatalf("index_meta.json: %v", err)
	}
	if p := meta.Config.Plan; p.MaxSegmentsPerTier != mergeTier || p.SegmentsPerMergeTask != mergeTier {
		t.Errorf("merge options kept with the index: %+v; want %d and %d (%s)", p, mergeTier, mergeTier, b)
	}
}
