package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/read"
	"github.com/errdocs/errdocs/generator/validate"
	"github.com/errdocs/errdocs/internal/cachefile"
)

// The read cache spares a rebuild the first pass over input files that did
// not change: for each record file it keeps what reading and validating it
// gave (each record's place, its validation problems, its summary and the
// sha256 of its JSON), so that a file whose identity is as it was is not
// read, parsed or validated again. The dataset-wide rules (unique ids and
// slugs) are not cached: every record, cached or not, goes through them
// again in read order, so a record moved between files, or a duplicate
// that appears in another file, is judged as without the cache.
//
// An entry is trusted only when everything it was made from is the same:
//   - the errdocs binary, by hash (a new version trusts no entry);
//   - the file's identity: device, inode, size, modification time and
//     change time. Rewriting a file changes its change time, which no
//     program can set back (touch can set back the modification time, not
//     this one), and replacing it changes its inode;
//   - when a manifest check hashed the file in this build, its sha256.
//
// File times have a coarse grain (a kernel tick, or whole seconds on some
// file systems), so a file changed in the same tick as it was looked at
// could keep its times. Like git's "racy" rule, an entry is not saved for
// a file changed less than racyMargin before it was looked at: any later
// change then shows in its change time.
//
// The cache may be deleted at any time: the next build reads every file
// and makes the same site.

// racyMargin is how recently changed a file may be and still be cached,
// on a file system whose times are whole seconds (FAT's are two).
var racyMargin = 2 * time.Second

// fineMargin replaces racyMargin for a file whose change time has a
// fraction of a second: its file system keeps the kernel's clock, which
// ticks every 1 to 10 ms, so a change later than this after the file was
// looked at gets another change time. Without it, a dataset written less
// than two seconds before a build (a generator, a checkout, a copy) was
// read whole again by the next build, which alone could cache it.
var fineMargin = 100 * time.Millisecond

// The read cache's files (internal/cachefile): an entry per record file,
// the manifest check's sums, the model's related records and groups.
const (
	readCacheKind    = "read"
	readCacheVersion = 3
	sumsKind         = "manifest sums"
	sumsVersion      = 2
	relatedKind      = "related"
	relatedVersion   = 3
	countKind        = "record count"
	countVersion     = 1
	groupsKind       = "groups"
	groupsVersion    = 2
)

// readCache is the read cache of one build.
type readCache struct {
	dir string
	bin [32]byte // the errdocs binary's hash
	// cwd is the working folder, which makes a relative path absolute
	// (key); "" when it cannot be known.
	cwd string

	mu     sync.Mutex
	missed map[string]read.FileID // files looked up, not cached, and cacheable

	// The sha256 of files a manifest check hashed (read.SumCache), kept in
	// one file of the cache folder: loaded once, and saved with the files
	// verified in this build when they differ from those loaded.
	sumsOnce sync.Once
	sums     map[string]read.FileID // loaded, by key (absolute path)
	sumsRaw  []byte                 // as loaded
	verified map[string]read.FileID // in this build, by key
	// Entries of files read whole, written under a temporary name (by
	// path) for save to rename into place; files whose records did not
	// come together are spoiled: not cached.
	staged  map[string]string
	spoiled map[string]bool
	dirErr  error
	dirMade bool

	// Files changed less than the racy margin before this build looked
	// at them (not cached), and those the previous build saw so: the
	// report says why files were read again.
	young     []string
	prevYoung map[string]bool
	count     struct{ looked, served, wereYoung atomic.Int64 }
	// An entry is read into a buffer used again, its strings copied out:
	// held are the buffers holding the entries of files served until
	// their records are taken (release); free are buffers to read the
	// next entries into. Mapping each entry and unmapping it once decoded
	// cost more CPU than copying its bytes (a TLB shootdown each, on every
	// core running the build); fresh memory for each entry cost more
	// still. Mapped and kept, with the summaries' strings decoded in
	// place, the entries' thousands of mappings waited on the thread that
	// faults in the heap ahead of a rebuild (internal/hugepages), which
	// holds the memory map (BENCHMARKS.md, session 39).
	held map[*[]byte]bool
	free []*[]byte
	// freeRecords are tables to decode the next served files' records
	// into, used again like the buffers.
	freeRecords [][]cachedRecord
	coarse      atomic.Bool // a file's times were whole seconds
	// pack is the entries packed in one file (readpack.go); names are
	// the entries served or saved in this build, entryFiles how many of
	// them are entry files of their own.
	pack       *readPack
	names      []entryName
	entryFiles int
	// prevCount is how many valid records the previous build took (0:
	// unknown), so that the tables of a hundred thousand records are made
	// at their size instead of grown (countPath).
	prevCount int
}

