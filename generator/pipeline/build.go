// Package pipeline runs the pipeline: read → validate → model → render →
// index → write. It owns no format or page knowledge of its own; it wires
// the stages, spreads the work over the cores and reports what happened.
package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/read"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/generator/validate"
	"github.com/errdocs/errdocs/internal/cputime"
)

// Config says what to build and how.
type Config struct {
	Paths       []string // files and folders of records; default content/
	Out         string   // the site folder; default site/
	CacheDir    string   // highlight cache and search index; default .errdocs-cache beside Out
	Templates   fs.FS    // page templates
	Static      fs.FS    // static assets
	Strict      bool     // any rejected record fails the build
	RejectsFile string   // write rejected records here as JSON Lines
	Title       string
	Description string
	BaseURL     string
	PerPage     int
	ReportURL   string // record pages' "Report a problem" link template; "" for none
	IndexFile   bool   // links name index.html (opened from disk)
	Workers     int    // default: the number of cores
	// Verify skips the no-change fast path: the build looks at every
	// output file and rewrites those not as it wrote them (edited or
	// deleted by hand), which a build whose inputs did not change does not
	// notice otherwise.
	Verify bool

	// Garbage, when set, is told whether what the build does next makes
	// much short-lived garbage beside a small live heap: true before a
	// build with no page cache (it reads and renders everything) and
	// before rendering many pages; false once a rebuild turns out not to
	// be of a few records (no early export: it builds the site model
	// anew, or exports the index whole), beside a live heap of every
	// record's summary. A rebuild of a few records is told nothing. A
	// command may have its heap backed by huge pages and collect less
	// often in the first case, and collect as usual in small pages in
	// the second (cmd/errdocs does).
	Garbage func(much bool)
	// ExpectMapped, when set, is told how many bytes of the index's
	// mapped files the build is about to read (before a whole export),
	// for a command that keeps resident memory inside a budget to make
	// room before their pages arrive (cmd/errdocs does).
	ExpectMapped func(bytes int64)
	// ExpectHeap, when set, is told as a rebuild begins how much fresh
	// memory the previous rebuild of the site took (memahead.go), for a
	// command that can have it faulted in ahead of the heap on an idle
	// core; it returns how much it will fault in (cmd/errdocs does:
	// internal/hugepages.Prefault).
	ExpectHeap func(bytes int64) int64

	// Progress, when set, is told how far a stage has got.
	Progress func(stage string, done, total int)
	// StageDone, when set, is called as each stage of the pipeline ends,
	// with the stage's name (as Report.Stages names it).
	StageDone func(stage string)
	// Problem, when set, is told each problem as it is found (one line
	// each: a file that is not JSON, a rejected record, an unusable
	// message pattern). Problems are reported; they do not stop the build.
	Problem func(msg string)
	// cacheProblem reports a cache that could not be read or saved (it
	// only costs the next build time); default Problem.
	cacheProblem func(msg string)
}

// Report says what a run did.
type Report struct {
	Files       int // files read
	Cached      int // record files whose records came from the read cache, unread
	Hashed      int // files the manifest check read to hash (the others it knew from the read cache)
	Inputs      InputStats
	Read        int    // records read
	Built       int    // record pages built
	Reused      int    // record pages kept from the previous build unrendered
	Reread      int    // record files render+index read again for the records it renders or indexes (-1: all)
	Rejected    int    // records left out
	FileErrors  int    // files or entries that could not be read
	FilesFailed int    // files that could not be read at all
	Unusable    int    // message patterns the browser cannot match
	Search      string // how the search export was made: kept, whole, incremental
	// SitemapsKept says the sitemap files were kept as the previous
	// build wrote them, not made again: no page they list changed.
	SitemapsKept bool
	Export       ExportSchedule // when the search export was made
	Written      int64
	Unchanged    int64
	Removed      int64
	Publish      string // how the site was published: new, unchanged, in place, swap
	Bytes        int64
	Stages       []Stage
	// NoChange says the build took the no-change fast path: nothing it
	// is made from changed since the last build, which it took at its
	// word (the counts above are that build's; nothing was written).
	NoChange bool
	// NoChangeMissed says why a build did not take the fast path, and
	// StampSkipped why it left no stamp for the next build's ("" when it
	// left one).
	NoChangeMissed, StampSkipped string
	// MemoryAhead is how much memory the command said it would fault in
	// ahead of the heap (Config.ExpectHeap).
	MemoryAhead int64
	// InUse is the most memory the Go runtime had in use at a stage's end
	// (heap spans in use, stacks, its own tables), where it says: what a
	// rebuild's heap took, beside the memory faulted in ahead for it.
	InUse uint64
	// OutputsLooked counts the previous site's files the build looked at
	// (one lstat each) to know whether they are still as written.
	OutputsLooked int
}

