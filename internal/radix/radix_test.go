package radix

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// SortBuf orders as a stable comparison sort does, for keys of every
// width (one pass to six, odd and even counts), and reuses its buffer.
func TestSortBufAsStableSort(t *testing.T) {
	type item struct {
		key uint64
		at  int
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var tmp []item
	for trial := range 200 {
		width := rng.IntN(65)
		xs := make([]item, rng.IntN(3000))
		for i := range xs {
			xs[i] = item{rng.Uint64() >> (64 - width) & (1<<width - 1), i}
			if width == 0 {
				xs[i].key = 0
			}
		}
		want := slices.Clone(xs)
		slices.SortStableFunc(want, func(a, b item) int { return cmp.Compare(a.key, b.key) })
		tmp = SortBuf(xs, tmp, func(x item) uint64 { return x.key })
		if !slices.Equal(xs, want) {
			t.Fatalf("trial %d (%d keys of %d bits): not the stable order", trial, len(xs), width)
		}
	}
}
