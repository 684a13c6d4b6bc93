package pipeline

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	errdocs "github.com/errdocs/errdocs"
	"github.com/errdocs/errdocs/generator/index"
)

// Config.Garbage is told that a build makes much garbage when it has no
// page cache, and when it renders many pages; a rebuild that is not of a
// few records (one removed: the site model is built anew, the index
// exported whole) is told it does not; a rebuild of one changed record is
// told nothing. (cmd/errdocs collects less often, and in huge pages, in
// the first case, as usual in the second, less often in the third.)
func TestGarbageHint(t *testing.T) {
	in, file, recs := twentyRecords(t)
	dir := t.TempDir()
	build := func(templates string) []bool {
		var told []bool
		c := Config{Paths: []string{in}, Out: filepath.Join(dir, "site"), CacheDir: filepath.Join(dir, "cache"),
			Templates: errdocs.Templates, Static: errdocs.Static, Verify: true,
			Garbage: func(much bool) { told = append(told, much) }}
		if templates != "" {
			c.Title = templates // a new title: every page is rendered again
		}
		runConfig(t, c)
		return told
	}
	if told := build(""); !slices.Equal(told, []bool{true, true}) {
		t.Errorf("cold build: told %v, want much garbage (no page cache, then every page to render)", told)
	}
	recs[3] = seedRecord(t, 3, func(r map[string]any) { r["documentation"] = "Edited: one page to render again." })
	writeRecords(t, file, recs...)
	if told := build(""); len(told) != 0 {
		t.Errorf("one record changed: told %v, want nothing", told)
	}
	writeRecords(t, file, append(recs[:5:5], recs[6:]...)...)
	// (Of twenty records, the pages one removal renders again are many:
	// much garbage may follow.)
	if told := build(""); len(told) == 0 || told[0] {
		t.Errorf("one record removed: told %v, want little garbage first", told)
	}
	writeRecords(t, file, recs...)
	build("")
	if told := build("Another title"); !slices.Equal(told, []bool{false, true}) {
		t.Errorf("every page rendered again: told %v, want little garbage, then much", told)
	}
}

// Config.ExpectMapped is told, before a whole export, the bytes of the
// index's files the export reads (as many as the index folder holds in
// the bleve store and the side store's log); then, as the export moves
// from one part to the other, the bleve store's bytes and the side
// store's (export/mapped.go), each less than the first and together
// as much; and 0 after
// it. A rebuild whose export is incremental and early reads few of them
// and says nothing.
func TestExpectMapped(t *testing.T) {
	in, file, recs := twentyRecords(t)
	dir := t.TempDir()
	build := func() []int64 {
		var told []int64
		runConfig(t, Config{Paths: []string{in}, Out: filepath.Join(dir, "site"), CacheDir: filepath.Join(dir, "cache"),
			Templates: errdocs.Templates, Static: errdocs.Static, Verify: true,
			ExpectMapped: func(n int64) { told = append(told, n) }})
		return told
	}
	told := build()
	indexBytes := index.ReadBytes(filepath.Join(dir, "cache", "index"))
	if len(told) != 4 || told[1] <= 0 || told[2] <= 0 || told[1] >= told[0] || told[2] >= told[0] || told[1]+told[2] < told[0] || told[3] != 0 {
		t.Fatalf("cold build: told %v, want the index's bytes, bleve's, the side store's, then 0", told)
	}
	// The export appends to the side store's log and writes nothing to
	// bleve: what was announced is at most what the folder holds after.
	if told[0] > indexBytes {
		t.Errorf("cold build announced %d bytes; the index's files hold %d", told[0], indexBytes)
	}
	recs[3] = seedRecord(t, 3, func(r map[string]any) { r["documentation"] = "Edited: one page to render again." })
	writeRecords(t, file, recs...)
	if told := build(); len(told) != 0 {
		t.Errorf("one record changed (early export): told %v, want nothing", told)
	}
}

// twentyRecords writes twenty seed records to one file of a new input
// folder.
func twentyRecords(t *testing.T) (in, file string, recs []any) {
	in = filepath.Join(t.TempDir(), "in")
	for k := range 20 {
		recs = append(recs, seedRecord(t, k, nil))
	}
	file = filepath.Join(in, "r.json")
	writeRecords(t, file, recs...)
	return in, file, recs
}

