// Package export writes the bleve index (generator/index) as static files
// that the browser client (static/search/engine.js) searches with bleve's
// own scoring. The export is read back from the bleve index (term
// dictionaries, postings with frequencies and norms), so what bleve
// indexed is exactly what the browser searches. FORMAT.md in this folder
// describes the files and the query structure the client mirrors.
package export

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math/bits"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/pattern"
)

// FileWriter receives the exported files, with paths relative to the site
// root (all under Options.Dir).
type FileWriter interface {
	WriteFile(rel string, data []byte) error
}

// Options tunes the export. Zero values take the defaults.
type Options struct {
	// Pattern compiles a record's messagePattern into the program the
	// client matches pasted errors with; its JSON is stored in the doc
	// data as "pattern". nil omits patterns. An error omits the pattern
	// of that record (counted in Stats.PatternErrors).
	Pattern func(expr string) (json.RawMessage, error)

	Dir              string // folder under the site root; default "search"
	DictShardBytes   int    // target size of a dictionary shard; default 3 KiB
	PostingFileBytes int    // target size of a postings file; default 10 KiB
	DocsPerFile      int    // records per doc data file; default 64
	PatternsPerFile  int    // records per pattern program file; default 32 × DocsPerFile
	BlockSize        int    // postings per block; default 128
	HeadSize         int    // documents in a term's impact head; default 4 × BlockSize
	HeadMin          int    // postings in long lists from which a term gets a head; default HeadSize
	SnippetRunes     int    // snippet length in the doc data; default 120
	InlineMax        int    // document frequency up to which postings sit in the dictionary; default 3
	FilterFileBytes  int    // target size of a filter postings file; default 32 KiB
	KeyFileBytes     int    // target size of a pattern keys file (k/); default 12 KiB

	// Keep, when set, allows an incremental export (incremental.go): the
	// export re-encodes only what the records changed since the last
	// export touch, and keeps the other files of the previous export,
	// which Keep must confirm are in the published site as written (false:
	// the export is made whole). PrevMarker names the published site the
	// previous export went to (its build marker).
	Keep       func(rel string) bool
	Has        func(rel string) bool // whether Keep would keep rel; keeps nothing
	PrevMarker string
}

func (o *Options) defaults() {
	if o.Dir == "" {
		o.Dir = "search"
	}
	o.Dir = strings.Trim(o.Dir, "/")
	if o.DictShardBytes <= 0 {
		o.DictShardBytes = 3 << 10
	}
	// Postings files of 10 KiB and doc data files of 64 records: at
	// 100,000 records the fewest bytes a further query loads (a second
	// query: 46.6 KB median, where 16 KiB and 44 gave 48.3) within the
	// budget of 5,000 files (4,941); smaller postings files cost more
	// files than the larger doc data files save (BENCHMARKS.md).
	if o.PostingFileBytes <= 0 {
		o.PostingFileBytes = 10 << 10
	}
	if o.DocsPerFile <= 0 {
		o.DocsPerFile = 64
	}
	if o.PatternsPerFile <= 0 {
		o.PatternsPerFile = 32 * o.DocsPerFile
	}
	if o.BlockSize <= 0 {
		o.BlockSize = 128
	}
	// Heads of 4 blocks (512 documents) for terms of 512 postings or
	// more: at 100,000 records the second budget query's median is 65.4
	// KB instead of 68.3 with heads of 256 from 512 postings (160 budget
	// queries; mean -0.6 KB), for 10 more files.
	if o.HeadSize <= 0 {
		o.HeadSize = 4 * o.BlockSize
	}
	if o.HeadMin <= 0 {
		o.HeadMin = o.HeadSize
	}
	if o.SnippetRunes <= 0 {
		o.SnippetRunes = 120
	}
	if o.InlineMax <= 0 {
		o.InlineMax = 3
	}
	if o.KeyFileBytes <= 0 {
		o.KeyFileBytes = 12 << 10
	}
	if o.FilterFileBytes <= 0 {
		o.FilterFileBytes = 32 << 10
	}
}

