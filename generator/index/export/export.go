// Package export writes the bleve index (generator/index) as static files
// that the browser client (static/search/engine.js) searches with bleve's
// own scoring. The export is read back from the bleve index (term
// dictionaries, postings with frequencies and norms), so what bleve
// indexed is exactly what the browser searches. FORMAT.md in this folder
// describes the files and the query structure the client mirrors.
package export

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/errdocs/errdocs/generator/index"
)

// FileWriter receives the exported files, with paths relative to the site
// root (all under Options.Dir). data is valid only during the call: the
// export builds the next file in the same memory.
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

	// Expect, when set, is told how many bytes of the index's mapped
	// files the export is about to read as it moves from one part of
	// them to the other (resident.Expect), after it let go of the pages
	// of the part it is done with (mapped.go).
	Expect func(bytes int64)
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
	// 100,000 records the fewest bytes a further query loads within the
	// budget of 5,000 files; smaller postings files cost more files than
	// the larger doc data files save (figures: BENCHMARKS.md, "Export
	// defaults").
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
	// more: a second query loads fewer bytes than with heads of 256, for
	// a few more files (BENCHMARKS.md, "Export defaults").
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

// PhaseTime is how long a phase of an export took.
type PhaseTime struct {
	Name string
	Time time.Duration
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
	Phases        []PhaseTime   // each phase's time, in order
	Incremental   bool          // only what changed was exported
	Kept          int           // files of the previous export kept
	Shards        int           // dictionary shards written (re-encoded, when Incremental)
	ShardsTotal   int           // dictionary shards of the export
	CachedTerms   int           // terms read from the term cache, not bleve
	CachedEntries int           // dictionary entries taken as the term cache kept them prepared
	CachedLists   int           // prefix lists taken so
	// GroupsUnused: the terms' postings read ahead for a run of
	// re-encoded shards past the term where the run ended (readGate).
	GroupsUnused int
	// PatchedEntries: entries of changed terms made from the previous
	// export's, with only the blocks holding a changed record's posting
	// encoded again (patchentry.go).
	PatchedEntries int
	// PatchedLists: prefix lists made from the previous export's, with
	// only the blocks holding a changed record's posting encoded again
	// (prefixpatch.go).
	PatchedLists int
	FiltersKept  bool // the filter files of the previous export were kept
	// Of the terms the changed records hold or held, how many an
	// incremental export compared with the term cache (CheckedTerms) and
	// found changed (ChangedTerms); only the shards of the changed ones
	// are re-encoded. CheckedTerms is 0 when a cache file was missing and
	// every shard that may have changed was re-encoded.
	CheckedTerms int
	ChangedTerms int
	// NumberingKept: the records were numbered as at the previous export
	// (its numbering file), not sorted again.
	NumberingKept bool
	// ProbedTerms of the checked terms were found unchanged by their
	// postings of the changed records alone, not read whole.
	ProbedTerms int
	// PatchedTerms of the changed terms had their postings made from the
	// term cache's and the changed records' own, not read whole.
	PatchedTerms int
	Duration     time.Duration
}

// FormatVersion is written into the manifest; the client refuses others.
const FormatVersion = 8

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
	// undecoded: the postings came from the term cache and are not
	// decoded yet (posts is nil): raw holds their n postings in the
	// cache's form (decode).
	undecoded bool
	n         int
	raw       []byte
}

// An Exporter writes the search export of an index, and keeps what the
// export leaves for the next one until the site that holds it is
// published (SaveState).
type Exporter struct {
	ix      *index.Index
	ch      index.Changes // the records indexed since ix was opened
	pending *exportState
	saved   bool // SaveState saved pending (and let go of it)
}

// New returns an Exporter of ix.
func New(ix *index.Index) *Exporter { return &Exporter{ix: ix} }

// Export writes the client-side search files for the current index: a
// driver over the phases, each in a file of its own (numbering.go,
// shards.go, filters.go, patterns.go, docdata.go, idindex.go,
// manifest.go), in the order of the index's files they read (mapped.go).
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
	x := &exportRun{ex: ex, opts: opts, st: &st, r: r, start: start, names: map[string]string{},
		w: &exportWriter{out: out, st: &st, dir: opts.Dir, keepSame: opts.Keep}}
	phases := []struct {
		name string
		run  func() error
	}{
		{"numbering", x.number}, {"leave side", x.leaveSide}, {"shards", x.writeShards}, {"filters", x.writeFilters},
		{"leave bleve", x.leaveBleve}, {"patterns", x.compilePatterns}, {"doc data", x.writeDocData},
		{"id index", x.writeIDIndex}, {"manifest", x.writeManifest},
	}
	// The dictionaries are read beside the numbering; the shards take
	// them. r is closed after the reading is done, taken or not.
	x.dicts = make(chan dictsRead, 1)
	go func() {
		fields, err := fieldTerms(r)
		x.dicts <- dictsRead{fields, err}
	}()
	defer func() {
		if !x.dictsTaken {
			<-x.dicts
		}
	}()
	defer func() {
		if x.prev != nil {
			x.prev.m.Close()
		}
	}()
	for _, phase := range phases {
		t := time.Now()
		if err := phase.run(); err != nil {
			return st, err
		}
		st.Phases = append(st.Phases, PhaseTime{phase.name, time.Since(t)})
	}
	if ex.pending != nil {
		ex.pending.m.Close() // an export not saved: nothing refers to it now
	}
	ex.pending, ex.saved = x.next, false
	st.Duration = time.Since(start)
	return st, nil
}

