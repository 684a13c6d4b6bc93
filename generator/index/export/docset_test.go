package export

import (
	"math/rand"
	"testing"
)

// A doc set answers as the bitset it was made from, sparse (gaps) or
// dense (bitset), for docs in it, near it and beyond it.
func TestDocSet(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	kinds := map[byte]int{}
	for _, density := range []float64{0, 0.0005, 0.01, 0.2, 0.9, 1} {
		for range 20 {
			n := 1 + rng.Intn(5000)
			words := make([]uint64, (n+63)/64)
			for d := 0; d < n; d++ {
				if rng.Float64() < density {
					words[d/64] |= 1 << (d % 64)
				}
			}
			set := encodeDocSet(words)
			if len(set) > 0 {
				kinds[set[0]]++
			}
			for d := uint32(0); d < uint32(n)+200; d++ {
				want := int(d/64) < len(words) && words[d/64]&(1<<(d%64)) != 0
				if got := docSetHas(set, d); got != want {
					t.Fatalf("density %v, %d docs: has(%d) = %v, want %v", density, n, d, got, want)
				}
			}
		}
	}
	if kinds[docSetGaps] == 0 || kinds[docSetBitset] == 0 {
		t.Errorf("sets by kind %v: both kinds should be made", kinds)
	}
}
