package export

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/internal/cachefile"
)

// An incremental export re-encodes only the dictionary shards (with their
// postings files) and the doc data files that the records changed since
// the previous export touch, and keeps every other file of that export.
// Its output is byte-identical to a whole export of the same index: a
// shard's bytes depend on its terms alone (layout.go), and the re-encoded
// run of shards ends where a shard boundary falls where one fell before.
//
// It applies when the set of records and their order are the same as at
// the previous export (the doc numbers are then the same): records changed
// in place, as a daily rebuild mostly sees. A record added or removed, or
// one whose family or date moved it, renumbers the records after it, and
// the export is made whole.
//
// Which shards a changed record touches: those holding its old terms (each
// shard keeps the set of docs with a posting in it), those holding its new
// terms (analyzed as bleve analyzed them), and those holding the prefix
// lists of its new terms' prefixes.
//
// A changed term's postings are not read whole from bleve when only the
// changed records' own can differ: they are the term cache's with the
// changed records' postings as probed (patched, below). Its dictionary
// entry is the previous export's with the blocks holding those postings
// encoded again, when its impact head stays (patchentry.go).

// exportState is what an export leaves for the next one.
type exportState struct {
	Options   [32]byte // Options and the mapping
	Marker    string   // the published site's build marker (set on save)
	Index     [32]byte // the records indexed (sideKey) when exported
	DocCount  uint64
	Numbering [32]byte // ids and sort keys in doc number order
	Shards    []shardOut
	RHashes   []string // doc data files r/NNNN
	MHashes   []string // pattern files m/NNNN
	Unusable  []uint64 // docs whose messagePattern the client cannot run
	// PatWordsKey names the pattern words (patwords.go): per doc, the
	// words of its pattern's required literals, in a file of their own,
	// read only when a pattern changed; patWords holds them until saved.
	PatWordsKey [32]byte
	patWords    [][]string
	// numbering, when set, is the numbering to save in the numbering
	// file (numberfile.go): made the whole way, and not saved yet.
	numbering *savedNumbering
	// termWrites writes the term cache files of Shards, which the state
	// must not name before they are written.
	termWrites *cacheWriter
	// PatSums holds, per doc, patternSum of the messagePattern its pattern
	// program and words were made from; KFirst and KHashes the pattern
	// keys files (k/NNNN). An export whose changed records kept their
	// patterns keeps the pattern files and the keys (patterns.go).
	PatSums []byte // 8 bytes a doc, little-endian (gob copies bytes)
	KFirst  []string
	KHashes []string
	Filters *filterOut
	IDNames map[string]string // id index files: key → hash
	// m is the mapped state file that the doc sets of Shards refer to:
	// this state's, or, for a state made by an incremental export, that
	// of the previous state whose shards it kept (nil: none).
	m *cachefile.Mapping
}

// The state is an internal/cachefile of this kind and version (2: shards
// list the prefix lists they hold; 3: and have term cache files; 4:
// filters kept; 5: id index kept; 6: framed as a cache file; 7: pattern
// words; 8: pattern sums and keys files; 9: shards' doc sets encoded,
// pattern words in a file of their own; 10: doc sets and filter sums in
// sections of their own, before the gob of the rest: statefile.go).
const (
	exportStateKind    = "export state"
	exportStateVersion = 10
	exportStateFile    = "export.state"
	// oldExportStateFile is the state of versions up to 5, removed when
	// a state is saved.
	oldExportStateFile = "export.gob"
)

func (s *exportState) rFile(dir string, f int) string {
	return fmt.Sprintf("%s/r/%04d.%s.js", dir, f, s.RHashes[f])
}

func (s *exportState) mFile(dir string, f int) string {
	return fmt.Sprintf("%s/m/%04d.%s.js", dir, f, s.MHashes[f])
}

func (s *exportState) unusable(doc int) bool {
	return doc/64 < len(s.Unusable) && s.Unusable[doc/64]&(1<<(doc%64)) != 0
}

