package export

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/internal/cachefile"
)

// The term cache keeps, for each dictionary shard of the export, the
// postings of the shard's terms as the export read them from bleve, in a
// file of the index folder named by the shard's content hash.
//
// Why: an incremental export re-encodes every shard that holds a term of
// a changed record, and such a shard's other terms (a hundred or so for
// each of the record's) did not change. Reading each of them from bleve
// again costs a term field reader over every segment, however short its
// list: most of a one-record export. A term whose
// cached postings hold no changed record, and that no changed record now
// holds, has the postings it had; the cache gives them at the cost of a
// decode.
//
// A shard's hash names its bytes, and those bytes encode every posting
// of its terms (doc numbers, frequencies, exact norms, bleve's df), so a
// cache file is valid for as long as a shard of that hash is: it is
// written once, never updated, and files of shards no longer exported are
// removed when the export state is saved. A file that fails its checksum
// is not used (its terms are read from bleve).

const termCacheDir = "terms"

// A term cache file is an internal/cachefile of this kind and version
// (3: entries grouped as the dictionary's, each with its prepared
// encoding; postings prefixed by their length).
//
// Its body is the shard's dictionary entries in order; per entry:
// uvarint(fields), then per field uvarint field, term, df, n and the
// postings as a byte string (appendCachedTerm); then, as a byte string,
// the entry's prepared encoding (appendPrepared; empty when the entry has
// no long list). An incremental export re-encoding a shard takes an entry
// none of whose postings changed as it was prepared, and decodes postings
// only where it needs them (fieldTerm.decode).
const (
	termCacheKind    = "terms"
	termCacheVersion = 3
)

// dupDF marks a cache entry whose (field, term) appears twice in a shard
// (two raw terms with one valid-UTF-8 form): not used.
const dupDF = math.MaxUint64

// appendCachedTerm appends a term's postings in the cache file's format:
// uvarint field, term, df, n; then the postings as a byte string (enc:
// encodePostings's, or the term's undecoded postings, when the term is
// not the cache's own).
func appendCachedTerm(b []byte, ft *fieldTerm, enc []byte) []byte {
	if ft.cached != nil {
		return append(b, ft.cached...)
	}
	b = binary.AppendUvarint(b, uint64(ft.field))
	b = binary.AppendUvarint(b, uint64(len(ft.term)))
	b = append(b, ft.term...)
	b = binary.AppendUvarint(b, ft.df)
	b = binary.AppendUvarint(b, uint64(ft.count()))
	b = binary.AppendUvarint(b, uint64(len(enc)))
	return append(b, enc...)
}

// cachedTermSize is the size of what appendCachedTerm appends.
func cachedTermSize(ft *fieldTerm, enc []byte) int {
	if ft.cached != nil {
		return len(ft.cached)
	}
	return uvarintLen(uint64(ft.field)) + uvarintLen(uint64(len(ft.term))) + len(ft.term) +
		uvarintLen(ft.df) + uvarintLen(uint64(ft.count())) + uvarintLen(uint64(len(enc))) + len(enc)
}

// encodePostings appends posts in the cache file's format
// (appendCachePosting).
func encodePostings(enc []byte, posts []posting) []byte {
	prev := uint32(0)
	for _, p := range posts {
		enc, prev = appendCachePosting(enc, p, prev), p.doc
	}
	return enc
}

// appendCachePosting appends one posting in the term cache's form (after
// prev, the doc of the posting before it): the doc gap, the frequency
// and the field length whose norm bleve stored (0 then the float32 bits
// when no length reproduces it).
func appendCachePosting(b []byte, p posting, prev uint32) []byte {
	b = binary.AppendUvarint(b, uint64(p.doc-prev))
	b = binary.AppendUvarint(b, uint64(p.freq))
	if l, ok := normCode32(p.norm); ok {
		return binary.AppendUvarint(b, l)
	}
	b = binary.AppendUvarint(b, 0)
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(p.norm))
}

