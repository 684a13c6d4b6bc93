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
	Files      int // files read
	Read       int // records read
	Built      int // record pages built
	Reused     int // record pages kept from the previous build unrendered
	Rejected   int // records left out
	FileErrors int // files or entries that could not be read
	Unusable   int // message patterns the browser cannot match
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
type dataset struct {
	records []*record.Record // index = site index
	raws    [][32]byte       // sha256 of each record's JSON as read
	builder site.Builder
	extras  *read.Extras
}

// load reads and validates every record, reporting problems as it goes.
func load(c *Config, rep *Report, rejects io.Writer) (*dataset, error) {
	ds := &dataset{}
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
	r := *rec
	ds.records = append(ds.records, &r)
	ds.raws = append(ds.raws, raw)
	ds.builder.Add(site.Summarize(&r))
	if rep.Read%1000 == 0 {
		c.Progress("read", rep.Read, 0)
	}
	return nil
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
