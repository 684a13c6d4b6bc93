package index

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/errdocs/errdocs/generator/record"
)

// reopen closes ix and opens its folder again, and says whether the side
// store came from its saved table rather than a replay of the log.
func reopen(t *testing.T, ix *Index) (*Index, bool) {
	t.Helper()
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ix.dir)
	if err != nil {
		t.Fatal(err)
	}
	return ix, ix.log.saved
}

// sideState is what a side store holds and names, copied out of its
// mappings.
type sideState struct {
	entries map[string]sideEntry
	key     [32]byte
	n       int
}

func stateOf(ix *Index) sideState {
	return sideState{cloneSide(ix.side), ix.sideKey(), ix.DocCount()}
}

// TestSideTableSaved checks that an index reopens from its saved table of
// places to what it held, over rounds of edits, deletions, spills and
// compactions, and that lookups through the saved table find what a
// replay of the log finds.
func TestSideTableSaved(t *testing.T) {
	defer func(spill, slack, chunk int) { sideSpill, sideSlack, sideChunk = spill, slack, chunk }(sideSpill, sideSlack, sideChunk)
	sideSpill, sideSlack, sideChunk = 30, 0, 9
	dir := filepath.Join(t.TempDir(), "cache")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix.BatchSize = 20
	recs := genRecords(200, 5)
	for round := 0; round < 8; round++ {
		recs[(round*13)%len(recs)].Documentation += " edited"
		cur := recs[:len(recs)-round%3*25] // some rounds delete, the next bring back
		if _, err := ix.Sync(Records(cur)); err != nil {
			t.Fatal(err)
		}
		want := stateOf(ix)
		var fromTable bool
		ix, fromTable = reopen(t, ix)
		ix.BatchSize = 20
		if !fromTable {
			t.Fatalf("round %d: the side store was replayed, not read from its saved table", round)
		}
		if got := stateOf(ix); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: reopened from its table to %d entries, want %d (or other entries, or another key)", round, got.n, want.n)
		}
		if !tableInPlace(ix) {
			t.Fatalf("round %d: the saved table's slots were copied, not used where the file is mapped", round)
		}
		for _, r := range cur {
			if !ix.Has(r.ID) {
				t.Fatalf("round %d: %s not found through the saved table", round, r.ID)
			}
		}
	}
	// The same log replayed, without the table, holds the same.
	want := stateOf(ix)
	ix.Close()
	if err := os.Remove(filepath.Join(dir, tableFile)); err != nil {
		t.Fatal(err)
	}
	if ix, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	if ix.log.saved {
		t.Fatal("a removed table was read")
	}
	if got := stateOf(ix); !reflect.DeepEqual(got, want) {
		t.Fatal("the log replayed holds other entries than its saved table gave")
	}
	// A build that changes nothing saves the missing table.
	if _, err := ix.Sync(Records(recs[:len(recs)-7%3*25])); err != nil {
		t.Fatal(err)
	}
	ix, fromTable := reopen(t, ix)
	defer ix.Close()
	if !fromTable {
		t.Fatal("a sync that changed nothing did not save the missing table")
	}
}

// tableInPlace reports whether the index's slots and places lie in its
// mapping of the saved table.
func tableInPlace(ix *Index) bool {
	if ix.tableMap == nil {
		return false
	}
	m := ix.tableMap.Bytes()
	lo, hi := uintptr(unsafe.Pointer(&m[0])), uintptr(unsafe.Pointer(&m[len(m)-1]))
	in := func(w []uint64) bool {
		p := uintptr(unsafe.Pointer(&w[0]))
		return p >= lo && p <= hi
	}
	return in(ix.side.slots) && in(ix.side.places)
}