// optionsKey fingerprints what shapes the export besides the index.
func optionsKey(o Options) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%d %s %d %d %d %d %d %d %d %d %d %t %s %v",
		FormatVersion, o.Dir, o.DictShardBytes, o.PostingFileBytes, o.DocsPerFile, o.PatternsPerFile,
		o.BlockSize, o.HeadSize, o.HeadMin, o.SnippetRunes, o.InlineMax, o.Pattern != nil, index.MappingVersion, index.Fields)
	fmt.Fprintf(h, " %d %d %d", o.FilterFileBytes, PrefixListMin, PrefixListMaxRunes)
	return [32]byte(h.Sum(nil))
}

// numberingKey fingerprints the doc numbering (ids and sort keys in doc
// number order). The fields are gathered
// in a buffer hashed a chunk at a time: four small writes per record cost
// more than the hashing.
func numberingKey(docs []docRef) [32]byte {
	h := sha256.New()
	buf := make([]byte, 0, 64<<10)
	for i := range docs {
		id, sortKey := docs[i].id, docs[i].sortKey
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(id)))
		buf = append(buf, id...)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(sortKey)))
		buf = append(buf, sortKey...)
		if len(buf) >= 60<<10 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	return [32]byte(h.Sum(nil))
}

// SaveState keeps what the last Export left for the next one, once
// its files are published in the site whose build marker is marker.
func (ex *Exporter) SaveState(marker string) error {
	return ex.BeginSaveState().Finish(marker)
}

// A StateSave is the state of the last Export being saved beside the
// publication of its files: all that does not name the site first
// (BeginSaveState), then, once the site is published, its marker
// (Finish), which puts the state in place. Until then the state saved
// before stays, for the site as it was.
type StateSave struct {
	ex  *Exporter
	s   exportState
	w   *cachefile.SealedWriter // nil: nothing pending to save
	err error
}

// BeginSaveState begins saving the state of the last Export.
func (ex *Exporter) BeginSaveState() *StateSave {
	ss := &StateSave{ex: ex}
	if ex.saved || ex.pending == nil {
		return ss
	}
	ss.s = *ex.pending
	s, dir := &ss.s, ex.ix.Dir()
	s.termWrites.wait()
	// The patterns' words and the numbering are files of their own, under
	// the key of what they hold, which a state names: saved now, should the
	// site not be published, the state saved before does not take them
	// for its own (its next export numbers and compiles afresh).
	if s.patWords != nil {
		key, err := savePatWords(dir, s.patWords)
		if err != nil {
			ss.err = err
			return ss
		}
		s.PatWordsKey, ex.pending.PatWordsKey, ex.pending.patWords = key, key, nil
	}
	if s.numbering != nil {
		if ss.err = saveNumbering(dir, s.numbering); ss.err != nil {
			return ss
		}
		ex.pending.numbering = nil
	}
	ss.w = beginStateFile(dir, s)
	return ss
}

// Finish saves the state for the site whose build marker is marker, and
// removes what of the term cache it no longer refers to.
func (ss *StateSave) Finish(marker string) error {
	ex := ss.ex
	if ex.saved {
		return nil // saved already
	}
	if ex.pending == nil {
		err := os.Remove(filepath.Join(ex.ix.Dir(), exportStateFile))
		if errors.Is(err, os.ErrNotExist) {
			err = nil
		}
		return err
	}
	err := ss.err
	if err == nil {
		err = finishStateFile(ss.w, &ss.s, marker)
	}
	// The state is saved or not, and the pending one (whose doc sets may
	// refer to the mapping of the previous state) is done with.
	ex.pending, ex.saved = nil, true
	ss.s.m.Close()
	if err != nil {
		return err
	}
	return pruneTermCache(filepath.Join(ex.ix.Dir(), termCacheDir), ss.s.Shards)
}

// Abort drops the state being saved: the one saved before stays.
func (ss *StateSave) Abort() {
	if ss.w != nil {
		ss.w.Abort()
	}
}