// Stage is the time one stage of the pipeline took.
type Stage struct {
	Name string
	Time time.Duration
	// Held is the anonymous memory the process had resident when the
	// stage ended (heap, stacks; not the files it maps), where the system
	// says (Linux): its growth from stage to stage is memory touched for
	// the first time, which a virtual machine can make dear
	// (BENCHMARKS.md).
	Held uint64
	// CPU is the CPU time (user and system) the process used during the
	// stage, on every core: work begun earlier and still running
	// beside it (an early export, memory faulted in ahead) counts too.
	CPU time.Duration
}

// heldMemory is Stage.Held now (a variable for tests).
var heldMemory = anonResident

// anonResident is RssAnon in /proc/self/status, 0 where there is none.
func anonResident() uint64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// ErrRejected is returned (wrapped) by a strict build that rejected records.
var ErrRejected = errors.New("records were rejected")

// WithDefaults returns c with the defaults Build fills in (the output, the
// cache folder beside it, ...), for a caller that must know them first.
func (c Config) WithDefaults() Config {
	c.defaults()
	return c
}

func (c *Config) defaults() {
	if len(c.Paths) == 0 {
		c.Paths = []string{"content"}
	}
	if c.Out == "" {
		c.Out = "site"
	}
	if c.CacheDir == "" {
		c.CacheDir = filepath.Join(filepath.Dir(filepath.Clean(c.Out)), ".errdocs-cache")
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.PerPage <= 0 {
		c.PerPage = 100
	}
	if c.Title == "" {
		c.Title = "errdocs"
	}
	if c.Progress == nil {
		c.Progress = func(string, int, int) {}
	}
	if c.Problem == nil {
		c.Problem = func(string) {}
	}
	if c.cacheProblem == nil {
		c.cacheProblem = c.Problem
	}
}

// dataset is what the read and validate stages leave for the others.
type loc struct{ file, index int32 }

type dataset struct {
	raws [][32]byte // sha256 of each record's JSON as read, by site index
	ids  []string   // each record's id, by site index
	// Where each valid record was read, so a second pass can read just the
	// files it needs: the records themselves are not kept, since half a
	// million of them would not fit the memory budget.
	files  []string
	fileID map[string]int32
	// locs is where each record was read, by site index: in read order,
	// so sorted (files are numbered as they are first read), unless a
	// file's records came apart; byLoc then maps a place to its record.
	locs     []loc
	unsorted bool
	byLoc    map[loc]int32
	builder  model.Builder
	extras   *read.Extras
	// byID is the site indexes in the order of the ids (idOrder): the
	// page cache's table of hashes is walked, and written, in it.
	byID     []int32
	byIDOnce sync.Once
}

// idOrder returns the site indexes of the records in the order of their
// ids, sorted once.
func (ds *dataset) idOrder() []int32 {
	ds.byIDOnce.Do(func() { ds.byID = sortedOrder(ds.ids) })
	return ds.byID
}

func (a loc) cmp(b loc) int {
	if a.file != b.file {
		return int(a.file - b.file)
	}
	return int(a.index - b.index)
}

// at returns the site index of the record read at l.
func (ds *dataset) at(l loc) (int32, bool) {
	if ds.unsorted {
		i, ok := ds.byLoc[l]
		return i, ok
	}
	i, ok := slices.BinarySearchFunc(ds.locs, l, loc.cmp)
	return int32(i), ok
}

// rejectLog writes the rejects file. A record taken from the read cache
// and rejected only now (a duplicate of a record in a file that changed)
// has no JSON at hand: from it on, lines wait, in order, until finish
// reads those records again.
type rejectLog struct {
	w       io.Writer
	pending []pendingReject
}

type pendingReject struct {
	rj   validate.Reject
	raw  [32]byte
	need bool
}

func (l *rejectLog) add(rj validate.Reject, raw [32]byte, need bool) error {
	if l.w == nil {
		return nil
	}
	if need || len(l.pending) > 0 {
		rj.Raw = bytes.Clone(rj.Raw)
		l.pending = append(l.pending, pendingReject{rj, raw, need})
		return nil
	}
	return l.write(rj)
}

func (l *rejectLog) write(rj validate.Reject) error {
	line, err := json.Marshal(rj)
	if err != nil {
		return err
	}
	if _, err := l.w.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("rejects file: %w", err)
	}
	return nil
}

