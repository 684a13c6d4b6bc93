package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/errdocs/errdocs/generator/feed"
	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/index/export"
	"github.com/errdocs/errdocs/generator/markup/highlight"
	"github.com/errdocs/errdocs/generator/markup/markdown"
	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/publish"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/generator/render"
	"github.com/errdocs/errdocs/internal/cachefile"
	"github.com/errdocs/errdocs/internal/cputime"
	"github.com/errdocs/errdocs/internal/ordered"
	"github.com/errdocs/errdocs/internal/strsort"
)

// Build runs the whole pipeline and publishes the site. On any error the
// previous site is left as it was.
//
// A build whose inputs, settings and output are as the last successful
// build left them takes the no-change fast path (see noChange) unless
// c.Verify is set.
func Build(ctx context.Context, c Config) (*Report, error) {
	start, startCPU := time.Now(), cputime.Process()
	c.defaults()
	primeBinaryHash(c.CacheDir)
	ahead := expectMemory(&c)
	nc := prepareNoChange(&c)
	rep, missed := nc.serve(&c, start, startCPU)
	if rep != nil {
		rep.MemoryAhead = ahead.faulted
		return rep, nil
	}
	nc.forget()
	rep, err := buildOnce(ctx, c, nc, start, startCPU, ahead)
	if errors.Is(err, publish.ErrGone) && !c.Verify {
		// The build trusted the site's files as the page cache noted them
		// and one was deleted by hand: the previous site is untouched.
		// Build again, looking at every file; the input's problems were
		// reported already.
		c.Verify, c.Problem = true, func(string) {}
		nc = nc.again()
		rep, err = buildOnce(ctx, c, nc, time.Now(), cputime.Process(), memoryAhead{prev: ahead.prev})
	}
	if err == nil {
		// A stamp that cannot be saved only costs the next build time.
		skipped, serr := nc.save(c.Out, rep)
		if serr != nil {
			c.cacheProblem("no-change stamp: " + serr.Error())
			skipped = serr.Error()
		}
		rep.StampSkipped = skipped
	}
	if rep != nil {
		rep.NoChangeMissed = missed
	}
	return rep, err
}

// buildOnce runs the pipeline once.
func buildOnce(ctx context.Context, c Config, nc *noChange, start time.Time, startCPU time.Duration, ahead memoryAhead) (*Report, error) {
	nc.watch(&c)
	b := &build{ctx: ctx, c: &c, rep: &Report{MemoryAhead: ahead.faulted}, nc: nc, ahead: ahead}
	b.timer = stageTimer{rep: b.rep, last: start, hook: c.StageDone, lastCPU: startCPU}
	b.startHeld = heldMemory()
	err := b.run()
	if err == nil {
		b.keepMemory()
	}
	return b.rep, err
}

// A build is one run of the pipeline. Its stages are the methods run calls
// in turn (the stages Report.Stages names); its fields are what one stage
// hands the next.
type build struct {
	ctx   context.Context
	c     *Config
	rep   *Report
	timer stageTimer
	nc    *noChange

	// Loaded beside the reading (startLoading): the page cache, the
	// search index when an early export may want it, and the fingerprints
	// of the previous site's files.
	pcPath   string
	pcLoaded chan loadedCache
	looked   chan lookedFiles
	// lookedDone is closed once the previous files were looked at: that
	// reads the page cache's mapping, which is not closed before.
	lookedDone chan struct{}
	opening    *indexOpening
	gotCache   bool
	// rebuild says a previous build left its page cache; renderedMany
	// that this one renders many pages all the same (Config.Garbage);
	// startHeld is the anonymous memory the process held as it began;
	// ahead what it knew of the memory it would take (memahead.go).
	rebuild, renderedMany bool
	startHeld             uint64
	ahead                 memoryAhead

	ds        *dataset      // read+validate
	out       *publish.Site // the site being written
	assets    map[string]string
	global    fileKey // the key of everything but the data (gerr: none)
	gerr      error
	prev      *pageCache // what the previous build made
	prevBytes []byte
	prevMap   *cachefile.Mapping // prevBytes' mapping
	known     chan struct{}      // closed once the site knows the previous files
	knowFiles func()

	schedule ExportSchedule
	diff     indexedDiff // the dataset against the previous table of hashes
	early    *earlyExport
	idx      *index.Index
	exporter *export.Exporter // set once the export ran
	exportMu sync.Mutex
	exported []string // the export's files, as written or kept

	m  *model.Model
	hl *highlight.Highlighter
	r  *render.Renderer

	// check: what the next page cache holds, and the record pages to make.
	next          *pageCache
	exportEntries entryMap // the search export's files: a table of their own
	nextMu        sync.Mutex
	keys          []fileKey
	rels          []string
	need          []bool  // by model index
	order         []int32 // model indexes in the order of their pages' paths
	nNeed         int
	// prevRecords are the paths of the previous site's record pages that
	// no page of this build has, staying how many others there are;
	// trusted says the page cache's fingerprints of the previous files
	// are taken for theirs (lookedFiles).
	prevRecords []string
	staying     int
	// copied are the runs of the previous table of record pages that the
	// next one holds as they are (nil: the next one is encoded whole).
	copied  []copyRun
	trusted bool
	dkey    fileKey
	tables  pageTables
}

type loadedCache struct {
	pc      *pageCache
	data    []byte             // the file's bytes, mapped (m)
	m       *cachefile.Mapping // closed by run, after the next cache is saved
	opening *indexOpening
}