// freshTerms lists, per field, the terms the changed records hold now.
func (ex *Exporter) freshTerms() []map[string]bool {
	out := make([]map[string]bool, len(index.Fields))
	for fi := range out {
		out[fi] = map[string]bool{}
	}
	for _, perField := range ex.ch.Terms {
		for fi, terms := range perField {
			for _, t := range terms {
				out[fi][t] = true
			}
		}
	}
	return out
}

// MoveState carries the state of the export published in the site
// marked from over to the site marked to, when a build kept that export
// whole (the index in dir was not opened).
func MoveState(dir, from, to string) error {
	if from == to {
		return nil // the same site: the state is valid as it is
	}
	s, err := loadExportState(dir)
	if err == nil {
		defer s.m.Close()
	}
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, cachefile.ErrOther) || errors.Is(err, cachefile.ErrDamaged) ||
		(err == nil && s.Marker != from) {
		return nil // nothing to carry: the next export is made whole
	}
	if err != nil {
		return err
	}
	s.Marker = ""
	return saveExportState(dir, s, to)
}

func (ex *Exporter) loadExportState() (*exportState, error) { return loadExportState(ex.ix.Dir()) }

// incremental is the plan of an incremental export.
type incremental struct {
	prev     *exportState
	opts     Options
	changed  []uint32       // doc numbers
	affected []bool         // by previous shard
	holder   map[string]int // listKey → the previous shard that held the list
	cacheDir string         // the term cache's folder
	cacheOut *cacheWriter   // writes its files
	nDocs    int
	cache    *termCache
	// preread holds the postings changedTerms read, by field and bleve's
	// form of the term; checked and nChanged count the terms it compared
	// and those it found changed (0 and 0 when it could not tell, and
	// every shard that may have changed is re-encoded).
	preread           map[termKey]fieldTerm
	checked, nChanged int
	patched           int // of the terms read, those patched (readChecks)
	// verified holds the cache keys of the terms a changed record holds
	// or held whose postings did not change (found so by probing bleve
	// for the changed records' postings alone): the cache gives them.
	verified map[termKey]bool
}

// termReader reads a term's postings from bleve (read), or its document
// frequency and its postings of some docs alone (probe: freq 0 where a
// doc has none).
type termReader interface {
	read(field int, raw, term string) (fieldTerm, error)
	probe(field int, raw string, docs []uint32) (uint64, []posting, error)
}

// planIncremental returns the plan of an incremental export, or nil when
// the export must be made whole.
// prev is the previous export's state if the numbering loaded it (nil:
// not loaded yet); the plan takes it over.
func (ex *Exporter) planIncremental(opts Options, next, prev *exportState, ids []string, fields [][]dictTerm, read termReader) (*incremental, error) {
	inc := ex.newIncremental(opts, next, prev, ids)
	if inc == nil {
		return nil, nil
	}
	fresh := ex.freshTerms()
	inc.cache = newTermCache(inc.cacheDir, inc.prev.Shards, inc.changed, fresh)
	changedTerms, preread, ok, err := inc.changedTerms(fields, fresh, read)
	if err != nil {
		inc.cache.close()
		inc.prev.m.Close()
		return nil, err
	}
	if ok {
		inc.markChanged(fields, changedTerms, preread)
		inc.cache.verified = inc.verified
	} else {
		inc.markAll(fields, ex.ch.Terms)
	}
	if !inc.keptPublished() {
		inc.cache.close()
		inc.prev.m.Close()
		return nil, nil
	}
	// the shards it keeps refer to the previous state's mapping
	next.m = inc.prev.m
	return inc, nil
}