// newReadCache is the read cache in dir.
func newReadCache(dir string) *readCache {
	bin, err := binaryHash()
	if err != nil {
		return nil
	}
	cwd, _ := os.Getwd()
	rc := &readCache{dir: dir, bin: bin, cwd: cwd, missed: map[string]read.FileID{}, verified: map[string]read.FileID{}, staged: map[string]string{}, spoiled: map[string]bool{}}
	rc.held = map[*[]byte]bool{}
	rc.pack = openPack(dir, bin)
	rc.prevYoung = rc.loadYoung()
	rc.prevCount = rc.loadCount()
	return rc
}

func (rc *readCache) countPath() string { return filepath.Join(rc.dir, "count") }

// maxCountHint bounds the size a count file may ask tables to be made
// at: it is a hint, and a wrong one costs only memory.
const maxCountHint = 1 << 24

// loadCount reads the previous build's count of valid records.
func (rc *readCache) loadCount() int {
	return int(loadHint(rc.countPath(), countKind, countVersion, maxCountHint))
}

// saveCount keeps this build's count of valid records for the next
// build, when it is not the one loaded.
func (rc *readCache) saveCount(n int) error {
	if n == rc.prevCount {
		return nil
	}
	return saveHint(rc.countPath(), countKind, countVersion, uint64(n))
}

// loadHint reads a cache file that holds one number, a hint to the next
// build (0 when missing, damaged or over max).
func loadHint(path, kind string, version, max uint64) uint64 {
	body, err := cachefile.ReadFile(path, kind, version)
	if err != nil {
		return 0
	}
	r := cachefile.NewReader(body)
	n := r.Uvarint()
	if r.Done() != nil || n > max {
		return 0
	}
	return n
}

// saveHint writes a cache file that holds one number.
func saveHint(path, kind string, version, n uint64) error {
	b := binary.AppendUvarint(cachefile.Begin(nil, kind, version), n)
	return cachefile.WriteFile(path, cachefile.Seal(b))
}

func (rc *readCache) youngPath() string { return filepath.Join(rc.dir, "young") }

// loadYoung reads the paths the previous build found too young to cache.
func (rc *readCache) loadYoung() map[string]bool {
	data, err := os.ReadFile(rc.youngPath())
	if err != nil || len(data) == 0 {
		return nil
	}
	m := map[string]bool{}
	for _, p := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		m[p] = true
	}
	return m
}

