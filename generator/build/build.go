// Package build runs the pipeline: read → validate → model → render →
// index → write. It owns no format or page knowledge of its own; it wires
// the stages, spreads the work over the cores and reports what happened.
package build

import (
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
	"sync"
	"time"

	"github.com/errdocs/errdocs/generator/read"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/generator/site"
	"github.com/errdocs/errdocs/generator/validate"
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
	IndexFile   bool // offline bundle: links name index.html
	Workers     int  // default: the number of cores

	// Progress, when set, is told how far a stage has got.
	Progress func(stage string, done, total int)
	// Problem, when set, is told each problem as it is found (one line
	// each: a file that is not JSON, a rejected record, an unusable
	// message pattern). Problems are reported; they do not stop the build.
	Problem func(msg string)
}

// Report says what a run did.
type Report struct {
	Files      int    // files read
	Read       int    // records read
	Built      int    // record pages built
	Reused     int    // record pages kept from the previous build unrendered
	Rejected   int    // records left out
	FileErrors int    // files or entries that could not be read
	Unusable   int    // message patterns the browser cannot match
	Search     string // how the search export was made: kept, whole, incremental
	Written    int64
	Unchanged  int64
	Removed    int64
	Publish    string // how the site was published: new, unchanged, in place, swap
	Bytes      int64
	Stages     []Stage
}

// Stage is the time one stage of the pipeline took.
type Stage struct {
	Name string
	Time time.Duration
}

// ErrRejected is returned (wrapped) by a strict build that rejected records.
var ErrRejected = errors.New("records were rejected")

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
}

// dataset is what the read and validate stages leave for the others.
type loc struct{ file, index int32 }

type dataset struct {
	raws [][32]byte // sha256 of each record's JSON as read, by site index
	// Where each valid record was read, so a second pass can read just the
	// files it needs: the records themselves are not kept, since half a
	// million of them would not fit the memory budget.
	files   []string
	fileID  map[string]int32
	byLoc   map[loc]int32
	locs    []loc
	byID    map[string]int32
	builder site.Builder
	extras  *read.Extras
}

// load reads and validates every record, reporting problems as it goes.
func load(c *Config, rep *Report, rejects io.Writer) (*dataset, error) {
	ds := &dataset{fileID: map[string]int32{}, byLoc: map[loc]int32{}, byID: map[string]int32{}}
	set := validate.NewSet()
	files := map[string]bool{}

	// Records are validated in batches on every core; the batches come back
	// in read order, so uniqueness (first occurrence wins) and the site's
	// record order stay deterministic.
	type checked struct {
		it       read.Item
		rec      record.Record
		problems []validate.Problem
		raw      [32]byte
	}
	type batch struct {
		items []checked
		done  chan struct{}
	}
	const batchSize = 256
	queue := make(chan *batch, 4*c.Workers)
	work := make(chan *batch, 4*c.Workers)
	var wg sync.WaitGroup
	for w := 0; w < c.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				for k := range b.items {
					ck := &b.items[k]
					ck.rec, ck.problems = validate.Record(ck.it.Raw)
					ck.raw = sha256.Sum256(ck.it.Raw)
				}
				close(b.done)
			}
		}()
	}
	var consumeErr error
	consumed := make(chan struct{})
	go func() {
		defer close(consumed)
		for b := range queue {
			<-b.done
			if consumeErr != nil {
				continue
			}
			for k := range b.items {
				if err := ds.take(c, rep, set, &b.items[k].it, &b.items[k].rec, b.items[k].problems, b.items[k].raw, rejects); err != nil {
					consumeErr = err
					break
				}
			}
		}
	}()
	cur := &batch{done: make(chan struct{})}
	flush := func() {
		if len(cur.items) > 0 {
			queue <- cur
			work <- cur
			cur = &batch{done: make(chan struct{})}
		}
	}
	extras, errs := read.Read(c.Paths, func(it read.Item) error {
		files[it.Source.File] = true
		cur.items = append(cur.items, checked{it: it})
		if len(cur.items) == batchSize {
			flush()
		}
		return nil
	})
	flush()
	close(work)
	close(queue)
	wg.Wait()
	<-consumed
	if consumeErr != nil {
		return nil, consumeErr
	}
	for _, err := range errs {
		rep.FileErrors++
		c.Problem(err.Error())
	}
	rep.Files = len(files)
	if extras != nil {
		ds.builder.AddRepoEntries(extras.Repos)
		ds.builder.AddInfos(extras.Infos)
	}
	ds.extras = extras
	return ds, nil
}

// take adds one validated record to the dataset, or reports it rejected.
func (ds *dataset) take(c *Config, rep *Report, set *validate.Set, it *read.Item, rec *record.Record,
	problems []validate.Problem, raw [32]byte, rejects io.Writer) error {
	rep.Read++
	if len(problems) == 0 {
		problems = set.Add(it.Source, rec)
	}
	if len(problems) > 0 {
		rep.Rejected++
		rj := validate.Reject{Source: it.Source, ID: rec.ID, Problems: problems, Raw: it.Raw}
		c.Problem(rj.Error())
		if rejects != nil {
			line, err := json.Marshal(rj)
			if err != nil {
				return err
			}
			if _, err := rejects.Write(append(line, '\n')); err != nil {
				return fmt.Errorf("rejects file: %w", err)
			}
		}
		return nil
	}
	fid, ok := ds.fileID[it.Source.File]
	if !ok {
		fid = int32(len(ds.files))
		ds.files = append(ds.files, it.Source.File)
		ds.fileID[it.Source.File] = fid
	}
	i := ds.builder.Add(site.Summarize(rec))
	ds.byLoc[loc{fid, int32(it.Source.Index)}] = i
	ds.locs = append(ds.locs, loc{fid, int32(it.Source.Index)})
	ds.byID[rec.ID] = i
	ds.raws = append(ds.raws, raw)
	if rep.Read%1000 == 0 {
		c.Progress("read", rep.Read, 0)
	}
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
		i, ok := ds.byLoc[loc{fid, int32(it.Source.Index)}]
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

// index returns the site index of a record decoded in the second pass.
func (ds *dataset) index(rec *record.Record) int32 {
	return ds.byID[rec.ID]
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
	start := time.Now()
	if _, err := load(&c, rep, rejects); err != nil {
		return rep, err
	}
	rep.Built = rep.Read - rep.Rejected
	rep.Stages = append(rep.Stages, Stage{"read+validate", time.Since(start)})
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
// the first error; the others still finish their current item.
func parallel(ctx context.Context, n, workers int, fn func(i int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		mu.Lock()
		stop := first != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}
