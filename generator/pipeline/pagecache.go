package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/publish"
	"github.com/errdocs/errdocs/generator/render"
	"github.com/errdocs/errdocs/internal/cachefile"
	"github.com/zeebo/xxh3"
)

// A rebuild skips work whose inputs did not change. The page cache records,
// for every file of the last site, the key of the inputs it was made from
// and the file's fingerprint; a file whose key is the same now, and that is
// still on disk as it was written, is kept as it is without rendering it.
//
// Keys hash everything a file is made from: the errdocs binary itself (so a
// new version, or any change to the code, never trusts an old entry), the
// templates and static assets, the site settings, and the file's own data.
// The cache may be deleted at any time: the next build renders everything
// and writes the same bytes.

// fileKey is the hash of a file's inputs.
type fileKey [16]byte

// Kinds of files, which are skipped together or one by one.
const (
	kindRecord  = iota // one record page: skipped alone
	kindPages          // binding pages and feeds: skipped together
	kindExport         // the search export: skipped together
	kindAsset          // static assets: always written (few and small)
	kindListing        // the pages of one listing: skipped together
	kindSitemap        // the sitemaps: skipped together
)

type cacheEntry struct {
	Kind  uint8
	Key   fileKey
	Group string // for listings: the listing's base path
	Print publish.Fingerprint
}

type pageCache struct {
	// Entries are the entries of every file but the record pages.
	Entries entryMap
	// records is the table of the record pages' entries in its stored
	// form (entryMap's, sorted by path), nRecords entries, all of kind
	// kindRecord: read in place, as a rebuild walks it beside its own
	// pages sorted (walkRecords), not decoded into a map of a hundred
	// thousand paths. Decoded, it is a slice of the cache file's mapping.
	records  []byte
	nRecords int
	Unusable int                 // message patterns the last export could not use
	Marker   publish.Fingerprint // the site's marker when the cache was saved
	// IndexKey is the search index's RecordsKey when the cache was saved
	// (zero: not known). While the index's key is still this, the index
	// holds exactly the records of indexed: a rebuild need not ask it
	// about each of them (changedAmong).
	IndexKey [32]byte
	// indexed is each record's source hash (by id) as the search index
	// holds it, so a rebuild updates the index with just the changes.
	indexed indexedTable
}

// entryMap is the cache's entries, one per file of the site, with a
// compact form of its own (gob's reflection over a hundred thousand
// entries took most of the time of loading and saving the cache).
type entryMap map[string]cacheEntry

// encode writes the entries sorted by path, so the same entries always
// make the same bytes; the paths are written as their length and what
// follows the previous path's common prefix.
func (m entryMap) encode() []byte { return encodeEntries(m, sortedEntries{}) }

// sortedEntries are entries kept beside the table rather than in it,
// sorted by path: a rebuild's record pages, which are a hundred thousand
// at 100,000 records, are noted from the build's own per-record tables
// instead of being put into a map only to be sorted out again.
type sortedEntries struct {
	rels    []string // sorted, distinct
	entries []cacheEntry
}

