package export

import (
	"context"
	"encoding/binary"
	"errors"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/internal/ordered"
	"github.com/errdocs/errdocs/internal/radix"
)

// The export streams the index: terms are visited in the export's order
// (term-major: every field of one term together) and each term's postings
// are read from bleve, encoded and dropped, so memory holds the postings of
// a few terms at a time rather than of the whole index. Reading and sorting
// postings, the bulk of the work, runs on every core; the layout of files,
// which is sequential by nature, consumes the terms in order.

// docNumbers maps scorch's internal doc ids to export doc numbers.
// scorch's internal ids are 8-byte big-endian numbers below the count of
// documents in its segments, so a slice indexed by them replaces a map
// keyed by strings (a map lookup per posting was a third of the export).
type docNumbers struct {
	byNum []uint32          // internal number → doc number + 1 (0: none)
	other map[string]uint32 // ids of another shape, if any
}

func (d *docNumbers) set(id bindex.IndexInternalID, n uint32) {
	if len(id) == 8 {
		k := binary.BigEndian.Uint64(id)
		if k < 1<<32 {
			if k >= uint64(len(d.byNum)) {
				d.byNum = slices.Grow(d.byNum, int(k)+1-len(d.byNum))[:k+1]
			}
			d.byNum[k] = n + 1
			return
		}
	}
	if d.other == nil {
		d.other = map[string]uint32{}
	}
	d.other[string(id)] = n
}

func (d *docNumbers) get(id bindex.IndexInternalID) (uint32, bool) {
	if len(id) == 8 {
		k := binary.BigEndian.Uint64(id)
		if k < uint64(len(d.byNum)) && d.byNum[k] != 0 {
			return d.byNum[k] - 1, true
		}
		if d.other == nil {
			return 0, false
		}
	}
	n, ok := d.other[string(id)]
	return n, ok
}

// dictTerm is a term of one field's dictionary: as the export writes it
// (valid UTF-8) and as bleve holds it.
type dictTerm struct {
	term, raw string
}

