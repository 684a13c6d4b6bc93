package export

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The walks over a list in the cache's form read most postings without a
// call (skipTo, shortPosting): each must see what each (every posting
// read by nextRaw) sees, whatever the postings' sizes: one-byte numbers,
// a two-byte field length, longer gaps, frequencies and lengths, and
// norms stored as float32 bits.
func TestRawWalksAgreeWithEach(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 23))
	var short, long int
	for trial := range 3000 {
		var raw []byte
		var posts []posting
		doc := uint32(0)
		for range rng.IntN(200) {
			gap := uint32(1 + rng.IntN(1<<rng.IntN(16)))
			if len(posts) == 0 {
				gap--
			}
			doc += gap
			p := posting{doc: doc, freq: uint32(1 + rng.IntN(1<<rng.IntN(9)))}
			switch rng.IntN(6) {
			case 0:
				p.norm = float32(rng.Float64()) // no length gives it: its bits are kept
			case 1, 2:
				p.norm = float32(1 / math.Sqrt(float64(128+rng.IntN(20000))))
			default:
				p.norm = float32(1 / math.Sqrt(float64(1+rng.IntN(127))))
			}
			before := len(raw)
			var prev uint32
			if len(posts) > 0 {
				prev = posts[len(posts)-1].doc
			}
			raw = appendCachePosting(raw, p, prev)
			if _, size := shortPosting(raw, before); size > 0 {
				short++
			} else {
				long++
			}
			posts = append(posts, p)
		}
		ft := fieldTerm{undecoded: true, n: len(posts), raw: raw}
		var docs []uint32
		if err := ft.eachDoc(func(d uint32) bool { docs = append(docs, d); return true }); err != nil {
			t.Fatalf("trial %d: eachDoc: %v", trial, err)
		}
		var want []uint32
		ft.each(func(p posting) bool { want = append(want, p.doc); return true })
		if !slices.Equal(docs, want) || len(want) != len(posts) {
			t.Fatalf("trial %d: eachDoc read docs %v, each %v (%d postings written)", trial, docs, want, len(posts))
		}
		if !ft.wellFormed() {
			t.Fatalf("trial %d: a sound list not well formed", trial)
		}
		var probe []uint32
		for range rng.IntN(6) {
			if len(posts) > 0 && rng.IntN(2) == 0 {
				probe = append(probe, posts[rng.IntN(len(posts))].doc)
			} else {
				probe = append(probe, uint32(rng.IntN(int(doc)+2)))
			}
		}
		slices.Sort(probe)
		probe = slices.Compact(probe)
		if got, want := ft.holdsAny(probe), holdsAny(posts, probe); got != want {
			t.Fatalf("trial %d: holdsAny(%v) %t undecoded, %t decoded", trial, probe, got, want)
		}
		decoded := fieldTerm{posts: posts}
		a, err := ft.postingsAt(probe)
		b, _ := decoded.postingsAt(probe)
		if err != nil || !slices.Equal(a, b) {
			t.Fatalf("trial %d: postingsAt(%v) undecoded %v (%v), decoded %v", trial, probe, a, err, b)
		}
	}
	if short < 10000 || long < 10000 {
		t.Fatalf("%d postings of the usual sizes, %d others: the test does not try both", short, long)
	}
}

// A damaged list is refused by the walks as by each: a posting cut short
// in its last bytes, where a walk that reads four bytes at a time could
// read past it.
func TestRawWalksRefuseCutLists(t *testing.T) {
	var raw []byte
	for i := range 50 {
		raw = binary.AppendUvarint(raw, 1)
		raw = binary.AppendUvarint(raw, 1)
		raw = binary.AppendUvarint(raw, uint64(1+i*7))
	}
	for cut := 1; cut < 6; cut++ {
		ft := fieldTerm{undecoded: true, n: 50, raw: raw[:len(raw)-cut]}
		if ft.wellFormed() {
			t.Errorf("cut by %d: well formed", cut)
		}
		if err := ft.eachDoc(func(uint32) bool { return true }); err == nil {
			t.Errorf("cut by %d: eachDoc read it", cut)
		}
		if !ft.holdsAny([]uint32{60}) {
			t.Errorf("cut by %d: holdsAny says a list it cannot read lacks a doc past its end", cut)
		}
	}
}