// newIncremental begins the plan of an incremental export when the
// previous export's state is of the index as it was before the changes
// and of these options, and few records changed; else it returns nil.
// prev is that state if loaded already (nil: it is loaded here).
func (ex *Exporter) newIncremental(opts Options, next, prev *exportState, ids []string) *incremental {
	if opts.Keep == nil || opts.Has == nil || ex.ch.Terms == nil || ex.ch.Restructured {
		if prev != nil {
			prev.m.Close()
		}
		return nil
	}
	if prev == nil {
		var err error
		if prev, err = ex.loadExportState(); err != nil {
			return nil
		}
	}
	if prev.Options != next.Options || prev.Marker != opts.PrevMarker ||
		prev.Index != ex.ch.Opened || prev.DocCount != next.DocCount || prev.Numbering != next.Numbering || len(prev.Shards) == 0 ||
		len(ex.ch.Terms) > index.MaxChanged {
		prev.m.Close()
		return nil
	}
	num := make(map[string]uint32, len(ex.ch.Terms))
	for i, id := range ids {
		if _, ok := ex.ch.Terms[id]; ok {
			num[id] = uint32(i)
		}
	}
	if len(num) != len(ex.ch.Terms) {
		prev.m.Close()
		return nil
	}
	inc := &incremental{prev: prev, opts: opts, affected: make([]bool, len(prev.Shards)), nDocs: len(ids),
		cacheDir: filepath.Join(ex.ix.Dir(), termCacheDir), holder: map[string]int{}}
	for _, n := range num {
		inc.changed = append(inc.changed, n)
	}
	slices.Sort(inc.changed)
	for i, sh := range prev.Shards {
		for _, k := range sh.Lists {
			inc.holder[k] = i
		}
	}
	return inc
}

// mark marks the shards to re-encode for a term t of field fi whose
// postings changed (moves: it came or went): the shard holding it, where
// it was and where it is now, and those holding the prefix lists over it.
// A list is built at the first term of its field's dictionary with the
// prefix (prefixRanges) and written in the entry of the first live one.
// Where it goes now: the run re-encoding the shard of that first term goes
// on until it has written every list it began (shardWriter.run), so that
// shard is enough to mark, whatever the terms between it and the changed
// term. Where it was: the shard that held it, which a new first term (or
// the death of the old one) makes it leave; the run that re-encodes that
// shard carries the list on to its new first live term
// (incremental.shards). A term that lived before and lives now (postings
// changed only) changes the content of its prefix's list but not where it
// is.
func (inc *incremental) mark(fields [][]dictTerm, fi int, t string, moves bool) {
	shardOf := inc.cache.shardOf
	inc.affected[shardOf(t)] = true
	p, ok := runePrefix(t, PrefixListMinRunes)
	if !ok {
		return
	}
	dict := fields[fi]
	j := sort.Search(len(dict), func(j int) bool { return dict[j].term >= p })
	if moves && j < len(dict) && strings.HasPrefix(dict[j].term, p) {
		inc.affected[shardOf(dict[j].term)] = true
	}
	if h, ok := inc.holder[listKey(p, fi)]; ok {
		inc.affected[h] = true
	}
}

// markChanged marks the shards of the terms found changed, and keeps what
// the checks read for the shards to re-encode.
func (inc *incremental) markChanged(fields [][]dictTerm, changed []changedTerm, preread map[termKey]fieldTerm) {
	inc.preread = preread
	for _, k := range changed {
		inc.mark(fields, k.field, k.term, k.moves)
	}
	inc.nChanged = len(changed)
	// What the checks read, and the cache files they loaded, for shards
	// that are kept is not needed again (a run that goes on into such a
	// shard reads its terms again): let it go; at half a million records
	// it is hundreds of megabytes.
	for k := range preread {
		if !inc.affected[inc.cache.shardOf(index.ValidUTF8PerByte(k.term))] {
			delete(preread, k)
		}
	}
	inc.cache.forget(func(k int) bool { return !inc.affected[k] })
}

// markAll marks, when a term cache file is missing or damaged, every
// shard that may have changed: those with an old posting of a changed doc
// and those of the terms the changed records hold now (terms, by record).
func (inc *incremental) markAll(fields [][]dictTerm, terms map[string][][]string) {
	for i := range inc.prev.Shards {
		if slices.ContainsFunc(inc.changed, inc.prev.Shards[i].has) {
			inc.affected[i] = true
		}
	}
	for _, perField := range terms {
		for fi, ts := range perField {
			for _, t := range ts {
				inc.mark(fields, fi, t, true)
			}
		}
	}
}

