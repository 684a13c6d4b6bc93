// Package read finds record sources and streams the raw records out of them,
// each with the place it came from.
//
// It recognises a wrapped record ({"record": {...}, "datasetVersion": "..."}),
// a bare record object, a JSON array of records, JSON Lines (one record or
// wrapped record per line), an upstream export folder (repos/<owner>/<name>.json,
// repos.json, info/, tags.json, manifest.json), and any of these gzipped
// (by the .gz suffix or by the gzip magic bytes). Other folders are walked
// for .json, .jsonl and .ndjson files and their .gz forms.
//
// Records are not judged here: a record is whatever JSON value sits where a
// record belongs, and package validate says what is wrong with it. This
// package reports only what stops it from finding records at all (a file that
// is not JSON, an unreadable folder) and the faults of the export's side
// files (repos.json, info articles, tags.json, manifest.json).
package read

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/generator/validate"
)

// Item is one raw record.
type Item struct {
	Source record.Source
	// Raw is the record's JSON value, unwrapped when it came in a wrapper.
	// It is a slice of the file's buffer, which is never written to again:
	// it is safe to keep, but keeping it keeps the whole file's buffer
	// alive, so copy it (bytes.Clone) to keep it long.
	Raw json.RawMessage
	// DatasetVersion is the wrapper's datasetVersion, "" for bare records.
	DatasetVersion string
}

// Tag is one entry of an export's tags.json: an error family.
type Tag struct {
	Tag        string `json:"tag"`
	ErrorCount int    `json:"errorCount"`
	RepoCount  int    `json:"repoCount"`
	InfoSlug   string `json:"infoSlug"` // "" when null
}

// Extras is what an export holds besides records.
type Extras struct {
	Repos []record.Repo // repos.json entries that passed the checks, in file order; first of duplicates kept
	Infos []record.Info // info articles that passed the checks, by slug
	Tags  []Tag         // tags.json entries that passed the checks, in file order
	// DatasetVersion is the newest datasetVersion seen in a manifest or a
	// record wrapper that is an ISO 8601 UTC time ("" when none); such
	// times order as strings.
	DatasetVersion string
	Files          int // record files read
	Records        int // records handed to each
	// Hashed counts the files a manifest check read to hash them; a
	// SumCache spares it the files it knows.
	Hashed int
	// Barren lists the paths given that yielded no record at all: missing,
	// unreadable, not records, or empty. A build asked to read them read
	// nothing of what it was asked for, which is not a site to publish.
	Barren []string
	// FilesFailed counts the files that could not be read at all (not
	// found, not a regular file, not JSON, over a limit), as against
	// problems with one entry of a file.
	FilesFailed int
	// Stats counts the stat calls made on the files read or looked up in
	// a FileCache and on the files a manifest lists (folders walked are
	// not counted); BytesRead the bytes read from files (record files and
	// the export's others) and hashed by a manifest check, as on disk
	// (compressed for a gzipped file). A rebuild's report shows them.
	Stats     int64
	BytesRead int64
}

// FileError is a problem with a file or with one entry of it. Line and
// Column (1-based, bytes) are set when the fault has a position; for a
// gzipped file they count in the decompressed text.
type FileError struct {
	File   string
	Line   int
	Column int
	Offset int64 // byte offset of the fault, -1 when unknown
	Index  int   // the record or entry concerned, -1 when the whole file
	Err    error
}

func (e *FileError) Error() string {
	var b []byte
	b = append(b, e.File...)
	if e.Line > 0 {
		b = strconv.AppendInt(append(b, ':'), int64(e.Line), 10)
		b = strconv.AppendInt(append(b, ':'), int64(e.Column), 10)
	} else if e.Offset >= 0 && e.Index < 0 {
		b = strconv.AppendInt(append(b, ": byte "...), e.Offset, 10)
	}
	b = append(b, ": "...)
	if e.Index >= 0 && e.Line == 0 {
		b = strconv.AppendInt(append(b, "entry "...), int64(e.Index), 10)
		b = append(b, ": "...)
	}
	b = append(b, e.Err.Error()...)
	return string(b)
}

func (e *FileError) Unwrap() error { return e.Err }

// DefaultMaxFileSize is the default cap on one file's (decompressed) size.
// Up to Workers+1 files are held at once, each with its records' copies
// while they are validated, so the cap keeps what reading holds well inside
// the build's 2 GB budget; an export's largest file (one repo's records) is
// a few tens of megabytes.
const DefaultMaxFileSize = 128 << 20

