package validate_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
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
		var ids []string
		for i := range n {
			r := record.Record{ID: fmt.Sprintf("%016x", rng.Uint64N(uint64(idSpace))<<20), Repo: repos[rng.IntN(len(repos))],
				Slug: fmt.Sprintf("s%d", rng.IntN(slugSpace))}
			if len(s.Add(record.Source{File: "f.json", Index: i}, &r)) > 0 {
				rejected++
			}
			b.Add(r.Repo, validate.KeysOf(r.ID, r.Repo, r.Slug))
			ids = append(ids, r.ID)
		}
		if clean := b.Clean(); clean != (rejected == 0) {
			t.Fatalf("trial %d: %d records over %v, %d rejected by a Set, but Bulk says clean=%v", trial, n, repos, rejected, clean)
		}
		if rejected == 0 {
			cleanOnes++
			checkIDOrder(t, trial, ids, b.IDOrder())
		} else if b.IDOrder() != nil {
			t.Fatalf("trial %d: an order by id for a dataset that breaks a rule", trial)
		}
	}
	if cleanOnes < 50 || cleanOnes > 350 {
		t.Fatalf("%d of 400 datasets clean: the draw does not try both answers enough", cleanOnes)
	}
}

// checkIDOrder fails unless order is every record once, by its id as a
// string.
func checkIDOrder(t *testing.T, trial int, ids []string, order []int32) {
	t.Helper()
	want := make([]int32, len(ids))
	for i := range want {
		want[i] = int32(i)
	}
	slices.SortFunc(want, func(a, b int32) int { return strings.Compare(ids[a], ids[b]) })
	if !slices.Equal(order, want) {
		t.Fatalf("trial %d: IDOrder of %d records is not their order by id", trial, len(ids))
	}
}

// A record without a well-formed id (which Set does not check) leaves
// the dataset without an order by id, clean or not.
func TestBulkIDOrderNeedsEveryID(t *testing.T) {
	b := validate.NewBulk(0)
	b.Add("o/r", validate.KeysOf("00000000000000ff", "o/r", "a"))
	b.Add("o/r", validate.KeysOf("not-an-id", "o/r", "b"))
	b.Add("o/r", validate.KeysOf("000000000000000f", "o/r", "c"))
	if !b.Clean() {
		t.Fatal("three distinct slugs and ids: not clean")
	}
	if order := b.IDOrder(); order != nil {
		t.Fatalf("IDOrder %v with a record that has no id", order)
	}
}