// encodeEntries encodes the entries of m and recs as one table (the form
// entryMap.encode writes); where both have a path, recs' entry is taken.
func encodeEntries(m entryMap, recs sortedEntries) []byte {
	rels := make([]string, 0, len(m))
	for rel := range m {
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	return encodeSorted(func(fn func(string, *cacheEntry)) { mergeEntries(m, rels, recs, fn) })
}

// encodeSorted encodes the entries each gives (to its fn, in path
// order) as a table. It walks them twice: the first walk counts the
// entries and the bytes, so that the table is made at its size, the
// second writes it.
func encodeSorted(each func(fn func(rel string, e *cacheEntry))) []byte {
	n, size := 0, 0
	var scratch []byte
	prevRel := ""
	each(func(rel string, e *cacheEntry) {
		scratch = appendEntry(scratch[:0], prevRel, rel, e)
		n, size, prevRel = n+1, size+len(scratch), rel
	})
	b := make([]byte, 0, size+binary.MaxVarintLen64)
	b = binary.AppendUvarint(b, uint64(n))
	prevRel = ""
	each(func(rel string, e *cacheEntry) {
		b, prevRel = appendEntry(b, prevRel, rel, e), rel
	})
	return b
}

// mergeEntries calls fn with the entries of m (whose paths, sorted, are
// rels) and of recs, in path order; where both have a path, with recs'.
func mergeEntries(m entryMap, rels []string, recs sortedEntries, fn func(rel string, e *cacheEntry)) {
	k := 0
	var e cacheEntry
	for _, rel := range rels {
		for k < len(recs.rels) && recs.rels[k] <= rel {
			fn(recs.rels[k], &recs.entries[k])
			k++
		}
		if k > 0 && recs.rels[k-1] == rel {
			continue
		}
		e = m[rel]
		fn(rel, &e)
	}
	for ; k < len(recs.rels); k++ {
		fn(recs.rels[k], &recs.entries[k])
	}
}

// appendEntry appends the stored form of the entry at rel, which follows
// the entry at prevRel.
func appendEntry(b []byte, prevRel, rel string, e *cacheEntry) []byte {
	common := 0
	for common < len(rel) && common < len(prevRel) && rel[common] == prevRel[common] {
		common++
	}
	b = binary.AppendUvarint(b, uint64(common))
	b = cachefile.AppendString(b, rel[common:])
	b = append(b, e.Kind)
	b = append(b, e.Key[:]...)
	b = cachefile.AppendString(b, e.Group)
	b = binary.AppendVarint(b, e.Print.Size)
	b = binary.AppendVarint(b, e.Print.ModTime)
	return binary.AppendUvarint(b, e.Print.Ino)
}

var errBadPageCache = errors.New("page cache: bad entries")

func (m *entryMap) decode(b []byte) error {
	r := cachefile.NewReader(b)
	n := r.Count()
	out := make(entryMap, n)
	groups := map[string]string{}
	var rel []byte // the previous path, then this one
	for ; n > 0 && r.Err() == nil; n-- {
		common := r.Int(len(rel))
		rel = append(rel[:common], r.Bytes()...)
		var e cacheEntry
		e.Kind = r.Byte()
		copy(e.Key[:], r.Next(len(fileKey{})))
		if g := r.Bytes(); len(g) > 0 {
			gs, ok := groups[string(g)]
			if !ok {
				gs = string(g)
				groups[gs] = gs
			}
			e.Group = gs
		}
		e.Print.Size = r.Varint()
		e.Print.ModTime = r.Varint()
		e.Print.Ino = r.Uvarint()
		out[string(rel)] = e
	}
	if r.Done() != nil {
		return errBadPageCache
	}
	*m = out
	return nil
}

// indexedMap is pageCache.Indexed, with a compact form like entryMap's,
// in sorted order.
type indexedMap map[string][32]byte

func (m indexedMap) encode() []byte {
	if m == nil {
		return []byte{0}
	}
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	b := make([]byte, 0, 52*len(m)+16)
	b = binary.AppendUvarint(b, 1+uint64(len(m)))
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(len(id)))
		b = append(b, id...)
		h := m[id]
		b = append(b, h[:]...)
	}
	return b
}

// encodeIndexed is indexedMap.encode of the map from ids[k] to raws[k],
// without making the map: a rebuild's table of every record's hash is
// only ever encoded. The ids must be distinct; order sorts them.
func encodeIndexed(ids []string, raws [][32]byte, order []int32) []byte {
	size := 16
	for _, id := range ids {
		size += len(id) + 33
	}
	b := make([]byte, 0, size)
	b = binary.AppendUvarint(b, 1+uint64(len(ids)))
	for _, k := range order {
		b = cachefile.AppendString(b, ids[k])
		b = append(b, raws[k][:]...)
	}
	return b
}

