package export

import (
	"fmt"
	"math/rand"
	"testing"
)

// The numbering file gives each record its place whatever order the
// records come in now: most in the order of the file, some moved (indexed
// again: later, from a new segment), a few or many, and an id it does not
// hold is not found.
func TestNumberingPlaces(t *testing.T) {
	const n = 1000
	ids := make([]string, n)
	order := make([]uint32, n) // doc numbers in the file's (internal) order
	for i := range ids {
		ids[i] = fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15)
	}
	rng := rand.New(rand.NewSource(1))
	for i, doc := range rng.Perm(n) {
		order[i] = uint32(doc)
	}
	dir := t.TempDir()
	key := [32]byte{1}
	s := &savedNumbering{key: key, order: order, ids: ids, sums: make([]uint64, n)}
	if err := saveNumbering(dir, s); err != nil {
		t.Fatal(err)
	}
	for _, moved := range []int{0, 1, 2, 10, 200} {
		nt := loadNumbering(dir, key)
		if nt == nil {
			t.Fatal("the numbering file was not loaded")
		}
		// the records in the file's order, with moved of them at the end
		now := rng.Perm(n)[:moved]
		late := map[int]bool{}
		for _, i := range now {
			late[i] = true
		}
		for i := 0; i < n; i++ {
			if !late[i] {
				now = append(now[:len(now):len(now)], i)
			}
		}
		now = append(now[moved:], now[:moved]...)
		var pl placer
		for _, i := range now {
			got, ok := pl.place(nt, ids[order[i]])
			if !ok || got != i || nt.doc(got) != int(order[i]) {
				t.Fatalf("%d moved: record at %d placed at %d (%t)", moved, i, got, ok)
			}
		}
		if moved <= 2 && nt.slots != nil {
			t.Errorf("%d moved: the table of ids was made, for a few records moved", moved)
		}
		if _, ok := pl.place(nt, "not there"); ok {
			t.Errorf("%d moved: an id the file lacks was placed", moved)
		}
		nt.close()
	}
	if loadNumbering(dir, [32]byte{2}) != nil {
		t.Error("the numbering file was loaded as another numbering")
	}
}
