package export

import (
	"encoding/binary"
	"slices"
)

// A term whose postings changed at the changed records alone is patched
// in the term cache's own form: its cached postings with the changed
// records' spliced in (splicePostings), and what the patches of its
// entry and of the prefix lists over it read of the list (the postings of
// a few documents) read where the list lies (postingsAt). A common word
// holds a posting of most records: decoded, its list took a dozen bytes
// a posting of fresh memory and was encoded again whole for the next
// build's cache.

// splicePostings returns the n postings of raw (the cache's form) with
// those of docs (sorted) replaced by ps (freq 0: the doc has none now),
// and how many postings the result holds. The runs between the changed
// postings are copied as they are, but for the doc gap of the posting
// after a change, which is written again. ok is false when raw does not
// read as n postings.
func splicePostings(raw []byte, n int, docs []uint32, ps []posting) (out []byte, count int, ok bool) {
	out = make([]byte, 0, len(raw)+16*len(docs))
	at := 0                                  // where in raw the next posting starts
	prevOld, prevNew := uint32(0), uint32(0) // the docs before at, in raw and in out
	run := 0                                 // where in raw the run not yet copied starts
	i, left := 0, n
	for left > 0 {
		if prevNew == prevOld {
			// Up to the next change (or the end), the postings are
			// copied as they are: walked, not read.
			target := uint64(noTarget)
			if i < len(docs) {
				target = uint64(docs[i])
			}
			end, doc, read, ok := skipTo(raw, at, prevOld, target, left)
			if !ok {
				return nil, 0, false
			}
			at, prevOld, prevNew, left, count = end, doc, doc, left-read, count+read
			if left == 0 {
				break
			}
		}
		rp, ok := nextRaw(raw[at:], prevOld)
		if !ok {
			return nil, 0, false
		}
		b := raw[at:]
		if i < len(docs) && docs[i] <= rp.doc {
			// A change before or at this posting: copy the run, write
			// the changed postings, then this one unless replaced.
			out = append(out, raw[run:at]...)
			for ; i < len(docs) && docs[i] < rp.doc; i++ {
				if ps[i].freq != 0 {
					out, prevNew = appendCachePosting(out, ps[i], prevNew), ps[i].doc
					count++
				}
			}
			replaced := i < len(docs) && docs[i] == rp.doc
			if replaced {
				if ps[i].freq != 0 {
					out, prevNew = appendCachePosting(out, ps[i], prevNew), ps[i].doc
					count++
				}
				i++
			} else {
				out = binary.AppendUvarint(out, uint64(rp.doc-prevNew))
				out = append(out, b[rp.gapLen:rp.len]...)
				prevNew = rp.doc
				count++
			}
		} else {
			// the first posting after a change: its gap is from the
			// posting written before it
			out = append(out, raw[run:at]...)
			out = binary.AppendUvarint(out, uint64(rp.doc-prevNew))
			out = append(out, b[rp.gapLen:rp.len]...)
			prevNew = rp.doc
			count++
		}
		at += rp.len
		run = at
		prevOld = rp.doc
		left--
	}
	if at != len(raw) {
		return nil, 0, false
	}
	out = append(out, raw[run:]...)
	for ; i < len(docs); i++ {
		if ps[i].freq != 0 {
			out, prevNew = appendCachePosting(out, ps[i], prevNew), ps[i].doc
			count++
		}
	}
	return out, count, true
}

// postingsAt returns the term's postings of docs (sorted), freq 0 where
// it has none, decoded or not: a list undecoded is read up to the last
// of docs, where it lies.
func (ft *fieldTerm) postingsAt(docs []uint32) ([]posting, error) {
	out := make([]posting, len(docs))
	for k, d := range docs {
		out[k].doc = d
	}
	if !ft.undecoded {
		for k, d := range docs {
			if j, ok := slices.BinarySearchFunc(ft.posts, d, cmpPostingDoc); ok {
				out[k] = ft.posts[j]
			}
		}
		return out, nil
	}
	err := ft.findRaw(docs, func(k int, b []byte, rp rawPosting) bool {
		out[k] = rp.posting(b)
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