// indexedTable is a page cache's table of the records' hashes in its
// stored form (indexedMap's: sorted by id), read in place: a rebuild
// walks it beside its records sorted by id (diff) instead of decoding
// a map of a hundred thousand ids to look each of them up.
type indexedTable struct {
	entries []byte // what follows the count: n ids, each with its hash
	n       int
	known   bool // the cache has the table: the search index was updated
	fixed   bool // every entry is fixedEntry long
}

// decodeIndexedTable checks a stored table (its ids sorted and distinct,
// nothing more) and returns it, a slice of b.
func decodeIndexedTable(b []byte) (indexedTable, error) {
	r := cachefile.NewReader(b)
	n := r.Count()
	if n == 0 {
		return indexedTable{}, r.Done()
	}
	t := indexedTable{entries: b[len(b)-r.Len():], n: n - 1, known: true, fixed: true}
	var prev []byte
	for k := 0; k < t.n && r.Err() == nil; k++ {
		id := r.Bytes()
		r.Next(32)
		if k > 0 && bytes.Compare(prev, id) >= 0 {
			return indexedTable{}, errBadPageCache
		}
		prev = id
		t.fixed = t.fixed && len(id) == fixedEntry-1-32
	}
	if r.Done() != nil {
		return indexedTable{}, errBadPageCache
	}
	return t, nil
}

// indexedTableOf is the table of m (for a cache made whole, as tests do).
func indexedTableOf(m indexedMap) indexedTable {
	t, _ := decodeIndexedTable(m.encode())
	return t
}

// form is the table's stored form.
func (t indexedTable) form() []byte {
	if !t.known {
		return []byte{0}
	}
	return append(binary.AppendUvarint(nil, 1+uint64(t.n)), t.entries...)
}

// diff compares the records of ids (their hashes raws; order sorts them
// by id) with the table: it returns those whose id the table does not
// hold with their hash (edited, in id order) and how many of the records
// it holds. It gives up (ok false) once more than most are edited.
//
// The walk goes from record to record in id order, a load from wherever
// each id and hash lives, on one core while the others wait: it grows
// with the dataset however few records changed. A table whose ids are
// all of a valid record's length is walked in parts side by side, each
// part starting at its first id, found by bisection.
func (t indexedTable) diff(ids []string, raws [][32]byte, order []int32, most, parts int) (edited []int32, held int, ok bool) {
	if !t.fixed {
		parts = 1
	}
	parts = max(1, min(parts, len(order)/minDiffPart))
	type result struct {
		edited []int32
		held   int
		ok     bool
	}
	res := make([]result, parts)
	var wg sync.WaitGroup
	for p := range parts {
		part := order[p*len(order)/parts : (p+1)*len(order)/parts]
		wg.Go(func() {
			r := &res[p]
			r.edited, r.held, r.ok = t.diffPart(ids, raws, part, most)
		})
	}
	wg.Wait()
	for _, r := range res {
		if !r.ok || len(edited)+len(r.edited) > most {
			return nil, 0, false
		}
		edited, held = append(edited, r.edited...), held+r.held
	}
	return edited, held, true
}

// indexedDiff is what diff found of a dataset: the records edited (in id
// order), how many of the dataset's the table holds (held), and whether
// it went through (ok) rather than give up.
type indexedDiff struct {
	edited []int32
	held   int
	ok     bool
}

// patchIndexed is encodeIndexed's table, in pieces, of a dataset that
// holds the ids of prev and no others, whose hashes differ from prev's
// only at edited (site indexes, in id order, as diff gives them): prev's
// own bytes around those entries' new hashes. A rebuild that changed a
// record does not encode every record's entry again. It refuses (ok
// false) a table whose ids are not all of a valid id's length, or an id
// of edited out of its place or not in the table.
func patchIndexed(prev indexedTable, ids []string, raws [][32]byte, edited []int32) (pieces [][]byte, ok bool) {
	if !prev.known || !prev.fixed {
		return nil, false
	}
	pieces = [][]byte{binary.AppendUvarint(nil, 1+uint64(prev.n))}
	from := 0 // the first byte of prev's entries not yet in pieces
	for _, i := range edited {
		k := prev.search(ids[i])
		hash := k*fixedEntry + fixedEntry - 32
		if k == prev.n || k*fixedEntry < from || string(prev.entries[k*fixedEntry+1:hash]) != ids[i] {
			return nil, false
		}
		pieces = append(pieces, prev.entries[from:hash], raws[i][:])
		from = hash + 32
	}
	return append(pieces, prev.entries[from:]), true
}