// rawPosting is a posting of a list in the cache's form where it lies:
// its doc, its frequency and field length as read, and the length of its
// doc gap and of the whole posting.
type rawPosting struct {
	doc         uint32
	freq        uint32
	length      uint64 // 0: the norm's float32 bits end the posting
	gapLen, len int
}

// nextRaw reads the posting at the start of b, after the one of doc prev.
func nextRaw(b []byte, prev uint32) (rawPosting, bool) {
	gap, k := binary.Uvarint(b)
	if k <= 0 || uint64(prev)+gap > math.MaxUint32 {
		return rawPosting{}, false
	}
	rp := rawPosting{doc: prev + uint32(gap), gapLen: k}
	n := k
	freq, k := binary.Uvarint(b[n:])
	if k <= 0 {
		return rawPosting{}, false
	}
	rp.freq = uint32(freq)
	n += k
	if rp.length, k = binary.Uvarint(b[n:]); k <= 0 {
		return rawPosting{}, false
	}
	n += k
	if rp.length == 0 {
		if len(b) < n+4 {
			return rawPosting{}, false
		}
		n += 4
	}
	rp.len = n
	return rp, true
}

// posting is the posting nextRaw read at the start of b.
func (rp rawPosting) posting(b []byte) posting {
	p := posting{doc: rp.doc, freq: rp.freq}
	if rp.length > 0 {
		p.norm = float32(1 / math.Sqrt(float64(rp.length)))
	} else {
		p.norm = math.Float32frombits(binary.LittleEndian.Uint32(b[rp.len-4:]))
	}
	return p
}

// skipTo reads the postings of raw from byte at, after a posting of doc
// prev, while their doc is below target and fewer than left have been
// read. It returns where it stopped (the first posting not read, or the
// end), the doc of the last posting read (prev if none) and how many it
// read; ok is false when a posting does not read.
//
// The walks of an incremental export (a common word's list holds a
// posting of most records, and a one-record export walks hundreds of such
// lists) are this loop: most postings are three one-byte numbers, or four
// bytes with a two-byte field length, and are read here without a call.
func skipTo(raw []byte, at int, prev uint32, target uint64, left int) (end int, doc uint32, read int, ok bool) {
	doc = prev
	for read < left {
		if gap, size := shortPosting(raw, at); size > 0 && doc < math.MaxUint32-0x80 {
			if uint64(doc)+uint64(gap) >= target {
				return at, doc, read, true
			}
			doc += uint32(gap)
			at += size
			read++
			continue
		}
		rp, ok := nextRaw(raw[at:], doc)
		if !ok {
			return at, doc, read, false
		}
		if uint64(rp.doc) >= target {
			return at, doc, read, true
		}
		doc = rp.doc
		at += rp.len
		read++
	}
	return at, doc, read, true
}

// shortPosting returns the doc gap and the size of the posting at byte at
// of raw when it is one of the usual ones (a one-byte gap and frequency,
// a field length of one or two bytes); else size 0, and nextRaw reads it.
func shortPosting(raw []byte, at int) (gap byte, size int) {
	if at < 0 || at+4 > len(raw) {
		return 0, 0
	}
	gap, freq, length := raw[at], raw[at+1], raw[at+2]
	switch {
	case gap|freq >= 0x80:
		return 0, 0
	case length != 0 && length < 0x80:
		return gap, 3
	case length >= 0x80 && raw[at+3]-1 < 0x7f: // a second byte of 1 to 0x7f
		return gap, 4
	}
	return 0, 0
}

// noTarget is a target doc past every doc: skipTo reads to the end.
const noTarget = math.MaxUint64

// encodedScratch holds the buffers postings are encoded into.
var encodedScratch = sync.Pool{New: func() any { return new([]byte) }}

func uvarintLen(v uint64) int { return max(1, (bits.Len64(v)+6)/7) }

