package index

import (
	"reflect"
	"slices"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
)

// TestApplyEqualsSync checks that applying a change set gives the index
// that a Sync over the whole new dataset gives.
func TestApplyEqualsSync(t *testing.T) {
	recs := make([]record.Record, 0, 6)
	for _, id := range []string{"0000000000000001", "0000000000000002", "0000000000000003"} {
		recs = append(recs, record.Record{ID: id, Repo: "o/r", Slug: "s" + id[15:], ErrorMessage: "connection refused " + id,
			MessagePattern: "x", ErrorType: "exception", Severity: "error", FilePath: "a.py",
			Documentation: "doc", TriggerScenarios: "t", CommonSituations: "c",
			AnalyzedSha: "0000000000000000000000000000000000000000", AnalyzedAt: "2026-01-01T00:00:00Z", SchemaVersion: 2})
	}
	a := syncedTemp(t, 0, recs)
	// Change one, delete one, add one.
	next := slices.Clone(recs)
	next[0].Documentation = "changed documentation about timeouts"
	next = slices.Delete(next, 1, 2)
	added := recs[2]
	added.ID, added.Slug = "0000000000000004", "s4"
	next = append(next, added)
	keep := map[string]bool{}
	for _, r := range next {
		keep[r.ID] = true
	}
	st, err := a.Apply(Records([]record.Record{next[0], added}), func(id string) bool { return keep[id] })
	if err != nil {
		t.Fatal(err)
	}
	if st.Updated != 1 || st.Added != 1 || st.Deleted != 1 {
		t.Errorf("Apply stats = %+v, want 1 updated, 1 added, 1 deleted", st)
	}
	b := syncedTemp(t, 0, next)
	if a.Len() != b.Len() || a.DocCount() != b.DocCount() {
		t.Fatalf("Apply gave %d records (%d docs), Sync %d (%d)", a.Len(), a.DocCount(), b.Len(), b.DocCount())
	}
	for _, q := range []string{"timeouts", "connection", "refused"} {
		ha, hb := match(t, a, q, 10), match(t, b, q, 10)
		if len(ha) == 0 || !slices.Equal(ha, hb) {
			t.Errorf("%q: the Apply index finds %v, the Sync index %v", q, ha, hb)
		}
	}
}

// TestRecordHashSeesEveryField changes each field of a record in turn
// (found by reflection, so a field added to record.Record and not to
// recordHash fails here) and checks that the hash changes, and that it
// tells apart lists that join to the same text.
func TestRecordHashSeesEveryField(t *testing.T) {
	base := corpus.Generate(1, 7).Records()[0]
	same := base
	same.Tags = slices.Clone(base.Tags)
	if recordHash(&base) != recordHash(&same) {
		t.Fatal("two equal records have different hashes")
	}
	seen := map[[16]byte]string{recordHash(&base): "the record"}
	rt := reflect.TypeOf(base)
	for i := 0; i < rt.NumField(); i++ {
		r := base
		r.Tags, r.Solutions, r.PreventionTips = slices.Clone(base.Tags), slices.Clone(base.Solutions), slices.Clone(base.PreventionTips)
		f := reflect.ValueOf(&r).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "\u2028 x")
		case reflect.Int:
			f.SetInt(f.Int() + 1)
		case reflect.Slice:
			f.Set(reflect.Append(f, reflect.ValueOf("x")))
		default:
			t.Fatalf("record field %s is a %s: teach recordHash and this test about it", rt.Field(i).Name, f.Kind())
		}
		h := recordHash(&r)
		if other, ok := seen[h]; ok {
			t.Errorf("changing %s gives the hash of %s", rt.Field(i).Name, other)
		}
		seen[h] = rt.Field(i).Name
	}
	a, b := base, base
	a.Tags, b.Tags = []string{"ab", "c"}, []string{"a", "bc"}
	if recordHash(&a) == recordHash(&b) {
		t.Error("records whose lists differ only where they are split share a hash")
	}
}

// TestManyBatchesAnswerAsOne checks that records applied in many small
// batches, each applied by bleve while the next one fills, give the index
// one batch gives: after a first Sync and after a change set that
// updates and deletes across batches.
func TestManyBatchesAnswerAsOne(t *testing.T) {
	recs := genRecords(600, 9)
	a := syncedTemp(t, 25, recs)
	// Every third record updated, every seventh deleted.
	var next, changed []record.Record
	for i, r := range recs {
		switch {
		case i%7 == 0:
			continue
		case i%3 == 0:
			r.Documentation += " Rebatched after the quarterly audit."
			changed = append(changed, r)
		}
		next = append(next, r)
	}
	keep := map[string]bool{}
	for _, r := range next {
		keep[r.ID] = true
	}
	st, err := a.Apply(Records(changed), func(id string) bool { return keep[id] })
	if err != nil {
		t.Fatal(err)
	}
	if st.Updated != len(changed) || st.Deleted != len(recs)-len(next) {
		t.Fatalf("Apply stats = %+v, want %d updated, %d deleted", st, len(changed), len(recs)-len(next))
	}
	b := syncedTemp(t, 0, next)
	if a.Len() != len(next) || a.DocCount() != b.DocCount() || a.Len() != b.Len() {
		t.Fatalf("many batches: %d records, %d docs; one batch: %d, %d; want %d", a.Len(), a.DocCount(), b.Len(), b.DocCount(), len(next))
	}
	for _, q := range []string{"quarterly audit", "connection", "timeout", "invalid", "not found", recs[1].ErrorMessage} {
		ha, hb := match(t, a, q, 40), match(t, b, q, 40)
		if len(hb) == 0 || !slices.Equal(ha, hb) {
			t.Errorf("%q: many batches find %v, one batch %v", q, ha, hb)
		}
	}
	for _, r := range next {
		ea, _ := a.side.get(r.ID)
		eb, _ := b.side.get(r.ID)
		if ea.Hash != eb.Hash || ea.SortKey != eb.SortKey || !slices.Equal(ea.Blob, eb.Blob) {
			t.Fatalf("record %s: side entry %+v after many batches, %+v after one", r.ID, ea, eb)
		}
	}
}