// minDiffPart is the fewest records a part of diff's walk holds.
const minDiffPart = 16 << 10

// diffPart is diff of the records of part, on one core.
func (t indexedTable) diffPart(ids []string, raws [][32]byte, part []int32, most int) (edited []int32, held int, ok bool) {
	if len(part) == 0 {
		return nil, 0, true
	}
	k := 0 // the table's entry at hand
	r := cachefile.NewReader(t.entries)
	if t.fixed {
		k = t.search(ids[part[0]])
		r = cachefile.NewReader(t.entries[k*fixedEntry:])
	}
	var id, h []byte
	advance := func() bool {
		if k == t.n {
			return false
		}
		id, h = r.Bytes(), r.Next(32)
		k++
		return true
	}
	have := advance()
	for _, i := range part {
		want := stringBytes(ids[i])
		for have && bytes.Compare(id, want) < 0 {
			have = advance()
		}
		if have && bytes.Equal(id, want) {
			held++
			if bytes.Equal(h, raws[i][:]) {
				continue
			}
		}
		if edited = append(edited, i); len(edited) > most {
			return nil, 0, false
		}
	}
	return edited, held, true
}

// fixedEntry is the size of an entry whose id is of a valid record's
// length (16): its length (one byte), its bytes, its hash.
const fixedEntry = 1 + 16 + 32

// search returns the index of the first entry of a fixed table whose id
// is not before id.
func (t indexedTable) search(id string) int {
	return sort.Search(t.n, func(k int) bool {
		e := t.entries[k*fixedEntry+1 : k*fixedEntry+17]
		return string(e) >= id
	})
}

// toMap decodes the table (for tests).
func (t indexedTable) toMap() indexedMap {
	var m indexedMap
	if m.decode(t.form()) != nil {
		return nil
	}
	return m
}

func (m *indexedMap) decode(b []byte) error {
	r := cachefile.NewReader(b)
	n := r.Count()
	if n == 0 {
		*m = nil
		return r.Done()
	}
	out := make(indexedMap, n-1)
	for n--; n > 0 && r.Err() == nil; n-- {
		id := r.String()
		var h [32]byte
		copy(h[:], r.Next(32))
		out[id] = h
	}
	if r.Done() != nil {
		return errBadPageCache
	}
	*m = out
	return nil
}

// size is how many files the cache describes.
func (pc *pageCache) size() int { return len(pc.Entries) + pc.nRecords }

// files lists the files of the site the cache describes but the record
// pages, and records: the record pages the caller does not know to stay
// (publish.Site.CommitKnown).
func (pc *pageCache) files(records []string) []string {
	out := make([]string, 0, len(pc.Entries)+len(records))
	for rel := range pc.Entries {
		out = append(out, rel)
	}
	return append(out, records...)
}

// walkRecords calls fn with each record page's entry, in path order; rel
// is valid during the call only. It stops when fn returns false.
func (pc *pageCache) walkRecords(fn func(rel []byte, e *cacheEntry) bool) error {
	return pc.walkRecordsAt(func(rel []byte, e *cacheEntry, _, _ int) bool { return fn(rel, e) })
}