// appendCachedEntry appends a dictionary entry to a cache file's body:
// its fields' postings and pt, its prepared encoding. The postings are
// encoded first and the entry's size known before b grows, once: the
// entry of a common word holds most records' postings, and grown by
// appends it was allocated about twice over.
func appendCachedEntry(b []byte, group []fieldTerm, pt *preparedTerm) []byte {
	encs := make([][]byte, len(group))
	pooled := make([]*[]byte, len(group))
	size := uvarintLen(uint64(len(group)))
	for i := range group {
		switch ft := &group[i]; {
		case ft.cached != nil:
		case ft.undecoded:
			// a list patched where it lies (splicePostings)
			encs[i] = ft.raw
		default:
			pooled[i] = encodedScratch.Get().(*[]byte)
			*pooled[i] = encodePostings((*pooled[i])[:0], ft.posts)
			encs[i] = *pooled[i]
		}
		size += cachedTermSize(&group[i], encs[i])
	}
	body := 0
	if len(pt.long) > 0 {
		body = preparedSize(pt)
	}
	b = slices.Grow(b, size+uvarintLen(uint64(body))+body)
	b = binary.AppendUvarint(b, uint64(len(group)))
	for i := range group {
		b = appendCachedTerm(b, &group[i], encs[i])
		if pooled[i] != nil {
			encodedScratch.Put(pooled[i])
		}
	}
	b = binary.AppendUvarint(b, uint64(body))
	if body > 0 {
		b = appendPrepared(b, pt)
	}
	return b
}

// decode decodes the postings of a term read from the cache, once.
func (ft *fieldTerm) decode() error {
	if !ft.undecoded {
		return nil
	}
	posts := make([]posting, 0, ft.n)
	if err := ft.each(func(p posting) bool { posts = append(posts, p); return true }); err != nil {
		return err
	}
	ft.posts, ft.raw, ft.undecoded = posts, nil, false
	return nil
}

// each calls fn with each posting, in order, decoded or not (then read
// in place), until fn returns false.
func (ft *fieldTerm) each(fn func(p posting) bool) error {
	if !ft.undecoded {
		for _, p := range ft.posts {
			if !fn(p) {
				return nil
			}
		}
		return nil
	}
	b, doc := ft.raw, uint32(0)
	for range ft.n {
		rp, ok := nextRaw(b, doc)
		if !ok {
			return errTermCache
		}
		doc = rp.doc
		if !fn(rp.posting(b)) {
			return nil
		}
		b = b[rp.len:]
	}
	if len(b) != 0 {
		return errTermCache
	}
	return nil
}

// wellFormed reports whether the term's postings read without error
// (each would not fail), decoded or not: the walk of each without its
// work, over lists a one-record export otherwise only partly reads.
func (ft *fieldTerm) wellFormed() bool {
	if !ft.undecoded {
		return true
	}
	end, _, read, ok := skipTo(ft.raw, 0, 0, noTarget, ft.n)
	return ok && read == ft.n && end == len(ft.raw)
}

// count is the term's number of postings.
func (ft *fieldTerm) count() int {
	if ft.undecoded {
		return ft.n
	}
	return len(ft.posts)
}

// eachDoc calls fn with the doc number of each posting, in order,
// decoded or not.
func (ft *fieldTerm) eachDoc(fn func(doc uint32) bool) error {
	if !ft.undecoded {
		for _, p := range ft.posts {
			if !fn(p.doc) {
				return nil
			}
		}
		return nil
	}
	return ft.walkRaw(fn)
}

// walkRaw calls fn with the doc number of each posting of raw (the
// term's postings undecoded), in order, until fn returns false. It reads
// a posting as skipTo does, the usual ones inline: a helper of both,
// which the compiler does not inline, made the walks slower (BENCHMARKS.md,
// session 40).
func (ft *fieldTerm) walkRaw(fn func(doc uint32) bool) error {
	raw, at, doc := ft.raw, 0, uint32(0)
	for range ft.n {
		if gap, size := shortPosting(raw, at); size > 0 && doc < math.MaxUint32-0x80 {
			doc += uint32(gap)
			at += size
		} else {
			rp, ok := nextRaw(raw[at:], doc)
			if !ok {
				return errTermCache
			}
			doc = rp.doc
			at += rp.len
		}
		if !fn(doc) {
			return nil
		}
	}
	return nil
}

