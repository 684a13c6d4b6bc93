package export

import (
	"math"
	"slices"
)

// A prefix list whose expansion is the same terms with the same document
// frequencies as at the previous export, and whose changed records
// changed their postings in value alone (an appended sentence changes a
// record's norm in each term of its documentation), keeps its documents,
// its head and its tail blocks' bounds when those records stay out of
// the head, as they mostly do. It is then made from the list the
// previous export prepared, with only the blocks holding a changed
// record's posting encoded again: a common prefix's list holds most
// records, and building it (every posting of hundreds of terms merged and
// sorted) was most of a one-record export's reading.

// patchList returns the prefix list of prefix in field, whose expansion
// is live (decoded or not, in code point order; its terms fingerprint
// sum), prepared from the previous export's, or nil when it cannot be:
// then buildVList and prepareList make it.
func (c *termCache) patchList(prefix string, field int, live []*fieldTerm, sum uint64, docCount uint64) *preparedList {
	if c == nil || len(c.changed) == 0 {
		return nil
	}
	h, ok := c.holder[listKey(prefix, field)]
	if !ok {
		return nil
	}
	old := c.shard(h).lists[listKey(prefix, field)]
	if old == nil || old.first != live[0].term || old.nTerms != len(live) || old.sum != sum || !c.sameDFs(live) {
		return nil
	}
	idf := make([]float64, len(live))
	for i, ft := range live {
		idf[i] = 1 + math.Log(float64(docCount)/float64(ft.df+1))
	}
	// The changed docs the list holds, which it must hold still.
	held, ok := old.holds(c.changed)
	if !ok {
		return nil
	}
	at, ok := listPostings(old, live, c.changed)
	if !ok {
		return nil
	}
	var inList []uint32
	for k, d := range c.changed {
		if now := len(at.ents(d)) > 0; now != held[k] {
			return nil
		} else if now {
			inList = append(inList, d)
		}
	}
	if len(inList) == 0 {
		return nil
	}
	if old.head != nil && !listHeadStays(old.head, at, idf, inList) {
		return nil
	}
	pl := *old
	pl.blocks = slices.Clone(old.blocks)
	for _, d := range inList {
		k, ok := blockOf(pl.blocks, d)
		if !ok || !reencodeVBlock(&pl, k, at, idf) {
			return nil // the list is not as the cache says
		}
	}
	pl.cached = appendList(nil, &pl)
	c.listPatchHits.Add(1)
	return &pl
}

// expansionPostings holds the postings of some documents in each term of
// a prefix list's expansion: what patching the list reads of them.
type expansionPostings struct {
	docs []uint32    // sorted
	at   [][]posting // per term (child order), its postings of docs
}

// listPostings reads the expansion's postings (live) of the documents a
// patch of list old may read: the changed docs and those of the tail
// blocks that hold one of them.
func listPostings(old *preparedList, live []*fieldTerm, changed []uint32) (*expansionPostings, bool) {
	docs := slices.Clone(changed)
	for _, d := range changed {
		k, ok := blockOf(old.blocks, d)
		if !ok {
			continue
		}
		posts, _, ok := decodeVBlock(&old.blocks[k], len(live))
		if !ok {
			return nil, false
		}
		for _, p := range posts {
			docs = append(docs, p.doc)
		}
	}
	slices.Sort(docs)
	docs = slices.Compact(docs)
	ep := &expansionPostings{docs: docs, at: make([][]posting, len(live))}
	for c, ft := range live {
		var err error
		if ep.at[c], err = ft.postingsAt(docs); err != nil {
			return nil, false
		}
	}
	return ep, true
}

// ents returns doc's entries in the list of the expansion terms, in
// child order, as buildVList gathers them (doc is one of ep.docs).
func (ep *expansionPostings) ents(doc uint32) []vent {
	k, found := slices.BinarySearch(ep.docs, doc)
	if !found {
		return nil
	}
	var ents []vent
	for c := range ep.at {
		if p := ep.at[c][k]; p.freq != 0 {
			ents = append(ents, vent{c, p.freq, p.norm})
		}
	}
	return ents
}

// sameDFs reports whether each term of live has the document frequency
// it had at the previous export (so the same idf): a term taken from the
// cache has, another is looked up there.
func (c *termCache) sameDFs(live []*fieldTerm) bool {
	for _, ft := range live {
		if ft.cached != nil {
			continue
		}
		old, ok := c.shard(c.shardOf(ft.term)).lookup(termKey{ft.field, ft.term})
		if !ok || old.df != ft.df {
			return false
		}
	}
	return true
}