// fieldTerms lists each field's dictionary, sorted as the export writes
// terms (by their valid-UTF-8 form; bleve's order is by raw bytes, which
// differs only for terms with invalid UTF-8).
// The fields are read on every core, each a dictionary of its own.
func fieldTerms(r bindex.IndexReader) ([][]dictTerm, error) {
	out := make([][]dictTerm, len(index.Fields))
	errs := make([]error, len(index.Fields))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(index.Fields)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for fi := int(next.Add(1)) - 1; fi < len(index.Fields); fi = int(next.Add(1)) - 1 {
				out[fi], errs[fi] = fieldDict(r, index.Fields[fi].Name)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// fieldDict is one field's dictionary, sorted as fieldTerms says.
func fieldDict(r bindex.IndexReader, field string) ([]dictTerm, error) {
	raw, err := dictTerms(r, field)
	if err != nil {
		return nil, err
	}
	list := make([]dictTerm, len(raw))
	sorted := true
	for i, t := range raw {
		list[i] = dictTerm{index.ValidUTF8PerByte(t), t}
		if i > 0 && list[i].term < list[i-1].term {
			sorted = false
		}
	}
	if !sorted {
		sort.SliceStable(list, func(i, j int) bool { return list[i].term < list[j].term })
	}
	return list, nil
}

// termGroup is one dictionary entry of the export: a term and the fields
// whose dictionaries hold it, with (once read) their postings; plus the
// prefix ranges whose lists the worker reading this group builds.
type termGroup struct {
	term   string
	fields []int    // field indexes, ascending
	raws   []string // bleve's form of the term, per field
	ranges []prefixRange
	// reads[i] hands the terms read for ranges[i] to their own groups;
	// from[k], when set, is the read of a range that holds this group's
	// term in fields[k], begun by an earlier group.
	reads []*rangeRead
	from  []*rangeRead

	fts []fieldTerm // read: fields with live postings
	pre *preparedTerm
	vls []*preparedList // read: prefix lists built from ranges
	err error
}

// prefixRange is a run of one field's terms sharing a prefix of
// PrefixListMinRunes runes, long enough to maybe need a prefix list.
type prefixRange struct {
	prefix string
	field  int
	terms  []dictTerm
}

// prefixRanges returns, per field, the runs of terms with a common prefix
// of PrefixListMinRunes runes and at least PrefixListMin terms, keyed by
// the run's first term. (Whether a list is written is decided once the
// postings are read: terms whose documents are all deleted do not count.)
func prefixRanges(fields [][]dictTerm) map[string][]prefixRange {
	out := map[string][]prefixRange{}
	for fi, terms := range fields {
		for k := PrefixListMinRunes; k <= PrefixListMaxRunes; k++ {
			for i := 0; i < len(terms); {
				p, ok := runePrefix(terms[i].term, k)
				if !ok {
					i++
					continue
				}
				j := i + 1
				for j < len(terms) && strings.HasPrefix(terms[j].term, p) {
					j++
				}
				if j-i >= PrefixListMin {
					out[terms[i].term] = append(out[terms[i].term], prefixRange{p, fi, terms[i:j]})
				}
				i = j
			}
		}
	}
	return out
}

// rangeRead keeps the terms read for one prefix list until their own
// dictionary entries, which come soon after in the export's order, take
// them: each term of a range is then read from bleve once, not twice.
type rangeRead struct {
	done   chan struct{} // closed when the range's reader is done with it
	closed bool          // (by the reader's goroutine alone)
	mu     sync.Mutex
	terms  map[string]fieldTerm // by bleve's form of the term
}

func newRangeRead() *rangeRead {
	return &rangeRead{done: make(chan struct{}), terms: map[string]fieldTerm{}}
}

func (rr *rangeRead) put(raw string, ft fieldTerm) {
	rr.mu.Lock()
	rr.terms[raw] = ft
	rr.mu.Unlock()
}

func (rr *rangeRead) finish() {
	if !rr.closed {
		rr.closed = true
		close(rr.done)
	}
}

// take waits for the range to be read and takes the term's postings, if
// the reader kept them.
func (rr *rangeRead) take(raw string) (fieldTerm, bool) {
	<-rr.done
	rr.mu.Lock()
	defer rr.mu.Unlock()
	ft, ok := rr.terms[raw]
	delete(rr.terms, raw)
	return ft, ok
}

// groups calls fn with the export's dictionary entries in order: terms in
// code point order, each with every field that holds it. The first group
// also carries the ranges of extra.
func groups(fields [][]dictTerm, ranges map[string][]prefixRange, extra []prefixRange, fn func(*termGroup) bool) {
	pos := make([]int, len(fields))
	// The range being read in each field, and its last term: ranges of one
	// field do not overlap (one prefix length).
	active := make([]*rangeRead, len(fields))
	activeLast := make([]string, len(fields))
	for {
		min, found := "", false
		for fi, list := range fields {
			if pos[fi] < len(list) && (!found || list[pos[fi]].term < min) {
				min, found = list[pos[fi]].term, true
			}
		}
		if !found {
			return
		}
		g := &termGroup{term: min}
		for fi, list := range fields {
			// Two raw terms can share one valid-UTF-8 form: both go in.
			for pos[fi] < len(list) && list[pos[fi]].term == min {
				g.fields = append(g.fields, fi)
				g.raws = append(g.raws, list[pos[fi]].raw)
				pos[fi]++
			}
		}
		for _, fi := range g.fields {
			var rr *rangeRead
			if active[fi] != nil && min <= activeLast[fi] {
				rr = active[fi]
			}
			g.from = append(g.from, rr)
		}
		g.ranges = ranges[min]
		if extra != nil {
			g.ranges = append(slices.Clone(g.ranges), extra...)
			extra = nil
		}
		for _, rg := range g.ranges {
			rr := newRangeRead()
			g.reads = append(g.reads, rr)
			active[rg.field], activeLast[rg.field] = rr, rg.terms[len(rg.terms)-1].term
		}
		if !fn(g) {
			return
		}
	}
}

// postingsReader reads the postings of terms, in doc number order.
type postingsReader struct {
	r     bindex.IndexReader
	nums  *docNumbers
	docs  []docRef   // by doc number (probe)
	cache *termCache // unchanged terms of the previous export (nil: none)
	opts  Options    // to prepare terms (prepareTerm); BlockSize 0: not prepared
	// preread holds terms read already (incremental.changedTerms), each
	// given once.
	mu      sync.Mutex
	preread map[termKey]fieldTerm
}

func (pr *postingsReader) read(field int, raw, term string) (fieldTerm, error) {
	if pr.preread != nil {
		k := termKey{field, raw}
		pr.mu.Lock()
		ft, ok := pr.preread[k]
		delete(pr.preread, k)
		pr.mu.Unlock()
		if ok {
			return ft, nil
		}
	}
	if ft, ok := pr.cache.get(field, term); ok {
		return ft, nil
	}
	return pr.readBleve(field, raw, term)
}

// bleveReader reads terms from bleve alone (for incremental.changedTerms).
type bleveReader struct{ *postingsReader }

func (b bleveReader) read(field int, raw, term string) (fieldTerm, error) {
	return b.readBleve(field, raw, term)
}

// probe returns a term's document frequency as bleve counts it and its
// postings of docs (sorted doc numbers; freq 0: none), advancing its
// reader to each doc rather than reading the whole list.
func (pr *postingsReader) probe(field int, raw string, docs []uint32) (uint64, []posting, error) {
	tfr, err := pr.r.TermFieldReader(context.Background(), []byte(raw), index.Fields[field].Name, true, true, false)
	if err != nil {
		return 0, nil, err
	}
	defer tfr.Close()
	order := make([]int, len(docs)) // docs by internal id
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return pr.docs[docs[a]].internal.Compare(pr.docs[docs[b]].internal) })
	out := make([]posting, len(docs))
	var tfd bindex.TermFieldDoc
	for _, i := range order {
		id := pr.docs[docs[i]].internal
		d, err := tfr.Advance(id, &tfd)
		if err != nil {
			return 0, nil, err
		}
		if d != nil && d.ID.Equals(id) {
			out[i] = posting{doc: docs[i], freq: uint32(d.Freq), norm: float32(d.Norm)}
		}
	}
	return tfr.Count(), out, nil
}

