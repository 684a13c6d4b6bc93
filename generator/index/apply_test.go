package index

import (
	"crypto/sha256"
	"encoding/json"
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
	a, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Sync(Records(recs)); err != nil {
		t.Fatal(err)
	}
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
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Sync(Records(next)); err != nil {
		t.Fatal(err)
	}
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

// TestRecordHashKeepsItsBytes checks that recordHash hashes the bytes
// json.Marshal gives for a record (what earlier builds hashed, so that an
// index they left is not taken for changed), on generated records and on
// one whose strings hold what JSON escapes.
func TestRecordHashKeepsItsBytes(t *testing.T) {
	recs := corpus.Generate(300, 7).Records()
	odd := recs[0]
	odd.ErrorMessage = "a <b> & \"c\" \u2028 \u2029 \x01 \xff\xfe done"
	odd.Tags, odd.Solutions, odd.HTTPStatus = nil, []string{}, 0
	recs = append(recs, odd)
	for i := range recs {
		r := &recs[i]
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		h.Write([]byte(MappingVersion))
		h.Write([]byte{0})
		h.Write(b)
		if want := [16]byte(h.Sum(nil)[:16]); recordHash(r) != want {
			t.Fatalf("record %d (%s): recordHash is not the hash of json.Marshal's bytes", i, r.ID)
		}
	}
}