// Stats describes an export.
type Stats struct {
	Docs          int
	Terms         int // distinct (term, field) pairs
	Postings      int
	Files         int
	Bytes         int64
	MaxFileBytes  int
	MaxFile       string
	FilesByKind   map[string]int
	BytesByKind   map[string]int64
	NormFallbacks int           // postings whose norm is stored as raw float32 bits
	PatternErrors int           // records whose messagePattern the client cannot run
	ReadTime      time.Duration // reading bleve
	PatternTime   time.Duration // running the Pattern hook
	ShardTime     time.Duration // dictionary shards and their postings
	FilterTime    time.Duration // filter value lists
	Incremental   bool          // only what changed was exported
	Kept          int           // files of the previous export kept
	Shards        int           // dictionary shards written (re-encoded, when Incremental)
	ShardsTotal   int           // dictionary shards of the export
	CachedTerms   int           // terms read from the term cache, not bleve
	FiltersKept   bool          // the filter files of the previous export were kept
	// Of the terms the changed records hold or held, how many an
	// incremental export compared with the term cache (CheckedTerms) and
	// found changed (ChangedTerms); only the shards of the changed ones
	// are re-encoded. CheckedTerms is 0 when a cache file was missing and
	// every shard that may have changed was re-encoded.
	CheckedTerms int
	ChangedTerms int
	Duration     time.Duration
}

// FormatVersion is written into the manifest; the client refuses others.
const FormatVersion = 6

// EntryFile is the one export file whose name is fixed (under
// Options.Dir): it names the content-hashed manifest. Every other
// file is named <key>.<hash>.js and can be cached forever.
const EntryFile = "manifest.js"

type posting struct {
	doc  uint32
	freq uint32
	norm float32
}

type fieldTerm struct {
	term  string
	field int
	df    uint64 // bleve's count, which its idf uses
	posts []posting
	// cached, when the postings came from the term cache, is their entry
	// there, which appendCachedTerm would make again.
	cached []byte
}

// An Exporter writes the search export of an index, and keeps what the
// export leaves for the next one until the site that holds it is
// published (SaveState).
type Exporter struct {
	ix      *index.Index
	ch      index.Changes // the records indexed since ix was opened
	pending *exportState
}

// New returns an Exporter of ix.
func New(ix *index.Index) *Exporter { return &Exporter{ix: ix} }

