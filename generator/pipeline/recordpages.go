package pipeline

import (
	"bytes"
	"encoding/binary"
	"sync/atomic"

	"github.com/errdocs/errdocs/generator/publish"
)

// A rebuild keeps most record pages as they were: the page cache's table
// of them is walked beside this build's pages sorted (matchRecordPages),
// the pages kept are handed to the site as one sorted block
// (publish.Site.KeepSorted), and the next table is made of the runs of
// the previous one that hold the same entries, copied as they are, with
// only the other pages' entries encoded (patchRecordPages).

// copyRun is a run of entries of the previous table of record pages that
// the next table holds byte for byte: the bytes prev[from:to], the entries
// of the pages at positions k0 to k1 (exclusive) of the build's path
// order.
type copyRun struct {
	from, to int
	k0, k1   int
}

// recordMatch is what the previous table of record pages says of this
// build's pages.
type recordMatch struct {
	// cands are the pages (model indexes) whose previous entry has this
	// build's key, in path order, with the previous files' fingerprints.
	cands  []int32
	prints []publish.Fingerprint
	// gone are the previous pages whose path no page of this build has;
	// staying counts the others.
	gone    []string
	staying int
	// runs are the runs of previous entries of cands that the next table
	// holds as they are, should every candidate be kept.
	runs []copyRun
}

// matchRecordPages walks the previous table of record pages beside this
// build's pages (rels, made from keys; order sorts rels): a merge, not a
// lookup per page in a table of every path decoded first.
func matchRecordPages(prev *pageCache, rels []string, keys []fileKey, order []int32) (recordMatch, error) {
	// Most pages have the same key: the tables are made at the previous
	// site's count.
	m := recordMatch{cands: make([]int32, 0, prev.nRecords), prints: make([]publish.Fingerprint, 0, prev.nRecords)}
	k := 0
	j := -1                // the previous entry's number
	lastJ, lastK := -1, -1 // the last previous entry with this build's path, and that page's position
	err := prev.walkRecordsAt(func(rel []byte, e *cacheEntry, from, to int) bool {
		j++
		for k < len(order) && bytes.Compare(rel, stringBytes(rels[order[k]])) > 0 {
			k++
		}
		if k == len(order) || !bytes.Equal(rel, stringBytes(rels[order[k]])) {
			m.gone = append(m.gone, string(rel))
			return true
		}
		m.staying++
		// An entry's bytes hold its path as what follows the previous
		// entry's common prefix: they are the next table's when its page
		// follows the previous entry's page there too.
		follows := lastJ == j-1 && lastK == k-1
		lastJ, lastK = j, k
		i := order[k]
		if e.Key != keys[i] {
			return true
		}
		m.cands, m.prints = append(m.cands, i), append(m.prints, e.Print)
		if !follows {
			return true
		}
		if n := len(m.runs); n > 0 && m.runs[n-1].to == from && m.runs[n-1].k1 == k {
			m.runs[n-1].to, m.runs[n-1].k1 = to, k+1
		} else {
			m.runs = append(m.runs, copyRun{from, to, k, k + 1})
		}
		return true
	})
	return m, err
}

// reuseRecordPages keeps the previous site's record pages made from the
// keys of this build's. It notes the previous pages no longer the site's
// (prevRecords) for the publication, which removes them, and counts the
// pages to render (nNeed).
func (b *build) reuseRecordPages() error {
	m, err := matchRecordPages(b.prev, b.rels, b.keys, b.order)
	if err != nil {
		return err
	}
	b.prevRecords, b.staying = m.gone, m.staying
	// Trusted, the cache's print is the file's. Else each file is asked
	// about (the fingerprints looked at beside the reading).
	same := make([]bool, len(m.cands))
	var n atomic.Int64
	err = parallel(b.ctx, len(m.cands), b.c.Workers, func(c int) error {
		if b.trusted || b.out.Unchanged(b.rels[m.cands[c]], m.prints[c]) {
			same[c] = true
			n.Add(1)
		}
		return nil
	})
	if err != nil {
		return err
	}
	rels, prints := make([]string, 0, n.Load()), m.prints
	if int(n.Load()) < len(m.cands) {
		prints = make([]publish.Fingerprint, 0, n.Load())
	}
	for c, i := range m.cands {
		if same[c] {
			rels = append(rels, b.rels[i])
			if int(n.Load()) < len(m.cands) {
				prints = append(prints, m.prints[c])
			}
		}
	}
	kept := 0
	if len(rels) > 0 && b.out.KeepSorted(rels, prints) {
		kept = len(rels)
		for c, i := range m.cands {
			b.need[i] = !same[c]
		}
		if kept == len(m.cands) {
			b.copied = m.runs
		}
	} else {
		// The site had some of them already (it cannot, but should it):
		// each page is kept, or not, on its own.
		for c, i := range m.cands {
			if same[c] && b.out.Keep(b.rels[i], m.prints[c]) {
				b.need[i] = false
				kept++
			}
		}
	}
	b.nNeed = len(b.rels) - kept
	return nil
}