// holdsAny reports whether the term's postings hold one of docs (sorted),
// decoded or not; a posting list it cannot read may hold them.
func (ft *fieldTerm) holdsAny(docs []uint32) bool {
	if !ft.undecoded {
		return holdsAny(ft.posts, docs)
	}
	held := false
	err := ft.findRaw(docs, func(int, []byte, rawPosting) bool { held = true; return false })
	return held || err != nil
}

// findRaw calls fn, for each of docs (sorted) that the term's undecoded
// postings hold, with its index in docs, the bytes from its posting on
// and the posting, until fn returns false. The postings before are
// walked (skipTo), not read; those after the last of docs are not
// looked at.
func (ft *fieldTerm) findRaw(docs []uint32, fn func(k int, b []byte, rp rawPosting) bool) error {
	at, doc, left := 0, uint32(0), ft.n
	for k, d := range docs {
		end, prev, read, ok := skipTo(ft.raw, at, doc, uint64(d), left)
		if !ok {
			return errTermCache
		}
		at, doc, left = end, prev, left-read
		if left == 0 {
			return nil
		}
		rp, ok := nextRaw(ft.raw[at:], doc)
		if !ok {
			return errTermCache
		}
		if rp.doc == d && !fn(k, ft.raw[at:], rp) {
			return nil
		}
	}
	return nil
}

// writeTermCache writes a shard's cache file, file (its header and body,
// sealed here), unless one of that name is there already in this format
// (its content is the same: the name is the shard's hash). It returns
// file's buffer, for the next file.
func writeTermCache(dir, hash string, file []byte) []byte {
	path := filepath.Join(dir, hash)
	if f, err := os.Open(path); err == nil {
		var head [64]byte
		n, _ := io.ReadFull(f, head[:])
		f.Close()
		if _, err := cachefile.Header(head[:n], termCacheKind, termCacheVersion); err == nil {
			return file
		}
	}
	// A cache file that cannot be written costs a later export time,
	// nothing else.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return file
	}
	file = cachefile.Seal(file)
	_ = cachefile.WriteFile(path, file)
	return file
}

// A cacheWriter writes term cache files on a goroutine of its own, so
// that encoding the next shard does not wait for the file system: shards
// hand their files over as they are flushed, and the state that names
// them waits for them (Exporter.BeginSaveState). A file not written
// costs a later export time, nothing else.
type cacheWriter struct {
	files chan cacheFile
	free  chan []byte // buffers written out, for the next shards
	done  chan struct{}
}

type cacheFile struct {
	dir, hash string
	file      []byte
}

func newCacheWriter() *cacheWriter {
	w := &cacheWriter{files: make(chan cacheFile, 8), free: make(chan []byte, 4), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for f := range w.files {
			b := writeTermCache(f.dir, f.hash, f.file)
			select {
			case w.free <- b[:0]:
			default:
			}
		}
	}()
	return w
}

// put hands over the cache file of the shard named hash, and returns a
// buffer for the next (nil when none is free yet).
func (w *cacheWriter) put(dir, hash string, file []byte) []byte {
	w.files <- cacheFile{dir, hash, file}
	select {
	case b := <-w.free:
		return b
	default:
		return nil
	}
}

// close says that no more files come; wait waits until those handed
// over are written.
func (w *cacheWriter) close() { close(w.files) }
func (w *cacheWriter) wait() {
	if w != nil {
		<-w.done
	}
}

var errTermCache = errors.New("index: term cache file damaged")