// Export writes the client-side search files for the current index.
func (ex *Exporter) Export(out FileWriter, opts Options) (Stats, error) {
	start := time.Now()
	opts.defaults()
	st := Stats{FilesByKind: map[string]int{}, BytesByKind: map[string]int64{}}
	if ex == nil || ex.ix == nil || ex.ix.Bleve() == nil {
		return st, errors.New("index: Export on a closed index")
	}
	ex.ch = ex.ix.Changes()
	if out == nil {
		return st, errors.New("index: Export needs a FileWriter")
	}
	adv, err := ex.ix.Bleve().Advanced()
	if err != nil {
		return st, err
	}
	r, err := adv.Reader()
	if err != nil {
		return st, err
	}
	defer r.Close()

	docCount, err := r.DocCount()
	if err != nil {
		return st, err
	}

	// Doc numbers: scorch's internal ids are not stable, so number the
	// records by (sort key, id): newest analyzedAt first. This is also the
	// order of filter-only results and the tie-break of scored ones.
	type docRef struct {
		internal bindex.IndexInternalID
		id       string
		sortKey  string
	}
	var internals []bindex.IndexInternalID
	dr, err := r.DocIDReaderAll()
	if err != nil {
		return st, err
	}
	for {
		id, err := dr.Next()
		if err != nil {
			dr.Close()
			return st, err
		}
		if id == nil {
			break
		}
		internals = append(internals, slices.Clone(id))
	}
	dr.Close()
	// Each external id is a stored-field read (a tenth of a second at
	// 100,000 records): spread over the cores.
	docs := make([]docRef, len(internals))
	workers := runtime.GOMAXPROCS(0)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(internals); i += workers {
				ext, err := r.ExternalID(internals[i])
				if err != nil {
					errs[w] = err
					return
				}
				sortKey, ok := ex.ix.SortKeyOf(ext)
				if !ok {
					errs[w] = fmt.Errorf("index: record %s is in bleve but not in the side store; delete the cache", ext)
					return
				}
				docs[i] = docRef{internal: internals[i], id: ext, sortKey: sortKey}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return st, err
	}
	slices.SortFunc(docs, func(a, b docRef) int {
		if c := strings.Compare(a.sortKey, b.sortKey); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	docNum := &docNumbers{}
	for i, d := range docs {
		docNum.set(d.internal, uint32(i))
	}
	// data is a record's doc data (the side store holds it once).
	data := func(i int) (index.DocData, error) {
		return ex.ix.DocData(docs[i].id)
	}
	st.Docs = len(docs)

	// The dictionaries, term by term; postings are read as the layout
	// below reaches them (stream.go).
	fields, err := fieldTerms(r)
	if err != nil {
		return st, err
	}
	ranges := prefixRanges(fields)
	st.ReadTime = time.Since(start)

	w := &exportWriter{out: out, st: &st, dir: opts.Dir, keepSame: opts.Keep}
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.id
	}
	sortKeys := make([]string, len(docs))
	for i, d := range docs {
		sortKeys[i] = d.sortKey
	}
	next := &exportState{Options: optionsKey(opts), DocCount: docCount,
		Numbering: numberingKey(ids, sortKeys), Index: ex.ix.RecordsKey()}
	pr := &postingsReader{r: r, nums: docNum, opts: opts}
	inc, err := ex.planIncremental(opts, next, ids, fields, pr.readBleve)
	if err != nil {
		return st, err
	}
	st.Incremental = inc != nil
	if inc != nil {
		pr.cache, pr.preread = inc.cache, inc.preread
		st.CheckedTerms, st.ChangedTerms = inc.checked, inc.nChanged
	}

	// Dictionary shards with their postings files (layout.go), term by
	// term as the postings are read: all of them, or only those the
	// changed records touch.
	shardStart := time.Now()
	if inc != nil {
		next.Shards, err = inc.shards(fields, ranges, pr, docCount, w, &st)
	} else {
		lw := newShardWriter(opts, w, &st, len(docs))
		lw.cacheDir = filepath.Join(ex.ix.Dir(), termCacheDir)
		err = lw.run(fields, ranges, pr, docCount, "", nil)
		next.Shards = lw.shards
		st.Shards = len(lw.shards)
	}
	if err != nil {
		return st, err
	}
	st.ShardsTotal = len(next.Shards)
	st.ShardTime = time.Since(shardStart)
	if pr.cache != nil {
		st.CachedTerms = int(pr.cache.hits.Load())
	}
	var shardFirst, shardHash []string
	for _, sh := range next.Shards {
		shardFirst = append(shardFirst, sh.First)
		shardHash = append(shardHash, sh.Hash)
	}
	// Doc data, DocsPerFile records per file, in doc number order. An
	// incremental export keeps the files none of whose records changed.
	rKeep := inc.keepFiles(opts.DocsPerFile, len(docs), func(f int) string { return inc.prev.rFile(opts.Dir, f) }, &st)
	mInc := inc
	if opts.Pattern == nil {
		mInc = nil // no pattern files, then or now (Options says so)
	}
	mKeep := mInc.keepFiles(opts.PatternsPerFile, len(docs), func(f int) string { return inc.prev.mFile(opts.Dir, f) }, &st)
	next.Unusable = make([]uint64, (len(docs)+63)/64)
	// names lists the hashed names the manifest gives: filter value
	// lists, id shards, pattern keys (the doc data and pattern files'
	// names are lists of their own, rh and mh).
	names := map[string]string{}
	pstart := time.Now()
	patterns := make([]json.RawMessage, len(docs))
	if opts.Pattern != nil {
		memo := map[string]json.RawMessage{}
		for i := range docs {
			if mKeep[i/opts.PatternsPerFile] {
				if inc.prev.unusable(i) {
					next.Unusable[i/64] |= 1 << (i % 64)
				}
				continue
			}
			d, err := data(i)
			if err != nil {
				return st, err
			}
			expr := d.Pattern
			if expr == "" {
				continue // no pattern: nothing to match, nothing unusable
			}
			p, ok := memo[expr]
			if !ok {
				var err error
				if p, err = callPattern(opts.Pattern, expr); err != nil || !json.Valid(p) {
					p = nil
				}
				memo[expr] = p
			}
			patterns[i] = p
			if p == nil {
				next.Unusable[i/64] |= 1 << (i % 64)
			}
		}
		for _, u := range next.Unusable {
			st.PatternErrors += bits.OnesCount64(u)
		}
	}
	// Pattern keys (patternkeys.go): the words of every usable pattern,
	// those of unchanged pattern files as the last export found them.
	var kFirst, kHash []string
	if opts.Pattern != nil {
		next.PatWords = make([][]string, len(docs))
		pk := newPatternKeys(ex.ix.Bleve().Mapping().AnalyzerNamed(index.AnalyzerIdent))
		for i := range docs {
			if next.Unusable[i/64]&(1<<(i%64)) != 0 {
				continue
			}
			if mKeep[i/opts.PatternsPerFile] {
				if i < len(inc.prev.PatWords) {
					next.PatWords[i] = inc.prev.PatWords[i]
				}
			} else if patterns[i] != nil {
				d, err := data(i)
				if err != nil {
					return st, err
				}
				next.PatWords[i] = pk.wordsOf(d.Pattern, pattern.RequiredLiterals)
			}
			pk.add(i, next.PatWords[i])
		}
		if kFirst, kHash, err = pk.write(w, opts.KeyFileBytes); err != nil {
			return st, err
		}
		for i, h := range kHash {
			names[fmt.Sprintf("k/%04d", i)] = h
		}
	}
	st.PatternTime = time.Since(pstart)
	// Result cards (r/) and pattern programs (m/) go to separate chunks: a
	// result list needs only the cards; pattern programs (a third of the
	// bytes) load only for paste matching, in coarser chunks to save files.
	hasPatterns := opts.Pattern != nil
	// names lists the hashed names the manifest gives: filter value
	// lists, id shards (the doc data and pattern files' names are lists of
	// their own, rh and mh).
	var rHash, mHash []string
	for f := 0; f*opts.DocsPerFile < len(docs); f++ {
		if rKeep[f] {
			rHash = append(rHash, inc.prev.RHashes[f])
			continue
		}
		lo, hi := f*opts.DocsPerFile, min((f+1)*opts.DocsPerFile, len(docs))
		var cards cardColumns
		for i := lo; i < hi; i++ {
			d, err := data(i)
			if err != nil {
				return st, err
			}
			cards.add(d, opts.SnippetRunes)
		}
		b, err := json.Marshal(cards)
		if err != nil {
			return st, err
		}
		h, err := w.script("r", fmt.Sprintf("r/%04d", f), string(b))
		if err != nil {
			return st, err
		}
		rHash = append(rHash, h)
	}
	if hasPatterns {
		for f := 0; f*opts.PatternsPerFile < len(docs); f++ {
			if mKeep[f] {
				mHash = append(mHash, inc.prev.MHashes[f])
				continue
			}
			lo, hi := f*opts.PatternsPerFile, min((f+1)*opts.PatternsPerFile, len(docs))
			progs := make([]json.RawMessage, 0, hi-lo)
			for i := lo; i < hi; i++ {
				p := patterns[i]
				if p == nil {
					p = json.RawMessage("null")
				}
				progs = append(progs, p)
			}
			b, err := json.Marshal(progs)
			if err != nil {
				return st, err
			}
			h, err := w.script("m", fmt.Sprintf("m/%04d", f), string(b))
			if err != nil {
				return st, err
			}
			mHash = append(mHash, h)
		}
	}
	next.RHashes, next.MHashes = rHash, mHash
	// Filters: per field, the sorted values with their doc counts and
	// where their doc lists are; doc lists packed into filter files.
	// An incremental export keeps them when no changed record's filter
	// values changed (FORMAT: the files depend on the values' doc lists
	// alone, and the doc numbers are as before).
	fstart := time.Now()
	var filters *filterOut
	if inc != nil && ex.filtersSame(inc, ids) {
		filters = inc.prev.Filters
		for _, rel := range filters.Files {
			if err := w.keep(rel, opts.Keep); err != nil {
				return st, err
			}
		}
		st.FiltersKept = true
	} else if filters, err = exportFilters(r, w, docNum, len(docs), opts.FilterFileBytes); err != nil {
		return st, err
	}
	maps.Copy(names, filters.Names)
	filterIndex := filters.Index
	next.Filters = filters
	st.FilterTime = time.Since(fstart)

	// Id index: record id -> doc number, sharded by the first hex digits
	// of the id (ids are 16 random-looking hex digits), so docs(ids) loads
	// one small chunk per id prefix.
	idPrefix := 1
	if len(docs) > 400000 {
		idPrefix = 2
	}
	// They depend on the numbering alone: an incremental export (same
	// numbering) keeps the previous ones.
	if inc != nil && inc.prev.IDNames != nil && inc.hasAll(opts.Dir, inc.prev.IDNames) {
		for key, h := range inc.prev.IDNames {
			if err := w.keep(opts.Dir+"/"+key+"."+h+".js", opts.Keep); err != nil {
				return st, err
			}
		}
		next.IDNames = inc.prev.IDNames
	} else {
		idShards := map[string][][2]interface{}{}
		for i, d := range docs {
			p := d.id
			if len(p) > idPrefix {
				p = p[:idPrefix]
			}
			idShards[p] = append(idShards[p], [2]interface{}{d.id, i})
		}
		next.IDNames = map[string]string{}
		for _, p := range sortedKeys(idShards) {
			b, err := json.Marshal(idShards[p])
			if err != nil {
				return st, err
			}
			h, err := w.script("i", "i/"+p, string(b))
			if err != nil {
				return st, err
			}
			next.IDNames["i/"+p] = h
		}
	}
	maps.Copy(names, next.IDNames)

	// Manifest, last: small and fixed in shape.
	type mfField struct {
		Name     string  `json:"name"`
		Analyzer string  `json:"analyzer"`
		Query    string  `json:"query"`
		Boost    float64 `json:"boost"`
	}
	man := struct {
		Version     int                 `json:"v"`
		DocCount    uint64              `json:"docCount"`
		Docs        int                 `json:"docs"`
		Fields      []mfField           `json:"fields"`
		Shards      []string            `json:"shards"`
		DocsPerFile int                 `json:"docsPerFile"`
		Filters     map[string]string   `json:"filters"`
		Options     map[string]int      `json:"options"`
		FilterNames []string            `json:"filterNames"`
		Extra       map[string][]string `json:"extra,omitempty"`
		ShardHashes string              `json:"dh"`
		DocHashes   string              `json:"rh"`
		PatHashes   string              `json:"mh,omitempty"`
		KeyFirst    []string            `json:"kf,omitempty"`
		Names       map[string]string   `json:"names"`
	}{
		Version: FormatVersion, DocCount: docCount, Docs: len(docs),
		Shards: shardFirst, DocsPerFile: opts.DocsPerFile, Filters: filterIndex,
		Options: map[string]int{"minPrefix": index.MinPrefixRunes, "fuzzyPrefix": index.FuzzyPrefix, "inlineMax": opts.InlineMax, "blockSize": opts.BlockSize,
			"idPrefix": idPrefix, "patterns": boolInt(hasPatterns), "patternsPerFile": opts.PatternsPerFile},
		FilterNames: index.FilterFields, ShardHashes: strings.Join(shardHash, ""), Names: names,
		DocHashes: strings.Join(rHash, ""), PatHashes: strings.Join(mHash, ""), KeyFirst: kFirst,
	}
	for _, f := range index.Fields {
		man.Fields = append(man.Fields, mfField{f.Name, f.Analyzer, f.QueryAnalyzer, f.Boost})
	}
	mb, err := json.Marshal(man)
	if err != nil {
		return st, err
	}
	mh, err := w.script("manifest", "manifest", string(mb))
	if err != nil {
		return st, err
	}
	// The entry, the one file with a fixed name (and so the one a host must
	// not cache for long): which manifest to load.
	if err := w.write("entry", EntryFile, "errdocsSearch.load(\"entry\","+jsString(mh)+");\n"); err != nil {
		return st, err
	}
	ex.pending = next
	st.Duration = time.Since(start)
	return st, nil
}

// cardColumns is a doc data file (r/): what a result list shows of each
// of its records, column by column (a column of like values compresses
// better than records of mixed ones): id, title, url, repo, severity,
// error type, language, snippet. A url that starts with the record's
// repo and "/" is written without them (u) and the reader puts them back;
// any other url is given whole in U, by the record's index in the file.
// Tags, error class and error code are searchable but not shown in
// results, so they stay out: a query loads up to one doc data file per
// result.
type cardColumns struct {
	Title     []string       `json:"t"`
	URL       []string       `json:"u"`
	FullURL   map[int]string `json:"U,omitempty"`
	Repo      []string       `json:"r"`
	Severity  []string       `json:"s"`
	ErrorType []string       `json:"e"`
	Language  []string       `json:"l"`
	Snippet   []string       `json:"n"`
}

func (c *cardColumns) add(d index.DocData, snippetRunes int) {
	u := d.URL
	if rest, ok := strings.CutPrefix(u, d.Repo+"/"); ok && d.Repo != "" {
		u = rest
	} else {
		if c.FullURL == nil {
			c.FullURL = map[int]string{}
		}
		c.FullURL[len(c.Title)] = u
		u = ""
	}
	c.Title = append(c.Title, d.Title)
	c.URL = append(c.URL, u)
	c.Repo = append(c.Repo, d.Repo)
	c.Severity = append(c.Severity, d.Severity)
	c.ErrorType = append(c.ErrorType, d.ErrorType)
	c.Language = append(c.Language, d.Language)
	c.Snippet = append(c.Snippet, trimSnippet(d.Snippet, snippetRunes))
}

// callPattern runs the hook and turns a panic in it into an error: the
// hook is another package's code running on untrusted patterns.
func callPattern(f func(string) (json.RawMessage, error), expr string) (p json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pattern hook panicked: %v", r)
		}
	}()
	return f(expr)
}

