package index

import (
	"bytes"
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/record"
)

// An incremental export must write exactly what a whole export of the
// same index writes: the same files, byte for byte. Each round edits a few
// records in the ways a daily update does (text added, a word replaced, a
// tag or a message changed, source identifiers changed), reopens the index
// as a new build would, exports incrementally against the previous
// export's files, and compares with a whole export.
func TestIncrementalExportEqualsWhole(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	ix, err := Open(cache)
	if err != nil {
		t.Fatal(err)
	}
	recs := genRecords(3000, 11)
	if _, err := ix.Sync(Records(recs)); err != nil {
		t.Fatal(err)
	}
	opts := ExportOptions{Pattern: pattern.Compile}
	site := memWriter{}
	if _, err := ix.Export(site, opts); err != nil {
		t.Fatal(err)
	}
	marker := "build-0"
	if err := ix.SaveExportState(marker); err != nil {
		t.Fatal(err)
	}
	word := regexp.MustCompile(`\b[a-z]{5,}\b`)
	edits := []func(r *record.Record){
		func(r *record.Record) { r.Documentation += " Rotating the zymurgical certificate fixed it." },
		func(r *record.Record) {
			l := word.FindAllStringIndex(r.Documentation, -1)
			if len(l) > 0 {
				r.Documentation = r.Documentation[:l[0][0]] + "quixotically" + r.Documentation[l[0][1]:]
			}
		},
		func(r *record.Record) { r.Tags = append(append([]string(nil), r.Tags...), "brand-new-tag") },
		func(r *record.Record) { r.ErrorMessage = "connection reset by peer while reading xylophone frames" },
		func(r *record.Record) {
			r.SourceCode = "def handler(req):\n    raise QuuxFrobnicatorError(req.payload_size)\n"
		},
		func(r *record.Record) {
			r.Solutions = append(append([]string(nil), r.Solutions...), "Retry with exponential backoff.")
		},
	}
	for round := 0; round < 4; round++ {
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		if ix, err = Open(cache); err != nil {
			t.Fatal(err)
		}
		// edit 1 + round records
		for k := 0; k <= round; k++ {
			i := (round*977 + k*313) % len(recs)
			edits[(round+k)%len(edits)](&recs[i])
		}
		if _, err := ix.Sync(Records(recs)); err != nil {
			t.Fatal(err)
		}
		inc := memWriter{}
		o := opts
		o.PrevMarker = marker
		o.Has = func(rel string) bool { _, ok := site[rel]; return ok }
		o.Keep = func(rel string) bool {
			b, ok := site[rel]
			if ok {
				inc[rel] = b
			}
			return ok
		}
		st, err := ix.Export(inc, o)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Incremental {
			t.Fatalf("round %d: the export was not incremental", round)
		}
		whole := memWriter{}
		if _, err := ix.Export(whole, opts); err != nil {
			t.Fatal(err)
		}
		var diff []string
		for rel, b := range whole {
			if !bytes.Equal(inc[rel], b) {
				diff = append(diff, rel)
			}
		}
		for rel := range inc {
			if _, ok := whole[rel]; !ok {
				diff = append(diff, rel+" (extra)")
			}
		}
		sort.Strings(diff)
		if len(diff) > 0 {
			t.Fatalf("round %d: incremental export differs from a whole one in %d files: %v", round, len(diff), diff)
		}
		t.Logf("round %d: %d files, %d kept, %d written", round, len(whole), st.Kept, st.Files)
		if st.Kept == 0 || st.Files >= len(whole) {
			t.Errorf("round %d: kept %d, wrote %d of %d files: not incremental", round, st.Kept, st.Files, len(whole))
		}
		// the whole export's state is the one to keep (same as the
		// incremental one's); publish it as the new site
		site = whole
		marker = "build-" + string(rune('1'+round))
		if err := ix.SaveExportState(marker); err != nil {
			t.Fatal(err)
		}
	}
	ix.Close()
}