// run runs the stages in order.
func (b *build) run() (err error) {
	closeRejects, rejects, err := openRejects(b.c.RejectsFile)
	if err != nil {
		return err
	}
	defer closeRejects()
	if w := b.nc.teeRejects(rejects); w != nil {
		rejects = w
	}
	b.startLoading()
	_, pcErr := os.Stat(b.pcPath)
	b.rebuild = pcErr == nil
	if b.c.Garbage != nil && !b.rebuild {
		b.c.Garbage(true)
	}
	// The index opened early is closed on the way out unless a stage took
	// it, also when the build fails before it got the page cache.
	defer func() {
		if !b.gotCache {
			lc := <-b.pcLoaded
			b.opening, b.prevMap = lc.opening, lc.m
		}
		b.opening.discard()
		b.prevBytes = nil
		<-b.lookedDone
		b.prevMap.Close()
	}()
	if err := b.readValidate(rejects); err != nil {
		return err
	}
	if b.out, err = publish.Begin(b.c.Out); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			b.out.Abort()
		}
	}()
	// Whatever happens, an early export is done before the site is aborted
	// or published (it writes into it), and the index is closed after.
	defer b.closeIndex()
	steps := []func() error{b.cache, b.model, b.setup, b.check, b.renderIndex, b.listings, b.export, b.write}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// startLoading reads and decodes the page cache beside the reading of the
// records: it depends on nothing they give. So is the search index opened
// when a previous build indexed few enough records for an early export to
// be possible, and the previous site's files looked at, which the cache
// says were written: whether each is still as written is asked for most
// of them later.
func (b *build) startLoading() {
	c := b.c
	b.pcPath = pageCachePath(c.CacheDir, c.Out)
	b.pcLoaded = make(chan loadedCache, 1)
	b.looked = make(chan lookedFiles, 1)
	b.lookedDone = make(chan struct{})
	go func() {
		defer close(b.lookedDone)
		pc, data, m := loadPageCache(b.pcPath)
		var opening *indexOpening
		if pc.indexed.known && pc.indexed.n <= maxOverlap {
			opening = openIndex(filepath.Join(c.CacheDir, "index"))
		}
		b.pcLoaded <- loadedCache{pc, data, m, opening}
		b.looked <- previousFiles(c, pc)
	}()
}

// lookedFiles is what a build knows of the previous site's files: their
// fingerprints, and how many it looked at on disk to know them.
type lookedFiles struct {
	prints func(rel string) (publish.Fingerprint, bool)
	looked int
	// trusted says the prints are the page cache's own: a record page
	// the cache notes is taken to be as written (publish.Site.Keep).
	trusted bool
}

// previousFiles returns the fingerprints of the previous site's files.
// When the site is the one the page cache describes (its marker is the
// one the cache noted) they are taken from the cache unless c.Verify is
// set: a file edited or deleted by hand is not noticed, as in a no-change
// build (see noChange), and looking at every file was the largest cost
// of a one-record rebuild. Else every file is looked at (one lstat each).
func previousFiles(c *Config, pc *pageCache) lookedFiles {
	if marker, ok := publish.Current(c.Out); ok && !c.Verify && marker == pc.Marker && pc.size() > 0 {
		// The cache's own table, not a copy: it is only read from now on.
		// The record pages' are not in it: check keeps those it trusts.
		return lookedFiles{prints: func(rel string) (publish.Fingerprint, bool) {
			e, ok := pc.Entries[rel]
			return e.Print, ok
		}, trusted: true}
	}
	rels := make([]string, 0, pc.size())
	for rel := range pc.Entries {
		rels = append(rels, rel)
	}
	// A damaged table was refused when the cache was loaded.
	pc.walkRecords(func(rel []byte, _ *cacheEntry) bool {
		rels = append(rels, string(rel))
		return true
	})
	prints := publish.Look(c.Out, rels, c.Workers)
	return lookedFiles{prints: func(rel string) (publish.Fingerprint, bool) {
		fp, ok := prints[rel]
		return fp, ok
	}, looked: len(rels)}
}

// readValidate is the stage read+validate.
func (b *build) readValidate(rejects io.Writer) error {
	ds, err := load(b.c, b.rep, rejects, newReadCache(filepath.Join(b.c.CacheDir, "read")))
	if err != nil {
		return err
	}
	b.ds = ds
	b.nc.readDone()
	b.timer.done("read+validate")
	if b.c.Strict && (b.rep.Rejected > 0 || b.rep.FileErrors > 0) {
		return fmt.Errorf("%d records rejected, %d files unreadable; the previous site is untouched: %w", b.rep.Rejected, b.rep.FileErrors, ErrRejected)
	}
	// Every record rejected: an empty site replacing the previous one is
	// never what was meant.
	if b.rep.Read > 0 && b.rep.Read == b.rep.Rejected {
		return fmt.Errorf("all %d records were rejected; the previous site is untouched: %w", b.rep.Read, ErrRejected)
	}
	return nil
}