// dictTerms lists a field's terms as bleve's dictionary holds them, in
// order.
func dictTerms(r bindex.IndexReader, field string) ([]string, error) {
	fd, err := r.FieldDict(field)
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	var terms []string
	for {
		e, err := fd.Next()
		if err != nil {
			return nil, err
		}
		if e == nil {
			return terms, nil
		}
		terms = append(terms, e.Term)
	}
}

// filterOut is what the filter files of an export are, kept in the
// export state so that the next export can keep them.
type filterOut struct {
	Index map[string]string // filter field → key of its value list
	Names map[string]string // value list key → hash, for the manifest
	Files []string          // every file written (site paths)
	Sums  []uint64          // per doc number: FilterSum of its values
}

// filtersSame reports whether the filter files of the previous export
// hold for this one: every changed record has the filter values it had,
// and the files are in the published site.
func (ex *Exporter) filtersSame(inc *incremental, ids []string) bool {
	f := inc.prev.Filters
	if f == nil || len(f.Sums) != len(ids) || ex.ch.FilterSums == nil {
		return false
	}
	for _, d := range inc.changed {
		sum, ok := ex.ch.FilterSums[ids[d]]
		if !ok || sum != f.Sums[d] {
			return false
		}
	}
	for _, rel := range f.Files {
		if !inc.opts.Has(rel) {
			return false
		}
	}
	return true
}