// A cache file is indexed, not decoded: indexTermCache notes where each
// entry starts (the entries are in dictionary order, so a term is found
// by binary search) and decodes its prefix lists; an entry is decoded
// when asked for (entryAt), in place. Maps of every term of the hundred
// or so files a one-record export opens cost more fresh memory than the
// rest of the export.
func indexTermCache(body []byte) (*cachedShard, error) {
	cs := &cachedShard{body: body, lists: map[string]*preparedList{}}
	r := cachefile.NewReader(body)
	at := func() int { return len(body) - r.Len() }
	var prev []byte
	for r.Len() > 0 {
		start := at()
		nFields := r.Count()
		if nFields == 0 {
			// a prefix list (appendList)
			pl := readList(r, body, start)
			if r.Err() != nil {
				return nil, errTermCache
			}
			cs.lists[listKey(pl.prefix, pl.field)] = pl
			continue
		}
		var term []byte
		seen := uint64(0) // fields of the entry (index.Fields: fewer than 64)
		for range nFields {
			fi := r.Int(len(index.Fields) - 1)
			term = r.Bytes()
			r.Uvarint() // df
			r.Count()   // n
			r.Bytes()   // postings
			if seen&(1<<fi) != 0 {
				cs.dup = true // two raw terms of one form
			}
			seen |= 1 << fi
		}
		r.Bytes() // prepared
		if r.Err() != nil || start > math.MaxUint32 {
			return nil, errTermCache
		}
		switch c := bytes.Compare(prev, term); {
		case c == 0 && prev != nil:
			cs.dup = true
		case c > 0:
			return nil, errTermCache // not in dictionary order
		}
		prev = term
		cs.offs = append(cs.offs, uint32(start))
	}
	return cs, nil
}

// cachedEntry is a dictionary entry of a cache file: its fields'
// postings (undecoded, term as asked), its prepared encoding and its
// bytes in the file.
type cachedEntry struct {
	fields   []fieldTerm
	prepared []byte
	bytes    []byte
}

// entryAt decodes the entry of term at offset off of the body.
func (cs *cachedShard) entryAt(off int, term string) (cachedEntry, error) {
	body := cs.body
	r := cachefile.NewReader(body[off:])
	at := func() int { return len(body) - r.Len() }
	var e cachedEntry
	e.fields = make([]fieldTerm, r.Count())
	for i := range e.fields {
		from := at()
		ft := fieldTerm{field: r.Int(len(index.Fields) - 1), term: term, undecoded: true}
		r.Bytes() // the term
		ft.df = r.Uvarint()
		ft.n = r.Count()
		ft.raw = r.Bytes()
		if r.Err() != nil {
			return cachedEntry{}, errTermCache
		}
		ft.cached = body[from:at():at()]
		e.fields[i] = ft
	}
	e.prepared = r.Bytes()
	if r.Err() != nil {
		return cachedEntry{}, errTermCache
	}
	e.bytes = body[off:at():at()]
	return e, nil
}

// termAt is the term of the entry at offset off (a sub-slice of the
// body).
func (cs *cachedShard) termAt(off uint32) []byte {
	r := cachefile.NewReader(cs.body[off:])
	r.Count()
	r.Uvarint()
	return r.Bytes()
}

// find returns the entry of term, if the file has it.
func (cs *cachedShard) find(term string) (cachedEntry, bool) {
	if cs.body == nil || cs.dup {
		return cachedEntry{}, false
	}
	k, found := sort.Find(len(cs.offs), func(k int) int {
		// comparisons of string(b) do not copy b
		switch t := cs.termAt(cs.offs[k]); {
		case string(t) == term:
			return 0
		case string(t) < term:
			return 1
		}
		return -1
	})
	if !found {
		return cachedEntry{}, false
	}
	e, err := cs.entryAt(int(cs.offs[k]), term)
	return e, err == nil
}

// lookup returns the postings of (field, term) in the file, if it has
// them.
func (cs *cachedShard) lookup(k termKey) (fieldTerm, bool) {
	e, ok := cs.find(k.term)
	if !ok {
		return fieldTerm{}, false
	}
	for _, ft := range e.fields {
		if ft.field == k.field {
			return ft, true
		}
	}
	return fieldTerm{}, false
}

