package validate

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
)

// The table of ids finds what a map finds: each id's first place, over
// growth from an empty table, with ids that share their low bits or
// their high bits (as ids chosen to collide would), and the id zero.
func TestIDTableAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var ids []uint64
	for i := range 3000 {
		switch i % 3 {
		case 0:
			ids = append(ids, rng.Uint64())
		case 1:
			ids = append(ids, uint64(i)<<40) // low bits all zero
		default:
			ids = append(ids, uint64(i)) // high bits all zero
		}
	}
	ids = append(ids, 0, ids[5], ids[77], 0) // repeats: the first place stays
	tab := newIDTable(0)
	want := map[uint64]place{}
	for k, id := range ids {
		p := place{file: int32(k % 7), index: int32(k), line: int32(k + 1)}
		first, slot, ok := tab.lookup(id)
		w, had := want[id]
		if ok != had || (ok && first != w) {
			t.Fatalf("id %#x: table says %v %v, map %v %v", id, first, ok, w, had)
		}
		if !ok {
			tab.insert(slot, id, p)
			want[id] = p
		}
	}
	if tab.len() != len(want) {
		t.Fatalf("table holds %d ids, want %d", tab.len(), len(want))
	}
	for id, w := range want {
		if got, _, ok := tab.lookup(id); !ok || got != w {
			t.Fatalf("id %#x after growth: %v %v, want %v", id, got, ok, w)
		}
	}
}

// BenchmarkSetAdd adds half a million records of a few thousand repos,
// as a rebuild does, to a Set sized for them.
func BenchmarkSetAdd(b *testing.B) {
	const n = 500000
	rng := rand.New(rand.NewPCG(3, 4))
	recs := make([]record.Record, n)
	for i := range recs {
		recs[i] = record.Record{ID: fmt.Sprintf("%016x", rng.Uint64()), Repo: fmt.Sprintf("owner%d/repo%d", i/150, i/150), Slug: fmt.Sprintf("slug-%d", i)}
	}
	b.ResetTimer()
	for range b.N {
		s := NewSet()
		s.Grow(n)
		for i := range recs {
			if ps := s.Add(record.Source{File: recs[i].Repo, Index: i % 150, Line: 1 + i%150}, &recs[i]); len(ps) > 0 {
				b.Fatal(ps)
			}
		}
	}
}