// keptPublished reports whether every file the plan keeps is in the
// published site as written.
func (inc *incremental) keptPublished() bool {
	prev, opts := inc.prev, inc.opts
	for i, sh := range prev.Shards {
		if inc.affected[i] {
			continue
		}
		for _, rel := range sh.Files {
			if !opts.Has(rel) {
				return false
			}
		}
	}
	for f := range prev.RHashes {
		if !opts.Has(prev.rFile(opts.Dir, f)) {
			return false
		}
	}
	for f := range prev.MHashes {
		if !opts.Has(prev.mFile(opts.Dir, f)) {
			return false
		}
	}
	return true
}

// termKey is a term of a field.
type termKey struct {
	field int
	term  string
}

// A changedTerm is a term whose postings changed; moves says that it
// came or went (it has postings now and had none, or the other way).
type changedTerm struct {
	termKey
	moves bool
}

// changedTerms finds the terms whose postings the changed records
// changed: of the terms they hold now (fresh, per field) and those they
// held (the entries of the previous shards' term cache files with one of
// their postings), those whose postings in bleve now differ from the
// cache's, or that are gone. A record edited in one field keeps its
// postings in the others as they were (its field lengths, hence norms,
// and frequencies there are the same), and the shards that hold only
// such terms of it need no re-encoding: for an appended sentence of
// documentation, about half of them. It returns the postings it read,
// by field and bleve's form of the term, for the export to take instead
// of reading them again. ok is false when a cache file it needs is
// missing or damaged, or a term's valid-UTF-8 form is shared: the caller
// then marks every shard that may have changed.
func (inc *incremental) changedTerms(fields [][]dictTerm, fresh []map[string]bool,
	read termReader) (changed []changedTerm, got map[termKey]fieldTerm, ok bool, err error) {
	cands, ok := inc.candidates(fresh)
	if !ok {
		return nil, nil, false, nil
	}
	checks, ok := inc.checksOf(cands, fields)
	if !ok {
		return nil, nil, false, nil
	}
	readChecks(checks, read, inc.changed)
	if slices.ContainsFunc(checks, func(ck termCheck) bool { return ck.damaged }) {
		return nil, nil, false, nil
	}
	changed, got, err = judge(checks)
	inc.checked = len(checks)
	inc.verified = map[termKey]bool{}
	for i := range checks {
		if ck := &checks[i]; ck.same {
			inc.verified[ck.termKey] = true
		} else if ck.patched {
			inc.patched++
		}
	}
	return changed, got, err == nil, err
}

// candidates returns the terms that may have changed, in a fixed order
// (so that the reads are the same from run to run): those the changed
// records hold now (fresh) and those they held, by the term cache.
func (inc *incremental) candidates(fresh []map[string]bool) ([]termKey, bool) {
	var cands []termKey
	for fi, terms := range fresh {
		for t := range terms {
			cands = append(cands, termKey{fi, t})
		}
	}
	for i := range inc.prev.Shards {
		if !slices.ContainsFunc(inc.changed, inc.prev.Shards[i].has) {
			continue
		}
		cs := inc.cache.shard(i)
		if cs.body == nil || cs.dup {
			return nil, false
		}
		err := cs.each(func(term []byte, ft *fieldTerm) {
			if !fresh[ft.field][string(term)] && ft.holdsAny(inc.changed) {
				cands = append(cands, termKey{ft.field, string(term)})
			}
		})
		if err != nil {
			return nil, false
		}
	}
	slices.SortFunc(cands, func(a, b termKey) int {
		if c := strings.Compare(a.term, b.term); c != 0 {
			return c
		}
		return a.field - b.field
	})
	return cands, true
}

// termCheck is what a term was, from the term cache, and its bleve form
// and postings now.
type termCheck struct {
	termKey
	raw  string // "": gone from the dictionary
	old  fieldTerm
	had  bool
	same bool // probed: the same postings as old (cur not read)
	// damaged: old, as the term cache holds it, does not read (checked
	// beside the probes, on every core)
	damaged bool
	// patched: cur is old with the changed docs' postings as probed, not
	// read whole
	patched bool
	cur     fieldTerm
	err     error
}

