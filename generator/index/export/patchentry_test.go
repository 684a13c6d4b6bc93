package export

import (
	"bytes"
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/errdocs/errdocs/generator/index"
)

// A patched entry must be the entry prepareTerm makes of the new postings,
// byte for byte, whenever patchEntry gives one. The trials change a few
// docs' postings the ways edits do: a norm down (a longer field) or up, a
// frequency up, a posting gone and another come (the same count), a
// weight equal to another doc's; some of the docs are in the head. Enough of them must be patched for the
// comparison to check the patching, and enough refused (the head moved,
// the documents changed) for it to check the refusals.
func TestPatchEntryEqualsPrepare(t *testing.T) {
	opts := smallHeads()
	rng := rand.New(rand.NewPCG(7, 11))
	const docCount = 5000
	doc := slices.IndexFunc(index.Fields, func(f index.Field) bool { return f.Name == "documentation" })
	msg := slices.IndexFunc(index.Fields, func(f index.Field) bool { return f.Name == "errorMessage" })
	if doc < 0 || msg < 0 {
		t.Fatal("the index has no documentation or errorMessage field")
	}
	nPatched, refused := 0, 0
	for trial := 0; trial < 2000; trial++ {
		old := []fieldTerm{randomList(rng, "retry", min(doc, msg), docCount, 40+rng.IntN(400)),
			randomList(rng, "retry", max(doc, msg), docCount, 2+rng.IntN(300))}
		prev := prepareTerm(old, opts, docCount)
		cur, changed := editLists(rng, old, docCount, opts.HeadSize)
		got := patchEntry(old, appendPrepared(nil, prev), cur, changed, opts, docCount)
		if got == nil {
			refused++
			if patchEntryUndecoded(t, old, cur, prev, changed, opts, docCount) != nil {
				t.Fatalf("trial %d (changed docs %v): refused decoded, patched undecoded", trial, changed)
			}
			continue
		}
		nPatched++
		want := prepareTerm(cur, opts, docCount)
		if g := appendCachedEntry(nil, cur, got); !bytes.Equal(g, want.cached) {
			t.Fatalf("trial %d (changed docs %v): the patched entry differs from the one prepared anew", trial, changed)
		}
		if got.fallbacks != want.fallbacks {
			t.Fatalf("trial %d: %d norm fallbacks patched, %d prepared", trial, got.fallbacks, want.fallbacks)
		}
		gotRaw := patchEntryUndecoded(t, old, cur, prev, changed, opts, docCount)
		if gotRaw == nil || !bytes.Equal(gotRaw.cached, want.cached) || gotRaw.fallbacks != want.fallbacks {
			t.Fatalf("trial %d (changed docs %v): patched undecoded, the entry differs from the one prepared anew", trial, changed)
		}
	}
	t.Logf("%d entries patched, %d refused", nPatched, refused)
	if nPatched < 500 || refused < 250 {
		t.Errorf("%d entries patched, %d refused: want both ways taken often enough to be checked", nPatched, refused)
	}
}

// smallHeads are the export's options with small heads and blocks, so
// that lists of a few hundred postings have both.
func smallHeads() Options {
	opts := Options{}
	opts.defaults()
	opts.BlockSize, opts.HeadSize, opts.HeadMin = 16, 24, 24
	return opts
}

// patchEntryUndecoded patches the entry as an export does: the old
// postings read from the term cache, the new ones spliced into them
// (patched), neither decoded.
func patchEntryUndecoded(t *testing.T, old, cur []fieldTerm, prev *preparedTerm, changed []uint32, opts Options, docCount uint64) *preparedTerm {
	t.Helper()
	oldRaw, curRaw := make([]fieldTerm, len(old)), make([]fieldTerm, len(cur))
	for i := range old {
		oldRaw[i] = undecodedOf(old[i])
		probe, err := cur[i].postingsAt(changed)
		if err != nil {
			t.Fatal(err)
		}
		var ok bool
		if curRaw[i], ok = patched(&oldRaw[i], changed, probe, cur[i].df); !ok {
			t.Fatalf("list %d not patched in the cache's form", i)
		}
		curRaw[i].term, curRaw[i].field = cur[i].term, cur[i].field
	}
	pt := patchEntry(oldRaw, appendPrepared(nil, prev), curRaw, changed, opts, docCount)
	for i := range curRaw {
		if !curRaw[i].undecoded {
			t.Fatalf("list %d decoded by the patch", i)
		}
	}
	return pt
}

// undecodedOf is ft as the term cache gives it: its postings in the
// cache's form, not decoded.
func undecodedOf(ft fieldTerm) fieldTerm {
	return fieldTerm{term: ft.term, field: ft.field, df: ft.df, undecoded: true, n: len(ft.posts), raw: encodePostings(nil, ft.posts)}
}