// holds reports, for each of docs (sorted), whether the list has a
// posting of it.
func (pl *preparedList) holds(docs []uint32) ([]bool, bool) {
	held := make([]bool, len(docs))
	k := 0
	err := pl.eachDoc(func(doc uint32) {
		for k < len(docs) && docs[k] < doc {
			k++
		}
		if k < len(docs) && docs[k] == doc {
			held[k] = true
		}
	})
	return held, err == nil
}

// vOf is a list posting's value as buildVList computes it: the same sum,
// in the same order.
func vOf(ents []vent, idf []float64) float64 {
	v := 0.0
	for _, e := range ents {
		v += math.Sqrt(float64(e.freq)) * float64(e.norm) * idf[e.child] * idf[e.child]
	}
	return v * (float64(len(ents)) / float64(len(idf)))
}

// listHeadStays reports whether no changed doc in the list (inList) is
// in its head, and each ranks below every head doc as splitVHead orders
// them (larger value first, then smaller doc): the head is then the one
// it would pick again.
func listHeadStays(head *encodedBlock, at *expansionPostings, idf []float64, inList []uint32) bool {
	posts, _, ok := decodeVBlock(head, len(idf))
	if !ok {
		return false
	}
	for _, d := range inList {
		vd := vOf(at.ents(d), idf)
		for _, hp := range posts {
			if hp.doc == d {
				return false
			}
			vh := vOf(hp.ents, idf)
			if !(vd < vh || vd == vh && d > hp.doc) {
				return false
			}
		}
	}
	return true
}

// reencodeVBlock encodes tail block k of pl again with its postings now:
// the same documents (the changed ones hold postings in the list as
// before), each one's entries as at holds them (idf: one per expansion
// term). It reports false when the block does not read as the list
// says.
func reencodeVBlock(pl *preparedList, k int, at *expansionPostings, idf []float64) bool {
	old := &pl.blocks[k]
	posts, oldFallbacks, ok := decodeVBlock(old, len(idf))
	if !ok || len(posts) == 0 || posts[0].doc != old.first || posts[len(posts)-1].doc != old.last {
		return false
	}
	for i := range posts {
		posts[i].ents = at.ents(posts[i].doc)
		if len(posts[i].ents) == 0 {
			return false
		}
		posts[i].v = vOf(posts[i].ents, idf)
	}
	var st Stats
	enc, best := encodeVBlock(posts, &st)
	pl.blocks[k] = encodedBlock{enc: enc, first: old.first, last: old.last, count: old.count, putMax: vmax(best), maxBits: f32Up(best)}
	pl.fallbacks += st.NormFallbacks - oldFallbacks
	return true
}

// decodeVBlock reads a prefix list's block as encodeVBlock wrote it: per
// posting its doc gap (the first from the block's first doc), its entry
// count and each entry's child, frequency and field length (0: the
// norm's float32 bits follow). It returns the postings, without values,
// and how many norms were written as raw bits.
func decodeVBlock(b *encodedBlock, nTerms int) ([]vposting, int, bool) {
	r := cvReader{b: b.enc.b}
	posts := make([]vposting, 0, b.count)
	doc, fallbacks := b.first, 0
	for range b.count {
		gap, ok1 := r.next()
		n, ok2 := r.next()
		if !ok1 || !ok2 || n == 0 || n > uint64(nTerms) {
			return nil, 0, false
		}
		doc += uint32(gap)
		vp := vposting{doc: doc, ents: make([]vent, n)}
		for j := range vp.ents {
			child, ok1 := r.next()
			freq, ok2 := r.next()
			l, ok3 := r.next()
			if !ok1 || !ok2 || !ok3 || child >= uint64(nTerms) {
				return nil, 0, false
			}
			e := vent{child: int(child), freq: uint32(freq)}
			if l > 0 {
				e.norm = float32(1 / math.Sqrt(float64(l)))
			} else {
				bits, ok := r.next()
				if !ok {
					return nil, 0, false
				}
				e.norm = math.Float32frombits(uint32(bits))
				fallbacks++
			}
			vp.ents[j] = e
		}
		posts = append(posts, vp)
	}
	return posts, fallbacks, len(r.b) == 0
}
