package export

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The term cache's entries and prefix lists are built in a buffer sized
// ahead (cachedEntrySize, listSize): a size below the entry's would only
// cost a copy, but would mean the hint no longer does its work. Random
// shapes: one to three fields, short and long lists, heads and blocks.
func TestTermCacheSizeHintsHold(t *testing.T) {
	opts := Options{}
	opts.defaults()
	opts.BlockSize, opts.HeadSize, opts.HeadMin = 16, 24, 24
	rng := rand.New(rand.NewPCG(3, 5))
	const docCount = 5000
	for trial := range 500 {
		var group []fieldTerm
		for f := range 1 + rng.IntN(3) {
			group = append(group, randomList(rng, "deadline", f, docCount, 1+rng.IntN(600)))
		}
		pt := prepareTerm(group, opts, docCount)
		if len(pt.cached) > cachedEntrySize(group, pt) {
			t.Fatalf("trial %d: entry of %d bytes, sized ahead %d", trial, len(pt.cached), cachedEntrySize(group, pt))
		}
		vl := randomVList(rng, docCount, 1+rng.IntN(600))
		pl := prepareList(vl, opts, rng.Uint64(), new(vlistBuffers))
		if len(pl.cached) > listSize(pl) {
			t.Fatalf("trial %d: list of %d bytes, sized ahead %d", trial, len(pl.cached), listSize(pl))
		}
	}
}

// randomVList is a prefix list of n random docs, each with one to three
// of its terms' postings.
func randomVList(rng *rand.Rand, docCount, n int) *vlist {
	vl := &vlist{prefix: "dea", first: "deadline", nTerms: 3}
	docs := map[uint32]bool{}
	for len(vl.posts) < n {
		d := uint32(rng.IntN(docCount))
		if docs[d] {
			continue
		}
		docs[d] = true
		vp := vposting{doc: d, v: rng.Float64() * 10}
		for c := range 1 + rng.IntN(3) {
			vp.ents = append(vp.ents, vent{child: c, freq: uint32(1 + rng.IntN(4)), norm: randomNorm(rng)})
		}
		vl.posts = append(vl.posts, vp)
	}
	slices.SortFunc(vl.posts, func(a, b vposting) int { return int(a.doc) - int(b.doc) })
	return vl
}