// cache is the stage cache: the assets written, the previous build's page
// cache taken, and an early export started when it can be.
func (b *build) cache() error {
	if b.rebuild && len(b.ds.ids) <= maxOverlap {
		// The records in id order, which the early export's look at the
		// previous build's table wants: sorted beside the assets and the
		// page cache's loading, unless the reading's check of unique ids
		// gave it (validate.Bulk.IDOrder).
		go b.ds.idOrder()
	}
	var err error
	if b.assets, err = writeAssets(b.out, b.c.Static, filepath.Join(b.c.CacheDir, "assets")); err != nil {
		return err
	}
	b.global, b.gerr = globalKey(b.c, b.assets)
	b.prev = &pageCache{Entries: map[string]cacheEntry{}}
	lc := <-b.pcLoaded
	b.gotCache, b.opening, b.prevMap = true, lc.opening, lc.m
	if b.gerr == nil {
		b.prev, b.prevBytes = lc.pc, lc.data
	}
	// The cache describes the site only if no other build changed it since.
	if marker, ok := b.out.Previous(); !ok || marker != b.prev.Marker {
		b.prev = &pageCache{Entries: map[string]cacheEntry{}}
	}
	// The export asks the site about the previous site's files only once
	// their fingerprints are known (it may start before): knowFiles hands
	// them to the site, once, and is called on the way out in any case,
	// before an early export is waited for.
	b.known = make(chan struct{})
	b.knowFiles = sync.OnceFunc(func() {
		prev := <-b.looked
		b.rep.OutputsLooked = prev.looked
		if b.gerr == nil {
			b.out.KnownBy(prev.prints)
			b.trusted = prev.trusted
		}
		// Before an early export keeps its files: the site's table is
		// sized once, for the files other than the record pages, which
		// check keeps as a block (publish.Site.KeepSorted).
		b.out.Expect(len(b.prev.Entries))
		close(b.known)
	})
	// A rebuild that changes a few records updates the search index and
	// exports it on a goroutine of its own, beside the site model, the
	// record pages and the listings, none of which it needs: on a
	// one-record rebuild of 100,000 records the export is half the time.
	// It starts as soon as the records are read.
	if b.gerr == nil && b.prev.indexed.known && len(b.ds.ids) <= maxOverlap {
		d := &b.diff
		d.edited, d.held, d.ok = b.prev.indexed.diff(b.ds.ids, b.ds.raws, b.ds.idOrder(), maxEarly, b.c.Workers)
		if b.early, err = startEarlyExport(b.c, b.ds, b.prev, b.diff, b.openIndex, func(idx *index.Index) error { return b.doExport(idx, nil) }); err != nil {
			b.knowFiles()
			return err
		}
	}
	if b.early != nil {
		b.idx = b.early.idx
		b.setSchedule(ExportEarly)
	} else if b.rebuild && b.c.Garbage != nil {
		// Not a rebuild of a few records: it builds the site model anew,
		// or exports the index whole, beside a live heap of every
		// record's summary.
		b.c.Garbage(false)
	}
	b.timer.done("cache")
	return nil
}

// openIndex opens the search index, or takes the one opened beside the
// reading.
func (b *build) openIndex() (*index.Index, error) {
	if b.opening != nil && !b.opening.taken {
		return b.opening.take()
	}
	return index.Open(filepath.Join(b.c.CacheDir, "index"))
}

// closeIndex ends an early export (handing it the previous files' prints
// first: it may wait for them) and closes the index, unless write handed
// it on.
func (b *build) closeIndex() {
	if b.early != nil {
		b.knowFiles()
		b.early.wait()
	}
	if b.idx != nil {
		b.idx.Close()
	}
}

func (b *build) setSchedule(s ExportSchedule) {
	b.schedule = s
	b.rep.Export = s
}

// model is the stage model.
func (b *build) model() error {
	rc := newRelatedCache(filepath.Join(b.c.CacheDir, "model"))
	if rc != nil {
		b.ds.builder.Related = rc
	}
	gc := newGroupCache(filepath.Join(b.c.CacheDir, "model"))
	if gc != nil {
		b.ds.builder.Groups = gc
	}
	b.m = b.ds.builder.Build()
	if rc != nil && rc.err != nil {
		b.c.cacheProblem("related records cache: " + rc.err.Error())
	}
	if gc != nil && gc.err != nil {
		b.c.cacheProblem("groups cache: " + gc.err.Error())
	}
	b.timer.done("model")
	return nil
}

// setup is the stage setup: the highlighter and the renderer.
func (b *build) setup() error {
	c := b.c
	var err error
	if b.hl, err = highlight.New(highlight.Options{CacheDir: filepath.Join(c.CacheDir, "highlight")}); err != nil {
		return err
	}
	b.r, err = render.New(render.Options{
		Templates: c.Templates, Title: c.Title, Description: c.Description,
		BaseURL: c.BaseURL, IndexFile: c.IndexFile, Assets: b.assets, PerPage: c.PerPage,
		ReportURL: c.ReportURL, Markdown: markdown.New(), Highlighter: b.hl,
	})
	if err != nil {
		return err
	}
	b.timer.done("setup")
	return nil
}

// noteEntry notes a file of the next page cache.
func (b *build) noteEntry(rel string, e cacheEntry) {
	b.nextMu.Lock()
	b.next.Entries[rel] = e
	b.nextMu.Unlock()
}