// finish reads the records that waiting lines lack and writes the lines.
func (l *rejectLog) finish() error {
	if len(l.pending) == 0 {
		return nil
	}
	type at struct {
		file  string
		index int
	}
	want := map[at]*pendingReject{}
	var paths []string
	for k := range l.pending {
		p := &l.pending[k]
		if p.need {
			if len(want) == 0 || !slices.Contains(paths, p.rj.Source.File) {
				paths = append(paths, p.rj.Source.File)
			}
			want[at{p.rj.Source.File, p.rj.Source.Index}] = p
		}
	}
	read.Read(paths, func(it read.Item) error {
		if p := want[at{it.Source.File, it.Source.Index}]; p != nil && sha256.Sum256(it.Raw) == p.raw {
			p.rj.Raw = bytes.Clone(it.Raw)
			p.need = false
		}
		return nil
	})
	for _, p := range l.pending {
		if p.need {
			return fmt.Errorf("%s changed during the build; build again", p.rj.Source)
		}
		if err := l.write(p.rj); err != nil {
			return err
		}
	}
	l.pending = nil
	return nil
}

// stream reads the records of the given files again (all files when only
// is nil) and calls fn with each valid record's site index and raw JSON,
// in read order. A record whose bytes differ from the first pass means a
// file changed during the build: that is an error, not a silent mix.
func (ds *dataset) stream(c *Config, only map[int32]bool, fn func(i int32, raw []byte) error) error {
	paths := c.Paths
	if only != nil {
		paths = paths[:0:0]
		for fid := range only {
			paths = append(paths, ds.files[fid])
		}
		slices.Sort(paths)
	}
	// Problems with files were reported by the first pass; only what fn
	// says, or a record gone missing, fails this one.
	var fnErr error
	seen := 0
	read.Read(paths, func(it read.Item) error {
		fid, ok := ds.fileID[it.Source.File]
		if !ok {
			return nil
		}
		i, ok := ds.at(loc{fid, int32(it.Source.Index)})
		if !ok {
			return nil // a rejected record
		}
		if sha256.Sum256(it.Raw) != ds.raws[i] {
			fnErr = fmt.Errorf("%s changed during the build; build again", it.Source)
			return fnErr
		}
		seen++
		fnErr = fn(i, it.Raw)
		return fnErr
	})
	if fnErr == nil && only == nil && seen != len(ds.raws) {
		fnErr = fmt.Errorf("the input changed during the build (%d records read, %d before); build again", seen, len(ds.raws))
	}
	return fnErr
}

func (ds *dataset) locOf(i int32) loc { return ds.locs[i] }

// decode decodes a record that the first pass validated.
func decode(raw []byte) (*record.Record, error) {
	rec, problems := validate.Record(raw)
	if len(problems) > 0 {
		return nil, fmt.Errorf("record changed during the build: %s", problems[0])
	}
	return &rec, nil
}

// extrasKey is the export extras as bytes, for the dataset key.
func (ds *dataset) extrasKey() []byte {
	if ds.extras == nil {
		return nil
	}
	b, _ := json.Marshal([]any{ds.extras.Repos, ds.extras.Infos})
	return b
}

// Check reads and validates only.
func Check(ctx context.Context, c Config) (*Report, error) {
	c.defaults()
	rep := &Report{}
	closeRejects, rejects, err := openRejects(c.RejectsFile)
	if err != nil {
		return rep, err
	}
	defer closeRejects()
	start, startCPU := time.Now(), cputime.Process()
	if _, err := load(&c, rep, rejects, nil); err != nil {
		return rep, err
	}
	rep.Built = rep.Read - rep.Rejected
	rep.Stages = append(rep.Stages, Stage{"read+validate", time.Since(start), heldMemory(), cputime.Process() - startCPU})
	if c.Strict && (rep.Rejected > 0 || rep.FileErrors > 0) {
		return rep, fmt.Errorf("%d records rejected, %d files unreadable: %w", rep.Rejected, rep.FileErrors, ErrRejected)
	}
	return rep, nil
}

func openRejects(path string) (func(), io.Writer, error) {
	if path == "" {
		return func() {}, nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, fmt.Errorf("rejects file: %w", err)
	}
	return func() { f.Close() }, f, nil
}

// parallel runs fn(i) for i in [0, n) on workers goroutines and returns
// the first error; the others still finish their current item. Workers
// take the indexes in runs, so a cheap fn is not swamped by handing out.
func parallel(ctx context.Context, n, workers int, fn func(i int) error) error {
	const run = 256
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  atomic.Int64
		stop  atomic.Bool
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				lo := int(next.Add(run)) - run
				if lo >= n || ctx.Err() != nil {
					return
				}
				for i := lo; i < min(lo+run, n); i++ {
					if err := fn(i); err != nil {
						mu.Lock()
						if first == nil {
							first = err
						}
						mu.Unlock()
						stop.Store(true)
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}