// walkRecordsAt is walkRecords, with where each entry's bytes are in the
// table (pc.records[from:to]).
func (pc *pageCache) walkRecordsAt(fn func(rel []byte, e *cacheEntry, from, to int) bool) error {
	if len(pc.records) == 0 {
		return nil // an empty cache
	}
	r := cachefile.NewReader(pc.records)
	n := r.Count()
	var rel []byte
	var e cacheEntry
	for ; n > 0 && r.Err() == nil; n-- {
		from := len(pc.records) - r.Len()
		rel = decodeEntry(r, rel, &e)
		if r.Err() == nil && !fn(rel, &e, from, len(pc.records)-r.Len()) {
			return nil
		}
	}
	if r.Err() != nil {
		return errBadPageCache
	}
	return nil
}

// decodeEntry decodes the next entry of a table into e, its path into
// rel, which holds the previous entry's path. A record page has no group
// (no string made).
func decodeEntry(r *cachefile.Reader, rel []byte, e *cacheEntry) []byte {
	common := r.Int(len(rel))
	rel = append(rel[:common], r.Bytes()...)
	e.Kind = r.Byte()
	copy(e.Key[:], r.Next(len(fileKey{})))
	e.Group = ""
	if g := r.Bytes(); len(g) > 0 {
		e.Group = string(g)
	}
	e.Print.Size = r.Varint()
	e.Print.ModTime = r.Varint()
	e.Print.Ino = r.Uvarint()
	return rel
}

// checkRecords checks that table is a table of n record pages' entries,
// sorted by path, and nothing more.
func checkRecords(table []byte) (int, error) {
	r := cachefile.NewReader(table)
	n := r.Count()
	var rel, prev []byte
	var e cacheEntry
	for k := 0; k < n && r.Err() == nil; k++ {
		rel = decodeEntry(r, rel, &e)
		if e.Kind != kindRecord || (k > 0 && bytes.Compare(prev, rel) >= 0) {
			return 0, errBadPageCache
		}
		prev = append(prev[:0], rel...)
	}
	if r.Done() != nil {
		return 0, errBadPageCache
	}
	return n, nil
}

// allEntries returns every entry of the cache, the record pages' too, in
// one table.
func (pc *pageCache) allEntries() (entryMap, error) {
	all := maps.Clone(pc.Entries)
	if all == nil {
		all = entryMap{}
	}
	err := pc.walkRecords(func(rel []byte, e *cacheEntry) bool {
		all[string(rel)] = *e
		return true
	})
	return all, err
}

// pageCachePath is the page cache of the site at out.
func pageCachePath(cacheDir, out string) string { return siteCachePath(cacheDir, "pages", out) }

// siteCachePath is the file, in the cache folder's folder kind, of what
// is kept for the site at out: named for the site's absolute path, so
// that sites built with one cache folder keep theirs apart.
func siteCachePath(cacheDir, kind, out string) string {
	abs, err := filepath.Abs(out)
	if err != nil {
		abs = out
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cacheDir, kind, hex.EncodeToString(sum[:8]))
}

// The page cache as stored (internal/cachefile): its large tables in their
// compact forms (entryMap, indexedMap; the record pages' entries have a
// table of their own, read in place, and so have the search export's, so
// that a rebuild can encode the others while its export ends:
// pageTables), then the rest. Not a gob: gob numbers types in
// the order a process first meets them, so the same cache would make other
// bytes after a build that used other gob types first, and a rebuild that
// changed nothing would write it again.
//
// The tables of every record (the record pages', the records' hashes)
// come first: a rebuild that changed a few records leaves them the same
// length, and the file is patched where it stands (cachefile.SealedWriter)
// unless bytes shift; the tables of the other files, which change more
// often and in length, come after them. Version 6: in that order.
const (
	pageCacheKind    = "pages"
	pageCacheVersion = 6
)

// pageTables are a page cache's tables of every file but the search
// export's and the record pages', of the record pages, and of the
// records' hashes, in their stored forms.
// The record pages' table is in pieces (patchRecordPages).
type pageTables struct {
	entries          []byte
	records, indexed [][]byte
}

// encodeTables encodes entries (none of the export's or the record
// pages'), records and indexed.
func encodeTables(entries entryMap, records sortedEntries, indexed indexedTable) pageTables {
	return pageTables{entries: entries.encode(), records: [][]byte{encodeEntries(nil, records)}, indexed: [][]byte{indexed.form()}}
}