// TestSideTableWrittenCopyOnWrite checks that a table used where the file
// is mapped and then changed by a sync leaves the file it was read from as
// it was, and that the next opening reads the changes from the new table.
func TestSideTableWrittenCopyOnWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs := genRecords(300, 7)
	if _, err := ix.Sync(Records(recs)); err != nil {
		t.Fatal(err)
	}
	ix, fromTable := reopen(t, ix)
	if !fromTable || !tableInPlace(ix) {
		t.Fatal("the saved table was not used where it is mapped")
	}
	// The file as it was, kept under a second name: the sync below
	// replaces the table's name, not its bytes.
	table := filepath.Join(dir, tableFile)
	before, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(t.TempDir(), "old-table")
	if err := os.Link(table, old); err != nil {
		t.Fatal(err)
	}
	recs[5].Documentation += " edited"
	cur := append(recs[:10:10], recs[11:]...) // one deleted: its slot is written
	if _, err := ix.Sync(Records(cur)); err != nil {
		t.Fatal(err)
	}
	want := stateOf(ix)
	if m := ix.tableMap.Bytes(); len(ix.side.ids) == 0 || &ix.side.ids[0] != &m[len(m)-12-len(ix.side.ids)] {
		t.Fatal("the saved ids were copied when an edited record's id was put again")
	}
	if after, err := os.ReadFile(old); err != nil || !bytes.Equal(after, before) {
		t.Fatalf("the mapped table file changed under its copy-on-write mapping (err %v)", err)
	}
	ix, fromTable = reopen(t, ix)
	defer ix.Close()
	if got := stateOf(ix); !fromTable || !reflect.DeepEqual(got, want) {
		t.Fatalf("reopened from the new table (%v) to %d entries, want %d", fromTable, got.n, want.n)
	}
	if ix.Has(recs[10].ID) {
		t.Fatal("a deleted record is found after reopening")
	}
}

// TestSideTableNotTrusted checks that a table saved for another state of
// the log, or damaged, is not used: the log is replayed.
func TestSideTableNotTrusted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs := genRecords(120, 6)
	if _, err := ix.Sync(Records(recs)); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	path := filepath.Join(dir, tableFile)
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if ix, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	recs[3].Documentation += " edited"
	cur := append([]record.Record(nil), recs[:100]...)
	if _, err := ix.Sync(Records(cur)); err != nil {
		t.Fatal(err)
	}
	want := stateOf(ix)
	ix.Close()

	cases := map[string][]byte{
		"stale": old, // the log has a segment more since
	}
	now, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{len(now) / 3, len(now) / 2, len(now) - 5} {
		damaged := append([]byte(nil), now...)
		damaged[at] ^= 0x40
		cases["damaged"+string(rune('a'+at%26))] = damaged
	}
	cases["short"] = now[:len(now)/2]
	for name, table := range cases {
		if err := os.WriteFile(path, table, 0o644); err != nil {
			t.Fatal(err)
		}
		ix, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if ix.log.saved {
			t.Errorf("%s: a table that does not describe the log was used", name)
		}
		if got := stateOf(ix); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: reopened to %d entries, want %d (or other entries)", name, got.n, want.n)
		}
		ix.Close()
	}
}

// TestSideTableOverDamagedLog checks that a log damaged after its table
// was saved (the table checks only the log's length and last segment)
// makes lookups fail or find other bytes, never read out of bounds.
func TestSideTableOverDamagedLog(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs := genRecords(150, 7)
	for i := range 3 { // three segments: the damage misses the last
		if _, err := ix.Sync(Records(recs[:50*(i+1)])); err != nil {
			t.Fatal(err)
		}
	}
	ix.Close()
	path := filepath.Join(dir, sideFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 20; i < len(data)/2; i++ {
		data[i] = 0xff // lengths as long as a varint goes
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if ix, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if !ix.log.saved {
		t.Fatal("the table was not used: the damage this test is about is not reached")
	}
	failed := 0
	for _, r := range recs {
		ix.SortKeyOf(r.ID)
		if _, err := ix.DocData(r.ID); err != nil {
			failed++
		}
	}
	if failed == 0 {
		t.Fatal("no lookup met the damaged half of the log")
	}
}