// readBleve reads a term's postings from bleve.
func (pr *postingsReader) readBleve(field int, raw, term string) (fieldTerm, error) {
	tfr, err := pr.r.TermFieldReader(context.Background(), []byte(raw), index.Fields[field].Name, true, true, false)
	if err != nil {
		return fieldTerm{}, err
	}
	defer tfr.Close()
	ft := fieldTerm{term: term, field: field, df: tfr.Count()}
	if ft.df > 0 {
		ft.posts = make([]posting, 0, ft.df)
	}
	var tfd bindex.TermFieldDoc
	for {
		d, err := tfr.Next(&tfd)
		if err != nil {
			return fieldTerm{}, err
		}
		if d == nil {
			break
		}
		n, ok := pr.nums.get(d.ID)
		if !ok {
			continue // a deleted doc seen through a stale segment
		}
		ft.posts = append(ft.posts, posting{doc: n, freq: uint32(d.Freq), norm: float32(d.Norm)})
	}
	sortPostings(ft.posts)
	return ft, nil
}

// sortPostings puts postings in doc order. bleve gives them in its
// internal order, a permutation of ours; long lists are radix sorted.
func sortPostings(ps []posting) {
	if slices.IsSortedFunc(ps, cmpPosting) {
		return
	}
	if len(ps) < 256 {
		slices.SortFunc(ps, cmpPosting)
		return
	}
	tb := postingsScratch.Get().(*[]posting)
	*tb = radix.SortBuf(ps, *tb, func(p posting) uint64 { return uint64(p.doc) })
	postingsScratch.Put(tb)
}