// Config.ExpectHeap is told, as a build begins, how much memory the
// previous rebuild that rendered few pages took: after a cold build a
// guess from its record count (what the cold build took is far more),
// the amount once a rebuild has recorded it, kept through a build that
// rendered every page, and it is told first thing, so that a build with
// nothing to do is told too. What it answers is reported.
func TestExpectHeap(t *testing.T) {
	// A build of twenty records in a test process takes no memory the
	// process had not: each look at the memory finds eight megabytes more,
	// under a heap goal that bounds none of it.
	held := uint64(100 << 20)
	defer func(f, g func() uint64) { heldMemory, heapGoal = f, g }(heldMemory, heapGoal)
	heldMemory = func() uint64 { held += 8 << 20; return held }
	heapGoal = func() uint64 { return 1 << 30 }
	in, file, recs := twentyRecords(t)
	dir := t.TempDir()
	build := func(title string) ([]int64, *Report) {
		var told []int64
		o := runConfig(t, Config{Paths: []string{in}, Out: filepath.Join(dir, "site"), CacheDir: filepath.Join(dir, "cache"),
			Templates: errdocs.Templates, Static: errdocs.Static, Title: title,
			ExpectHeap: func(n int64) int64 { told = append(told, n); return n / 2 }})
		return told, o.rep
	}
	edit := func(i int) {
		recs[3] = seedRecord(t, 3, func(r map[string]any) { r["documentation"] = fmt.Sprintf("Edit %d: one page to render again.", i) })
		writeRecords(t, file, recs...)
	}
	if told, _ := build(""); len(told) != 0 {
		t.Errorf("cold build: told %v, want nothing (no rebuild before it)", told)
	}
	edit(1)
	if told, _ := build(""); len(told) != 1 || told[0] != int64(len(recs))*guessPerRecord {
		t.Errorf("first rebuild: told %v, want the cold build's guess for %d records (%d bytes each; what the cold build took is no rebuild's)", told, len(recs), guessPerRecord)
	}
	edit(2)
	told, rep := build("")
	if len(told) != 1 || told[0] <= int64(len(recs))*guessPerRecord {
		t.Fatalf("second rebuild: told %v, want once what the first rebuild took (more than the guess)", told)
	}
	if rep.MemoryAhead != told[0]/2 {
		t.Errorf("report: %d bytes faulted in ahead, want %d (what ExpectHeap answered)", rep.MemoryAhead, told[0]/2)
	}
	if again, rep := build(""); len(again) != 1 || !rep.NoChange {
		t.Errorf("no change: told %v (no-change path %t), want told once, before the no-change check", again, rep.NoChange)
	}
	before := told[0]
	if retitled, _ := build("Every page again"); len(retitled) != 1 || retitled[0] != before {
		t.Errorf("every page rendered again: told %v, want %d", retitled, before)
	}
	if after, _ := build("Every page again"); len(after) != 1 || after[0] != before {
		t.Errorf("after a build that rendered every page: told %v, want the record it left alone (%d)", after, before)
	}
}

// The record of what a rebuild took comes down to what the Go runtime had
// in use when the rebuild grew only inside the memory faulted in ahead for
// it: a rebuild that once took more (one that read every record again)
// does not have every later one fault in, and hold, memory its heap does
// not use. Where the runtime does not say (0), the record stays.
func TestExpectHeapComesDown(t *testing.T) {
	for _, inUse := range []uint64{4 << 20, 0} {
		held := uint64(100 << 20)
		defer func(f, g, u func() uint64) { heldMemory, heapGoal, runtimeInUse = f, g, u }(heldMemory, heapGoal, runtimeInUse)
		// Each look at the memory finds four megabytes more: a rebuild
		// grows by far more than the runtime says it has in use.
		heldMemory = func() uint64 { held += 4 << 20; return held }
		heapGoal = func() uint64 { return 1 << 30 }
		runtimeInUse = func() uint64 { return inUse }
		in, file, recs := twentyRecords(t)
		dir := t.TempDir()
		build := func() []int64 {
			var told []int64
			runConfig(t, Config{Paths: []string{in}, Out: filepath.Join(dir, "site"), CacheDir: filepath.Join(dir, "cache"),
				Templates: errdocs.Templates, Static: errdocs.Static,
				ExpectHeap: func(n int64) int64 { told = append(told, n); return n }})
			return told
		}
		edit := func(i int) {
			recs[3] = seedRecord(t, 3, func(r map[string]any) { r["documentation"] = fmt.Sprintf("Edit %d.", i) })
			writeRecords(t, file, recs...)
		}
		build() // cold: the guess
		edit(1)
		build() // faulted in the guess, grew past it: what it took
		edit(2)
		took := build()
		if len(took) != 1 || took[0] <= int64(inUse)+aheadSlack {
			t.Fatalf("in use %d: third build told %v, want once more than the runtime's use and the slack", inUse, took)
		}
		edit(3)
		// The third build grew inside what was faulted in ahead for it.
		want := took[0]
		if inUse > 0 {
			want = int64(inUse) + aheadSlack
		}
		if told := build(); len(told) != 1 || told[0] != want {
			t.Errorf("in use %d: after a rebuild that grew inside the memory faulted in ahead (%d bytes), told %v, want %d",
				inUse, took[0], told, want)
		}
	}
}

// The runtime gives the metrics the memory record is made from: a name
// it does not know would leave the record never coming down (InUse 0) and
// never bounded by the heap goal.
func TestRuntimeMemoryMetrics(t *testing.T) {
	keep := make([]byte, 8<<20)
	inUse, goal := runtimeMemoryInUse(), runtimeHeapGoal()
	if inUse < uint64(len(keep)) || goal == 0 {
		t.Errorf("runtime's memory in use %d bytes (8 MB held), heap goal %d: a metric is not read", inUse, goal)
	}
	runtime.KeepAlive(keep)
}
