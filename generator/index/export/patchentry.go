package export

import (
	"math"
	"slices"
)

// A term whose postings changed at the changed records alone, and there
// only in value (a sentence appended to a record's documentation changes
// that record's norm in each of the field's terms), keeps its impact head
// and its tail blocks' bounds when those records are outside the head
// before and after, as they mostly are: the head holds a term's HeadSize
// heaviest documents, and a common word's list is far longer. Its entry
// is then made from the one the previous export prepared, with only the
// blocks that hold a changed record's posting encoded again, where
// prepareTerm would weigh every posting to pick the head and encode every
// block: work that grows with the word's list, not with the edit.

// patchPrepared returns the group (fields ascending, postings decoded or
// not) prepared from the previous export's entry of its term when the entry's
// fields, their postings' documents and the head are as they were; else
// nil, and prepareTerm prepares it.
func (c *termCache) patchPrepared(group []fieldTerm, opts Options, docCount uint64) *preparedTerm {
	if c == nil || len(c.firsts) == 0 || len(group) == 0 {
		return nil
	}
	e, ok := c.shard(c.shardOf(group[0].term)).find(group[0].term)
	if !ok {
		return nil
	}
	pt := patchEntry(e.fields, e.prepared, group, c.changed, opts, docCount)
	if pt != nil {
		c.patchHits.Add(1)
	}
	return pt
}

// patchEntry returns group prepared from old, the previous export's
// postings of its term, and prepared, their preparation (appendPrepared),
// when the changed docs (sorted) changed the postings' values alone and
// stay out of the head; else nil.
func patchEntry(old []fieldTerm, prepared []byte, group []fieldTerm, changed []uint32, opts Options, docCount uint64) *preparedTerm {
	if len(prepared) == 0 || len(old) != len(group) || opts.BlockSize <= 0 {
		return nil
	}
	now := make([][]posting, len(group)) // each list's postings of changed
	for i := range group {
		var ok bool
		if now[i], ok = sameDocs(&group[i], &old[i], changed); !ok {
			return nil
		}
	}
	pt, err := readPrepared(prepared, len(group))
	if err != nil {
		return nil
	}
	if pt.hasHead {
		h, ok := decodeHead(pt)
		if !ok || !staysOutOfHead(group, pt.long, h, now, changed, docCount) {
			return nil
		}
	}
	for _, i := range pt.long {
		if group[i].cached != nil {
			continue // the cache's own postings: its blocks are as they were
		}
		if !pt.reencode(i, now[i], changed, opts.BlockSize) {
			return nil
		}
	}
	pt.cached = appendCachedEntry(nil, group, pt)
	return pt
}

// sameDocs reports whether ft has postings of the same documents as
// old, the previous export's postings of its field and term: the same
// document frequency and count, and the same changed docs among them (no
// other document's postings changed). It returns ft's postings of the
// changed docs (freq 0: none).
func sameDocs(ft, old *fieldTerm, changed []uint32) ([]posting, bool) {
	if ft.field != old.field || ft.df != old.df || ft.count() != old.count() {
		return nil, false
	}
	now, err := ft.postingsAt(changed)
	if err != nil {
		return nil, false
	}
	if ft.cached != nil {
		return now, true // the cache's own postings
	}
	was, err := old.postingsAt(changed)
	if err != nil {
		return nil, false
	}
	for k := range changed {
		if (now[k].freq != 0) != (was[k].freq != 0) {
			return nil, false
		}
	}
	return now, true
}

func cmpPostingDoc(p posting, doc uint32) int {
	switch {
	case p.doc < doc:
		return -1
	case p.doc > doc:
		return 1
	}
	return 0
}

// decodeHead decodes a prepared term's head as termHead.encode wrote it:
// the gaps of its documents (from its first), their masks of long lists,
// then the postings of the set bits column by column (frequencies, field
// lengths, the float32 bits of the norms of length 0). The patch weighs
// the head's documents from it, not from their lists, which it would read
// whole: a head's documents lie all over a common word's list.
func decodeHead(pt *preparedTerm) (*termHead, bool) {
	r := cvReader{b: pt.headEnc.b}
	h := &termHead{docs: make([]uint32, 0, pt.headCount)}
	doc := uint64(pt.headFirst)
	for range pt.headCount {
		gap, ok := r.next()
		if doc += gap; !ok || doc > math.MaxUint32 {
			return nil, false
		}
		h.docs = append(h.docs, uint32(doc))
	}
	if len(h.docs) == 0 || h.docs[len(h.docs)-1] != pt.headLast {
		return nil, false
	}
	type at struct{ x, j int } // a head posting: its document, its long list
	var where []at
	for x := range h.docs {
		mask, ok := r.next()
		if !ok || mask>>len(pt.long) != 0 {
			return nil, false
		}
		for j := range pt.long {
			if mask&(1<<j) != 0 {
				where = append(where, at{x, j})
			}
		}
	}
	ps := make([]posting, len(where))
	if _, ok := readTFs(&r, ps); !ok {
		return nil, false
	}
	h.posts = make([][]posting, len(h.docs))
	for x := range h.posts {
		h.posts[x] = make([]posting, len(pt.long))
	}
	for k, a := range where {
		ps[k].doc = h.docs[a.x]
		h.posts[a.x][a.j] = ps[k]
	}
	return h, len(r.b) == 0
}

