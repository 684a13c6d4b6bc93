package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/record"
)

// A rebuild that changes one record exports the search index early,
// beside the site model and the pages, up to maxOverlap records (also
// above maxBeside: half a million records fit early now), and alone after
// the model's last use above it. Either way it makes what a fresh build
// makes.
func TestOneChangeExportPaths(t *testing.T) {
	trustAll(t)
	for _, tc := range []struct {
		name                  string
		maxOverlap, maxBeside int
		want                  ExportSchedule
	}{
		{"early", 250000, 250000, ExportEarly},
		{"early above maxBeside", 250000, 5, ExportEarly},
		{"alone", 5, 5, ExportAlone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			oldOverlap, oldBeside := maxOverlap, maxBeside
			maxOverlap, maxBeside = tc.maxOverlap, tc.maxBeside
			t.Cleanup(func() { maxOverlap, maxBeside = oldOverlap, oldBeside })
			in, files := testInput(t)
			p := newPair(t, in)
			if first := p.build(); first.rep.Export != ExportAlone {
				t.Errorf("the first build exported %v, want alone (whole)", first.rep.Export)
			}
			if again := p.build(); again.rep.Export != ExportKept {
				t.Errorf("a rebuild with no change exported %v, want kept", again.rep.Export)
			}
			files[0][1].(map[string]any)["documentation"] = "An edited explanation, longer than it was before the edit."
			writeRecords(t, filepath.Join(in, "f0.json"), files[0]...)
			o := p.build()
			if o.rep.Export != tc.want {
				t.Errorf("the one-change rebuild exported %v, want %v", o.rep.Export, tc.want)
			}
			if o.rep.Written == 0 || o.rep.Unchanged == 0 {
				t.Errorf("wrote %d files, kept %d: not a rebuild of one record", o.rep.Written, o.rep.Unchanged)
			}
		})
	}
}

// The schedule follows from what changed, one rule for every build.
func TestChooseExport(t *testing.T) {
	for _, tc := range []struct {
		f    exportFacts
		want ExportSchedule
	}{
		{exportFacts{kept: true, records: 10}, ExportKept},
		{exportFacts{records: 10, known: true, changed: 1}, ExportEarly},
		{exportFacts{records: 10, known: true, changed: maxEarly}, ExportEarly},
		{exportFacts{records: 10, known: true, changed: maxEarly + 1}, ExportAlone},
		{exportFacts{records: 10, known: true}, ExportBeside},                                // nothing to index: made from the index as it is
		{exportFacts{records: 10, known: true, changed: 1, restructured: true}, ExportAlone}, // the doc numbers move
		{exportFacts{records: 10, changed: 1}, ExportAlone},                                  // the index is not what the cache says
		{exportFacts{records: maxOverlap + 1, known: true, changed: 1}, ExportAlone},
		{exportFacts{records: maxOverlap, known: true, changed: 1}, ExportEarly},
		{exportFacts{records: maxBeside + 1, known: true, changed: 1}, ExportEarly}, // 500,000 records fit early
		{exportFacts{records: maxBeside, known: true}, ExportBeside},
		{exportFacts{records: maxBeside + 1, known: true}, ExportAlone},
	} {
		if got := chooseExport(tc.f); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.f, got, tc.want)
		}
	}
	// A build whose early export could not start exports beside the
	// listings, as far as that goes.
	for _, tc := range []struct {
		f    exportFacts
		want ExportSchedule
	}{
		{exportFacts{records: 10, known: true, changed: 1}, ExportBeside},
		{exportFacts{records: maxBeside + 1, known: true, changed: 1}, ExportAlone},
		{exportFacts{records: 10, known: true, changed: 1, restructured: true}, ExportAlone},
		{exportFacts{kept: true, records: 10}, ExportKept},
	} {
		if got := chooseLate(tc.f); got != tc.want {
			t.Errorf("late %+v: %v, want %v", tc.f, got, tc.want)
		}
	}
}

// The page cache names the search index it describes (its RecordsKey),
// so that a rebuild need not ask the index about every record. An index
// changed since, here to hold as many records but not the same ones, is
// asked record by record, and the rebuild still makes what a fresh build
// makes.
func TestEarlyExportChecksItsIndex(t *testing.T) {
	trustAll(t)
	in, files := testInput(t)
	p := newPair(t, in)
	p.build()
	data, err := os.ReadFile(pageCachePath(p.cache, p.out))
	if err != nil {
		t.Fatal(err)
	}
	pc, err := decodePageCache(data)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := index.Open(filepath.Join(p.cache, "index"))
	if err != nil {
		t.Fatal(err)
	}
	if pc.IndexKey == ([32]byte{}) || pc.IndexKey != idx.RecordsKey() {
		idx.Close()
		t.Fatal("the page cache does not name the index the build left")
	}
	// A record of the dataset out of the index, a stranger in.
	gone := files[0][0].(map[string]any)["id"].(string)
	raw, err := json.Marshal(seedRecord(t, 300, nil))
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	n := idx.Len()
	_, err = idx.Apply(index.Records([]record.Record{*stranger}), func(id string) bool { return id != gone })
	if err != nil || idx.Len() != n {
		t.Fatalf("the index changed behind the cache's back holds %d records, want %d (%v)", idx.Len(), n, err)
	}
	idx.Close()

	files[2][1].(map[string]any)["documentation"] = "An edited explanation, longer than it was before the edit."
	writeRecords(t, filepath.Join(in, "f2.json"), files[2]...)
	if o := p.build(); o.rep.Export != ExportEarly {
		t.Errorf("the one-change rebuild exported %v, want early", o.rep.Export)
	}
}