// checksOf returns the checks of the candidate terms; ok is false when a
// cache file is missing or a form is shared.
func (inc *incremental) checksOf(cands []termKey, fields [][]dictTerm) ([]termCheck, bool) {
	c := inc.cache
	checks := make([]termCheck, 0, len(cands))
	for _, k := range cands {
		cs := c.shard(c.shardOf(k.term))
		if cs.body == nil || cs.dup {
			return nil, false
		}
		ck := termCheck{termKey: k}
		ck.old, ck.had = cs.lookup(k)
		// the old postings are compared where they are, in the cache
		// file, not decoded into memory; readChecks checks they read
		if ck.had && ck.old.df == dupDF {
			return nil, false
		}
		dict := fields[k.field]
		j := sort.Search(len(dict), func(j int) bool { return dict[j].term >= k.term })
		if j < len(dict) && dict[j].term == k.term {
			if j+1 < len(dict) && dict[j+1].term == k.term {
				return nil, false // two raw terms of one form
			}
			ck.raw = dict[j].raw
		}
		checks = append(checks, ck)
	}
	return checks, true
}

// readChecks reads the terms' postings now, on every core. A term the
// cache had is probed first: when its document frequency and its
// postings of the changed docs are as they were, its postings are (no
// other record was indexed again), and it is not read.
func readChecks(checks []termCheck, read termReader, changed []uint32) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(checks); i = int(next.Add(1)) - 1 {
				ck := &checks[i]
				if ck.had && !ck.old.wellFormed() {
					ck.damaged = true
					continue
				}
				if ck.raw == "" {
					continue
				}
				if ck.had {
					df, ps, err := read.probe(ck.field, ck.raw, changed)
					if ck.same = err == nil && df == ck.old.df && sameAt(&ck.old, changed, ps); ck.same {
						continue
					}
					if err == nil {
						if ck.cur, ck.patched = patched(&ck.old, changed, ps, df); ck.patched {
							ck.cur.term, ck.cur.field = ck.term, ck.field
							continue
						}
					}
				}
				ck.cur, ck.err = read.read(ck.field, ck.raw, ck.term)
			}
		}()
	}
	wg.Wait()
}

// sameAt reports whether ft's postings (decoded or not) of docs (sorted)
// are ps (freq 0: none).
func sameAt(ft *fieldTerm, docs []uint32, ps []posting) bool {
	got, err := ft.postingsAt(docs)
	if err != nil {
		return false
	}
	for i := range got {
		if got[i].freq != ps[i].freq || got[i].freq != 0 && math.Float32bits(got[i].norm) != math.Float32bits(ps[i].norm) {
			return false
		}
	}
	return true
}

// patched returns a term's postings now, made from its postings at the
// previous export (old) and its postings now of the changed docs (docs,
// sorted; ps as probe gives them, freq 0: none). No other record was
// indexed again, so no other posting can differ: a term of a changed
// record's documentation, whose length (so each term's norm) changed,
// costs a walk and a copy of the cached postings (splicePostings), not a
// read of bleve's (a common word has a posting in most records), and
// stays undecoded. ok is false when the result does not hold df
// postings (bleve's count now): the term is then read whole.
func patched(old *fieldTerm, docs []uint32, ps []posting, df uint64) (cur fieldTerm, ok bool) {
	if df == 0 || df > uint64(old.count()+len(docs)) {
		return fieldTerm{}, false
	}
	raw, n := old.raw, old.n
	if !old.undecoded {
		raw, n = encodePostings(nil, old.posts), len(old.posts)
	}
	raw, n, ok = splicePostings(raw, n, docs, ps)
	if !ok || uint64(n) != df {
		return fieldTerm{}, false
	}
	return fieldTerm{df: df, undecoded: true, n: n, raw: raw}, true
}

