package export

import (
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/errdocs/errdocs/generator/index"
)

// docRef is a record as the numbering sees it.
type docRef struct {
	internal bindex.IndexInternalID
	id       string
	sortKey  string // "" when numbered as before (numberAsBefore)
}

// number is the phase numbering. Scorch's internal ids are not stable, so
// the records are numbered by (sort key, id): newest analyzedAt first.
// This is also the order of filter-only results and the tie-break of
// scored ones.
func (x *exportRun) number() error {
	var err error
	if x.docCount, err = x.r.DocCount(); err != nil {
		return err
	}
	// the internal ids, 8 bytes each, copied into one buffer rather than
	// a slice each
	internals := make([]bindex.IndexInternalID, 0, x.docCount)
	flat := make([]byte, 0, 8*x.docCount)
	dr, err := x.r.DocIDReaderAll()
	if err != nil {
		return err
	}
	for {
		id, err := dr.Next()
		if err != nil {
			dr.Close()
			return err
		}
		if id == nil {
			break
		}
		if len(flat)+len(id) > cap(flat) {
			flat = make([]byte, 0, max(64<<10, len(id)))
		}
		flat = append(flat, id...)
		internals = append(internals, flat[len(flat)-len(id):len(flat):len(flat)])
	}
	dr.Close()
	if ok, err := x.numberAsBefore(internals); ok || err != nil {
		return err
	}
	docs, err := x.refs(internals)
	if err != nil {
		return err
	}
	sortDocs(docs)
	key := numberingKey(docs)
	x.setNumbering(docs, key)
	if !numberingSaved(x.ex.ix.Dir(), key) {
		x.next.numbering = newSavedNumbering(key, docs, x.docNum)
	}
	return nil
}

// setNumbering takes docs (by doc number) as the numbering, whose key is
// key.
func (x *exportRun) setNumbering(docs []docRef, key [32]byte) {
	x.docs, x.docNum = docs, &docNumbers{byNum: make([]uint32, 0, len(docs))}
	for i, d := range docs {
		x.docNum.set(d.internal, uint32(i))
	}
	x.st.Docs = len(docs)
	x.ids = make([]string, len(docs))
	for i, d := range docs {
		x.ids[i] = d.id
	}
	x.next = &exportState{Options: optionsKey(x.opts), DocCount: x.docCount,
		Numbering: key, Index: x.ex.ix.RecordsKey()}
}

// numberAsBefore numbers the records as the previous export did, when
// that numbering is still theirs: the previous export's state is of the
// index as it was opened, records were only edited since (no record
// added or removed, none indexed again unknown to Changes), and every
// edited record kept its sort key (its sum in the numbering file). The
// records the index did not index again have the sort keys they had at
// that export (the side store is the one it numbered), so the order by
// (sort key, id) is the one the file holds, and its key is the state's.
// An export that cannot be incremental (no Keep) sorts: a whole export
// is made from nothing but the index.
func (x *exportRun) numberAsBefore(internals []bindex.IndexInternalID) (bool, error) {
	ch := x.ex.ch
	if x.opts.Keep == nil || ch.Terms == nil || ch.Restructured || len(ch.Terms) > index.MaxChanged {
		return false, nil
	}
	prev, err := x.ex.loadExportState()
	if err != nil {
		return false, nil
	}
	x.prev = prev
	if prev.Index != ch.Opened || prev.DocCount != x.docCount {
		return false, nil
	}
	nt := loadNumbering(x.ex.ix.Dir(), prev.Numbering)
	if nt == nil {
		return false, nil
	}
	defer nt.close()
	if nt.len() != len(internals) {
		return false, nil
	}
	ids, err := x.externalIDs(internals)
	if err != nil {
		return false, err
	}
	docs := make([]docRef, len(ids))
	// Which doc numbers are taken, in a table small enough to stay in
	// the cache: docs is written in the numbering's order, not read.
	taken := make([]uint64, (len(ids)+63)/64)
	var pl placer
	for k, id := range ids {
		i, ok := pl.place(nt, id)
		if !ok {
			return false, nil // not a record numbered
		}
		doc := nt.doc(i)
		if doc >= len(docs) || taken[doc/64]&(1<<(doc%64)) != 0 {
			return false, nil // a doc number out of range, or twice
		}
		taken[doc/64] |= 1 << (doc % 64)
		docs[doc] = docRef{internal: internals[k], id: id}
		if _, edited := ch.Terms[id]; edited {
			sortKey, ok := x.ex.ix.SortKeyOf(id)
			if !ok || nt.sum(doc) != sortKeySum(sortKey) {
				return false, nil // its sort key changed
			}
		}
	}
	x.setNumbering(docs, prev.Numbering)
	x.st.NumberingKept = true
	return true, nil
}

