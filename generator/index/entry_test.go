package index

import (
	"reflect"
	"sync"
	"testing"

	"github.com/errdocs/errdocs/internal/corpus"
)

// TestPreparedEntriesIndexAsRecordsDo checks that entries prepared on
// several goroutines at once, then applied, give the index that applying
// the records gives: the same side entries (hash, sort key, doc data)
// and the same results.
func TestPreparedEntriesIndexAsRecordsDo(t *testing.T) {
	recs := corpus.Generate(400, 5).Records()
	a := openTemp(t, 64)
	if _, err := a.Apply(Records(recs), func(string) bool { return true }); err != nil {
		t.Fatal(err)
	}
	b := openTemp(t, 64)
	entries := make([]*Entry, len(recs))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(recs); i += 4 {
				entries[i] = b.Prepare(&recs[i])
			}
		})
	}
	wg.Wait()
	st, err := b.ApplyEntries(func(yield func(*Entry) bool) {
		for _, e := range entries {
			if !yield(e) {
				return
			}
		}
	}, func(string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != len(recs) || b.Len() != a.Len() || b.DocCount() != a.DocCount() {
		t.Fatalf("prepared entries: %+v, %d records, %d docs; records: %d, %d", st, b.Len(), b.DocCount(), a.Len(), a.DocCount())
	}
	for _, r := range recs {
		ea, _ := a.side.get(r.ID)
		eb, _ := b.side.get(r.ID)
		if !reflect.DeepEqual(ea, eb) {
			t.Fatalf("record %s: side entry %+v from its prepared entry, %+v from the record", r.ID, eb, ea)
		}
	}
	for _, q := range []string{"connection refused", "permission", "timeout", "null"} {
		ha, hb := match(t, a, q, 20), match(t, b, q, 20)
		if !reflect.DeepEqual(ha, hb) {
			t.Errorf("%q: the records' index finds %v, the prepared entries' %v", q, ha, hb)
		}
	}
	// Applying the same entries again changes nothing: their hashes are
	// the side store's.
	st, err = b.Apply(Records(recs), func(string) bool { return true })
	if err != nil || st.Unchanged != len(recs) {
		t.Fatalf("applying the records again: %+v, %v; want all %d unchanged", st, err, len(recs))
	}
}