// pieces returns the cache file made of t and the rest, but for its seal
// (cachefile.Seal) and its tail (pageCache.tail), in pieces that, put end
// to end, are its bytes: the tables are not copied into one buffer
// (a pageCacheWriter writes them).
func (t pageTables) pieces(export entryMap) [][]byte {
	eb := export.encode()
	head := cachefile.Begin(nil, pageCacheKind, pageCacheVersion)
	out := [][]byte{}
	for _, table := range [][][]byte{t.records, t.indexed, {t.entries}, {eb}} {
		n := 0
		for _, p := range table {
			n += len(p)
		}
		head = binary.AppendUvarint(head, uint64(n))
		out = append(append(out, head), table...)
		head = nil
	}
	return out
}

// tail is the last piece of a cache file: what is known only once the
// export ended (Unusable) and the index is closed (IndexKey), and the
// site published: its marker, last.
func (pc *pageCache) tail() []byte {
	var tail []byte
	tail = binary.AppendVarint(tail, int64(pc.Unusable))
	tail = append(tail, pc.IndexKey[:]...)
	tail = binary.AppendVarint(tail, pc.Marker.Size)
	tail = binary.AppendVarint(tail, pc.Marker.ModTime)
	return binary.AppendUvarint(tail, pc.Marker.Ino)
}

// file returns the bytes of the cache file made of t, export and the
// tail of pc.
func (t pageTables) file(export entryMap, pc *pageCache) []byte {
	return cachefile.Seal(bytes.Join(append(t.pieces(export), pc.tail()), nil))
}

// encodePageCache returns the bytes of the cache's file; its record
// pages' entries may be in pc.Entries or in its table of them.
func encodePageCache(pc *pageCache) []byte {
	all, _ := pc.allEntries()
	pages, export := entryMap{}, entryMap{}
	var records sortedEntries
	for rel, e := range all {
		switch e.Kind {
		case kindExport:
			export[rel] = e
		case kindRecord:
			records.rels = append(records.rels, rel)
		default:
			pages[rel] = e
		}
	}
	slices.Sort(records.rels)
	for _, rel := range records.rels {
		records.entries = append(records.entries, all[rel])
	}
	return encodeTables(pages, records, pc.indexed).file(export, pc)
}

// decodePageCache decodes a cache file's bytes; its two entry tables
// make one.
func decodePageCache(data []byte) (*pageCache, error) {
	body, err := cachefile.Open(data, pageCacheKind, pageCacheVersion)
	if err != nil {
		return nil, err
	}
	r := cachefile.NewReader(body)
	records, indexed, entries, exported := r.Bytes(), r.Bytes(), r.Bytes(), r.Bytes()
	pc := &pageCache{Unusable: int(r.Varint())}
	copy(pc.IndexKey[:], r.Next(32))
	pc.Marker.Size, pc.Marker.ModTime, pc.Marker.Ino = r.Varint(), r.Varint(), r.Uvarint()
	if r.Done() != nil {
		return nil, errBadPageCache
	}
	var export entryMap
	var ierr, xerr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		pc.indexed, ierr = decodeIndexedTable(indexed)
		xerr = export.decode(exported)
	}()
	err = pc.Entries.decode(entries)
	var rerr error
	pc.records = records
	pc.nRecords, rerr = checkRecords(pc.records)
	wg.Wait()
	if err != nil || rerr != nil || ierr != nil || xerr != nil || pc.Entries == nil {
		return nil, errBadPageCache
	}
	for _, e := range pc.Entries {
		if e.Kind == kindRecord {
			return nil, errBadPageCache
		}
	}
	for rel, e := range export {
		if e.Kind != kindExport {
			return nil, errBadPageCache
		}
		pc.Entries[rel] = e
	}
	return pc, nil
}

