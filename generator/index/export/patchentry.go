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
	for i := range group {
		if !sameDocs(&group[i], &old[i], changed) {
			return nil
		}
	}
	pt, err := readPrepared(prepared, len(group))
	if err != nil {
		return nil
	}
	var head []uint32
	if pt.hasHead {
		var ok bool
		if head, ok = headDocs(pt); !ok || !staysOutOfHead(group, pt.long, head, changed, docCount) {
			return nil
		}
	}
	for _, i := range pt.long {
		if !pt.reencode(i, &group[i], head, changed, opts.BlockSize) {
			return nil
		}
	}
	pt.cached = appendCachedEntry(nil, group, pt)
	return pt
}

// sameDocs reports whether ft has postings of the same documents as
// old, the previous export's postings of its field and term: the same
// document frequency and count, and the same changed docs among them (no
// other document's postings changed).
func sameDocs(ft, old *fieldTerm, changed []uint32) bool {
	if ft.field != old.field || ft.df != old.df || ft.count() != old.count() {
		return false
	}
	if ft.cached != nil {
		return true // the cache's own postings
	}
	now, err := ft.postingsAt(changed)
	if err != nil {
		return false
	}
	was, err := old.postingsAt(changed)
	if err != nil {
		return false
	}
	for k := range changed {
		if (now[k].freq != 0) != (was[k].freq != 0) {
			return false
		}
	}
	return true
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

// headDocs decodes the documents of a prepared term's head: the first
// headCount numbers of its encoding are their gaps, from its first.
func headDocs(pt *preparedTerm) ([]uint32, bool) {
	r := cvReader{b: pt.headEnc.b}
	docs := make([]uint32, 0, pt.headCount)
	doc := uint64(pt.headFirst)
	for range pt.headCount {
		gap, ok := r.next()
		if doc += gap; !ok || doc > math.MaxUint32 {
			return nil, false
		}
		docs = append(docs, uint32(doc))
	}
	return docs, len(docs) > 0 && docs[len(docs)-1] == pt.headLast
}

// staysOutOfHead reports whether every changed doc with a posting in one
// of the long lists ranks below each document of the head (sorted docs)
// as termHeadInto weighs and orders them (a head document does not rank
// below itself): the head is then the one termHeadInto would pick again.
// sameDocs has checked that no changed doc came or went.
func staysOutOfHead(group []fieldTerm, long []int, head, changed []uint32, docCount uint64) bool {
	w := listWeights(group, long, docCount)
	docs := slices.Concat(head, changed)
	slices.Sort(docs)
	docs = slices.Compact(docs)
	at := make([][]posting, len(long)) // per long list, the postings of docs
	for j, i := range long {
		var err error
		if at[j], err = group[i].postingsAt(docs); err != nil {
			return false
		}
	}
	weight := func(doc uint32) (float64, int) {
		k, _ := slices.BinarySearch(docs, doc)
		return docWeight(at, k, w)
	}
	for _, d := range changed {
		wd, m := weight(d)
		if m == 0 {
			continue
		}
		for _, h := range head {
			wh, _ := weight(h)
			if !(wd < wh || wd == wh && d > h) {
				return false
			}
		}
	}
	return true
}

// docWeight is a document's weight in termHeadInto (the same sum in the
// same order) and the count of long lists it has a posting in: at holds
// each long list's postings of some docs, the document's at k (weights
// w, by long list).
func docWeight(at [][]posting, k int, w []float64) (float64, int) {
	wt, m := 0.0, 0
	for j := range at {
		if p := at[j][k]; p.freq != 0 {
			wt += w[j] * math.Sqrt(float64(p.freq)) * float64(p.norm)
			m++
		}
	}
	return wt * float64(m), m
}

// reencode encodes again the tail blocks of long list i (ft, decoded or
// not) that hold a changed doc's posting. The tail is the list without the
// head's documents, and its documents are as before (sameDocs), so each
// block keeps its bounds and count. It reports false when a block's
// postings are not what the entry says.
func (pt *preparedTerm) reencode(i int, ft *fieldTerm, head, changed []uint32, blockSize int) bool {
	blocks := pt.blocks[i]
	for _, d := range changed {
		k, ok := blockOf(blocks, d)
		if !ok {
			continue // not in this list's tail
		}
		old := &blocks[k]
		posts, err := ft.postingsBetween(old.first, old.last)
		if err != nil || len(posts) == 0 || posts[0].doc != old.first || posts[len(posts)-1].doc != old.last {
			return false
		}
		blk := make([]posting, 0, old.count)
		for _, p := range posts {
			if _, in := slices.BinarySearch(head, p.doc); !in {
				blk = append(blk, p)
			}
		}
		oldFallbacks, ok := blockFallbacks(old)
		if !ok || len(blk) != old.count || len(blk) > blockSize || blk[0].doc != old.first || blk[len(blk)-1].doc != old.last {
			return false
		}
		var enc cvWriter
		fallbacks := enc.putPostings(blk, blk[0].doc)
		best := bestImpact(blk)
		*old = encodedBlock{enc: enc, first: old.first, last: old.last, count: old.count, putMax: tfMax(best), max: best}
		pt.fallbacks += fallbacks - oldFallbacks
	}
	return true
}

// blockOf returns the index of the block (sorted, disjoint) whose doc
// range holds doc, if one does.
func blockOf(blocks []encodedBlock, doc uint32) (int, bool) {
	k, _ := slices.BinarySearchFunc(blocks, doc, func(b encodedBlock, d uint32) int {
		return cmpPostingDoc(posting{doc: b.last}, d)
	})
	return k, k < len(blocks) && blocks[k].first <= doc
}

// blockFallbacks counts the norms a term's block wrote as raw bits: its
// field lengths of 0 (putPostings: the doc gaps, the frequencies, then
// the lengths).
func blockFallbacks(b *encodedBlock) (int, bool) {
	r := cvReader{b: b.enc.b}
	n := 0
	for k := range 3 * b.count {
		v, ok := r.next()
		if !ok {
			return 0, false
		}
		if k >= 2*b.count && v == 0 {
			n++
		}
	}
	return n, true
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
