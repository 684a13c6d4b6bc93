package validate_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/generator/validate"
)

// Bulk says a dataset is clean exactly when a Set, given its records in
// order, rejects none: over datasets of every size from one record to
// thousands, drawn so that some hold an id, a slug or a repo's folder
// twice and others hold none.
func TestBulkCleanAsSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 16))
	cleanOnes := 0
	for trial := range 400 {
		n := 1 + rng.IntN(4000)
		// Key spaces far larger than n give clean datasets, near n not.
		idSpace, slugSpace := n*(1+rng.IntN(3000)), n*(1+rng.IntN(3000))
		repos := []string{"o/r0", "o/r1", "p/r0", "O/R1", "o/r2."}[:1+rng.IntN(3)+rng.IntN(3)/2*2]
		s, b := validate.NewSet(), validate.NewBulk(0)
		rejected := 0
		for i := range n {
			r := record.Record{ID: fmt.Sprintf("%016x", rng.Uint64N(uint64(idSpace))<<20), Repo: repos[rng.IntN(len(repos))],
				Slug: fmt.Sprintf("s%d", rng.IntN(slugSpace))}
			if len(s.Add(record.Source{File: "f.json", Index: i}, &r)) > 0 {
				rejected++
			}
			b.Add(r.Repo, validate.KeysOf(r.ID, r.Repo, r.Slug))
		}
		if clean := b.Clean(); clean != (rejected == 0) {
			t.Fatalf("trial %d: %d records over %v, %d rejected by a Set, but Bulk says clean=%v", trial, n, repos, rejected, clean)
		}
		if rejected == 0 {
			cleanOnes++
		}
	}
	if cleanOnes < 50 || cleanOnes > 350 {
		t.Fatalf("%d of 400 datasets clean: the draw does not try both answers enough", cleanOnes)
	}
}