// maxDefaultWorkers caps the default number of reader workers: each may
// hold a file of up to the size limit, and the memory budget must not
// grow with the number of cores. Reading is rarely the slow stage.
const maxDefaultWorkers = 4

// Options tune Read. The zero value is the default.
type Options struct {
	// Workers read, decompress and split files ahead of the consumer; 0
	// means GOMAXPROCS, at most maxDefaultWorkers. At most Workers+1 files are held in memory at once.
	Workers int
	// MaxFileSize caps a file's (decompressed) size, so that a gzip bomb or
	// a stray huge file cannot exhaust memory; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// Cache, when set, lets the caller skip record files whose records it
	// already has from an earlier read.
	Cache FileCache
}

// FileCache lets a caller skip record files it has read before.
type FileCache interface {
	// Lookup is called from a worker for each record file, before the file
	// is read, with the file's identity. When it returns ok, the file is
	// not read: Read calls Take in its place instead of each for its
	// records. It may be called concurrently for different files.
	Lookup(id FileID) (Cached, bool)
	// Take is called for a file Lookup kept, in the file's place in the
	// read order and on the goroutine that calls each.
	Take(path string, c Cached) error
}

// A FileCache that is also a SumCache spares a manifest check the hashing
// of files that have kept their identity since it last hashed them.
type SumCache interface {
	// Sum returns the sha256 a manifest check found for a file of this
	// very identity, if the cache trusts it. It may be called concurrently.
	Sum(id FileID) (sum [32]byte, ok bool)
	// Hashed is told of each file a manifest check hashed and found as the
	// manifest lists it (id.Verified). It may be called concurrently.
	Hashed(id FileID)
}

// Cached is what a FileCache holds of a file that Read does not read.
type Cached struct {
	Records        int    // how many records the file holds
	DatasetVersion string // the newest wrapper datasetVersion among them
	Value          any    // the caller's own
}

// FileID identifies the content of a file as well as the file system
// can: a file rewritten gets a new change time (ChangeTime, which no
// program can set back) or a new inode.
type FileID struct {
	Path       string    // as Read names it in Source.File
	Dev, Ino   uint64    //
	Size       int64     // bytes on disk (compressed, for a gzipped file)
	ModTime    int64     // nanoseconds
	ChangeTime int64     // nanoseconds (st_ctime)
	Stated     time.Time // the clock just before the file was looked at
	// SHA256 is the file's sha256 when a manifest check of this read
	// hashed the whole file, found it as the manifest lists it, and the file
	// has kept its identity since (Verified); zero otherwise.
	SHA256   [32]byte
	Verified bool
}

// Read reads the files and folders at paths with the default options.
func Read(paths []string, each func(Item) error) (*Extras, []error) {
	return Options{}.Read(paths, each)
}

// Read calls each for every raw record found under paths, in a deterministic
// order: record files sorted by path (whatever the order of paths), then by
// position in the file. each is called from one goroutine, one item at a
// time. Files are read, decompressed and split in parallel underneath.
//
// It returns the export extras found and the problems met; problems are not
// fatal, and every other file is still read. If each returns an error, Read
// stops and returns that error, unwrapped, as the last problem.
func (o Options) Read(paths []string, each func(Item) error) (*Extras, []error) {
	if o.Workers <= 0 {
		o.Workers = min(runtime.GOMAXPROCS(0), maxDefaultWorkers)
	}
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	if each == nil {
		each = func(Item) error { return nil } // still useful: it checks the files
	}
	r := &reader{opts: o, extras: &Extras{}, verified: map[string]FileID{}}
	plan := r.discover(paths)
	r.readMeta(plan)
	counts := make([]int, len(plan.records))
	if err := r.readRecords(plan.records, counts, each); err != nil {
		r.problems = append(r.problems, err)
	}
	r.extras.Barren = barren(paths, plan.recordFrom, counts)
	for _, err := range r.problems {
		var fe *FileError
		if errors.As(err, &fe) && fe.Index < 0 {
			r.extras.FilesFailed++
		}
	}
	r.extras.Stats, r.extras.BytesRead = r.stats.Load(), r.bytesRead.Load()
	return r.extras, r.problems
}

// NothingRead is the error of a read that got no record from some of the
// paths it was given: a mistyped path, a truncated file, an empty folder.
// Building from what the other paths gave would publish a site without
// them, so it is an error whether or not the others gave records.
func NothingRead(paths []string) error {
	q := make([]string, len(paths))
	for k, p := range paths {
		q[k] = strconv.Quote(p)
	}
	return fmt.Errorf("no record read from %s (see the problems above); the previous site is untouched", strings.Join(q, ", "))
}