// placer finds the records, in the order of their internal ids now, in
// the numbering file (in that order then): most are where the last one
// found was followed by the next; a record indexed again has left its
// place, skipped, and comes later, from a new segment.
type placer struct {
	next    int   // the place after the last record found
	skipped []int // places passed over, while few
}

// maxSkipped bounds the places a placer remembers: beyond, it looks
// records up in the file's table of ids.
const maxSkipped = 64

// place returns the place in nt of the record id.
func (p *placer) place(nt *numberingTable, id string) (int, bool) {
	switch {
	case nt.idAt(p.next, id):
		p.next++
		return p.next - 1, true
	case nt.idAt(p.next+1, id):
		p.skip(p.next, p.next+1)
		p.next += 2
		return p.next - 1, true
	}
	for k, i := range p.skipped {
		if nt.idAt(i, id) {
			p.skipped = append(p.skipped[:k], p.skipped[k+1:]...)
			return i, true
		}
	}
	i, ok := nt.find(id)
	if ok && i > p.next {
		p.skip(p.next, i)
		p.next = i + 1
	}
	return i, ok
}

// skip notes the places from, up to to, passed over.
func (p *placer) skip(from, to int) {
	if len(p.skipped)+to-from > maxSkipped {
		p.skipped = p.skipped[:0] // too many: looked up instead
		return
	}
	for i := from; i < to; i++ {
		p.skipped = append(p.skipped, i)
	}
}

// refs reads the records' ids and their sort keys.
func (x *exportRun) refs(internals []bindex.IndexInternalID) ([]docRef, error) {
	docs := make([]docRef, len(internals))
	err := eachOnCores(len(internals), func(i int) error {
		ext, err := x.r.ExternalID(internals[i])
		if err != nil {
			return err
		}
		sortKey, ok := x.ex.ix.SortKeyOf(ext)
		if !ok {
			return fmt.Errorf("index: record %s is in bleve but not in the side store; delete the cache", ext)
		}
		docs[i] = docRef{internal: internals[i], id: ext, sortKey: sortKey}
		return nil
	})
	return docs, err
}

// externalIDs reads the records' ids.
func (x *exportRun) externalIDs(internals []bindex.IndexInternalID) ([]string, error) {
	ids := make([]string, len(internals))
	err := eachOnCores(len(internals), func(i int) (err error) {
		ids[i], err = x.r.ExternalID(internals[i])
		return err
	})
	return ids, err
}

// eachOnCores calls fn with 0..n-1 on every core, and returns the errors
// it returned. Each external id is a stored-field read, which adds up
// over every record: spread over the cores.
func eachOnCores(n int, fn func(i int) error) error {
	workers := runtime.GOMAXPROCS(0)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				if err := fn(i); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// cmpDocs is the doc order: by sort key, then id.
func cmpDocs(a, b docRef) int {
	if c := strings.Compare(a.sortKey, b.sortKey); c != 0 {
		return c
	}
	return strings.Compare(a.id, b.id)
}

// sortDocs puts docs in cmpDocs order. Sort keys share long prefixes (a
// family, a class, a message shape), which a comparison sort compares
// again at every step; a three-way radix quicksort (Bentley and
// Sedgewick) looks at each key's bytes past their common prefix once.
func sortDocs(docs []docRef) {
	sortDocsFrom(docs, 0, 2*bits.Len(uint(len(docs)))+16)
}

// sortDocsFrom sorts docs whose keys share their first d bytes. The part
// equal to the pivot goes on to the next byte (as far as the keys are
// long); below depth splits into the parts below and above it, the rest
// is left to a comparison sort, so that no input makes it quadratic.
func sortDocsFrom(docs []docRef, d, depth int) {
	for len(docs) > 1 {
		if len(docs) <= 12 || depth == 0 {
			slices.SortFunc(docs, cmpDocs)
			return
		}
		pivot := medianOf3(keyByte(docs[0], d), keyByte(docs[len(docs)/2], d), keyByte(docs[len(docs)-1], d))
		// docs[:lt] < pivot, docs[lt:i] == pivot, docs[gt:] > pivot
		lt, i, gt := 0, 0, len(docs)
		for i < gt {
			switch c := keyByte(docs[i], d); {
			case c < pivot:
				docs[lt], docs[i] = docs[i], docs[lt]
				lt++
				i++
			case c > pivot:
				gt--
				docs[gt], docs[i] = docs[i], docs[gt]
			default:
				i++
			}
		}
		sortDocsFrom(docs[:lt], d, depth-1)
		sortDocsFrom(docs[gt:], d, depth-1)
		docs = docs[lt:gt]
		if pivot < 0 {
			// the keys end here: equal, so by id
			slices.SortFunc(docs, cmpDocs)
			return
		}
		d++
	}
}

// keyByte is byte d of the doc's sort key, -1 past its end.
func keyByte(doc docRef, d int) int {
	if d < len(doc.sortKey) {
		return int(doc.sortKey[d])
	}
	return -1
}

func medianOf3(a, b, c int) int {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}
