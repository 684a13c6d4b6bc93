package index

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/errdocs/errdocs/generator/record"
)

// TestSideLog checks that the side store, written as a log of segments and
// compacted now and then, reopens to what the index held, and that a store
// cut short is not trusted.
func TestSideLog(t *testing.T) {
	defer func(slack, chunk int) { sideSlack, sideChunk = slack, chunk }(sideSlack, sideChunk)
	sideSlack, sideChunk = 0, 7 // compactions, and writes of several segments
	dir := filepath.Join(t.TempDir(), "cache")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs := genRecords(40, 3)
	if _, err := ix.Sync(Records(recs)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, sideFile)
	sizes := []int64{}
	for round := 0; round < 12; round++ {
		// Edit two records, drop one and bring back one dropped before.
		recs[round%len(recs)].Documentation += " edited"
		recs[(round*7+3)%len(recs)].ErrorMessage += " again"
		cur := append([]record.Record(nil), recs[:len(recs)-1-round%3]...)
		if _, err := ix.Sync(Records(cur)); err != nil {
			t.Fatal(err)
		}
		key := ix.sideKey()
		want := cloneSide(ix.side) // ix.side refers to the mapping Close unmaps
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		if ix, err = Open(dir); err != nil {
			t.Fatal(err)
		}
		if got := cloneSide(ix.side); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: side store reopened with %d entries, want %d (or different entries)", round, len(got), len(want))
		}
		if ix.sideKey() != key {
			t.Fatalf("round %d: side key changed on reopening", round)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, fi.Size())
	}
	// Each round appends a segment; a compaction now and then keeps the
	// file from growing without bound. The log must have grown at some
	// round (an append) and shrunk at another (a compaction).
	grew, shrank := false, false
	for i := 1; i < len(sizes); i++ {
		grew = grew || sizes[i] > sizes[i-1]
		shrank = shrank || sizes[i] < sizes[i-1]
	}
	if !grew || !shrank {
		t.Errorf("side store sizes over rounds %v: want appends and a compaction", sizes)
	}
	n := ix.side.len()
	ix.Close()

	// A segment cut short: the next Open starts over with an empty index.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	if ix, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.DocCount() != 0 || n == 0 {
		t.Fatalf("a torn side store was trusted: %d records (had %d)", ix.DocCount(), n)
	}
}

// cloneSide copies a side store's entries out of its file's mapping.
func cloneSide(side sideTable) map[string]sideEntry {
	out := make(map[string]sideEntry, side.len())
	side.each(func(id string, e sideEntry) bool {
		out[strings.Clone(id)] = sideEntry{Hash: e.Hash, SortKey: strings.Clone(e.SortKey), Blob: bytes.Clone(e.Blob)}
		return true
	})
	return out
}

// TestSideMappedSurvivesWrites checks that the entries read from the
// mapped side store stay what they were while the index appends to the
// file and compacts it into a new one, and that the index reopens to
// them.
func TestSideMappedSurvivesWrites(t *testing.T) {
	defer func(slack int) { sideSlack = slack }(sideSlack)
	dir := filepath.Join(t.TempDir(), "cache")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs := genRecords(300, 8)
	if _, err := ix.Sync(Records(recs)); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if ix, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	if len(ix.sideMaps) == 0 || len(ix.sideMaps[0].Bytes()) == 0 {
		t.Fatal("the side store was not mapped")
	}
	// What the records' doc data and sort keys are, read from the mapping.
	before := map[string]DocData{}
	for _, r := range recs {
		d, err := ix.DocData(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		sk, _ := ix.SortKeyOf(r.ID)
		d.SortKey = strings.Clone(sk) // the mapping goes at Close
		before[r.ID] = d
	}
	check := func(when string, skip map[string]bool) {
		t.Helper()
		for id, want := range before {
			if skip[id] {
				continue
			}
			got, err := ix.DocData(id)
			if err != nil {
				t.Fatalf("%s: %s: %v", when, id, err)
			}
			got.SortKey, _ = ix.SortKeyOf(id)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %s reads %+v, want %+v", when, id, got, want)
			}
		}
	}
	// An edit appends a segment to the mapped file.
	edited := map[string]bool{}
	recs[5].Documentation += " appended"
	edited[recs[5].ID] = true
	if st, err := ix.Sync(Records(recs)); err != nil || st.Updated != 1 {
		t.Fatalf("edit: %+v, %v", st, err)
	}
	check("after an append", edited)
	// Dropping most records makes the next write a compaction: a new file
	// renamed over the mapped one.
	sideSlack = 0
	path := filepath.Join(dir, sideFile)
	old, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	kept := recs[:100]
	if _, err := ix.Sync(Records(kept)); err != nil {
		t.Fatal(err)
	}
	now, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(old, now) {
		t.Fatal("the compaction rewrote the mapped file in place")
	}
	for _, r := range recs[100:] {
		delete(before, r.ID)
	}
	check("after a compaction", edited)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if ix, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.DocCount() != len(kept) {
		t.Fatalf("reopened with %d records, want %d", ix.DocCount(), len(kept))
	}
	check("reopened", edited)
}

// TestSyncMergesSegments checks that a Sync that made several segments
// leaves one: the next build must not pay for the merges (settle).
func TestSyncMergesSegments(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Batches above scorch's floor segment size (2,000 documents), which
	// its background merger would leave as they are (up to ten a tier).
	const n, batch = 10500, 2100
	ix.BatchSize = batch
	if _, err := ix.Sync(Records(genRecords(n, 4))); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if ix, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	segs := segments(t, ix)
	if segs > 2 || ix.DocCount() != n {
		t.Errorf("after a Sync of 5 batches: %d segments (want at most 2: the merged ones and the last batch's, which scorch had yet to persist), %d records", segs, ix.DocCount())
	}
}