// barren returns the paths that no record came from, given where each
// record file was found (from) and how many records it gave (counts).
func barren(paths []string, from [][]int, counts []int) []string {
	gave := make([]bool, len(paths))
	for i, n := range counts {
		if n > 0 {
			for _, k := range from[i] {
				gave[k] = true
			}
		}
	}
	var out []string
	for k, p := range paths {
		if !gave[k] {
			out = append(out, p)
		}
	}
	return out
}

type reader struct {
	opts     Options
	extras   *Extras
	problems []error
	verified map[string]FileID // files a manifest check hashed, by path

	stats, bytesRead atomic.Int64 // for Extras
}

// identify returns the identity of the file at path, with its sha256 when
// a manifest check hashed it and it has not changed since.
func (r *reader) identify(path string) (FileID, error) {
	stated := time.Now()
	r.stats.Add(1)
	fi, err := os.Stat(path)
	if err != nil {
		return FileID{}, err
	}
	id, ok := fileID(path, fi, stated)
	if !ok {
		return FileID{}, errors.New("no file identity")
	}
	if v, ok := r.verified[path]; ok && v.SameFile(id) {
		id.SHA256, id.Verified = v.SHA256, true
	}
	return id, nil
}

func fileID(path string, fi os.FileInfo, stated time.Time) (FileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return FileID{}, false
	}
	return FileID{
		Path: path, Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: fi.Size(),
		ModTime:    fi.ModTime().UnixNano(),
		ChangeTime: time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec)).UnixNano(),
		Stated:     stated,
	}, true
}

// SameFile reports whether two identities name the same file, unchanged.
func (id FileID) SameFile(o FileID) bool {
	return id.Path == o.Path && id.Dev == o.Dev && id.Ino == o.Ino && id.Size == o.Size &&
		id.ModTime == o.ModTime && id.ChangeTime == o.ChangeTime
}

func (r *reader) problem(err error) { r.problems = append(r.problems, err) }

// version keeps the newest dataset version. Only well-formed UTC times
// count: a wrapper's datasetVersion is untrusted text, and a value like
// "zzz" would otherwise win every comparison.
func (r *reader) version(v string) {
	if validate.UTCTime(v) && v > r.extras.DatasetVersion {
		r.extras.DatasetVersion = v
	}
}

// fileResult is one record file's records and problems, filled by a worker.
type fileResult struct {
	items  []Item
	errs   []error
	cached *Cached // the file was not read: its caller has its records
	done   chan struct{}
}

// readRecords runs the workers and hands the records to each in file order.
// A window of slots bounds the files in flight: a worker may run ahead of
// the consumer by at most Workers+1 files, which bounds memory to about
// that many files' contents whatever the size of the dataset.
func (r *reader) readRecords(files []string, counts []int, each func(Item) error) error {
	if len(files) == 0 {
		return nil
	}
	results := make([]fileResult, len(files))
	for i := range results {
		results[i].done = make(chan struct{})
	}
	slots := make(chan struct{}, r.opts.Workers+1)
	jobs := make(chan int)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // feeder: hands out files in order, never more than the window
		defer wg.Done()
		defer close(jobs)
		for i := range files {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case jobs <- i:
			case <-stop:
				return
			}
		}
	}()
	for w := 0; w < r.opts.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				res := &results[i]
				if c := r.opts.Cache; c != nil {
					if id, err := r.identify(files[i]); err == nil {
						if v, ok := c.Lookup(id); ok {
							res.cached = &v
							close(res.done)
							continue
						}
					}
				}
				res.items, res.errs = r.readRecordFile(files[i])
				close(res.done)
			}
		}()
	}
	var err error
	for i := range files {
		res := &results[i]
		<-res.done
		r.problems = append(r.problems, res.errs...)
		r.extras.Files++
		counts[i] = len(res.items)
		if c := res.cached; c != nil {
			counts[i] = c.Records
			r.version(c.DatasetVersion)
			r.extras.Records += c.Records
			err = r.opts.Cache.Take(files[i], *c)
		}
		for _, it := range res.items {
			if it.DatasetVersion != "" {
				r.version(it.DatasetVersion)
			}
			r.extras.Records++
			if err = each(it); err != nil {
				break
			}
		}
		*res = fileResult{} // let the file's buffer go
		<-slots
		if err != nil {
			break
		}
	}
	// The feeder waits on stop as well as on the window, so closing stop
	// ends it; the workers then finish the file in hand and see jobs closed.
	close(stop)
	wg.Wait()
	return err
}

// readRecordFile reads one record file whole and splits it into records.
func (r *reader) readRecordFile(path string) ([]Item, []error) {
	data, err := r.load(path)
	if err != nil {
		return nil, []error{err}
	}
	return splitRecords(path, data, isLines(path))
}