// saveYoung keeps the paths found too young to cache in this build, for
// the next build's report; none removes the file.
func (rc *readCache) saveYoung() error {
	if len(rc.young) == 0 {
		if rc.prevYoung == nil {
			return nil
		}
		if err := os.Remove(rc.youngPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	sort.Strings(rc.young)
	return cachefile.WriteFile(rc.youngPath(), []byte(strings.Join(rc.young, "\n")+"\n"))
}

// InputStats is what the read stage did with the input files.
type InputStats struct {
	RecordFiles int   // record files looked at
	Served      int   // of them, taken from the read cache: not read
	Read        int   // read, parsed and validated
	Hashed      int   // files a manifest check read to hash
	Bytes       int64 // bytes read from record files and hashed
	Stats       int64 // stat calls on record files and files a manifest lists
	// Young counts the record files changed less than the racy margin
	// before this build looked at them: read, and not cached for the
	// next build. WereYoung counts those the previous build found so.
	Young, WereYoung int
	// Margin is the racy margin of the files looked at: fineMargin, or
	// racyMargin when some file's times are whole seconds.
	Margin time.Duration
}

// inputStats is the read cache's account of one read.
func (rc *readCache) inputStats(x *read.Extras) InputStats {
	st := InputStats{Margin: fineMargin}
	if x != nil {
		st.Hashed, st.Bytes, st.Stats = x.Hashed, x.BytesRead, x.Stats
	}
	if rc == nil {
		return st
	}
	st.RecordFiles = int(rc.count.looked.Load())
	st.Served = int(rc.count.served.Load())
	st.Read = st.RecordFiles - st.Served
	st.Young, st.WereYoung = len(rc.young), int(rc.count.wereYoung.Load())
	if rc.coarse.Load() {
		st.Margin = racyMargin
	}
	return st
}

// cachedFile is what the cache keeps of one record file: its records
// (when read, for its entry), or its entry's records in their binary form
// (when served from the cache), decoded one by one as they are taken.
type cachedFile struct {
	version string // the newest wrapper datasetVersion of its records
	records []cachedRecord
	// Served from the cache: n records in body, a checked slice of the
	// entry's buffer (buf), which the loader releases once it took them,
	// or of the pack (inPlace), which stays mapped.
	n       int
	body    []byte
	buf     *[]byte
	inPlace bool
	// runs are where each run of decodeRun records begins in body.
	runs []int
}

type cachedRecord struct {
	index, line int
	raw         [32]byte
	problems    []validate.Problem // from validate.Record: the record is rejected
	id          string             // of a rejected record, as it gave it
	rawJSON     []byte             // of a rejected record, for the rejects file
	sum         model.Summary      // of a valid one
	keys        validate.Keys      // of a valid one, when the loader asks (loader.bulk)
}

// entryName is the name of a file's entry.
func (rc *readCache) entryName(path string) entryName {
	h := sha256.Sum256([]byte(rc.key(path)))
	return entryName(h[:nameSize])
}

// entryFile is where the entry file of that name is.
func (rc *readCache) entryFile(name entryName) string {
	return filepath.Join(rc.dir, name.String())
}

// key is the name the cache knows a record file by: its absolute path.
// A dataset named another way than at the last build (relative or
// absolute, with "./" or a trailing slash) is the same files, and is
// served from the cache all the same; reports name files as given.
func (rc *readCache) key(path string) string {
	if filepath.IsAbs(path) || rc.cwd == "" {
		return filepath.Clean(path)
	}
	return filepath.Join(rc.cwd, path)
}

// racy reports a file changed too recently to be cached. The change time
// is the one no program can set: its grain says the file system's.
func racy(id read.FileID) bool {
	margin := racyMargin
	if id.ChangeTime%int64(time.Second) != 0 {
		margin = fineMargin
	}
	limit := id.Stated.Add(-margin).UnixNano()
	return id.ChangeTime >= limit || id.ModTime >= limit
}

// Lookup implements read.FileCache.
func (rc *readCache) Lookup(id read.FileID) (read.Cached, bool) {
	rc.count.looked.Add(1)
	if id.ChangeTime%int64(time.Second) == 0 {
		rc.coarse.Store(true)
	}
	if rc.prevYoung[rc.key(id.Path)] {
		rc.count.wereYoung.Add(1)
	}
	if racy(id) {
		rc.mu.Lock()
		rc.young = append(rc.young, rc.key(id.Path))
		rc.mu.Unlock()
		return read.Cached{}, false
	}
	if f, ok := rc.load(id); ok {
		rc.count.served.Add(1)
		return read.Cached{Records: f.n, DatasetVersion: f.version, Value: f}, true
	}
	rc.mu.Lock()
	rc.missed[id.Path] = id
	rc.mu.Unlock()
	return read.Cached{}, false
}

func (rc *readCache) sumsPath() string { return filepath.Join(rc.dir, "sums") }

// loadSums reads the sums file: for each file, the identity and sha256 a
// manifest check found, under this binary's hash.
func (rc *readCache) loadSums() {
	rc.sums = map[string]read.FileID{}
	data, err := os.ReadFile(rc.sumsPath())
	if err != nil {
		return
	}
	body, err := cachefile.Open(data, sumsKind, sumsVersion)
	if err != nil {
		return
	}
	r := cachefile.NewReader(body)
	if !r.Expect(rc.bin[:]) {
		return
	}
	sums := map[string]read.FileID{}
	for r.Len() > 0 {
		id := read.FileID{Path: r.String(), Verified: true}
		id.Dev, id.Ino, id.Size, id.ModTime, id.ChangeTime = r.Uint64(), r.Uint64(), int64(r.Uint64()), int64(r.Uint64()), int64(r.Uint64())
		copy(id.SHA256[:], r.Next(32))
		sums[id.Path] = id
	}
	if r.Done() != nil {
		return
	}
	rc.sums, rc.sumsRaw = sums, data
}

// Sum implements read.SumCache.
func (rc *readCache) Sum(id read.FileID) ([32]byte, bool) {
	rc.sumsOnce.Do(rc.loadSums)
	keyed := id
	keyed.Path = rc.key(id.Path)
	known, ok := rc.sums[keyed.Path]
	if !ok || !known.SameFile(keyed) || racy(id) {
		return [32]byte{}, false
	}
	id.SHA256, id.Verified = known.SHA256, true
	rc.Hashed(id)
	return known.SHA256, true
}

// Hashed implements read.SumCache.
func (rc *readCache) Hashed(id read.FileID) {
	if racy(id) {
		return
	}
	rc.mu.Lock()
	rc.verified[rc.key(id.Path)] = id
	rc.mu.Unlock()
}

// saveSums keeps the files verified in this build, when they are not what
// was loaded (the files of the dataset no longer listed drop out).
func (rc *readCache) saveSums() error {
	rc.sumsOnce.Do(rc.loadSums)
	paths := make([]string, 0, len(rc.verified))
	for p := range rc.verified {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		if rc.sumsRaw == nil {
			return nil
		}
		return os.Remove(rc.sumsPath())
	}
	b := append(cachefile.Begin(nil, sumsKind, sumsVersion), rc.bin[:]...)
	for _, p := range paths {
		id := rc.verified[p]
		b = cachefile.AppendString(b, p)
		for _, v := range []uint64{id.Dev, id.Ino, uint64(id.Size), uint64(id.ModTime), uint64(id.ChangeTime)} {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
		b = append(b, id.SHA256[:]...)
	}
	b = cachefile.Seal(b)
	if bytes.Equal(b, rc.sumsRaw) {
		return nil
	}
	return cachefile.WriteFile(rc.sumsPath(), b)
}

// header is the identity an entry was made for, appended to b.
func (rc *readCache) header(b []byte, id read.FileID) []byte {
	b = append(b, rc.bin[:]...)
	b = cachefile.AppendString(b, rc.key(id.Path))
	for _, v := range []uint64{id.Dev, id.Ino, uint64(id.Size), uint64(id.ModTime), uint64(id.ChangeTime)} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	if id.Verified {
		b = append(b, 1)
		b = append(b, id.SHA256[:]...)
	} else {
		b = append(b, 0)
	}
	return b
}

// load reads the entry of a file, if it has one made for this identity,
// and checks its records' forms: a served file's records are decoded in
// runs of decodeRun (where each run begins is noted) as they are taken
// into the dataset, and they must not fail there.
func (rc *readCache) load(id read.FileID) (*cachedFile, bool) {
	name, head := rc.entryName(id.Path), rc.header(nil, id)
	if data, ok := rc.pack.find(name); ok {
		f := &cachedFile{inPlace: true}
		if body, err := cachefile.Open(data, readCacheKind, readCacheVersion); err == nil && f.parse(body, head) {
			rc.took(name, false)
			return f, true
		}
	}
	// The pack has no entry made for this identity; an entry file may.
	f, body, ok := rc.entry(name)
	if !ok {
		return nil, false
	}
	if !f.parse(body, head) {
		rc.release(f)
		return nil, false
	}
	rc.took(name, true)
	return f, true
}

// parse takes an entry's body apart into f, if the entry was made for
// the identity whose header is head.
func (f *cachedFile) parse(body, head []byte) bool {
	r := cachefile.NewReader(body)
	if r.Expect(head) {
		f.version = r.String()
		f.n = r.Count()
		f.body = r.Next(r.Len())
	}
	if r.Err() != nil {
		return false
	}
	var err error
	f.runs, err = checkCachedRecords(f.body, f.n)
	return err == nil
}

// took notes an entry served, from an entry file or the pack.
func (rc *readCache) took(name entryName, file bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.names = append(rc.names, name)
	if file {
		rc.entryFiles++
	}
}

// entry reads the entry file of that name and returns its body, in a
// cachedFile that holds it.
func (rc *readCache) entry(name entryName) (f *cachedFile, body []byte, ok bool) {
	path := rc.entryFile(name)
	buf := rc.buffer()
	body, next, err := cachefile.ReadFileInto(path, readCacheKind, readCacheVersion, *buf)
	*buf = next
	f = &cachedFile{buf: buf}
	if err != nil {
		rc.release(f)
		return nil, nil, false
	}
	return f, body, true
}

// buffer returns a buffer to read an entry into, held until released.
func (rc *readCache) buffer() *[]byte {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var buf *[]byte
	if n := len(rc.free); n > 0 {
		buf, rc.free = rc.free[n-1], rc.free[:n-1]
	} else {
		buf = new([]byte)
	}
	rc.held[buf] = true
	return buf
}

// checkCachedRecords checks that body holds n records in their binary
// form, and nothing more, and returns where each run of decodeRun records
// begins in body.
func checkCachedRecords(body []byte, n int) (runs []int, err error) {
	r := cachefile.NewReader(body)
	var rec cachedRecord
	for k := range n {
		if k%decodeRun == 0 {
			runs = append(runs, len(body)-r.Len())
		}
		if err := decodeCachedRecord(r, nil, false, &rec); err != nil {
			return nil, err
		}
	}
	if r.Done() != nil {
		return nil, errBadEntry
	}
	return runs, nil
}

// decodeRun is how many records of a served file are decoded at once: a
// file of tens of thousands of records is decoded by every validator, a
// run each, into tables of this size used again.
const decodeRun = 256

// decode decodes the run'th run of records of a file served from the
// cache into recs (emptied first) and returns them. Their strings are
// their own, not the buffer's.
func (f *cachedFile) decode(dec *model.SummaryDecoder, run int, recs []cachedRecord) ([]cachedRecord, error) {
	r := cachefile.NewReader(f.body[f.runs[run]:])
	recs = recs[:0]
	if cap(recs) < decodeRun {
		recs = make([]cachedRecord, 0, decodeRun)
	}
	for range min(decodeRun, f.n-run*decodeRun) {
		recs = append(recs, cachedRecord{})
		if err := decodeCachedRecord(r, dec, f.inPlace, &recs[len(recs)-1]); err != nil {
			return recs, err
		}
	}
	return recs, nil
}

// records returns a table to decode a served file's records into.
func (rc *readCache) records() []cachedRecord {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	n := len(rc.freeRecords)
	if n == 0 {
		return nil
	}
	recs := rc.freeRecords[n-1]
	rc.freeRecords = rc.freeRecords[:n-1]
	return recs
}

// decodeCachedRecord decodes the next record of an entry into rec; with
// no decoder (dec nil) it only checks its form, and sets nothing. The
// summary of an entry in the pack (inPlace) holds the pack's bytes.
func decodeCachedRecord(r *cachefile.Reader, dec *model.SummaryDecoder, inPlace bool, rec *cachedRecord) error {
	index, line := r.Int(1<<40), r.Int(1<<40)
	raw := r.Next(32)
	switch r.Byte() {
	case 0:
		r.Decode(func(b []byte) ([]byte, error) {
			if dec == nil {
				n, err := model.SummaryLen(b)
				return b[n:], err
			}
			var err error
			if inPlace {
				rec.sum, b, err = dec.DecodeInPlace(b)
			} else {
				rec.sum, b, err = dec.Decode(b)
			}
			return b, err
		})
		rec.problems, rec.id, rec.rawJSON = nil, "", nil
	case 1:
		id := r.Bytes()
		n := r.Count()
		if n == 0 {
			return errBadEntry
		}
		var problems []validate.Problem
		if dec != nil {
			problems = make([]validate.Problem, n)
		}
		for p := range n {
			field, rule := r.Bytes(), r.Bytes()
			if dec != nil {
				problems[p] = validate.Problem{Field: string(field), Rule: string(rule)}
			}
		}
		rawJSON := r.Bytes()
		if dec != nil {
			rec.id, rec.problems, rec.rawJSON = string(id), problems, bytes.Clone(rawJSON)
		}
	default:
		return errBadEntry
	}
	if r.Err() != nil {
		return r.Err()
	}
	if dec != nil {
		rec.index, rec.line = index, line
		copy(rec.raw[:], raw)
	}
	return nil
}

// releaseRun hands back the table a run of a served file's records was
// decoded into (recs, may be nil) once they are taken (or will not be),
// and after the file's last run (last) the file's buffer, for the next
// entries read.
func (rc *readCache) releaseRun(f *cachedFile, last bool, recs []cachedRecord) {
	if recs != nil {
		rc.mu.Lock()
		rc.freeRecords = append(rc.freeRecords, recs[:0])
		rc.mu.Unlock()
	}
	if last {
		rc.release(f)
	}
}

// release hands back the buffer of a file served, once its records are
// taken (or will not be), for the next entry read.
func (rc *readCache) release(f *cachedFile) {
	f.body = nil
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.held[f.buf] {
		delete(rc.held, f.buf)
		rc.free = append(rc.free, f.buf)
	}
}

// releaseAll lets go of every buffer, the entries of files served whose
// records were not taken (a read that stopped early) with them.
func (rc *readCache) releaseAll() {
	if rc == nil {
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	clear(rc.held)
	rc.free, rc.freeRecords = nil, nil
}

var errBadEntry = errors.New("read cache: bad entry")

// file returns the bytes of the entry's file: its header (the identity
// of the record file it was made for), then f.
func (f *cachedFile) file(head func([]byte) []byte) []byte {
	b := head(cachefile.Begin(nil, readCacheKind, readCacheVersion))
	b = cachefile.AppendString(b, f.version)
	b = binary.AppendUvarint(b, uint64(len(f.records)))
	for k := range f.records {
		r := &f.records[k]
		b = binary.AppendUvarint(b, uint64(r.index))
		b = binary.AppendUvarint(b, uint64(r.line))
		b = append(b, r.raw[:]...)
		if r.problems == nil {
			b = append(b, 0)
			b = r.sum.AppendBinary(b)
			continue
		}
		b = append(b, 1)
		str := func(s []byte) {
			b = binary.AppendUvarint(b, uint64(len(s)))
			b = append(b, s...)
		}
		str([]byte(r.id))
		b = binary.AppendUvarint(b, uint64(len(r.problems)))
		for _, p := range r.problems {
			str([]byte(p.Field))
			str([]byte(p.Rule))
		}
		str(r.rawJSON)
	}
	return cachefile.Seal(b)
}

// stage writes the entry of a file whose records were all read (f), under
// a temporary name that save renames into place, or removes should the
// file turn out to have a problem: holding every file's records until the
// end of the read took a few hundred megabytes at half a million records.
// A file whose records come again after it was staged is not cached.
func (rc *readCache) stage(path string, f *cachedFile) {
	rc.mu.Lock()
	id, ok := rc.missed[path]
	_, again := rc.staged[path]
	if again {
		rc.spoiled[path] = true
	}
	rc.mu.Unlock()
	if !ok || again {
		return
	}
	if !rc.dirMade {
		rc.dirMade = true
		rc.dirErr = os.MkdirAll(rc.dir, 0o755)
	}
	if rc.dirErr != nil {
		return
	}
	tmp, err := cachefile.WriteTemp(rc.dir, f.file(func(b []byte) []byte { return rc.header(b, id) }))
	if err != nil {
		return // save writes it again, and reports
	}
	rc.mu.Lock()
	rc.staged[path] = tmp
	rc.mu.Unlock()
}

// discard removes the staged entries of a build that does not save them.
func (rc *readCache) discard() {
	if rc == nil {
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for path, tmp := range rc.staged {
		os.Remove(tmp)
		delete(rc.staged, path)
	}
}

// save writes the entries of the files read in this build that can be
// cached: looked up and missed, not changed too recently, read whole (and
// staged as they were), and read without a problem (a file's problems are
// reported by reading it). Files without records get an empty entry.
func (rc *readCache) save(problems []error, valid int) error {
	defer rc.discard()
	bad := map[string]bool{}
	for _, err := range problems {
		var fe *read.FileError
		if !errors.As(err, &fe) {
			return nil // a problem of no file: cache nothing
		}
		bad[fe.File] = true
	}
	if err := os.MkdirAll(rc.dir, 0o755); err != nil {
		return err
	}
	first := rc.saveSums()
	if err := rc.saveYoung(); first == nil {
		first = err
	}
	if err := rc.saveCount(valid); first == nil {
		first = err
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for path, id := range rc.missed {
		if bad[path] || rc.spoiled[path] {
			continue
		}
		var err error
		name := rc.entryName(path)
		if tmp, ok := rc.staged[path]; ok {
			if err = os.Rename(tmp, rc.entryFile(name)); err == nil {
				delete(rc.staged, path)
			}
		} else {
			// A file without records.
			err = cachefile.WriteFile(rc.entryFile(name), (&cachedFile{}).file(func(b []byte) []byte { return rc.header(b, id) }))
		}
		if err == nil {
			rc.names = append(rc.names, name)
			rc.entryFiles++
		} else if first == nil {
			first = err
		}
	}
	if first == nil && rc.entryFiles*repackShare > rc.pack.len() {
		first = rc.repack()
	}
	return first
}

// repackShare is how many of the pack's entries one entry file stands
// for when a build asks whether to write a new pack: a new pack copies
// every entry, and one entry file more costs a rebuild an open and a
// read.
var repackShare = 8

// repack writes a new pack of the entries served or saved in this build,
// and removes the entry files: those it took, and those of files no longer
// looked at.
func (rc *readCache) repack() error {
	if err := writePack(rc.dir, rc.bin, rc.pack, rc.names); err != nil {
		return err
	}
	files, err := os.ReadDir(rc.dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		if isEntryFile(f.Name()) {
			if err := os.Remove(filepath.Join(rc.dir, f.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

var (
	binOnce sync.Once
	binSum  [32]byte
	binErr  error
)

// binaryHash is the sha256 of the running errdocs binary, computed once
// (or taken from the cache folder: see primeBinaryHash).
func binaryHash() ([32]byte, error) {
	binOnce.Do(func() { binSum, binErr = hashBinary("") })
	return binSum, binErr
}

// primeBinaryHash makes binaryHash take the binary's hash from the cache
// folder when the binary's identity is the one it was hashed with (the
// read cache's rule for record files), and keep it there otherwise:
// hashing a 40 MB binary is most of a build that changed nothing.
func primeBinaryHash(cacheDir string) {
	binOnce.Do(func() { binSum, binErr = hashBinary(filepath.Join(cacheDir, "nochange", "binary")) })
}

const (
	binaryKind    = "binary"
	binaryVersion = 1
)

// hashBinary hashes the running binary, or takes its hash from the file
// at keep (when not "") made for its identity, and saves it there.
func hashBinary(keep string) ([32]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return [32]byte{}, err
	}
	id, err := read.Identify([]string{exe})
	if err != nil || len(id.Files) != 1 {
		return [32]byte{}, errors.Join(err, errors.New("cannot identify the errdocs binary"))
	}
	head := binaryHead(id.Files[0])
	if keep != "" {
		if body, err := cachefile.ReadFile(keep, binaryKind, binaryVersion); err == nil && len(body) == len(head)+32 && bytes.HasPrefix(body, head) {
			return [32]byte(body[len(head):]), nil
		}
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		return [32]byte{}, err
	}
	sum := sha256.Sum256(data)
	if keep != "" && !racy(id.Files[0]) && os.MkdirAll(filepath.Dir(keep), 0o755) == nil {
		// A hash that cannot be kept is only made again next time.
		cachefile.WriteFile(keep, cachefile.Seal(append(append(cachefile.Begin(nil, binaryKind, binaryVersion), head...), sum[:]...)))
	}
	return sum, nil
}

// binaryHead is the identity of the binary a kept hash was made for.
func binaryHead(id read.FileID) []byte {
	b := cachefile.AppendString(nil, id.Path)
	for _, v := range []uint64{id.Dev, id.Ino, uint64(id.Size), uint64(id.ModTime), uint64(id.ChangeTime)} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}

// keyedFile is one cache file of the model's, kept under the errdocs
// binary's hash and a key the model gives: a file another binary made, or
// made for another key, is not used.
type keyedFile struct {
	path    string
	kind    string
	version uint64
	bin     [32]byte
	err     error // of put, for the build to report
}

// newKeyedFile returns the file name in dir, or nil when the binary cannot
// be hashed (then nothing is kept).
func newKeyedFile(dir, name, kind string, version uint64) *keyedFile {
	bin, err := binaryHash()
	if err != nil {
		return nil
	}
	return &keyedFile{path: filepath.Join(dir, name), kind: kind, version: version, bin: bin}
}

func (f *keyedFile) head(key [16]byte) []byte {
	return append(f.bin[:len(f.bin):len(f.bin)], key[:]...)
}

// open maps the file and returns what it holds after the head made for
// key; ok is false when it holds none (the mapping is then nil). The
// caller closes the mapping.
func (f *keyedFile) open(key [16]byte) (body []byte, m *cachefile.Mapping, ok bool) {
	body, m, err := cachefile.MapFile(f.path, f.kind, f.version)
	if err != nil {
		return nil, nil, false
	}
	head := f.head(key)
	if !bytes.HasPrefix(body, head) {
		m.Close()
		return nil, nil, false
	}
	return body[len(head):], m, true
}

// put writes the file for key, its body appended by add.
func (f *keyedFile) put(key [16]byte, add func([]byte) []byte) {
	b := cachefile.Seal(add(append(cachefile.Begin(nil, f.kind, f.version), f.head(key)...)))
	if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		f.err = err
		return
	}
	f.err = cachefile.WriteFile(f.path, b)
}

// relatedCache keeps the model's related records (model.RelatedCache).
type relatedCache struct{ *keyedFile }

func newRelatedCache(dir string) *relatedCache {
	f := newKeyedFile(dir, "related", relatedKind, relatedVersion)
	if f == nil {
		return nil
	}
	return &relatedCache{f}
}

// Get decodes the related lists saved under key from the file mapped,
// into one slice made at its size (counted first): the lists are every
// record's, and fresh memory costs more than walking them twice.
func (rc *relatedCache) Get(key [16]byte) ([][]int32, bool) {
	body, m, ok := rc.open(key)
	if !ok {
		return nil, false
	}
	defer m.Close()
	r := cachefile.NewReader(body)
	n := r.Count()
	total := countRelated(body[len(body)-r.Len():], n)
	if total < 0 {
		return nil, false
	}
	out := make([][]int32, n)
	all := make([]int32, 0, total)
	for i := range out {
		start := len(all)
		for m := int(r.Byte()); m > 0; m-- {
			all = append(all, int32(r.Int(1<<31-1)))
		}
		out[i] = all[start:len(all):len(all)]
	}
	if r.Done() != nil {
		return nil, false
	}
	return out, true
}

// countRelated returns how many numbers the n lists at the start of b
// hold, or -1 when b is not n lists.
func countRelated(b []byte, n int) int {
	r := cachefile.NewReader(b)
	total := 0
	for ; n > 0; n-- {
		m := int(r.Byte())
		total += m
		for ; m > 0; m-- {
			r.Uvarint()
		}
	}
	if r.Err() != nil {
		return -1
	}
	return total
}

func (rc *relatedCache) Put(key [16]byte, related [][]int32) {
	rc.put(key, func(b []byte) []byte {
		b = binary.AppendUvarint(b, uint64(len(related)))
		for _, r := range related {
			b = append(b, byte(len(r)))
			for _, j := range r {
				b = binary.AppendUvarint(b, uint64(j))
			}
		}
		return b
	})
}

// groupCache keeps the model's groups (model.GroupCache).
type groupCache struct{ *keyedFile }

func newGroupCache(dir string) *groupCache {
	f := newKeyedFile(dir, "groups", groupsKind, groupsVersion)
	if f == nil {
		return nil
	}
	return &groupCache{f}
}

// Get hands decode the groups saved under key, from the file mapped.
func (gc *groupCache) Get(key [16]byte, decode func([]byte) bool) bool {
	body, m, ok := gc.open(key)
	if !ok {
		return false
	}
	defer m.Close()
	return decode(body)
}

func (gc *groupCache) Put(key [16]byte, groups []byte) {
	gc.put(key, func(b []byte) []byte { return append(b, groups...) })
}