// TestSmallSyncsMergeSmallSegments checks that rebuilds changing a record
// each do not leave a segment each behind: every term read would visit
// them all.
func TestSmallSyncsMergeSmallSegments(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	recs := genRecords(3000, 6)
	for round := 0; round < 8; round++ {
		ix, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if round > 0 {
			recs[round*11].Documentation += " Xyzzymarker."
		}
		if _, err := ix.Sync(Records(recs)); err != nil {
			t.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	segs := segments(t, ix)
	// With the merges: the merged ones and the last rebuild's, which scorch
	// had yet to persist when it merged. Without them, scorch's own merger
	// left 3 here (and 10 on a 100,000-record index).
	if segs > 2 {
		t.Errorf("after seven one-record rebuilds: %d segments, want at most 2", segs)
	}
	if hits := match(t, ix, "xyzzymarker", 10); len(hits) != 7 {
		t.Errorf("the seven edits: %d hits, want 7", len(hits))
	}
}

// segments is the number of segments of the index's current snapshot.
func segments(t *testing.T, ix *Index) int {
	t.Helper()
	adv, err := ix.bleve.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := adv.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		t.Fatalf("not a scorch snapshot: %T", r)
	}
	return len(snap.Segments())
}

// The side store's doc data survives its compact encoding, and a
// damaged blob is an error, not a panic or a silent loss.
func TestDocDataEncoding(t *testing.T) {
	for _, d := range []DocData{
		{},
		{ID: "a", Title: "t\x00ü", URL: "x/y/", Repo: "o/r", Severity: "high", ErrorType: "runtime", Language: "go",
			Tags: []string{"", "net", "tls"}, ErrorClass: "E", ErrorCode: "C1", Snippet: "s", Pattern: "^(a+)+$"},
	} {
		b := encodeDocData(d)
		got, err := decodeDocData(b)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Tags) == 0 {
			got.Tags = nil
		}
		if len(d.Tags) == 0 {
			d.Tags = nil
		}
		if !reflect.DeepEqual(got, d) {
			t.Fatalf("round trip: got %+v, want %+v", got, d)
		}
		for cut := 0; cut < len(b); cut++ {
			if _, err := decodeDocData(b[:cut]); err == nil {
				t.Fatalf("a blob cut at %d of %d decoded without error", cut, len(b))
			}
		}
		if _, err := decodeDocData(append(slices.Clone(b), 0)); err == nil {
			t.Fatal("trailing byte accepted")
		}
	}
}

// TestSideSpill checks that an Apply of many records writes the side store
// as it goes and reads the entries it wrote from the file (their bytes
// leave the heap), and that the entries, the file reopened and a rebuild
// that compacts the file mid-way are as without spilling.
func TestSideSpill(t *testing.T) {
	defer func(spill, slack int) { sideSpill, sideSlack = spill, slack }(sideSpill, sideSlack)
	recs := genRecords(300, 11)
	build := func(spill int, dir string) *Index {
		sideSpill = spill
		ix, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		ix.BatchSize = 40
		if _, err := ix.Sync(Records(recs)); err != nil {
			t.Fatal(err)
		}
		return ix
	}
	plain := build(1<<30, filepath.Join(t.TempDir(), "plain"))
	defer plain.Close()
	want := cloneSide(plain.side)

	dir := filepath.Join(t.TempDir(), "spilled")
	ix := build(50, dir)
	if got := cloneSide(ix.side); !reflect.DeepEqual(got, want) {
		t.Fatal("a spilled side store holds other entries than one kept in memory")
	}
	inMaps := 0
	ix.side.each(func(_ string, e sideEntry) bool {
		if mappedIn(ix, e.Blob) && mappedIn(ix, unsafe.Slice(unsafe.StringData(e.SortKey), len(e.SortKey))) {
			inMaps++
		}
		return true
	})
	// Apply's final write maps the entries after the last spill too.
	if len(ix.sideMaps) < 2 || inMaps != len(recs) {
		t.Fatalf("%d mappings, %d of %d entries read from them: the side store did not spill", len(ix.sideMaps), inMaps, len(recs))
	}
	ix.Close()
	if ix, err := Open(dir); err != nil {
		t.Fatal(err)
	} else {
		if got := cloneSide(ix.side); !reflect.DeepEqual(got, want) {
			t.Fatal("a spilled side store reopened to other entries")
		}
		ix.Close()
	}

	// Every record edited, with compactions on: a spill may rename a new
	// file over the mapped one.
	sideSlack = 0
	for i := range recs {
		recs[i].Documentation += " edited"
	}
	ix = build(50, dir)
	plain2 := build(1<<30, filepath.Join(t.TempDir(), "plain2"))
	want = cloneSide(plain2.side)
	plain2.Close()
	if got := cloneSide(ix.side); !reflect.DeepEqual(got, want) {
		t.Fatal("after a rebuild of every record, a spilled side store holds other entries")
	}
	ix.Close()
	if ix, err := Open(dir); err != nil {
		t.Fatal(err)
	} else {
		defer ix.Close()
		if got := cloneSide(ix.side); !reflect.DeepEqual(got, want) {
			t.Fatal("after a rebuild of every record, a spilled side store reopened to other entries")
		}
	}
}

// mappedIn reports whether b lies in one of the index's side store mappings.
func mappedIn(ix *Index, b []byte) bool {
	if len(b) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	for _, m := range ix.sideMaps {
		d := m.Bytes()
		if len(d) > 0 && p >= uintptr(unsafe.Pointer(&d[0])) && p < uintptr(unsafe.Pointer(&d[0]))+uintptr(len(d)) {
			return true
		}
	}
	return false
}