// loadPageCache reads the page cache of an output folder; a missing or
// unreadable one is empty. It returns the file's bytes too, so that a
// build that changes nothing need not write the same cache again: they
// are a mapping of the file (the cache's table of record pages is a
// slice of it), for the caller to Close once it has saved the next cache
// and no longer uses the one loaded.
func loadPageCache(path string) (*pageCache, []byte, *cachefile.Mapping) {
	empty := &pageCache{Entries: map[string]cacheEntry{}}
	m, err := cachefile.Map(path)
	if err != nil {
		return empty, nil, nil
	}
	pc, err := decodePageCache(m.Bytes())
	if err != nil {
		m.Close()
		return empty, nil, nil
	}
	return pc, m.Bytes(), m
}

// A pageCacheWriter writes a cache file atomically (a temp file renamed),
// so a killed build never leaves a half-written one, and not when its
// bytes are those of the file already (old). Its pieces are written as
// soon as they are known, beside the publication of the site; the tail
// (pageCache.tail) follows once the site's new marker is known.
type pageCacheWriter struct {
	path string
	w    *cachefile.SealedWriter
}

func beginPageCache(path string, pieces [][]byte, old []byte) *pageCacheWriter {
	// A folder that cannot be made fails the first write, reported then.
	os.MkdirAll(filepath.Dir(path), 0o755)
	return &pageCacheWriter{path: path, w: cachefile.BeginSealed(path, old, pieces...)}
}

// finish writes the tail and renames the file into place.
func (pw *pageCacheWriter) finish(tail []byte) error {
	wrote, err := pw.w.Finish(tail)
	if wrote {
		// The file of the format before internal/cachefile, never read now.
		os.Remove(pw.path + ".gob")
	}
	return err
}

// abort leaves the cache file as it was.
func (pw *pageCacheWriter) abort() { pw.w.Abort() }

// reuseAll keeps every previous file of a kind when all of them have this
// key and are still on disk as written; it keeps none otherwise.
func (pc *pageCache) reuseAll(out *publish.Site, kind uint8, key fileKey) bool {
	var paths []string
	for rel, e := range pc.Entries {
		if e.Kind != kind {
			continue
		}
		if e.Key != key {
			return false
		}
		paths = append(paths, rel)
	}
	if len(paths) == 0 {
		return false
	}
	sort.Strings(paths)
	// All or nothing: a kind that is made again writes all of its files.
	prints := make([]publish.Fingerprint, len(paths))
	for k, rel := range paths {
		prints[k] = pc.Entries[rel].Print
	}
	return out.ReuseAll(paths, prints)
}

// hasher builds a key from length-prefixed fields, so that two different
// field lists never hash alike. The keys are XXH3's 128 bits, not a
// cryptographic hash: a rebuild makes one for every record page, and
// DESIGN.md says why a fast hash serves them.
type hasher struct{ h *xxh3.Hasher }

func newHasher(global fileKey) *hasher {
	h := &hasher{h: xxh3.New()}
	h.h.Write(global[:])
	return h
}

func (h *hasher) str(s string) *hasher {
	var n [binary.MaxVarintLen64]byte
	h.h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	io.WriteString(h.h, s)
	return h
}

func (h *hasher) num(i int) *hasher {
	var n [binary.MaxVarintLen64]byte
	h.h.Write(n[:binary.PutVarint(n[:], int64(i))])
	return h
}

func (h *hasher) bytes(b []byte) *hasher {
	h.num(len(b))
	h.h.Write(b)
	return h
}

func (h *hasher) key() fileKey { return h.h.Sum128().Bytes() }

