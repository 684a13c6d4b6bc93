package export

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// A list spliced in the cache's form must be, byte for byte, the list
// encoded anew from its postings with the changes made: a posting's
// value changed, a posting gone, one come (before the first, between
// two, after the last, next to another change), a doc absent that stays
// so.
func TestSplicePostingsEqualsEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	const docCount = 3000
	for trial := range 3000 {
		old := randomList(rng, "retry", 0, docCount, 1+rng.IntN(200))
		want := map[uint32]posting{}
		for _, p := range old.posts {
			want[p.doc] = p
		}
		changes := map[uint32]posting{} // doc → its posting now (freq 0: none)
		for range 1 + rng.IntN(4) {
			var d uint32
			switch rng.IntN(5) {
			case 0: // a doc of the list
				d = old.posts[rng.IntN(len(old.posts))].doc
			case 1: // the first or last doc of the list, or one past them
				d = []uint32{0, old.posts[0].doc, old.posts[len(old.posts)-1].doc, docCount}[rng.IntN(4)]
			case 2: // next to a doc of the list
				d = old.posts[rng.IntN(len(old.posts))].doc + 1
			default:
				d = uint32(rng.IntN(docCount))
			}
			p := posting{doc: d}
			if rng.IntN(3) > 0 {
				p.freq, p.norm = uint32(1+rng.IntN(5)), randomNorm(rng)
			}
			changes[d] = p
		}
		docs := make([]uint32, 0, len(changes))
		for d := range changes {
			docs = append(docs, d)
		}
		slices.Sort(docs)
		ps := make([]posting, len(docs))
		for k, d := range docs {
			ps[k] = changes[d]
			delete(want, d)
			if ps[k].freq != 0 {
				want[d] = ps[k]
			}
		}
		var wantPosts []posting
		for _, p := range want {
			wantPosts = append(wantPosts, p)
		}
		slices.SortFunc(wantPosts, cmpPosting)

		raw := encodePostings(nil, old.posts)
		before := slices.Clone(raw)
		got, n, ok := splicePostings(raw, len(old.posts), docs, ps)
		if !ok || n != len(wantPosts) || !bytes.Equal(got, encodePostings(nil, wantPosts)) {
			t.Fatalf("trial %d (changes %v): spliced %d postings, ok %t; want the %d encoded anew", trial, ps, n, ok, len(wantPosts))
		}
		if !bytes.Equal(raw, before) {
			t.Fatalf("trial %d: the list spliced was changed", trial)
		}
	}
}

// A list that does not read as its count says is refused, not spliced:
// cut short, with bytes left over, or with a gap that runs past the
// largest doc number.
func TestSplicePostingsRefusesDamagedLists(t *testing.T) {
	posts := []posting{{doc: 3, freq: 1, norm: 0.5}, {doc: 9, freq: 2, norm: 0.25}, {doc: 40, freq: 1, norm: 0.123}}
	raw := encodePostings(nil, posts)
	change := []posting{{doc: 9, freq: 3, norm: 0.5}}
	if _, n, ok := splicePostings(raw, len(posts), []uint32{9}, change); !ok || n != 3 {
		t.Fatalf("the whole list: ok %t, %d postings; want it spliced, 3", ok, n)
	}
	huge := encodePostings(nil, []posting{{doc: 1 << 31, freq: 1, norm: 0.5}})
	for name, c := range map[string]struct {
		raw []byte
		n   int
	}{
		"cut short":       {raw[:len(raw)-1], len(posts)},
		"bytes left over": {append(slices.Clone(raw), 1), len(posts)},
		"count too large": {raw, len(posts) + 1},
		"doc past 2^32":   {slices.Concat(huge, huge, huge), 3},
	} {
		if _, _, ok := splicePostings(c.raw, c.n, []uint32{9}, change); ok {
			t.Errorf("%s: spliced", name)
		}
	}
}

// What a patch reads of a list, it reads the same whether the list is
// decoded or lies in the cache's form.
func TestPostingsAtReadsAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	for trial := range 500 {
		ft := randomList(rng, "retry", 0, 2000, 1+rng.IntN(300))
		raw := undecodedOf(ft)
		var docs []uint32
		for range rng.IntN(20) {
			docs = append(docs, uint32(rng.IntN(2001)))
		}
		slices.Sort(docs)
		docs = slices.Compact(docs)
		a, err1 := ft.postingsAt(docs)
		b, err2 := raw.postingsAt(docs)
		if err1 != nil || err2 != nil || !slices.Equal(a, b) {
			t.Fatalf("trial %d: postingsAt(%v) decoded %v, undecoded %v (%v %v)", trial, docs, a, b, err1, err2)
		}
		for k, d := range docs {
			if _, has := slices.BinarySearchFunc(ft.posts, d, cmpPostingDoc); has != (a[k].freq != 0) || a[k].doc != d {
				t.Fatalf("trial %d: postingsAt gave %v for doc %d", trial, a[k], d)
			}
		}
	}
}