// load reads a file whole, decompressing it when it is gzipped (told by its
// magic bytes, whatever its name). Only a regular file is read: a FIFO
// would block the open for ever and a device never ends. The size limit is
// counted in the bytes read, not taken from the file's stated size (0 for
// a device or a pipe), and in the decompressed bytes too.
func (r *reader) load(path string) ([]byte, error) {
	// O_NONBLOCK: opening a FIFO does not wait for a writer; a regular
	// file reads as usual.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, wholeFile(path, unwrapPathError(err))
	}
	defer f.Close()
	r.stats.Add(1)
	fi, err := f.Stat()
	if err != nil {
		return nil, wholeFile(path, unwrapPathError(err))
	}
	if !fi.Mode().IsRegular() {
		return nil, wholeFile(path, notRegular(fi.Mode()))
	}
	limit := r.opts.MaxFileSize
	if fi.Size() > limit {
		return nil, wholeFile(path, fmt.Errorf("file is %d bytes, over the %d-byte limit", fi.Size(), limit))
	}
	data, err := readCapped(f, fi.Size(), limit)
	r.bytesRead.Add(int64(len(data)))
	if err != nil {
		return nil, wholeFile(path, err)
	}
	if !isGzip(data) {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, wholeFile(path, fmt.Errorf("bad gzip data: %w", err))
	}
	// The gzip trailer holds the decompressed size (mod 2³², and only of
	// the last member): a hint to size the buffer once, trusted no further.
	hint := int64(4 * len(data))
	if len(data) >= 18 { // header 10 + trailer 8: anything shorter is not gzip
		if n := int64(binary.LittleEndian.Uint32(data[len(data)-4:])); n >= int64(len(data)/2) && n <= limit {
			hint = n
		}
	}
	out, err := readCapped(zr, hint, limit)
	if errors.Is(err, errOverLimit) {
		return nil, wholeFile(path, fmt.Errorf("decompresses to over the %d-byte limit", limit))
	}
	if err != nil {
		return nil, wholeFile(path, fmt.Errorf("bad gzip data: %w", err))
	}
	return out, nil
}

var errOverLimit = errors.New("over the size limit")

// readCapped reads rd to its end into a buffer first sized hint, failing
// as soon as more than limit bytes come. The buffer never grows past
// limit+1: a bytes.Buffer would double to twice the limit first.
func readCapped(rd io.Reader, hint, limit int64) ([]byte, error) {
	buf := make([]byte, 0, min(max(hint, 0), limit)+bytes.MinRead)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return nil, fmt.Errorf("file is over the %d-byte limit: %w", limit, errOverLimit)
			}
			next := min(int64(cap(buf))*2, limit+1)
			grown := make([]byte, len(buf), next)
			copy(grown, buf)
			buf = grown
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, fmt.Errorf("file is over the %d-byte limit: %w", limit, errOverLimit)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, unwrapPathError(err)
		}
	}
}

// notRegular says what a path that is not a regular file is instead.
func notRegular(m os.FileMode) error {
	kind := "not a regular file"
	switch {
	case m&os.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO), not a regular file"
	case m&os.ModeSocket != 0:
		kind = "a socket, not a regular file"
	case m&os.ModeDevice != 0:
		kind = "a device, not a regular file"
	case m.IsDir():
		kind = "a folder"
	}
	return fmt.Errorf("%s; only regular files are read", kind)
}

func isGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// unwrapPathError drops the *PathError's own path: FileError names the file.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// Rejected is the rejects-file line of a file that gave no record, or
// of an entry of a side file: a Reject with the file's place (index -1 for
// the whole file), the problem as its one rule, and no record.
func Rejected(err error) validate.Reject {
	var fe *FileError
	if !errors.As(err, &fe) {
		return validate.Reject{Source: record.Source{Index: -1}, Problems: []validate.Problem{{Field: "(file)", Rule: err.Error()}}}
	}
	return validate.Reject{
		Source:   record.Source{File: fe.File, Index: fe.Index, Line: fe.Line},
		Problems: []validate.Problem{{Field: "(file)", Rule: fe.Err.Error()}},
	}
}

// wholeFile is a problem with a whole file, at no particular place.
func wholeFile(path string, err error) *FileError {
	return &FileError{File: path, Offset: -1, Index: -1, Err: err}
}

// entryError is a problem with entry index of a side file (repos.json, ...).
func entryError(path string, index int, err error) *FileError {
	return &FileError{File: path, Offset: -1, Index: index, Err: err}
}