// globalKey hashes what every file depends on.
func globalKey(c *Config, assets map[string]string) (fileKey, error) {
	h := newHasher(fileKey{})
	bin, err := binaryHash()
	if err == nil {
		h.bytes(bin[:])
	}
	if err != nil {
		// Without its own binary to hash, a build cannot tell whether the
		// code changed: it then trusts nothing from an earlier build.
		return fileKey{}, errors.New("cannot hash the errdocs binary")
	}
	h.str(c.Title).str(c.Description).str(c.BaseURL).num(c.PerPage).str(c.ReportURL)
	if c.IndexFile {
		h.num(1)
	}
	names := make([]string, 0, len(assets))
	for n := range assets {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		h.str(n).str(assets[n])
	}
	if c.Templates != nil {
		err := fs.WalkDir(c.Templates, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(c.Templates, p)
			h.str(p).bytes(data)
			return err
		})
		if err != nil {
			return fileKey{}, err
		}
	}
	return h.key(), nil
}

// recordKey hashes what one record page is made from: the record, its
// canonical record (by its page's path, rels holding every record's) and
// its related records as listed. It writes the same fields as a hasher
// would, into one buffer hashed at once. The canonical's path is taken
// from rels, made just before in one block, rather than from its
// summary, whose repo and slug strings are one more load from memory for
// each of every record.
func recordKey(global fileKey, s *model.Model, rels []string, i int32, raw [32]byte) fileKey {
	var arr [512]byte
	b := append(arr[:0], global[:]...)
	b = binary.AppendVarint(b, int64(len(raw)))
	b = append(b, raw[:]...)
	rel := rels[s.Canonical(i)]
	b = binary.AppendUvarint(b, uint64(len(rel)))
	b = append(b, rel...)
	if s.Summaries[i].Thin() {
		b = binary.AppendVarint(b, 1)
	} else {
		b = binary.AppendVarint(b, 0)
	}
	for _, j := range s.Related(i) {
		sum := s.Sum(j)
		b = append(b, sum[:]...)
	}
	return xxh3.Hash128(b).Bytes()
}

// datasetKey hashes the whole dataset as the binding pages and the search
// export see it.
func datasetKey(global fileKey, s *model.Model, raws [][32]byte, extras []byte) fileKey {
	h := newHasher(global)
	for i := range s.Summaries {
		sum := s.Sum(int32(i))
		h.h.Write(sum[:])
		h.h.Write(raws[i][:])
	}
	h.bytes(extras)
	return h.key()
}

// listingCache is the build's side of render.ListingCache.
type listingCache struct {
	global  fileKey
	prev    *pageCache
	byGroup map[string][]string // listing base → its files last time
	out     *publish.Site
	note    func(rel string, e cacheEntry)
}

func newListingCache(global fileKey, prev *pageCache, out *publish.Site, note func(string, cacheEntry)) *listingCache {
	lc := &listingCache{global: global, prev: prev, out: out, note: note, byGroup: map[string][]string{}}
	for rel, e := range prev.Entries {
		if e.Kind == kindListing {
			lc.byGroup[e.Group] = append(lc.byGroup[e.Group], rel)
		}
	}
	return lc
}

// key is the key of a listing's files: the fields a hasher would write
// (the global key, then k), hashed at once from the stack, as it is made
// for every listing.
func (lc *listingCache) key(k render.ListingKey) fileKey {
	var arr [64]byte
	b := append(arr[:0], lc.global[:]...)
	b = binary.AppendVarint(b, int64(len(k)))
	return xxh3.Hash128(append(b, k[:]...)).Bytes()
}

// Keep keeps every file the listing made last time, if they were made from
// the same key and are on disk as written; all or none.
func (lc *listingCache) Keep(base string, k render.ListingKey) bool {
	key := lc.key(k)
	paths := lc.byGroup[base]
	if len(paths) == 0 {
		return false
	}
	prints := make([]publish.Fingerprint, len(paths))
	for k, rel := range paths {
		e := lc.prev.Entries[rel]
		if e.Key != key {
			return false
		}
		prints[k] = e.Print
	}
	if !lc.out.ReuseAll(paths, prints) {
		return false
	}
	for _, rel := range paths {
		lc.note(rel, lc.prev.Entries[rel])
	}
	return true
}

func (lc *listingCache) Made(base string, k render.ListingKey, rel string) {
	lc.note(rel, cacheEntry{Kind: kindListing, Key: lc.key(k), Group: base})
}
