package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/index"
)

// A state begun and aborted (the site was not published) leaves the state
// saved before, for the site as it was, and nothing half-written; begun
// and finished, it names the new site, and the term cache files it names
// are all on disk.
func TestStateSaveAbortKeepsTheOldState(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	ix, err := index.Open(cache)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ix.Close() }()
	recs := genRecords(500, 3)
	export := func() *Exporter {
		t.Helper()
		if _, err := ix.Sync(index.Records(recs)); err != nil {
			t.Fatal(err)
		}
		ex := New(ix)
		if _, err := ex.Export(memWriter{}, Options{}); err != nil {
			t.Fatal(err)
		}
		return ex
	}
	if err := export().SaveState("build-0"); err != nil {
		t.Fatal(err)
	}
	recs[7].Documentation += " An edit."
	ex := export()
	ex.BeginSaveState().Abort()
	s, err := loadExportState(cache)
	if err != nil || s.Marker != "build-0" {
		t.Fatalf("after an abort the state names %q (%v), want build-0", s.Marker, err)
	}
	s.m.Close()
	ents, _ := os.ReadDir(cache)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("an aborted save left %s", e.Name())
		}
	}
	if err := ex.BeginSaveState().Finish("build-1"); err != nil {
		t.Fatal(err)
	}
	s, err = loadExportState(cache)
	if err != nil || s.Marker != "build-1" {
		t.Fatalf("after Finish the state names %q (%v), want build-1", s.Marker, err)
	}
	defer s.m.Close()
	for _, sh := range s.Shards {
		if _, err := os.Stat(filepath.Join(cache, termCacheDir, sh.Hash)); err != nil {
			t.Errorf("the state names shard %s, whose term cache file is missing: %v", sh.Hash, err)
		}
	}
}