// check is the stage check: which record pages must be rendered (those
// whose inputs changed or whose file is no longer on disk as written),
// whether the search export is kept, and when it is made otherwise.
func (b *build) check() error {
	// The fingerprints of the previous site's files, looked at beside the
	// reading and the site model: what follows asks about those files.
	b.knowFiles()
	prev, out := b.prev, b.out
	// The record pages are noted from b.rels and b.keys (notePages), not
	// in the table: it holds the site's other files.
	b.next = &pageCache{Entries: make(map[string]cacheEntry, len(prev.Entries))}
	b.exportEntries = entryMap{}
	if b.gerr == nil {
		b.r.SetCache(newListingCache(b.global, prev, out, b.noteEntry))
	}
	total := len(b.m.Summaries)
	b.keys, b.rels, b.need = make([]fileKey, total), make([]string, total), make([]bool, total)
	err := parallel(b.ctx, (total+pathChunk-1)/pathChunk, b.c.Workers, func(c int) error {
		lo := c * pathChunk
		hi := min(lo+pathChunk, total)
		recordPaths(b.m.Summaries[lo:hi], b.rels[lo:hi])
		return nil
	})
	if err != nil {
		return err
	}
	err = parallel(b.ctx, total, b.c.Workers, func(k int) error {
		i := int32(k)
		b.keys[i] = recordKey(b.global, b.m, b.rels, i, b.ds.raws[i])
		b.need[i] = true
		return nil
	})
	if err != nil {
		return err
	}
	b.order = pathOrder(b.m, b.rels)
	if err := b.reuseRecordPages(); err != nil {
		return err
	}
	// The pages to render, unless kept one by one.
	out.Expect(prev.size())
	b.rep.Built = total
	b.renderedMany = b.nNeed > manyPages(total)
	if b.c.Garbage != nil && b.renderedMany {
		b.c.Garbage(true)
	}
	b.rep.Reused = total - b.nNeed
	b.dkey = datasetKey(b.global, b.m, b.ds.raws, b.ds.extrasKey())
	if b.early == nil && prev.reuseAll(out, kindExport, b.dkey) {
		b.setSchedule(chooseExport(exportFacts{kept: true}))
	}
	b.timer.done("check")
	return nil
}

// pathChunk is how many record pages' paths recordPaths makes at once.
const pathChunk = 4096

// recordPaths sets rels to each record page's path (Path() +
// "index.html"), all cut from one block of bytes: half a million strings
// made one by one cost an allocation each, and the collector's work on
// them. A path is not written again once cut.
func recordPaths(sums []model.Summary, rels []string) {
	const tail = "/index.html"
	n := 0
	for i := range sums {
		n += len(sums[i].Repo) + 1 + len(sums[i].Slug) + len(tail)
	}
	blk := make([]byte, 0, n)
	for i := range sums {
		start := len(blk)
		blk = append(append(append(append(blk, sums[i].Repo...), '/'), sums[i].Slug...), tail...)
		rels[i] = unsafe.String(&blk[start], len(blk)-start)
	}
}

// stringBytes is s's bytes, not copied, for reading only.
func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// manyPages is how many record pages to render, of total, make a build
// one of much garbage (Config.Garbage): about one page in ten.
func manyPages(total int) int { return total / 10 }

// emitAs writes the site's other pages, noting them in the page cache
// under the dataset key.
func (b *build) emitAs(kind uint8) func(string, []byte) error {
	return b.emitKeyed(kind, b.dkey)
}

// emitKeyed writes files of a kind, noting them in the page cache under
// key.
func (b *build) emitKeyed(kind uint8, key fileKey) func(string, []byte) error {
	return func(rel string, data []byte) error {
		b.nextMu.Lock()
		// A listing's pages were noted already, with their own key.
		if _, ok := b.next.Entries[rel]; !ok {
			b.next.Entries[rel] = cacheEntry{Kind: kind, Key: key}
		}
		b.nextMu.Unlock()
		return b.out.WriteFile(rel, data)
	}
}

// renderIndex is the stage render+index. It reads the records again, for
// the pages to render and, when the search index must change (and no early
// export does it), for the index: all files then, else only the files that
// hold a page to render.
func (b *build) renderIndex() error {
	var streamIdx *index.Index // the index this stage updates
	if b.schedule == ExportNone {
		idx, err := b.openIndex()
		if err != nil {
			return err
		}
		// Closed, and let go, as soon as the export state is saved: the
		// index holds every record's doc data.
		b.idx, streamIdx = idx, idx
		// Batches of a thousand records: bleve holds a batch's analysed
		// documents while it builds the batch's segment, so memory grows
		// with the batch, and smaller batches cost no time (BENCHMARKS.md,
		// "Figures behind the code").
		idx.BatchSize = 1000
	}
	pages := b.startRendering()
	// The search index is updated from the records that changed since it
	// was last updated, when the cache says which; else from all of them.
	var changed map[int32]bool
	present := 0 // records of the dataset that the index holds
	if streamIdx != nil {
		f := exportFacts{records: len(b.ds.ids)}
		if b.prev.indexed.known && streamIdx.Len() == b.prev.indexed.n {
			changed, present = changedRecords(b.ds, b.prev, streamIdx, b.c.Workers)
			f.known, f.changed, f.restructured = true, len(changed), restructured(b.ds, changed, present, streamIdx)
		}
		// Not early: an early export was not possible.
		b.setSchedule(chooseLate(f))
	}
	err := b.stream(streamIdx, changed, present, pages.visit)
	if e := pages.wait(); err == nil || err == errStop {
		err = e
	}
	if err != nil && err != errStop {
		return err
	}
	// Keep this build's highlighting for the next one; a cache that cannot
	// be written only costs the next build time.
	if err := b.hl.Close(); err != nil {
		b.c.cacheProblem(err.Error())
	}
	b.timer.done("render+index")
	return nil
}

// indexAhead is how many records the reading of a cold build may run
// ahead of the index, their index entries made meanwhile on every core.
// While bleve builds a batch's segment, Apply takes no record; reading on
// meanwhile keeps the record pages rendering on the other cores instead of
// leaving them idle for every batch. The records waiting are live heap,
// which a cold build of half a million records holds near its limit: a
// quarter of a batch (renderIndex sets BatchSize) rather than a whole one
// (BENCHMARKS.md, session 25).
const indexAhead = 250