// staysOutOfHead reports whether every changed doc with a posting in one
// of the long lists ranks below each document of the head as termHeadInto
// weighs and orders them (a head document does not rank below itself):
// the head is then the one termHeadInto would pick again. now holds each
// list's postings of the changed docs. sameDocs has checked that no
// changed doc came or went; the head's documents, not changed, weigh
// what they weighed.
func staysOutOfHead(group []fieldTerm, long []int, head *termHead, now [][]posting, changed []uint32, docCount uint64) bool {
	w := listWeights(group, long, docCount)
	headWeights := make([]float64, len(head.docs))
	for x := range head.docs {
		headWeights[x], _ = docWeight(func(j int) posting { return head.posts[x][j] }, len(long), w)
	}
	for k, d := range changed {
		if _, in := slices.BinarySearch(head.docs, d); in {
			return false
		}
		wd, m := docWeight(func(j int) posting { return now[long[j]][k] }, len(long), w)
		if m == 0 {
			continue
		}
		for x, h := range head.docs {
			if wh := headWeights[x]; !(wd < wh || wd == wh && d > h) {
				return false
			}
		}
	}
	return true
}

// docWeight is a document's weight in termHeadInto (the same sum in the
// same order) and the count of long lists it has a posting in, from its
// posting in each of the n long lists (freq 0: none), weighed by w.
func docWeight(post func(j int) posting, n int, w []float64) (float64, int) {
	wt, m := 0.0, 0
	for j := range n {
		if p := post(j); p.freq != 0 {
			wt += w[j] * math.Sqrt(float64(p.freq)) * float64(p.norm)
			m++
		}
	}
	return wt * float64(m), m
}

// reencode encodes again the tail blocks of long list i that hold a
// changed doc's posting, from their own encoding with the changed docs'
// postings as they are now (now, by changed doc). The tail is the list
// without the head's documents, which no changed doc is in, and its
// documents are as before (sameDocs), so each block keeps its bounds and
// count, and no other posting of it changed. It reports false when a
// block does not read as the entry says.
func (pt *preparedTerm) reencode(i int, now []posting, changed []uint32, blockSize int) bool {
	blocks := pt.blocks[i]
	for c, d := range changed {
		k, ok := blockOf(blocks, d)
		if !ok || now[c].freq == 0 {
			continue // not in this list's tail
		}
		old := &blocks[k]
		blk, oldFallbacks, ok := decodeBlock(old)
		if !ok || len(blk) == 0 || len(blk) > blockSize || blk[0].doc != old.first || blk[len(blk)-1].doc != old.last {
			return false
		}
		at, found := slices.BinarySearchFunc(blk, d, cmpPostingDoc)
		if !found {
			return false
		}
		blk[at] = now[c]
		var enc cvWriter
		fallbacks := enc.putPostings(blk, blk[0].doc)
		best := bestImpact(blk)
		*old = encodedBlock{enc: enc, first: old.first, last: old.last, count: old.count, putMax: tfMax(best), max: best}
		pt.fallbacks += fallbacks - oldFallbacks
	}
	return true
}

// decodeBlock reads a tail block as putPostings wrote it (the doc gaps
// from its first doc, then the tf codes column by column: putTFs), and
// counts its norms written as raw bits.
func decodeBlock(b *encodedBlock) ([]posting, int, bool) {
	r := cvReader{b: b.enc.b}
	posts := make([]posting, b.count)
	doc := uint64(b.first)
	for x := range posts {
		gap, ok := r.next()
		if doc += gap; !ok || doc > math.MaxUint32 {
			return nil, 0, false
		}
		posts[x].doc = uint32(doc)
	}
	fallbacks, ok := readTFs(&r, posts)
	return posts, fallbacks, ok && len(r.b) == 0
}

// readTFs reads the tf codes of posts as putTFs wrote them: the
// frequencies, the field lengths, then the float32 bits of the norms of
// length 0. It returns how many norms were so.
func readTFs(r *cvReader, posts []posting) (int, bool) {
	for x := range posts {
		freq, ok := r.next()
		if !ok || freq == 0 || freq > math.MaxUint32 {
			return 0, false
		}
		posts[x].freq = uint32(freq)
	}
	var fallbacks []int
	for x := range posts {
		l, ok := r.next()
		if !ok {
			return 0, false
		}
		if l == 0 {
			fallbacks = append(fallbacks, x)
		} else {
			posts[x].norm = float32(1 / math.Sqrt(float64(l)))
		}
	}
	for _, x := range fallbacks {
		bits, ok := r.next()
		if !ok || bits > math.MaxUint32 {
			return 0, false
		}
		posts[x].norm = math.Float32frombits(uint32(bits))
	}
	return len(fallbacks), true
}

// blockOf returns the index of the block (sorted, disjoint) whose doc
// range holds doc, if one does.
func blockOf(blocks []encodedBlock, doc uint32) (int, bool) {
	k, _ := slices.BinarySearchFunc(blocks, doc, func(b encodedBlock, d uint32) int {
		return cmpPostingDoc(posting{doc: b.last}, d)
	})
	return k, k < len(blocks) && blocks[k].first <= doc
}

// cvReader reads the numbers a cvWriter wrote.
type cvReader struct{ b []byte }

func (r *cvReader) next() (uint64, bool) {
	var v uint64
	for shift := 0; shift < 64 && len(r.b) > 0; shift += 5 {
		d := cvValue(r.b[0])
		r.b = r.b[1:]
		if d < 0 {
			return 0, false
		}
		v |= uint64(d&31) << shift
		if d&32 == 0 {
			return v, true
		}
	}
	return 0, false
}

// cvValue is the value of a character of cvAlphabet (-1: none).
func cvValue(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '-':
		return 62
	case c == '_':
		return 63
	}
	return -1
}