func exportFilters(r bindex.IndexReader, w *exportWriter, docNum *docNumbers, nDocs, target int) (*filterOut, error) {
	out := &filterOut{Names: map[string]string{}, Sums: make([]uint64, nDocs)}
	names := out.Names
	byField := map[string]string{}
	var file cvWriter
	fileNo := 0
	cut := false
	var hashes []string
	flush := func() error {
		cut = false
		if file.len() == 0 {
			return nil
		}
		key := fmt.Sprintf("f/%04d", fileNo)
		h, err := w.script("f", key, jsString(file.String()))
		if err != nil {
			return err
		}
		out.Files = append(out.Files, w.dir+"/"+key+"."+h+".js")
		hashes = append(hashes, h)
		file = cvWriter{}
		fileNo++
		return nil
	}
	// Value lists are written once every filter file has its hashed name.
	type valueList struct {
		name    string
		entries [][]interface{}
		files   map[int]bool
	}
	var lists []valueList
	ctx := context.Background()
	for _, name := range index.FilterFields {
		field := index.FilterFieldPrefix + name
		vals, err := dictTerms(r, field)
		if err != nil {
			return nil, err
		}
		// Each value: [value, count, file, offset, length, kind]; kind 0
		// is a gap list, kind 1 a bitmap (smaller for common values).
		var entries [][]interface{}
		files := map[int]bool{}
		var tfd bindex.TermFieldDoc
		for _, v := range vals {
			tfr, err := r.TermFieldReader(ctx, []byte(v), field, false, false, false)
			if err != nil {
				return nil, err
			}
			var list []uint32
			for {
				d, err := tfr.Next(&tfd)
				if err != nil {
					tfr.Close()
					return nil, err
				}
				if d == nil {
					break
				}
				if n, ok := docNum.get(d.ID); ok {
					list = append(list, n)
				}
			}
			tfr.Close()
			if len(list) == 0 {
				continue
			}
			sum := index.FilterSum(name, v)
			for _, d := range list {
				if int(d) < len(out.Sums) {
					out.Sums[d] += sum
				}
			}
			sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
			var enc cvWriter
			prev := uint32(0)
			for _, d := range list {
				enc.put(uint64(d - prev))
				prev = d
			}
			s, kind := enc.String(), 0
			if bm := bitmapChars(list, nDocs); len(bm) < len(s) {
				s, kind = bm, 1
			}
			// Content-defined file boundaries, as for postings files.
			if file.len() > 0 && (cut || file.len()+len(s) > 2*target) {
				if err := flush(); err != nil {
					return nil, err
				}
			}
			entries = append(entries, []interface{}{v, len(list), fileNo, file.len(), len(s), kind})
			files[fileNo] = true
			file.b = append(file.b, s...)
			if !cut {
				cut = cdcCut(name+"\x00"+v, len(s), file.len(), target)
			}
		}
		lists = append(lists, valueList{"f/" + name, entries, files})
		byField[name] = "f/" + name
	}
	if err := flush(); err != nil {
		return nil, err
	}
	for _, l := range lists {
		fn := map[string]string{}
		for f := range l.files {
			fn[fmt.Sprintf("f/%04d", f)] = hashes[f]
		}
		if l.entries == nil {
			l.entries = [][]interface{}{}
		}
		b, err := json.Marshal(struct {
			V [][]interface{}   `json:"v"`
			N map[string]string `json:"n"`
		}{l.entries, fn})
		if err != nil {
			return nil, err
		}
		h, err := w.script("f", l.name, string(b))
		if err != nil {
			return nil, err
		}
		names[l.name] = h
		out.Files = append(out.Files, w.dir+"/"+l.name+"."+h+".js")
	}
	out.Index = byField
	return out, nil
}