// each calls fn with the postings of every (field, term) of the file, in
// order; ft.term is empty, term is the term in the file (fn copies what
// it keeps).
func (cs *cachedShard) each(fn func(term []byte, ft *fieldTerm)) error {
	for _, off := range cs.offs {
		r := cachefile.NewReader(cs.body[off:])
		n := r.Count()
		for range n {
			ft := fieldTerm{field: r.Int(len(index.Fields) - 1), undecoded: true}
			term := r.Bytes()
			ft.df = r.Uvarint()
			ft.n = r.Count()
			ft.raw = r.Bytes()
			if r.Err() != nil {
				return errTermCache
			}
			fn(term, &ft)
		}
	}
	return nil
}

// termCache serves an incremental export the unchanged terms of the
// previous export's shards.
type termCache struct {
	dir     string
	firsts  []string // first term of each previous shard
	hashes  []string // and its hash, the cache file's name
	changed []uint32 // doc numbers of the changed records, sorted
	fresh   []map[string]bool
	mu      sync.Mutex
	shards  map[int]*cachedShard
	hits    atomic.Int64
	// prepHits and listHits count the entries and prefix lists taken
	// prepared (prepared, preparedList).
	prepHits, listHits atomic.Int64
	// patchHits counts the entries prepared from the previous export's
	// with the blocks holding a changed record's posting encoded again
	// (patchPrepared).
	patchHits atomic.Int64
	// listPatchHits counts the prefix lists made so (patchList).
	listPatchHits atomic.Int64
	holder        map[string]int // listKey → the previous shard that held the list
	// verified: terms the changed records hold or held whose postings are
	// as cached (incremental.verified); set before the shards are read.
	verified map[termKey]bool
}

// A cachedShard is a cache file, mapped (not read into the heap: a
// one-record export reads tens of megabytes of them, and fresh memory
// costs more than the page cache's pages) and decoded in place: what it
// hands out (postings, prepared encodings) refers to the mapping, which
// termCache.close (or forget) unmaps once the export is done with them.
type cachedShard struct {
	once  sync.Once
	m     *cachefile.Mapping
	body  []byte                   // the file's body (nil: missing or damaged)
	offs  []uint32                 // where each dictionary entry starts in body
	lists map[string]*preparedList // by listKey
	dup   bool                     // a (field, term) twice: not used
}

// newTermCache makes the cache of an incremental export: prev is the
// previous export's shards, changed the changed records' doc numbers, and
// fresh the terms those records hold now, per field.
func newTermCache(dir string, prev []shardOut, changed []uint32, fresh []map[string]bool) *termCache {
	c := &termCache{dir: dir, changed: changed, fresh: fresh, shards: map[int]*cachedShard{}}
	c.holder = map[string]int{}
	for i, sh := range prev {
		c.firsts = append(c.firsts, sh.First)
		c.hashes = append(c.hashes, sh.Hash)
		for _, k := range sh.Lists {
			c.holder[k] = i
		}
	}
	return c
}

// shard returns previous shard k's cache, read on first use; its terms
// are nil when the file is missing or damaged.
func (c *termCache) shard(k int) *cachedShard {
	c.mu.Lock()
	cs := c.shards[k]
	if cs == nil {
		cs = &cachedShard{}
		c.shards[k] = cs
	}
	c.mu.Unlock()
	cs.once.Do(func() {
		body, m, err := cachefile.MapFile(filepath.Join(c.dir, c.hashes[k]), termCacheKind, termCacheVersion)
		if err != nil {
			return
		}
		read, err := indexTermCache(body)
		if err != nil {
			m.Close()
			return
		}
		cs.body, cs.offs, cs.lists, cs.dup, cs.m = read.body, read.offs, read.lists, read.dup, m
	})
	return cs
}