// judge returns the terms whose postings changed, and the postings read
// by field and bleve's form of the term.
func judge(checks []termCheck) (changed []changedTerm, got map[termKey]fieldTerm, err error) {
	got = make(map[termKey]fieldTerm, len(checks))
	for i := range checks {
		ck := &checks[i]
		if ck.err != nil {
			return nil, nil, ck.err
		}
		if ck.same {
			continue
		}
		if ck.raw == "" {
			// gone from the dictionary
			if ck.had {
				changed = append(changed, changedTerm{ck.termKey, true})
			}
			continue
		}
		got[termKey{ck.field, ck.raw}] = ck.cur
		switch {
		case !ck.had && ck.cur.count() > 0, ck.had && ck.cur.count() == 0:
			changed = append(changed, changedTerm{ck.termKey, true})
		// A term patched differs from old: its probe found the changed
		// docs' postings, or its document frequency, otherwise.
		case ck.had && (ck.patched || !samePostings(&ck.old, &ck.cur)):
			changed = append(changed, changedTerm{ck.termKey, false})
		}
	}
	return changed, got, nil
}

// samePostings reports whether two reads of a term are the same (a
// decoded or not, b decoded).
func samePostings(a, b *fieldTerm) bool {
	if a.df != b.df || a.count() != len(b.posts) {
		return false
	}
	i, same := 0, true
	err := a.each(func(p posting) bool {
		q := b.posts[i]
		i++
		same = p.doc == q.doc && p.freq == q.freq && math.Float32bits(p.norm) == math.Float32bits(q.norm)
		return same
	})
	return err == nil && same
}

// hasAll reports whether the files named by names (key → hash, under
// dir) are all in the published site as written.
func (inc *incremental) hasAll(dir string, names map[string]string) bool {
	for key, h := range names {
		if !inc.opts.Has(dir + "/" + key + "." + h + ".js") {
			return false
		}
	}
	return true
}

// keep keeps a content-named file of the previous export, once: two
// shards can hold a file of the same bytes, and a re-encoded shard can
// write one that a kept shard holds.
func (w *exportWriter) keep(rel string, keep func(string) bool) error {
	if _, ok := w.seen[rel]; ok {
		return nil
	}
	if !keep(rel) {
		// Has said it was there a moment ago.
		return fmt.Errorf("index: %s of the previous export changed during the build; build again", rel)
	}
	if w.seen == nil {
		w.seen = map[string][32]byte{}
	}
	w.seen[rel] = keptFile
	w.st.Kept++
	return nil
}

// keptFile marks a file kept, not written, in exportWriter.seen.
var keptFile = [32]byte{}

// keepFiles says, for each doc data (or pattern) file of per records,
// whether it is kept from the previous export (none of its records
// changed), and keeps those. nil inc keeps none.
func (inc *incremental) keepFiles(per, nDocs int, rel func(f int) string, st *Stats) []bool {
	n := (nDocs + per - 1) / per
	keep := make([]bool, n)
	if inc == nil {
		return keep
	}
	for f := range keep {
		keep[f] = true
	}
	for _, d := range inc.changed {
		keep[int(d)/per] = false
	}
	for f := range keep {
		if keep[f] && !inc.opts.Keep(rel(f)) {
			keep[f] = false
		}
		if keep[f] {
			st.Kept++
		}
	}
	return keep
}