// exportWriter writes chunk scripts: each file calls the global loader
// with its own key, so that <script src> works from file://.
type exportWriter struct {
	out  FileWriter
	st   *Stats
	dir  string
	seen map[string][32]byte // content-named files written, by site path
	// keepSame, when set (Options.Keep), keeps a d/ or p/ file
	// the previous export wrote under the same name instead of writing it:
	// the name, 48 bits of its content's hash, says its bytes are the ones
	// it would get. (Other names hold 32 bits: those files are written, and
	// the writer compares their bytes.)
	keepSame func(rel string) bool
}

// script writes the chunk of key as <key>.<hash>.js, hash = nameHash of
// the file's bytes, and returns the hash.
func (w *exportWriter) script(kind, key, body string) (string, error) {
	data := "errdocsSearch.load(" + jsString(key) + "," + body + ");\n"
	h := nameHash([]byte(data))
	return h, w.write(kind, key+"."+h+".js", data)
}

// write writes one file under the export folder and counts it.
func (w *exportWriter) write(kind, name, text string) error {
	data := []byte(text)
	rel := w.dir + "/" + name
	if err := w.out.WriteFile(rel, data); err != nil {
		return err
	}
	w.st.Files++
	w.st.Bytes += int64(len(data))
	w.st.FilesByKind[kind]++
	w.st.BytesByKind[kind] += int64(len(data))
	if len(data) > w.st.MaxFileBytes {
		w.st.MaxFileBytes = len(data)
		w.st.MaxFile = rel
	}
	return nil
}