func cmpPosting(a, b posting) int {
	switch {
	case a.doc < b.doc:
		return -1
	case a.doc > b.doc:
		return 1
	}
	return 0
}

type fieldRaw struct {
	field int
	raw   string
}

// readGroup reads a group's postings and builds the prefix lists of the
// ranges it starts.
//
// A term of a prefix range is read once: the range's reader keeps what it
// read (rangeRead) for the term's own group, which waits for it. Groups
// only wait for earlier groups, so no two wait for each other; whatever
// happens, finish releases the waiters (see readAhead).
func (pr *postingsReader) readGroup(g *termGroup, docCount uint64) error {
	reads := make([]fieldTerm, len(g.fields))
	for k, fi := range g.fields {
		ok := false
		if rr := g.from[k]; rr != nil {
			reads[k], ok = rr.take(g.raws[k])
		}
		if !ok {
			var err error
			if reads[k], err = pr.read(fi, g.raws[k], g.term); err != nil {
				return err
			}
		}
	}
	live := func() {
		g.fts = g.fts[:0]
		for _, ft := range reads {
			if ft.count() > 0 {
				g.fts = append(g.fts, ft)
			}
		}
	}
	live()
	if len(g.fts) > 0 && pr.opts.BlockSize > 0 {
		// An entry none of whose postings changed is taken as the
		// previous export prepared it, one whose changed records'
		// postings changed in value alone is patched from it; only its
		// inline postings are decoded (addTerm writes them).
		g.pre = pr.cache.prepared(g.fts)
		if g.pre == nil {
			g.pre = pr.cache.patchPrepared(g.fts, pr.opts, docCount)
		}
		for k := range reads {
			if g.pre == nil || reads[k].count() <= pr.opts.InlineMax {
				if err := reads[k].decode(); err != nil {
					return err
				}
			}
		}
		live()
		if g.pre == nil {
			g.pre = prepareTerm(g.fts, pr.opts, docCount)
		}
	}
	var own map[fieldRaw]fieldTerm // this group's reads, when it starts ranges
	if len(g.ranges) > 0 {
		own = map[fieldRaw]fieldTerm{}
		for k, fi := range g.fields {
			own[fieldRaw{fi, g.raws[k]}] = reads[k]
		}
	}
	for i, rg := range g.ranges {
		rr := g.reads[i]
		if err := pr.readRange(rg, own, rr, g, docCount); err != nil {
			return err
		}
		// Only now: buildVList reads the postings that the takers own next.
		rr.finish()
	}
	return nil
}

// readRange reads the terms of a prefix range (those of own read
// already), hands them to their own groups (rr) and, when the range has
// enough live terms, adds its prefix list to g: as the previous export
// prepared it when none of its terms changed, else built.
func (pr *postingsReader) readRange(rg prefixRange, own map[fieldRaw]fieldTerm, rr *rangeRead, g *termGroup, docCount uint64) error {
	reads := make([]fieldTerm, len(rg.terms))
	var live []*fieldTerm
	fromCache := true
	for k, t := range rg.terms {
		ft, mine := own[fieldRaw{rg.field, t.raw}]
		if !mine {
			var err error
			if ft, err = pr.read(rg.field, t.raw, t.term); err != nil {
				return err
			}
		}
		reads[k] = ft
		if ft.count() > 0 {
			live = append(live, &reads[k])
			fromCache = fromCache && ft.cached != nil
		}
	}
	var pl *preparedList
	if len(live) >= PrefixListMin {
		sum := termsSum(live)
		if fromCache {
			pl = pr.cache.preparedList(rg.prefix, rg.field, live[0].term, len(live), sum)
		}
		if pl == nil {
			pl = pr.cache.patchList(rg.prefix, rg.field, live, sum, docCount)
		}
		if pl == nil {
			for _, ft := range live {
				if err := ft.decode(); err != nil {
					return err
				}
			}
			// built and encoded in memory reused from list to list
			sc := vlistScratch.Get().(*vlistBuffers)
			pl = prepareList(buildVList(rg.prefix, rg.field, live, docCount, sc), pr.opts, sum, sc)
			vlistScratch.Put(sc)
		}
		g.vls = append(g.vls, pl)
	}
	for k, t := range rg.terms {
		if _, mine := own[fieldRaw{rg.field, t.raw}]; !mine {
			rr.put(t.raw, reads[k])
		}
	}
	return nil
}