// forget lets go of the cache files of the previous shards k for which
// drop is true, and unmaps them; they are mapped again if asked for. The
// caller holds nothing it took from them.
func (c *termCache) forget(drop func(k int) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, cs := range c.shards {
		if drop(k) {
			delete(c.shards, k)
			cs.unmap()
		}
	}
}

// close unmaps every cache file: the export is done with what it took
// from them (the shards are written).
func (c *termCache) close() {
	if c == nil {
		return
	}
	c.forget(func(int) bool { return true })
}

// unmap waits for the shard's reading, if begun, and unmaps its file.
func (cs *cachedShard) unmap() {
	cs.once.Do(func() {}) // a read under way ends first
	cs.body, cs.offs, cs.lists = nil, nil, nil
	cs.m.Close()
	cs.m = nil
}

// shardOf returns the previous shard that held term: the last whose
// first term is at most term (the first shard for a term before all).
func (c *termCache) shardOf(term string) int {
	k := max(sort.SearchStrings(c.firsts, term), 1) - 1
	if k+1 < len(c.firsts) && c.firsts[k+1] == term {
		k++
	}
	return k
}

// get returns the term's postings when the cache holds them and they
// cannot have changed. Each is given once (the caller owns the slice).
func (c *termCache) get(field int, term string) (fieldTerm, bool) {
	if c == nil || len(c.firsts) == 0 {
		return fieldTerm{}, false
	}
	key := termKey{field, term}
	verified := c.verified[key]
	if c.fresh[field][term] && !verified {
		return fieldTerm{}, false
	}
	ft, ok := c.shard(c.shardOf(term)).lookup(key)
	if !ok {
		return fieldTerm{}, false
	}
	if !verified && ft.holdsAny(c.changed) {
		return fieldTerm{}, false
	}
	c.hits.Add(1)
	return ft, true
}

// preparedList returns a prefix list as the previous export prepared it,
// if it did, from the same live terms (by count, first and sum), all from
// the cache (the caller checks that). The list is in the cache file of
// the shard that held it.
func (c *termCache) preparedList(prefix string, field int, first string, nTerms int, sum uint64) *preparedList {
	if c == nil {
		return nil
	}
	k := listKey(prefix, field)
	h, ok := c.holder[k]
	if !ok {
		return nil
	}
	pl := c.shard(h).lists[k]
	if pl == nil || pl.first != first || pl.nTerms != nTerms || pl.sum != sum {
		return nil
	}
	c.listHits.Add(1)
	return pl
}

// prepared returns a dictionary entry as the previous export prepared
// it, when every one of its fields' postings came from the cache (none
// changed) and the entry has those fields alone; else nil. Its bytes in
// the cache file are then those the export writes again.
func (c *termCache) prepared(group []fieldTerm) *preparedTerm {
	if c == nil || len(c.firsts) == 0 || len(group) == 0 {
		return nil
	}
	for i := range group {
		if group[i].cached == nil {
			return nil
		}
	}
	e, ok := c.shard(c.shardOf(group[0].term)).find(group[0].term)
	if !ok || len(e.prepared) == 0 || len(e.fields) != len(group) {
		return nil
	}
	for i := range e.fields {
		if group[i].field != e.fields[i].field {
			return nil
		}
	}
	pt, err := readPrepared(e.prepared, len(group))
	if err != nil {
		return nil
	}
	pt.cached = e.bytes
	c.prepHits.Add(1)
	return pt
}

// holdsAny reports whether postings (in doc order) hold one of docs.
func holdsAny(posts []posting, docs []uint32) bool {
	for _, d := range docs {
		if _, found := slices.BinarySearchFunc(posts, d, cmpPostingDoc); found {
			return true
		}
	}
	return false
}

// pruneTermCache removes the cache files of shards the export no longer
// has.
func pruneTermCache(dir string, shards []shardOut) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	keep := make(map[string]bool, len(shards))
	for _, sh := range shards {
		keep[sh.Hash] = true
	}
	for _, e := range ents {
		if !keep[e.Name()] {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}
