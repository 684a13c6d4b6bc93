package highlight

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// A large index is taken as sorted from a sample of its entries: an index
// in write order (keys in no order: hashes) or reversed must still be
// found out, and sorted again, whatever its size.
func TestLooksSortedFindsIndexesInWriteOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 31))
	for _, n := range []int{100, 768, 769, 5000, 100000} {
		entries := make([][]byte, n)
		for i := range entries {
			e := make([]byte, indexEntry)
			for j := range e {
				e[j] = byte(rng.IntN(256))
			}
			entries[i] = e
		}
		join := func() []byte { return bytes.Join(entries, nil) }
		writeOrder := join()
		slices.SortFunc(entries, func(a, b []byte) int { return bytes.Compare(a[:32], b[:32]) })
		sorted := join()
		slices.Reverse(entries)
		reversed := join()
		if !looksSorted(sorted) {
			t.Errorf("%d entries sorted: looksSorted false", n)
		}
		if looksSorted(writeOrder) {
			t.Errorf("%d entries in write order: looksSorted true", n)
		}
		if looksSorted(reversed) {
			t.Errorf("%d entries reversed: looksSorted true", n)
		}
	}
}