// finish releases the groups waiting for this one's range reads, read or
// not (an error, or a stopped export).
func (g *termGroup) finish() {
	for _, rr := range g.reads {
		rr.finish()
	}
}

// readAhead reads the groups on workers goroutines, at most ahead groups
// ahead of the consumer and no further than gate lets it (nil: no gate),
// and hands them to fn in order. It stops at the first error; errDone
// stops it with no error. unused is how many groups it read that fn was
// not handed.
func readAhead(fields [][]dictTerm, ranges map[string][]prefixRange, extra []prefixRange, pr *postingsReader, docCount uint64,
	workers, ahead int, gate *readGate, fn func(*termGroup) error) (unused int, err error) {
	var read atomic.Int64
	all := func(yield func(*termGroup) bool) {
		groups(fields, ranges, extra, func(g *termGroup) bool {
			if !gate.pass(g.term) {
				return false
			}
			read.Add(1)
			return yield(g)
		})
	}
	handed := 0
	// A group waits only for earlier groups' range reads, and groups are
	// read in order of their turn: whatever happens, the earlier ones
	// finish and release it.
	for g := range ordered.Map(ahead, workers, all, func(g *termGroup) *termGroup {
		g.err = pr.readGroup(g, docCount)
		g.finish()
		return g
	}) {
		if g.err == nil {
			handed++
		}
		if err = hand(g, gate, fn); err != nil {
			break
		}
	}
	if err == errDone {
		err = nil
	}
	// read is final: the loop's end waited for the producer
	return int(read.Load()) - handed, err
}

// hand gives fn a group read and tells the gate whether the run goes on.
// A run that ends, by an error or a panic, closes the gate before the
// read-ahead's loop ends: the loop's end waits for the producer, which
// may be waiting at the gate.
func hand(g *termGroup, gate *readGate, fn func(*termGroup) error) (err error) {
	ended := true
	defer func() {
		if ended {
			gate.close()
		} else {
			gate.wentOn(g.term)
		}
	}()
	if err = g.err; err == nil {
		err = fn(g)
	}
	g.fts, g.vls, g.pre = nil, nil, nil
	ended = err != nil
	return err
}

// errDone ends a readAhead early, with no error.
var errDone = errors.New("done")

// run lays out the dictionary from the first term >= from ("" for all of
// it), until stop, asked before a term where a shard would end, says to
// end there (nil: to the end). stop is not asked while a prefix list the
// run built waits for its first term's entry: a run ends only once every
// list it began is written, wherever that list's first live term falls.
// (A list whose first term sorts before from belongs to a shard before
// the run, which the run does not write.)
func (l *shardWriter) run(fields [][]dictTerm, ranges map[string][]prefixRange, pr *postingsReader, docCount uint64,
	from string, stop func(term string) bool) error {
	workers := runtime.GOMAXPROCS(0)
	l.docCount = docCount
	extra := rangesBefore(fields, ranges, from, l.needBefore)
	unused, err := readAhead(fieldsFrom(fields, from), ranges, extra, pr, docCount, workers, 8*workers, newReadGate(l.ends), func(g *termGroup) error {
		for _, vl := range g.vls {
			l.vlists[vl.first] = append(l.vlists[vl.first], vl)
		}
		if len(g.fts) == 0 {
			return nil // every document of this term is deleted
		}
		if stop != nil && l.boundary() && !l.pendingLists(from) && stop(g.term) {
			return errDone
		}
		return l.addTerm(g.fts, g.pre)
	})
	if l.st != nil {
		l.st.GroupsUnused += unused
	}
	if err != nil {
		return err
	}
	return l.flushShard()
}
