package export

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// The term cache's entries and prefix lists are built in a buffer sized
// ahead, grown once: their sizes, computed before they are written, must
// be theirs (a size too small would only cost a copy, one too large
// memory, so neither would show otherwise). Random shapes: one to three
// fields, short and long lists, heads and blocks, terms read from the
// cache or not.
func TestTermCacheSizeHintsHold(t *testing.T) {
	opts := Options{}
	opts.defaults()
	opts.BlockSize, opts.HeadSize, opts.HeadMin = 16, 24, 24
	rng := rand.New(rand.NewPCG(3, 5))
	const docCount = 50000
	for trial := range 500 {
		var group []fieldTerm
		for f := range 1 + rng.IntN(3) {
			n := 1 + rng.IntN(600)
			if trial%10 == 0 {
				n = 20000 + rng.IntN(20000) // an entry of a common word
			}
			group = append(group, randomList(rng, "deadline", f, docCount, n))
		}
		pt := prepareTerm(group, opts, docCount)
		if n := preparedSize(pt); n != len(appendPrepared(nil, pt)) {
			t.Fatalf("trial %d: prepared encoding of %d bytes, sized %d", trial, len(appendPrepared(nil, pt)), n)
		}
		if rng.IntN(2) == 0 {
			group[0].cached = appendCachedTerm(nil, &group[0], encodePostings(nil, group[0].posts))
		}
		entry := appendCachedEntry(make([]byte, 0, 1), group, pt)
		if !bytes.Equal(entry, pt.cached) {
			t.Fatalf("trial %d: the entry differs from prepareTerm's", trial)
		}
		if cap(entry) > roundedCap(len(entry)) {
			t.Fatalf("trial %d: entry of %d bytes in a buffer of %d: grown more than once", trial, len(entry), cap(entry))
		}
		vl := randomVList(rng, docCount, 1+rng.IntN(600))
		pl := prepareList(vl, opts, rng.Uint64(), new(vlistBuffers))
		if len(pl.cached) != listSize(pl) {
			t.Fatalf("trial %d: list of %d bytes, sized %d", trial, len(pl.cached), listSize(pl))
		}
	}
}

// roundedCap is the most capacity a buffer of n bytes grown once has:
// n rounded up to the allocator's size class (at most an eighth more) or
// to whole pages.
func roundedCap(n int) int { return max(n+n/8, n+8192) }

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