// encodeRecordPages returns the next page cache's table of the record
// pages, with their files' fingerprints in the new site, in pieces: made
// from the previous table's runs that hold the same entries when the
// runs are few and the pages outside them all in the site, else encoded
// whole.
func (b *build) encodeRecordPages() [][]byte {
	// Pieces cost a write each: many small runs are written faster as
	// one table.
	if b.copied != nil && len(b.copied) <= maxCopyRuns {
		if pieces, ok := b.patchRecordPages(); ok {
			return pieces
		}
	}
	return [][]byte{encodeRecordPages(b.out, b.rels, b.keys, b.order)}
}

// maxCopyRuns is the most runs of the previous table of record pages
// that the next one is made from.
const maxCopyRuns = 4096

// patchRecordPages is encodeRecordPages from the runs of the previous
// table (b.copied), when every page outside them is in the site (ok).
func (b *build) patchRecordPages() (pieces [][]byte, ok bool) {
	var fresh []string // the paths of the pages outside the runs
	var at []int32     // their model indexes
	k := 0
	for _, r := range b.copied {
		for ; k < r.k0; k++ {
			fresh, at = append(fresh, b.rels[b.order[k]]), append(at, b.order[k])
		}
		k = r.k1
	}
	for ; k < len(b.order); k++ {
		fresh, at = append(fresh, b.rels[b.order[k]]), append(at, b.order[k])
	}
	prints := make([]publish.Fingerprint, len(fresh))
	has := make([]bool, len(fresh))
	b.out.FingerprintsOf(fresh, prints, has)
	entries := make(map[int32]cacheEntry, len(fresh))
	for c, i := range at {
		if !has[c] {
			return nil, false // left out: the runs' prefixes would be wrong
		}
		entries[i] = cacheEntry{Kind: kindRecord, Key: b.keys[i], Print: prints[c]}
	}
	return patchRecordPages(b.prev.records, b.copied, b.rels, b.order, func(i int32) cacheEntry { return entries[i] }), true
}

// patchRecordPages returns the table of record pages at rels (order
// sorts them, every one in the table) in pieces: the runs copied from the
// previous table prev, the entries of the pages outside them (entryOf)
// encoded. Its bytes are those encodeSorted makes of the same entries.
func patchRecordPages(prev []byte, runs []copyRun, rels []string, order []int32, entryOf func(i int32) cacheEntry) [][]byte {
	pieces := [][]byte{binary.AppendUvarint(nil, uint64(len(order)))}
	var buf []byte
	prevRel := ""
	encode := func(k int) {
		e := entryOf(order[k])
		buf = appendEntry(buf, prevRel, rels[order[k]], &e)
		prevRel = rels[order[k]]
	}
	k := 0
	for _, r := range runs {
		for ; k < r.k0; k++ {
			encode(k)
		}
		if len(buf) > 0 {
			pieces, buf = append(pieces, buf), nil
		}
		pieces = append(pieces, prev[r.from:r.to])
		k, prevRel = r.k1, rels[order[r.k1-1]]
	}
	for ; k < len(order); k++ {
		encode(k)
	}
	if len(buf) > 0 {
		pieces = append(pieces, buf)
	}
	return pieces
}

// encodeRecordPages encodes the table of the record pages at rels (made
// from keys, one each; order sorts rels) with their files' fingerprints
// in the new site, straight from these tables (no table of entries made
// first); a page the site does not have is left out.
func encodeRecordPages(out *publish.Site, rels []string, keys []fileKey, order []int32) []byte {
	prints := make([]publish.Fingerprint, len(rels))
	ok := make([]bool, len(rels))
	out.FingerprintsOf(rels, prints, ok)
	return encodeSorted(func(fn func(string, *cacheEntry)) {
		var e cacheEntry // one, not one per page
		for _, i := range order {
			if ok[i] {
				e = cacheEntry{Kind: kindRecord, Key: keys[i], Print: prints[i]}
				fn(rels[i], &e)
			}
		}
	})
}