// stream reads the records for the pages (visit) and for the index, when
// this stage updates it (idx): the changed records when the cache says
// which, else all of them.
func (b *build) stream(idx *index.Index, changed map[int32]bool, present int, visit func(int32, []byte, func(*record.Record) bool) error) error {
	c, ds := b.c, b.ds
	var streamErr, err error
	switch {
	case idx != nil && changed == nil:
		b.rep.Reread = -1
		records := func(yield func(*record.Record) bool) {
			streamErr = ds.stream(c, nil, func(i int32, raw []byte) error { return visit(i, raw, yield) })
		}
		if idx.Len() == 0 {
			// Every record is indexed: their entries are made on every
			// core, ahead of the one goroutine that applies them. Nothing
			// to delete: Apply spares the set of every id that Sync keeps
			// to know what to delete.
			entries := ordered.Map(indexAhead, c.Workers, records, idx.Prepare)
			_, err = idx.ApplyEntries(entries, func(string) bool { return true })
		} else {
			_, err = idx.Sync(ordered.Ahead(indexAhead, records))
		}
	case idx != nil || b.nNeed > 0:
		only := map[int32]bool{}
		for i, ok := range b.need {
			if ok {
				only[ds.locOf(int32(i)).file] = true
			}
		}
		for i := range changed {
			only[ds.locOf(i).file] = true
		}
		b.rep.Reread = len(only)
		if len(only) == 0 {
			if idx == nil {
				return nil
			}
			only = nil
		}
		each := func(yield func(*record.Record) bool) {
			if only == nil {
				return
			}
			streamErr = ds.stream(c, only, func(i int32, raw []byte) error {
				if changed[i] {
					return visit(i, raw, yield)
				}
				return visit(i, raw, nil)
			})
		}
		if idx != nil {
			// Ids are unique: when the index holds as many records of the
			// dataset as it holds records, it holds none other, and no
			// record is deleted.
			_, err = idx.Apply(each, keepIDs(ds, present, idx))
		} else {
			each(func(*record.Record) bool { return true })
		}
	}
	if err != nil {
		return err
	}
	return streamErr
}

// pageRendering renders record pages on every core as the records stream
// by, and writes them on one goroutine: creating files from two threads
// at once cost the kernel more CPU for the same files than one thread,
// and took no less time (BENCHMARKS.md, session 25).
type pageRendering struct {
	b        *build
	jobs     chan pageJob
	errs     chan error
	rendered atomic.Int64
	wg       sync.WaitGroup
	writes   chan pageWrite
	written  chan struct{} // closed when every page is written
}

// pageWrite is a rendered page on its way to the writer.
type pageWrite struct {
	rel  string
	page *[]byte // from pageBuffers
	rec  *record.Record
}

// pageBuffers holds the copies of rendered pages between the renderer,
// whose buffer is its own again when RecordFunc returns, and the writer.
var pageBuffers = sync.Pool{New: func() any { return new([]byte) }}

type pageJob struct {
	i   int32
	rec *record.Record
}