// nameHash is the hash part of a file name: the first 8 hex digits of the
// SHA-256 of the file's bytes.
func nameHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:4])
}

// cdcCut decides a content-defined file boundary after an item (a term's
// postings, a prefix list, a dictionary term, a filter value) of n bytes
// that left the current file at cur bytes, for files of about target
// bytes: a file ends after an item with probability n/(target/2) (from a
// hash of the item's identity, not of its bytes) once it holds 3/4 target
// bytes, so files average about target. The decision depends on the item
// and on nothing before the file, so a change moves no boundary but,
// rarely, one next to it. (Files are also ended at 2×target.)
func cdcCut(item string, n, cur, target int) bool {
	// Normalized chunking (as FastCDC): no boundary below 5/8 target, a
	// rare one up to 9/8 target, a likely one beyond, so sizes stay close
	// to the target (a query's files are then no larger than before).
	var gap int
	switch {
	case cur < target*5/8:
		return false
	case cur < target*9/8:
		gap = target
	default:
		gap = target / 8
	}
	gap = max(gap, 1)
	if n >= gap {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(item))
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return (x>>32)*uint64(gap) < uint64(n)<<32
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// splitTop returns the n best of posts (worse as for topN) and the others,
// both in their order in posts.
func splitTop[T any](posts []T, n int, worse func(a, b int32) bool) (head, rest []T) {
	in := topN(len(posts), n, worse)
	head = make([]T, 0, n)
	rest = make([]T, 0, max(len(posts)-n, 0))
	for i, p := range posts {
		if in[i] {
			head = append(head, p)
		} else {
			rest = append(rest, p)
		}
	}
	return head, rest
}

// topN marks the n best of count items, worse(a, b) saying that item a
// ranks below item b (a strict order). A min-heap of the n best so far
// keeps it O(count·log n) for lists of any length.
func topN(count, n int, worse func(a, b int32) bool) []bool {
	h := make([]int32, 0, n)
	for i := 0; i < count; i++ {
		x := int32(i)
		if len(h) < n {
			h = append(h, x)
			for j := len(h) - 1; j > 0; {
				p := (j - 1) / 2
				if !worse(h[j], h[p]) {
					break
				}
				h[j], h[p] = h[p], h[j]
				j = p
			}
			continue
		}
		if !worse(h[0], x) {
			continue
		}
		h[0] = x
		for j := 0; ; {
			l := 2*j + 1
			if l >= len(h) {
				break
			}
			m := l
			if r := l + 1; r < len(h) && worse(h[r], h[l]) {
				m = r
			}
			if !worse(h[m], h[j]) {
				break
			}
			h[j], h[m] = h[m], h[j]
			j = m
		}
	}
	in := make([]bool, count)
	for _, i := range h {
		in[i] = true
	}
	return in
}

// trimSnippet cuts s to at most n runes at a word boundary, with an ellipsis.
func trimSnippet(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	cut := len(r)
	for i := len(r) - 1; i > n*2/3; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " ,.;:") + "…"
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