// shards re-encodes the runs of affected shards and keeps the others.
func (inc *incremental) shards(fields [][]dictTerm, ranges map[string][]prefixRange, pr *postingsReader,
	docCount uint64, w *exportWriter, st *Stats) ([]shardOut, error) {
	old := inc.prev.Shards
	firstIdx := make(map[string]int, len(old))
	// The first terms of the shards the change left alone, in order, and
	// their indexes: where runs end, and where each run's read-ahead waits
	// (readGate).
	var ends []string
	var endShards []int
	for i, sh := range old {
		firstIdx[sh.First] = i
		if !inc.affected[i] {
			ends, endShards = append(ends, sh.First), append(endShards, i)
		}
	}
	var out []shardOut
	var spare *shardWriter // the last run's, whose buffers the next takes
	for i := 0; i < len(old); {
		if !inc.affected[i] {
			for _, rel := range old[i].Files {
				if err := w.keep(rel, inc.opts.Keep); err != nil {
					return nil, err
				}
			}
			out = append(out, old[i])
			i++
			continue
		}
		// A run from shard i: it ends before the first term of a shard
		// that is not affected, where a boundary falls as before.
		from := old[i].First
		if i == 0 {
			from = ""
		}
		next := len(old)
		lw := newShardWriter(inc.opts, w, st, inc.nDocs)
		lw.takeBuffers(spare)
		spare = lw
		lw.cacheDir, lw.cacheOut = inc.cacheDir, inc.cacheOut
		// A prefix range that begins before the run has its list written
		// by the run only if the list was held at or after the run's
		// first shard before: one held by an earlier shard stays there
		// (that shard's terms are as they were, or an earlier run
		// re-encoded it and carried the list on), and a list that did not
		// exist appears only through a changed record's term, whose
		// range's first shard was marked, so an earlier run began it.
		// Reading such a range again (hundreds of terms for a prefix
		// such as "con") would be most of the run's work.
		lw.needBefore = func(rg prefixRange) bool {
			h, ok := inc.holder[listKey(rg.prefix, rg.field)]
			return ok && h >= i
		}
		j, _ := slices.BinarySearch(endShards, i+1)
		lw.ends = ends[j:]
		stop := func(term string) bool {
			k, ok := firstIdx[term]
			if !ok || k <= i || inc.affected[k] || lw.owes(old[i:k], term) {
				return false
			}
			next = k
			return true
		}
		if err := lw.run(fields, ranges, pr, docCount, from, stop); err != nil {
			return nil, err
		}
		out = append(out, lw.shards...)
		st.Shards += len(lw.shards)
		i = next
	}
	return out, nil
}

// owes reports whether a prefix list that one of the previous shards
// held, which the run has re-encoded, is not written again yet although
// its prefix's terms go on at term: its first live term may have died
// (the record held it alone), moving the list forward into the shards
// ahead, which the run must then re-encode too.
func (l *shardWriter) owes(held []shardOut, term string) bool {
	for _, sh := range held {
		for _, k := range sh.Lists {
			prefix, _, _ := strings.Cut(k, "\x00")
			if strings.HasPrefix(term, prefix) && !l.wrote(k) {
				return true
			}
		}
	}
	return false
}

// wrote reports whether the run has written the prefix list k.
func (l *shardWriter) wrote(k string) bool {
	if slices.Contains(l.lists, k) {
		return true
	}
	for _, sh := range l.shards {
		if slices.Contains(sh.Lists, k) {
			return true
		}
	}
	return false
}

// the terms of a dictionary position onwards, for a run of shards
func fieldsFrom(fields [][]dictTerm, from string) [][]dictTerm {
	if from == "" {
		return fields
	}
	out := make([][]dictTerm, len(fields))
	for fi, list := range fields {
		i := sort.Search(len(list), func(i int) bool { return list[i].term >= from })
		out[fi] = list[i:]
	}
	return out
}

// rangesBefore lists the prefix ranges that begin before from and reach
// it: a run of shards starting at from builds their lists, since their
// first term with live postings may be from on.
func rangesBefore(fields [][]dictTerm, ranges map[string][]prefixRange, from string, need func(prefixRange) bool) []prefixRange {
	if from == "" {
		return nil
	}
	var extra []prefixRange
	for fi, list := range fields {
		i := sort.Search(len(list), func(i int) bool { return list[i].term >= from })
		if i == 0 || i == len(list) {
			continue
		}
		p, ok := runePrefix(list[i].term, PrefixListMinRunes)
		if !ok || !strings.HasPrefix(list[i-1].term, p) {
			continue
		}
		j := i - 1
		for j > 0 && strings.HasPrefix(list[j-1].term, p) {
			j--
		}
		for _, rg := range ranges[list[j].term] {
			if rg.field == fi && rg.prefix == p && (need == nil || need(rg)) {
				extra = append(extra, rg)
			}
		}
	}
	return extra
}
