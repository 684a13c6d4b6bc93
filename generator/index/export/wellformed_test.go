package export

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// wellFormed is each without its work: it must accept exactly the
// posting lists each reads without error, or a damaged term cache entry
// would be taken (or a sound one refused) by an incremental export.
func TestWellFormedAgreesWithEach(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	sound := func(n int) []byte {
		var b []byte
		for range n {
			b = binary.AppendUvarint(b, uint64(rng.IntN(1<<rng.IntN(20))))
			b = binary.AppendUvarint(b, uint64(1+rng.IntN(40)))
			if rng.IntN(4) == 0 {
				b = binary.AppendUvarint(b, 0)
				b = binary.LittleEndian.AppendUint32(b, rng.Uint32())
			} else {
				b = binary.AppendUvarint(b, uint64(1+rng.IntN(5000)))
			}
		}
		return b
	}
	var good, bad int
	for trial := range 20000 {
		n := rng.IntN(30)
		raw := sound(n)
		switch trial % 5 {
		case 1: // cut short
			raw = raw[:rng.IntN(len(raw)+1)]
		case 2: // bytes left over
			raw = append(raw, byte(rng.IntN(256)))
		case 3: // a byte changed
			if len(raw) > 0 {
				raw[rng.IntN(len(raw))] = byte(rng.IntN(256))
			}
		case 4: // another count
			n += rng.IntN(3) - 1
			n = max(n, 0)
		}
		ft := fieldTerm{raw: raw, n: n, undecoded: true}
		want := ft.each(func(posting) bool { return true }) == nil
		if got := ft.wellFormed(); got != want {
			t.Fatalf("trial %d: %d postings in %x: wellFormed %t, each reads them without error: %t", trial, n, raw, got, want)
		}
		if want {
			good++
		} else {
			bad++
		}
	}
	if good < 1000 || bad < 1000 {
		t.Fatalf("%d sound and %d damaged lists: the test does not try both", good, bad)
	}
}