func (b *build) startRendering() *pageRendering {
	p := &pageRendering{b: b, jobs: make(chan pageJob, 4*b.c.Workers), errs: make(chan error, 1),
		writes: make(chan pageWrite, 4*b.c.Workers), written: make(chan struct{})}
	go p.write()
	for w := 0; w < b.c.Workers; w++ {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

func (p *pageRendering) work() {
	defer p.wg.Done()
	b := p.b
	for j := range p.jobs {
		i, rec := j.i, j.rec
		// The page's bytes are the renderer's pooled buffer, valid until
		// the callback returns: the writer gets a copy. Its path is the one
		// the page cache notes (one string for both tables).
		err := b.r.RecordFunc(b.m, i, rec, func(page []byte) error {
			buf := pageBuffers.Get().(*[]byte)
			*buf = append((*buf)[:0], page...)
			p.writes <- pageWrite{b.rels[i], buf, rec}
			return nil
		})
		if err != nil {
			p.fail(rec, err)
			continue
		}
		if n := p.rendered.Add(1); n%500 == 0 {
			b.c.Progress("render", int(n), b.nNeed)
		}
	}
}

// write writes the rendered pages, one at a time.
func (p *pageRendering) write() {
	defer close(p.written)
	for w := range p.writes {
		if err := p.b.out.WriteFile(w.rel, *w.page); err != nil {
			p.fail(w.rec, err)
		}
		pageBuffers.Put(w.page)
	}
}

// fail keeps err, a record page's, when it is the first.
func (p *pageRendering) fail(rec *record.Record, err error) {
	select {
	case p.errs <- fmt.Errorf("record %s (%s): %w", rec.ID, rec.Path(), err):
	default:
	}
}

// failed is the first error of a page, or the context's.
func (p *pageRendering) failed() error {
	select {
	case err := <-p.errs:
		p.errs <- err
		return err
	default:
		return p.b.ctx.Err()
	}
}

// visit hands a record read to the renderer when its page is to be made,
// and to yield (the index) when yield is set.
func (p *pageRendering) visit(i int32, raw []byte, yield func(*record.Record) bool) error {
	need := p.b.need[i]
	if !need && yield == nil {
		return nil
	}
	rec, err := decode(raw)
	if err != nil {
		return err
	}
	if need {
		if err := p.failed(); err != nil {
			return err
		}
		p.jobs <- pageJob{i, rec}
	}
	if yield != nil && !yield(rec) {
		return errStop
	}
	return nil
}

// wait ends the rendering and returns the first error.
func (p *pageRendering) wait() error {
	close(p.jobs)
	p.wg.Wait()
	close(p.writes)
	<-p.written
	return p.failed()
}

// listings is the stage listings (listings+export when the export runs
// beside them): every page but the records' and the feeds. Listings are
// kept or made one by one through the listing cache; the few other pages
// and the feeds are made each time, and kept on disk when their bytes did
// not change.
func (b *build) listings() error {
	exportDone := make(chan error, 1)
	if b.schedule == ExportBeside {
		go func() { exportDone <- b.doExport(b.idx, nil) }()
	}
	c := b.c
	err := b.r.Pages(b.m, b.emitAs(kindPages))
	if err == nil {
		err = feed.WriteFeeds(b.m, feed.Options{BaseURL: c.BaseURL, Title: c.Title, Description: c.Description}, b.emitAs(kindPages))
	}
	if err == nil {
		err = b.sitemaps()
	}
	if b.schedule == ExportBeside {
		// The export writes into the site: it must be done before a
		// failed build aborts it.
		if xerr := <-exportDone; err == nil {
			err = xerr
		}
		b.timer.done("listings+export")
	} else {
		b.timer.done("listings")
	}
	return err
}

// sitemaps writes the sitemap files, or keeps them when what they are made
// from (their plan's key: every page they list and its lastmod) is what
// the previous build made them from: a record's documentation edited, the
// common rebuild, changes none of them.
func (b *build) sitemaps() error {
	plan := feed.PlanSitemaps(b.m, b.c.BaseURL)
	if plan == nil {
		return nil
	}
	h := newHasher(b.global)
	plan.Key(h.h)
	key := h.key()
	if b.gerr == nil && b.prev.reuseAll(b.out, kindSitemap, key) {
		b.nextMu.Lock()
		copyKind(b.prev, b.next.Entries, kindSitemap)
		b.nextMu.Unlock()
		b.rep.SitemapsKept = true
		return nil
	}
	return plan.Write(b.emitKeyed(kindSitemap, key))
}

// export is the stage export: what is left of an early export, or the
// export kept whole, or made alone, after the model's last use.
func (b *build) export() error {
	// The page cache's tables: of the records' hashes (Indexed, the
	// last use of the dataset), and of every file but the export's, with
	// their fingerprints, encoded (notePages). notePages runs while an
	// early or overlapping export ends, when the main goroutine has
	// nothing else to do, else after the export, whose memory it would
	// add to.
	b.tables.indexed = b.nextIndexed()
	// Nothing after this reads the dataset, the model or the renderer:
	// the build lets go of them, or a whole export at half a million
	// records would run beside them at the soft memory limit, where the
	// collector runs back to back.
	b.ds, b.m, b.r, b.hl = nil, nil, nil, nil
	switch b.schedule {
	case ExportBeside:
		b.notePages()
	case ExportEarly:
		b.notePages()
		if err := b.early.wait(); err != nil {
			return err
		}
		b.timer.done("export (rest)")
	case ExportKept:
		// The dataset is as it was when the search index was last
		// exported, so the index needs no update and the export is kept
		// whole.
		copyKind(b.prev, b.exportEntries, kindExport)
		b.rep.Unusable = b.prev.Unusable
		b.rep.Search = "kept whole (no record changed)"
		b.timer.done("export")
		b.notePages()
	default:
		// The export maps and reads the index's files, faster than a
		// collector that only sees their pages as they arrive can make
		// room beside them (a large build's resident memory peaked
		// there): the command is told first, and makes only that room,
		// rather than returning the whole free heap to fault it in
		// again.
		if b.c.ExpectMapped != nil {
			b.c.ExpectMapped(index.ReadBytes(filepath.Join(b.c.CacheDir, "index")))
		}
		err := b.doExport(b.idx, b.c.ExpectMapped)
		if b.c.ExpectMapped != nil {
			b.c.ExpectMapped(0) // read: resident, or let go
		}
		if err != nil {
			return err
		}
		b.timer.done("export")
		b.notePages()
	}
	return nil
}

// nextIndexed is the next page cache's table of the records' hashes, in
// pieces: the previous table with the hashes of the records edited
// replaced, when the dataset holds the ids it holds and no others; else
// encoded whole.
func (b *build) nextIndexed() [][]byte {
	d := b.diff
	if d.ok && d.held == len(b.ds.ids) && d.held == b.prev.indexed.n {
		if pieces, ok := patchIndexed(b.prev.indexed, b.ds.ids, b.ds.raws, d.edited); ok {
			return pieces
		}
	}
	return [][]byte{encodeIndexed(b.ds.ids, b.ds.raws, b.ds.idOrder())}
}

// notePages notes the assets in the next page cache, with every file's
// fingerprint, and encodes its table with the record pages' entries,
// which are not put in the table: made from b.rels and b.keys, sorted.
func (b *build) notePages() {
	for p := range b.assets {
		b.noteEntry(b.assets[p], cacheEntry{Kind: kindAsset})
	}
	setPrints(b.out, b.next.Entries)
	b.tables.entries = b.next.Entries.encode()
	b.tables.records = b.encodeRecordPages()
}

// doExport exports the search index into the site. The export may keep
// the files of the previous one that no changed record touches, when they
// are in the published site as written. expect, when set, is told what
// the export is about to read of the index's mapped files, part by part
// (export.Options.Expect).
func (b *build) doExport(idx *index.Index, expect func(int64)) error {
	prev, out := b.prev, b.out
	addExport := func(rel string) {
		b.exportMu.Lock()
		b.exported = append(b.exported, rel)
		b.exportMu.Unlock()
	}
	has := func(rel string) bool {
		<-b.known
		e, ok := prev.Entries[rel]
		return ok && e.Kind == kindExport && out.Unchanged(rel, e.Print)
	}
	keep := func(rel string) bool {
		<-b.known
		e, ok := prev.Entries[rel]
		if !ok || e.Kind != kindExport || !out.Reuse(rel, e.Print) {
			return false
		}
		addExport(rel)
		return true
	}
	emit := func(rel string, data []byte) error {
		<-b.known
		addExport(rel)
		return out.WriteFile(rel, data)
	}
	prevMarker, _ := out.Previous()
	ex := export.New(idx)
	est, err := ex.Export(exportWriter(emit), export.Options{
		Pattern: func(expr string) (json.RawMessage, error) { return pattern.Compile(expr) },
		Has:     has, Keep: keep, PrevMarker: fmt.Sprint(prevMarker),
		Expect: expect,
	})
	if err != nil {
		return err
	}
	b.rep.Unusable = est.PatternErrors
	b.exporter = ex
	b.rep.Search = searchReport(est)
	return nil
}

// searchReport says how the export was made, for --stats.
func searchReport(est export.Stats) string {
	s := fmt.Sprintf("whole, %d files", est.Files)
	if est.Incremental {
		s = fmt.Sprintf("incremental, %d of %d dictionary shards re-encoded (%d of the changed records' %d terms changed, %d of them patched, %d entries patched), %d files written, %d kept",
			est.Shards, est.ShardsTotal, est.ChangedTerms, est.CheckedTerms, est.PatchedTerms, est.PatchedEntries, est.Files, est.Kept)
	}
	ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
	s += fmt.Sprintf(" in %v (dictionary read %v, shards %v with %d terms from the term cache, filters %v; phases:",
		ms(est.Duration), ms(est.ReadTime), ms(est.ShardTime), est.CachedTerms, ms(est.FilterTime))
	for _, ph := range est.Phases {
		s += fmt.Sprintf(" %s %v", ph.Name, ms(ph.Time))
	}
	return s + ")"
}

// write is the stage write: the site published, then the export's state
// and the page cache saved for the next build.
func (b *build) write() error {
	// The export's files, under the dataset key (not a listing's).
	for _, rel := range b.exported {
		if _, ok := b.exportEntries[rel]; !ok {
			b.exportEntries[rel] = cacheEntry{Kind: kindExport, Key: b.dkey}
		}
	}
	setPrints(b.out, b.exportEntries)
	b.next.Unusable = b.rep.Unusable
	saves := b.beginSaves()
	var previous []string
	if b.prev.size() > 0 {
		// The record pages this build has the paths of stay: they are
		// not listed (b.staying counts them).
		previous = b.prev.files(b.prevRecords)
	}
	if err := b.out.CommitKnown(previous, b.staying); err != nil {
		saves.abort()
		return err
	}
	var err error
	if b.next.Marker, err = b.out.Marker(); err != nil {
		saves.abort()
		return err
	}
	b.finishSaves(saves)
	st := b.out.Stats()
	b.rep.Written, b.rep.Unchanged, b.rep.Removed, b.rep.Bytes, b.rep.Publish = st.Written, st.Unchanged, st.Removed, st.Bytes, st.Mode
	b.timer.done("write")
	return nil
}

// nextSaves is what a build leaves for the next one, saved beside the
// publication of the site: the page cache and the search export's state
// are written while the site is published, and their last piece, which
// names the new site (its marker), once it is. The index is closed
// meanwhile.
type nextSaves struct {
	pc     chan *pageCacheWriter  // nil: no page cache is saved (b.gerr)
	state  chan *export.StateSave // a nil StateSave: the export was kept, no state made
	closed chan struct{}
	// closeErr is what closing the index returned (its side store's
	// table not saved, say), read once closed is.
	closeErr error
}

func (b *build) beginSaves() *nextSaves {
	sv := &nextSaves{state: make(chan *export.StateSave, 1), closed: make(chan struct{})}
	if b.gerr == nil {
		sv.pc = make(chan *pageCacheWriter, 1)
		go func() { sv.pc <- beginPageCache(b.pcPath, b.tables.pieces(b.exportEntries), b.prevBytes) }()
	}
	go func() {
		var s *export.StateSave
		if b.exporter != nil {
			s = b.exporter.BeginSaveState()
		}
		sv.state <- s
	}()
	idx := b.idx
	b.idx = nil // closed here, not by closeIndex
	if idx != nil {
		// The index as this build leaves it: it holds the records of
		// the page cache's table of hashes (b.tables.indexed).
		b.next.IndexKey = idx.RecordsKey()
	}
	go func() {
		defer close(sv.closed)
		if idx != nil {
			sv.closeErr = idx.Close()
		}
	}()
	return sv
}

// finishSaves ends the saves for the site just published (b.next.Marker).
// A cache or a state that cannot be saved only costs the next build time
// (a state lost makes the next export whole).
func (b *build) finishSaves(sv *nextSaves) {
	prevMarker, _ := b.out.Previous()
	marker := fmt.Sprint(b.next.Marker)
	stateDone := make(chan error, 1)
	go func() {
		if s := <-sv.state; s != nil {
			stateDone <- s.Finish(marker)
		} else {
			stateDone <- export.MoveState(filepath.Join(b.c.CacheDir, "index"), fmt.Sprint(prevMarker), marker)
		}
	}()
	if sv.pc != nil {
		// The page cache may be patched where it stands, under the
		// previous one's mapping: nothing may read that any longer.
		<-b.lookedDone
		if err := (<-sv.pc).finish(b.next.tail()); err != nil {
			b.c.cacheProblem("page cache: " + err.Error())
		}
	}
	if err := <-stateDone; err != nil {
		b.c.cacheProblem("search export state: " + err.Error())
	}
	<-sv.closed
	if sv.closeErr != nil {
		b.c.cacheProblem("search index: " + sv.closeErr.Error())
	}
}

// abort drops what was saved, the site not published: the files saved
// before stay, for the site as it is.
func (sv *nextSaves) abort() {
	if sv.pc != nil {
		(<-sv.pc).abort()
	}
	if s := <-sv.state; s != nil {
		s.Abort()
	}
	<-sv.closed
}

// errStop ends a stream early when its consumer wants no more.
var errStop = errors.New("stop")

// copyKind carries the entries of files kept whole into the next cache's
// table to.
func copyKind(prev *pageCache, to entryMap, kind uint8) {
	for rel, e := range prev.Entries {
		if e.Kind == kind {
			to[rel] = e
		}
	}
}

// setPrints sets each entry's fingerprint to its file's in the new site,
// and drops the entries of files the site does not have.
func setPrints(out *publish.Site, entries entryMap) {
	rels := make([]string, 0, len(entries))
	for rel := range entries {
		rels = append(rels, rel)
	}
	prints := make([]publish.Fingerprint, len(rels))
	ok := make([]bool, len(rels))
	out.FingerprintsOf(rels, prints, ok)
	for k, rel := range rels {
		if !ok[k] {
			delete(entries, rel)
			continue
		}
		e := entries[rel]
		e.Print = prints[k]
		entries[rel] = e
	}
}

// exportWriter adapts an emit function to the search export's writer.
type exportWriter func(string, []byte) error

func (w exportWriter) WriteFile(rel string, data []byte) error { return w(rel, data) }

type stageTimer struct {
	rep  *Report
	last time.Time
	hook func(string)
	// lastCPU is the process's CPU time when the last stage ended.
	lastCPU time.Duration
	// maxGoal is the largest heap goal seen at a stage's end
	// (memahead.go).
	maxGoal uint64
}

func (t *stageTimer) done(name string) {
	now, cpu := time.Now(), cputime.Process()
	t.rep.Stages = append(t.rep.Stages, Stage{name, now.Sub(t.last), heldMemory(), cpu - t.lastCPU})
	t.lastCPU = cpu
	t.maxGoal = max(t.maxGoal, heapGoal())
	t.rep.InUse = max(t.rep.InUse, runtimeInUse())
	if t.hook != nil {
		t.hook(name)
		now = time.Now()
	}
	t.last = now
}

// sortedOrder returns the indexes of strs in the order of the strings.
func sortedOrder(strs []string) []int32 { return strsort.Order(strs) }

// pathOrder returns the indexes of the record pages' paths (rels, one per
// record of m: repo/slug/index.html) in the order of the paths, as
// sortedOrder does. The model has them nearly so: its repos in name order,
// each one's records in slug order. A repo's pages sort as its name and a
// slash, and a slug as itself and a slash ("a-b/" before "a/"), so the
// repos are taken in that order and each one's records, when not already
// in their paths' order, sorted: a check of each path against the one
// before instead of a sort of half a million. Should the paths not come
// out strictly increasing (equal paths, which validation rules out), they
// are sorted whole.
func pathOrder(m *model.Model, rels []string) []int32 {
	if order, ok := modelPathOrder(m, rels); ok {
		return order
	}
	return sortedOrder(rels)
}

// modelPathOrder is pathOrder from the model's repos, when their paths
// come out strictly increasing (ok).
func modelPathOrder(m *model.Model, rels []string) (order []int32, ok bool) {
	repos := slices.Clone(m.Repos)
	slices.SortFunc(repos, func(a, b *model.Repo) int { return compareDir(a.Name, b.Name) })
	byPath := func(a, b int32) int { return strings.Compare(rels[a], rels[b]) }
	order = make([]int32, 0, len(rels))
	for _, r := range repos {
		start := len(order)
		order = append(order, r.Records...)
		run := order[start:]
		if !increasing(rels, run) {
			if !insertionSort(rels, run) {
				slices.SortFunc(run, byPath)
			}
			if !increasing(rels, run) {
				return nil, false
			}
		}
		// Repos in order, each in order: the whole is, when each run
		// starts after the one before ends.
		if start > 0 && len(run) > 0 && rels[order[start-1]] >= rels[run[0]] {
			return nil, false
		}
	}
	return order, len(order) == len(rels)
}

// insertionSort sorts run by path, one path at a time into the sorted
// ones before it, and reports whether it did: it gives up once the paths
// have moved more than a few places each, on average. A repo's records
// come in slug order, which differs from their paths' only where a slug
// is the start of another ("a" before "a-b", whose path sorts first): a
// few paths move a few places, where a sort would compare them all about
// log n times.
func insertionSort(rels []string, run []int32) bool {
	moves := 0
	for k := 1; k < len(run); k++ {
		i := run[k]
		j := k
		for ; j > 0 && rels[run[j-1]] > rels[i]; j-- {
			run[j] = run[j-1]
		}
		run[j] = i
		if moves += k - j; moves > 8*len(run) {
			return false
		}
	}
	return true
}

// increasing reports whether the paths of run are strictly increasing.
func increasing(rels []string, run []int32) bool {
	for k := 1; k < len(run); k++ {
		if rels[run[k-1]] >= rels[run[k]] {
			return false
		}
	}
	return true
}

// compareDir compares a+"/" with b+"/" without making either.
func compareDir(a, b string) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	switch {
	case len(a) == len(b):
		return 0
	case len(a) == n: // a+"/" against b's next byte
		return cmp.Compare('/', b[n])
	default:
		return cmp.Compare(a[n], '/')
	}
}