// exportRun is one Export: what its phases hand each other.
type exportRun struct {
	ex    *Exporter
	opts  Options
	st    *Stats
	r     bindex.IndexReader
	w     *exportWriter
	start time.Time

	dicts      chan dictsRead // each field's dictionary (fieldTerms)
	dictsTaken bool

	docCount uint64
	docs     []docRef // by doc number (numbering.go)
	docNum   *docNumbers
	ids      []string // by doc number
	next     *exportState
	// prev is the previous export's state, when the numbering loaded it,
	// until the plan of an incremental export takes it over.
	prev *exportState
	inc  *incremental // nil: a whole export

	shardFirst, shardHash []string          // shards.go
	rKeep, mKeep          []bool            // files kept, by file (patterns.go)
	patterns              []json.RawMessage // by doc number (patterns.go)
	words                 [][]string        // each usable pattern's key words, by doc number, until written (patterns.go)
	kFirst                []string          // pattern keys files' first words (patterns.go)
	rHash, mHash          []string          // docdata.go
	filterIndex           map[string]string // filters.go
	idPrefix              int               // idindex.go
	// names lists the hashed names the manifest gives: filter value
	// lists, id shards, pattern keys (the doc data and pattern files'
	// names are lists of their own, rh and mh).
	names map[string]string
}

// dictsRead is what fieldTerms read.
type dictsRead struct {
	fields [][]dictTerm
	err    error
}

// data is a record's doc data (the side store holds it once).
func (x *exportRun) data(i int) (index.DocData, error) {
	return x.ex.ix.DocData(x.docs[i].id)
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
// order: from each segment's dictionary without the terms' document
// counts where bleve's segments can (segmentTerms), else from the
// field's dictionary.
func dictTerms(r bindex.IndexReader, field string) ([]string, error) {
	if is, ok := r.(*scorch.IndexSnapshot); ok {
		if terms, ok, err := segmentTerms(is, field); ok || err != nil {
			return terms, err
		}
	}
	return fieldDictTerms(r, field)
}

// fieldDictTerms lists a field's terms from bleve's dictionary of the
// field, which counts each term's documents as it goes: a read of the
// term's postings list, all over the index, that the export does not use.
func fieldDictTerms(r bindex.IndexReader, field string) ([]string, error) {
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

// countless is a segment dictionary that can list its terms without
// their document counts (zapx's, for bleve's fuzzy and prefix queries).
type countless interface {
	AutomatonIteratorOmitCount(a segment.Automaton, startKeyInclusive, endKeyExclusive []byte) segment.DictionaryIterator
}

// segmentTerms lists a field's terms as fieldDictTerms does, from each
// segment's dictionary in turn, merged; ok is false when a segment's
// dictionary cannot list them without their counts.
func segmentTerms(is *scorch.IndexSnapshot, field string) (terms []string, ok bool, err error) {
	for _, ss := range is.Segments() {
		d, err := ss.Segment().Dictionary(field)
		if err != nil {
			return nil, false, err
		}
		c, ok := d.(countless)
		if !ok {
			return nil, false, nil
		}
		var seg []string
		it := c.AutomatonIteratorOmitCount(nil, nil, nil)
		for {
			e, err := it.Next()
			if err != nil {
				return nil, false, err
			}
			if e == nil {
				break
			}
			seg = append(seg, e.Term)
		}
		terms = mergeTerms(terms, seg)
	}
	return terms, true, nil
}

// mergeTerms merges two sorted lists of distinct terms into one.
func mergeTerms(a, b []string) []string {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]string, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
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
	// file holds the file being written (FileWriter does not keep it):
	// one buffer for every file rather than fresh memory for each.
	file   []byte
	hasher hash.Hash // of content-named files
	// body and js build a dictionary shard's data (shardWriter.flushShard)
	body []byte
	js   jsonAppender
}

// script writes the chunk of key as <key>.<hash>.js, hash = nameHash of
// the file's bytes, and returns the hash.
func (w *exportWriter) script(kind, key, body string) (string, error) {
	data := append(w.file[:0], "errdocsSearch.load(\""...)
	data = append(data, key...)
	data = append(data, "\","...)
	data = append(data, body...)
	data = append(data, ");\n"...)
	w.file = data
	h := nameHash(data)
	return h, w.writeBytes(kind, key+"."+h+".js", data)
}

// write writes one file under the export folder and counts it.
func (w *exportWriter) write(kind, name, text string) error {
	w.file = append(w.file[:0], text...)
	return w.writeBytes(kind, name, w.file)
}

// writeBytes writes one file under the export folder and counts it.
func (w *exportWriter) writeBytes(kind, name string, data []byte) error {
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