// randomList is a term's postings in field of n random docs, with the
// frequencies and norms of real fields (a few fall back to raw bits).
func randomList(rng *rand.Rand, term string, field, docCount, n int) fieldTerm {
	seen := map[uint32]bool{}
	ft := fieldTerm{term: term, field: field}
	for len(ft.posts) < n {
		d := uint32(rng.IntN(docCount))
		if seen[d] {
			continue
		}
		seen[d] = true
		ft.posts = append(ft.posts, posting{doc: d, freq: uint32(1 + rng.IntN(4)), norm: randomNorm(rng)})
	}
	slices.SortFunc(ft.posts, cmpPosting)
	ft.df = uint64(len(ft.posts))
	return ft
}

func randomNorm(rng *rand.Rand) float32 {
	if rng.IntN(50) == 0 {
		return float32(rng.Float64()) // no integer length gives it
	}
	return float32(1 / math.Sqrt(float64(1+rng.IntN(300))))
}

// editLists returns the lists with one to three docs edited, and those
// docs, sorted.
func editLists(rng *rand.Rand, old []fieldTerm, docCount, headSize int) ([]fieldTerm, []uint32) {
	cur := make([]fieldTerm, len(old))
	for i := range old {
		cur[i] = old[i]
		cur[i].posts = slices.Clone(old[i].posts)
	}
	var changed []uint32
	for range 1 + rng.IntN(3) {
		i := rng.IntN(len(cur))
		ps := cur[i].posts
		k := rng.IntN(len(ps))
		switch rng.IntN(6) {
		case 0, 1: // a longer field: a smaller norm
			ps[k].norm = float32(1 / math.Sqrt(1/float64(ps[k].norm*ps[k].norm)+float64(1+rng.IntN(20))))
		case 2: // a shorter field, or another word more often
			ps[k].norm = min(1, ps[k].norm*2)
			ps[k].freq++
		case 3: // a fallback norm
			ps[k].norm = float32(rng.Float64())
		case 5: // the posting of a doc near the head's lightest: a tie
			byImpact := slices.Clone(ps)
			slices.SortFunc(byImpact, func(a, b posting) int {
				return cmp.Compare(math.Sqrt(float64(b.freq))*float64(b.norm), math.Sqrt(float64(a.freq))*float64(a.norm))
			})
			o := byImpact[min(len(ps)-1, max(0, headSize-2+rng.IntN(4)))]
			ps[k].freq, ps[k].norm = o.freq, o.norm
		case 4: // the doc loses the word, another doc gains it
			gone := ps[k].doc
			d := uint32(rng.IntN(docCount))
			if _, has := slices.BinarySearchFunc(ps, d, cmpPostingDoc); has {
				continue
			}
			ps = append(slices.Delete(ps, k, k+1), posting{doc: d, freq: 1, norm: randomNorm(rng)})
			slices.SortFunc(ps, cmpPosting)
			cur[i].posts = ps
			changed = append(changed, gone, d)
			continue
		}
		changed = append(changed, ps[k].doc)
	}
	slices.Sort(changed)
	return cur, slices.Compact(changed)
}

// decodeHead reads back the head prepareTerm encoded: its documents and
// each one's postings in the long lists, norms that fall back to raw
// bits included; a damaged encoding is refused.
func TestDecodeHeadReadsWhatEncodeWrote(t *testing.T) {
	opts := smallHeads()
	rng := rand.New(rand.NewPCG(19, 23))
	const docCount = 5000
	heads := 0
	for trial := range 300 {
		group := []fieldTerm{randomList(rng, "retry", 0, docCount, 20+rng.IntN(300)),
			randomList(rng, "retry", 1, docCount, 2+rng.IntN(300)), randomList(rng, "retry", 2, docCount, 1+rng.IntN(3))}
		pt := prepareTerm(group, opts, docCount)
		if !pt.hasHead {
			continue
		}
		heads++
		want, _, _ := termHeadInto(group, pt.long, docCount, opts.HeadSize, nil)
		got, ok := decodeHead(pt)
		if !ok || !slices.Equal(got.docs, want.docs) || len(got.posts) != len(want.posts) {
			t.Fatalf("trial %d: decoded %v, ok %t; want the head's %d documents", trial, got, ok, len(want.docs))
		}
		for x := range want.posts {
			for j := range want.posts[x] {
				g, w := got.posts[x][j], want.posts[x][j]
				if g.freq != w.freq || g.freq != 0 && (g.doc != w.doc || math.Float32bits(g.norm) != math.Float32bits(w.norm)) {
					t.Fatalf("trial %d: head document %d, long list %d: decoded %+v, want %+v", trial, want.docs[x], j, g, w)
				}
			}
		}
		cut := *pt
		cut.headEnc.b = pt.headEnc.b[:len(pt.headEnc.b)-1]
		if _, ok := decodeHead(&cut); ok {
			t.Fatalf("trial %d: a head cut short was decoded", trial)
		}
	}
	if heads < 100 {
		t.Errorf("%d of the trials had a head: too few to check decodeHead", heads)
	}
}
