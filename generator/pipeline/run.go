package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/errdocs/errdocs/generator/record"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/errdocs/errdocs/generator/feed"
	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/index/export"
	"github.com/errdocs/errdocs/generator/markup/highlight"
	"github.com/errdocs/errdocs/generator/markup/markdown"
	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/publish"
	"github.com/errdocs/errdocs/generator/render"
)

// Build runs the whole pipeline and publishes the site. On any error the
// previous site is left as it was.
func Build(ctx context.Context, c Config) (rep *Report, err error) {
	c.defaults()
	rep = &Report{}
	timer := stageTimer{rep: rep, last: time.Now(), hook: c.StageDone}

	closeRejects, rejects, err := openRejects(c.RejectsFile)
	if err != nil {
		return rep, err
	}
	defer closeRejects()
	// The page cache is read and decoded while the records are read: it
	// depends on nothing they give. So is the search index opened when a
	// previous build indexed few enough records for an early export (below)
	// to be possible, and the previous site's files looked at, which the
	// cache says were written: whether each is still as written is asked
	// for most of them below.
	pcPath := pageCachePath(c.CacheDir, c.Out)
	type loadedCache struct {
		pc      *pageCache
		data    []byte
		opening *indexOpening
	}
	pcLoaded := make(chan loadedCache, 1)
	looked := make(chan map[string]publish.Fingerprint, 1)
	go func() {
		pc, data := loadPageCache(pcPath)
		var opening *indexOpening
		if pc.Indexed != nil && len(pc.Indexed) <= maxOverlap {
			opening = openIndex(filepath.Join(c.CacheDir, "index"))
		}
		pcLoaded <- loadedCache{pc, data, opening}
		rels := make([]string, 0, len(pc.Entries))
		for rel := range pc.Entries {
			rels = append(rels, rel)
		}
		looked <- publish.Look(c.Out, rels, c.Workers)
	}()
	// The index opened early is closed on the way out unless a stage took
	// it, also when the build fails before it got the page cache.
	var opening *indexOpening
	gotCache := false
	defer func() {
		if !gotCache {
			opening = (<-pcLoaded).opening
		}
		opening.discard()
	}()
	ds, err := load(&c, rep, rejects, newReadCache(filepath.Join(c.CacheDir, "read")))
	if err != nil {
		return rep, err
	}
	timer.done("read+validate")
	if c.Strict && (rep.Rejected > 0 || rep.FileErrors > 0) {
		return rep, fmt.Errorf("%d records rejected, %d files unreadable; the previous site is untouched: %w", rep.Rejected, rep.FileErrors, ErrRejected)
	}
	// Every record rejected: an empty site replacing the previous one is
	// never what was meant.
	if rep.Read > 0 && rep.Read == rep.Rejected {
		return rep, fmt.Errorf("all %d records were rejected; the previous site is untouched: %w", rep.Read, ErrRejected)
	}
	out, err := publish.Begin(c.Out)
	if err != nil {
		return rep, err
	}
	defer func() {
		if err != nil {
			out.Abort()
		}
	}()
	assets, err := writeAssets(out, c.Static)
	if err != nil {
		return rep, err
	}
	global, gerr := globalKey(&c, assets)
	prev := &pageCache{Entries: map[string]cacheEntry{}}
	var prevBytes []byte
	lc := <-pcLoaded
	gotCache, opening = true, lc.opening
	if gerr == nil {
		prev, prevBytes = lc.pc, lc.data
	}
	// The cache describes the site only if no other build changed it since.
	if marker, ok := out.Previous(); !ok || marker != prev.Marker {
		prev = &pageCache{Entries: map[string]cacheEntry{}}
	}
	// The search index, opened beside the reading when it could be.
	openIdx := func() (*index.Index, error) {
		if opening != nil && !opening.taken {
			return opening.take()
		}
		return index.Open(filepath.Join(c.CacheDir, "index"))
	}
	// The export asks the site about the previous site's files only once
	// their fingerprints are known (it may start before): knowFiles hands
	// them to the site, once, and is called on the way out in any case,
	// before the early export is waited for.
	known := make(chan struct{})
	knowFiles := sync.OnceFunc(func() {
		onDisk := <-looked
		if gerr == nil {
			out.Known(onDisk)
		}
		close(known)
	})

	// The search export's files are noted in the page cache once the
	// dataset key is known (it may be made before, on its own goroutine).
	var exportMu sync.Mutex
	var exportRels []string
	addExport := func(rel string) {
		exportMu.Lock()
		exportRels = append(exportRels, rel)
		exportMu.Unlock()
	}
	var exporter *export.Exporter // set once the export ran
	doExport := func(idx *index.Index) error {
		// The export may keep the files of the previous one that no changed
		// record touches, when they are in the published site as written.
		has := func(rel string) bool {
			<-known
			e, ok := prev.Entries[rel]
			return ok && e.Kind == kindExport && out.Unchanged(rel, e.Print)
		}
		keep := func(rel string) bool {
			<-known
			e, ok := prev.Entries[rel]
			if !ok || e.Kind != kindExport || !out.Reuse(rel, e.Print) {
				return false
			}
			addExport(rel)
			return true
		}
		emit := func(rel string, data []byte) error {
			<-known
			addExport(rel)
			return out.WriteFile(rel, data)
		}
		prevMarker, _ := out.Previous()
		ex := export.New(idx)
		est, err := ex.Export(exportWriter(emit), export.Options{
			Pattern: func(expr string) (json.RawMessage, error) { return pattern.Compile(expr) },
			Has:     has, Keep: keep, PrevMarker: fmt.Sprint(prevMarker),
		})
		if err != nil {
			return err
		}
		rep.Unusable = est.PatternErrors
		exporter = ex
		rep.Search = fmt.Sprintf("whole, %d files", est.Files)
		if est.Incremental {
			rep.Search = fmt.Sprintf("incremental, %d of %d dictionary shards re-encoded (%d of the changed records' %d terms changed), %d files written, %d kept",
				est.Shards, est.ShardsTotal, est.ChangedTerms, est.CheckedTerms, est.Files, est.Kept)
		}
		ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
		rep.Search += fmt.Sprintf(" in %v (dictionary read %v, shards %v with %d terms from the term cache, filters %v)",
			ms(est.Duration), ms(est.ReadTime), ms(est.ShardTime), est.CachedTerms, ms(est.FilterTime))
		return nil
	}

	// A rebuild that changes a few records updates the search index and
	// exports it on a goroutine of its own, beside the site model, the
	// record pages and the listings, none of which it needs: on a
	// one-record rebuild of 100,000 records the export is half the time.
	// It starts as soon as the records are read.
	var idx *index.Index
	var early *earlyExport
	if gerr == nil && prev.Indexed != nil {
		if early, err = startEarlyExport(&c, ds, prev, openIdx, doExport); err != nil {
			knowFiles()
			return rep, err
		}
	}
	if early != nil {
		idx = early.idx
		// Closed once the goroutine is done (LIFO: after the wait below).
		defer func() {
			if idx != nil {
				idx.Close()
			}
		}()
		// Whatever happens, the goroutine is done before the site is
		// aborted or published: it writes into it.
		defer early.wait()
		defer knowFiles() // LIFO: before the wait, which may need it
	}
	timer.done("cache")

	rc := newRelatedCache(filepath.Join(c.CacheDir, "model"))
	if rc != nil {
		ds.builder.Related = rc
	}
	s := ds.builder.Build()
	if rc != nil && rc.err != nil {
		c.Problem("related records cache: " + rc.err.Error())
	}
	timer.done("model")

	hl, err := highlight.New(highlight.Options{CacheDir: filepath.Join(c.CacheDir, "highlight")})
	if err != nil {
		return rep, err
	}
	r, err := render.New(render.Options{
		Templates: c.Templates, Title: c.Title, Description: c.Description,
		BaseURL: c.BaseURL, IndexFile: c.IndexFile, Assets: assets, PerPage: c.PerPage,
		ReportURL: c.ReportURL, Markdown: markdown.New(), Highlighter: hl,
	})
	if err != nil {
		return rep, err
	}
	timer.done("setup")

	// The fingerprints of the previous site's files, looked at beside the
	// reading and the site model: what follows asks about those files.
	knowFiles()

	out.Expect(len(prev.Entries))
	next := &pageCache{Entries: make(map[string]cacheEntry, len(prev.Entries))}
	exportEntries := entryMap{} // the search export's files: a table of their own
	var nextMu sync.Mutex
	noteEntry := func(rel string, e cacheEntry) {
		nextMu.Lock()
		next.Entries[rel] = e
		nextMu.Unlock()
	}
	note := func(rel string, kind uint8, key Key) { noteEntry(rel, cacheEntry{Kind: kind, Key: key}) }
	if gerr == nil {
		r.SetCache(newListingCache(global, prev, out, noteEntry))
	}

	// Which record pages must be rendered: those whose inputs changed or
	// whose file is no longer on disk as written.
	total := len(s.Summaries)
	keys := make([]Key, total)
	rels := make([]string, total)
	need := make([]bool, total) // by site index; each worker sets its own
	var needed atomic.Int64
	err = parallel(ctx, total, c.Workers, func(k int) error {
		i := int32(k)
		rel := s.Summaries[i].Path() + "index.html"
		rels[i] = rel
		keys[i] = recordKey(global, s, i, ds.raws[i])
		if !prev.reuse(out, rel, kindRecord, keys[i]) {
			need[i] = true
			needed.Add(1)
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	rep.Built = total
	nNeed := int(needed.Load())
	rep.Reused = total - nNeed
	dkey := datasetKey(global, s, ds.raws, ds.extrasKey())
	emitAs := func(kind uint8) func(string, []byte) error {
		return func(rel string, data []byte) error {
			nextMu.Lock()
			// A listing's pages were noted already, with their own key.
			if _, ok := next.Entries[rel]; !ok {
				next.Entries[rel] = cacheEntry{Kind: kind, Key: dkey}
			}
			nextMu.Unlock()
			return out.WriteFile(rel, data)
		}
	}
	exportKept := early == nil && prev.reuseAll(out, kindExport, dkey)
	timer.done("check")

	// The second pass reads records again, for the pages to render and, when
	// the search index must change, for the index: all files then, else only
	// the files that hold a page to render.
	if !exportKept && early == nil {
		if idx, err = openIdx(); err != nil {
			return rep, err
		}
		// Closed, and let go, as soon as the export state is saved: the
		// index holds every record's doc data.
		defer func() {
			if idx != nil {
				idx.Close()
			}
		}()
		// Batches of a thousand records: bleve holds a batch's analysed
		// documents while it builds the batch's segment (~200 MB for
		// 5,000 records), and smaller batches cost no time.
		idx.BatchSize = 1000
	}
	renderErr := make(chan error, 1)
	type job struct {
		i   int32
		rec *record.Record
	}
	jobs := make(chan job, 4*c.Workers)
	var rendered atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < c.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				i, rec := j.i, j.rec
				// The page's bytes are the renderer's pooled buffer,
				// valid until the write returns. Its path is the one the
				// page cache notes (one string for both tables).
				err := r.RecordFunc(s, i, rec, func(page []byte) error {
					return out.WriteFile(rels[i], page)
				})
				if err != nil {
					select {
					case renderErr <- fmt.Errorf("record %s (%s): %w", rec.ID, rec.Path(), err):
					default:
					}
					continue
				}
				if n := rendered.Add(1); n%500 == 0 {
					c.Progress("render", int(n), nNeed)
				}
			}
		}()
	}
	failed := func() error {
		select {
		case err := <-renderErr:
			renderErr <- err
			return err
		default:
			return ctx.Err()
		}
	}
	visit := func(i int32, raw []byte, yield func(*record.Record) bool) error {
		if !need[i] && yield == nil {
			return nil
		}
		rec, err := decode(raw)
		if err != nil {
			return err
		}
		if need[i] {
			if err := failed(); err != nil {
				return err
			}
			jobs <- job{i, rec}
		}
		if yield != nil && !yield(rec) {
			return errStop
		}
		return nil
	}
	// The search index is updated from the records that changed since it
	// was last updated, when the cache says which; else from all of them.
	var changed map[int32]bool
	present := 0 // records of the dataset that the index holds
	// With an early export, its goroutine updates the index: pages only here.
	streamIdx := idx
	if early != nil {
		streamIdx = nil
	}
	if streamIdx != nil && prev.Indexed != nil && streamIdx.Len() == len(prev.Indexed) {
		changed, present = changedRecords(ds, prev, streamIdx)
	}
	var streamErr error
	switch {
	case streamIdx != nil && changed == nil:
		all := func(yield func(*record.Record) bool) {
			streamErr = ds.stream(&c, nil, func(i int32, raw []byte) error { return visit(i, raw, yield) })
		}
		if streamIdx.Len() == 0 {
			// Nothing to delete: Apply spares the set of every id that
			// Sync keeps to know what to delete.
			_, err = streamIdx.Apply(all, func(string) bool { return true })
		} else {
			_, err = streamIdx.Sync(all)
		}
	case streamIdx != nil || nNeed > 0:
		only := map[int32]bool{}
		for i, ok := range need {
			if ok {
				only[ds.locOf(int32(i)).file] = true
			}
		}
		for i := range changed {
			only[ds.locOf(i).file] = true
		}
		if len(only) == 0 {
			only = nil
			if streamIdx == nil {
				break
			}
		}
		each := func(yield func(*record.Record) bool) {
			if only == nil {
				return
			}
			streamErr = ds.stream(&c, only, func(i int32, raw []byte) error {
				if changed[i] {
					return visit(i, raw, yield)
				}
				return visit(i, raw, nil)
			})
		}
		if streamIdx != nil {
			// Ids are unique: when the index holds as many records of the
			// dataset as it holds records, it holds none other, and no
			// record is deleted.
			_, err = streamIdx.Apply(each, keepIDs(ds, present, streamIdx))
		} else {
			each(func(*record.Record) bool { return true })
		}
	}
	close(jobs)
	wg.Wait()
	for _, e := range []error{err, streamErr, failed()} {
		if e != nil && e != errStop {
			return rep, e
		}
	}
	// Keep this build's highlighting for the next one; a cache that cannot
	// be written only costs the next build time.
	if err := hl.Close(); err != nil {
		c.Problem(err.Error())
	}
	timer.done("render+index")

	runExport := func() error {
		if exportKept {
			// The dataset is as it was when the search index was last exported,
			// so the index needs no update and the export is kept whole.
			copyKind(prev, exportEntries, kindExport)
			rep.Unusable = prev.Unusable
			rep.Search = "kept whole (no record changed)"
			return nil
		}
		return doExport(idx)
	}
	// A small (incremental) export runs beside the listings: it needs
	// little memory, and on a one-record rebuild the two are most of the
	// time left. A whole export runs alone, after the model's last use.
	overlap := early == nil && !exportKept && idx.Incremental() && len(s.Summaries) <= maxOverlap
	exportDone := make(chan error, 1)
	if overlap {
		go func() { exportDone <- runExport() }()
	}
	// Listings are kept or made one by one through the listing cache; the
	// few other pages and the feeds are made each time, and kept on disk
	// when their bytes did not change.
	err = r.Pages(s, emitAs(kindPages))
	if err == nil {
		err = feed.Write(s, feed.Options{BaseURL: c.BaseURL, Title: c.Title, Description: c.Description}, emitAs(kindPages))
	}
	if overlap {
		// The export writes into the site: it must be done before a
		// failed build aborts it.
		if xerr := <-exportDone; err == nil {
			err = xerr
		}
	}
	if err != nil {
		return rep, err
	}
	// The page cache's tables: of the records' hashes (next.Indexed, the
	// last use of the site model and the dataset: from here on the
	// collector may free them, which gives a whole export room at half a
	// million records), and of every file but the export's, with their
	// fingerprints, encoded (notePages). notePages runs while an early or
	// overlapping export ends, when the main goroutine has nothing else
	// to do, else after the export, whose memory it would add to.
	var tables pageTables
	notePages := func() {
		for p := range assets {
			note(assets[p], kindAsset, Key{})
		}
		// The record pages are noted only now: half a million entries
		// in the table would have been held through rendering.
		for i, rel := range rels {
			next.Entries[rel] = cacheEntry{Kind: kindRecord, Key: keys[i]}
		}
		setPrints(out, next.Entries)
		tables = encodeTables(next.Entries, next.Indexed)
	}
	if overlap {
		timer.done("listings+export")
	} else {
		timer.done("listings")
	}
	next.Indexed = make(map[string][32]byte, len(s.Summaries))
	for i := range s.Summaries {
		next.Indexed[s.Summaries[i].ID] = ds.raws[i]
	}
	pagesEarly := overlap || early != nil
	if pagesEarly {
		notePages()
	}
	if early != nil {
		// The early export, begun before the model: what is left of it.
		if err := early.wait(); err != nil {
			return rep, err
		}
		timer.done("export (rest)")
	}
	if !overlap && exporter == nil && (early == nil || !early.exported) {
		if err := runExport(); err != nil {
			return rep, err
		}
		timer.done("export")
	}
	if !pagesEarly {
		notePages()
	}
	// The export's files, under the dataset key (not a listing's).
	for _, rel := range exportRels {
		if _, ok := exportEntries[rel]; !ok {
			exportEntries[rel] = cacheEntry{Kind: kindExport, Key: dkey}
		}
	}
	setPrints(out, exportEntries)
	next.Unusable = rep.Unusable

	var previous []string
	if len(prev.Entries) > 0 {
		previous = prev.files()
	}
	if err := out.Commit(previous); err != nil {
		return rep, err
	}
	if next.Marker, err = out.Marker(); err != nil {
		return rep, err
	}
	// What the export leaves for the next one is valid for this site; a
	// state that cannot be saved only makes the next export whole.
	// Saved (and the index closed) beside the page cache's saving.
	prevMarker, _ := out.Previous()
	stateIdx := idx
	idx = nil // closed below, not by the deferred Close
	stateDone := make(chan error, 1)
	go func() {
		var err error
		if exporter != nil {
			err = exporter.SaveState(fmt.Sprint(next.Marker))
		} else {
			err = export.MoveState(filepath.Join(c.CacheDir, "index"), fmt.Sprint(prevMarker), fmt.Sprint(next.Marker))
		}
		if stateIdx != nil {
			stateIdx.Close()
		}
		stateDone <- err
	}()
	if gerr == nil {
		// A cache that cannot be saved only costs the next build time.
		data := tables.file(exportEntries, next.Unusable, next.Marker)
		if err := savePageCache(pcPath, data, prevBytes); err != nil {
			c.Problem("page cache: " + err.Error())
		}
	}
	if err := <-stateDone; err != nil {
		c.Problem("search export state: " + err.Error())
	}
	st := out.Stats()
	rep.Written, rep.Unchanged, rep.Removed, rep.Bytes, rep.Publish = st.Written, st.Unchanged, st.Removed, st.Bytes, st.Mode
	timer.done("write")
	return rep, nil
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
}

func (t *stageTimer) done(name string) {
	now := time.Now()
	t.rep.Stages = append(t.rep.Stages, Stage{name, now.Sub(t.last)})
	if t.hook != nil {
		t.hook(name)
		now = time.Now()
	}
	t.last = now
}

// writeAssets publishes the static assets under static/, each named by a
// hash of its content ("style.css" → "static/style.3f2a9c1b.css") so a host
// can cache them forever. It returns name → published path.
func writeAssets(out *publish.Site, static fs.FS) (map[string]string, error) {
	assets := map[string]string{}
	if static == nil {
		return assets, nil
	}
	err := fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		if p == render.StyleName {
			if data, err = render.StyleSheet(static); err != nil {
				return err
			}
		}
		data = render.CompactScript(p, data)
		sum := sha256.Sum256(data)
		ext := path.Ext(p)
		published := model.StaticPath + strings.TrimSuffix(p, ext) + "." + hex.EncodeToString(sum[:4]) + ext
		assets[p] = published
		return out.WriteFile(published, data)
	})
	return assets, err
}
