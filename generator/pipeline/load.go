package pipeline

import (
	"bytes"
	"crypto/sha256"
	"io"
	"slices"
	"sync"

	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/read"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/generator/validate"
)

// load reads and validates every record, reporting problems as it goes.
// With a read cache (rc, may be nil), files that did not change since they
// were cached are not read: their records are taken from the cache.
func load(c *Config, rep *Report, rejects io.Writer, rc *readCache) (*dataset, error) {
	if rc != nil {
		go prefetch(rc.dir)
	}
	l := newLoader(c, rep, rejects, rc)
	extras, errs := l.read()
	rc.releaseAll()
	if l.consumeErr != nil {
		rc.discard()
		return nil, l.consumeErr
	}
	if err := l.unique(); err != nil {
		rc.discard()
		return nil, err
	}
	return l.finish(extras, errs)
}

// A loader validates records in batches on every core; the batches come
// back in read order (queue), so uniqueness (first occurrence wins) and
// the site's record order stay deterministic. A file taken from the read
// cache is one batch, in its place in the order, whose records the
// validators decode.
type loader struct {
	c     *Config
	rep   *Report
	rc    *readCache
	ds    *dataset
	set   *validate.Set
	rl    *rejectLog
	files map[string]bool // record files that gave records

	// In a rebuild the uniqueness rules wait for the end of the reading
	// (unique): bulk notes every valid record's keys, lines the line of
	// each record of the dataset, and held the records rejected
	// meanwhile, to be reported then in read order.
	bulk  *validate.Bulk
	lines []int32
	held  []heldReject
	// expect is the previous build's record count, when the rules wait:
	// the tables are made that large (prepare) by the consumer, which
	// alone uses them, and the validators make each record's keys.
	expect int

	queue, work chan *batch
	validators  sync.WaitGroup
	cur         *batch // being filled by the reader

	// What was read of the file being read, to cache it once read whole
	// (a file's records come together, in order).
	got        *cachedFile
	gotPath    string
	consumeErr error
	consumed   chan struct{}
}

// checked is one record read, once validated.
type checked struct {
	it       read.Item
	id       string
	problems []validate.Problem
	sum      model.Summary
	keys     validate.Keys // when the loader asks (loader.bulk)
	raw      [32]byte
}

type batch struct {
	items  []checked
	cached *cachedFile
	path   string // of the cached file
	// run is which run of the cached file's records the batch holds,
	// decoded (decodeErr: not); last says it is the file's last.
	run       int
	last      bool
	decoded   []cachedRecord
	decodeErr error
	done      chan struct{}
}

const batchSize = 256

func newLoader(c *Config, rep *Report, rejects io.Writer, rc *readCache) *loader {
	l := &loader{c: c, rep: rep, rc: rc, ds: &dataset{fileID: map[string]int32{}}, set: validate.NewSet(),
		rl: &rejectLog{w: rejects}, files: map[string]bool{},
		queue: make(chan *batch, 4*c.Workers), work: make(chan *batch, 4*c.Workers),
		cur: &batch{done: make(chan struct{})}, consumed: make(chan struct{})}
	if rc != nil && rc.prevCount > 0 {
		l.expect = rc.prevCount
	}
	for w := 0; w < c.Workers; w++ {
		l.validators.Add(1)
		go l.validate()
	}
	go l.consume()
	return l
}

// prepare makes the dataset's tables room for n records, and the tables
// of the rules that wait: on the consumer's goroutine, beside the reading
// of the first files. Made before the reading, clearing them (the
// summaries' array above all) kept one core busy and the other idle
// until it was done.
func (l *loader) prepare(n int) {
	l.ds.grow(n)
	l.bulk = validate.NewBulk(n)
	l.lines = make([]int32, 0, n)
}

// validate validates the batches of work, and decodes the records of
// those served from the read cache: on every core, rather than one by one
// as they are taken. Each validator's decoder makes its own table of
// shared strings (repos, families, tags), once, and holds the strings of
// the summaries it makes from records read in its blocks (Compact), as it
// holds those it decodes.
func (l *loader) validate() {
	defer l.validators.Done()
	var dec model.SummaryDecoder
	for b := range l.work {
		if b.cached != nil {
			if len(b.cached.runs) > 0 {
				b.decoded, b.decodeErr = b.cached.decode(&dec, b.run, l.rc.records())
			}
			if l.expect > 0 {
				for k := range b.decoded {
					if r := &b.decoded[k]; r.problems == nil {
						r.keys = validate.KeysOf(r.sum.ID, r.sum.Repo, r.sum.Slug)
					}
				}
			}
			close(b.done)
			continue
		}
		for k := range b.items {
			ck := &b.items[k]
			rec, problems := validate.Record(ck.it.Raw)
			ck.id, ck.problems = rec.ID, problems
			if len(problems) == 0 {
				ck.sum = dec.Compact(model.Summarize(&rec))
				if l.expect > 0 {
					ck.keys = validate.KeysOf(rec.ID, rec.Repo, rec.Slug)
				}
			}
			ck.raw = sha256.Sum256(ck.it.Raw)
		}
		close(b.done)
	}
}

// consume takes the batches' records in read order.
func (l *loader) consume() {
	defer close(l.consumed)
	defer l.staged()
	if l.expect > 0 {
		l.prepare(l.expect)
	}
	for b := range l.queue {
		<-b.done
		if b.cached != nil {
			if l.consumeErr == nil {
				l.consumeErr = b.decodeErr // checked by load: not for a file served
			}
			if l.consumeErr == nil {
				l.consumeErr = l.takeCached(b.path, b.cached.n, b.decoded)
			}
			l.rc.releaseRun(b.cached, b.last, b.decoded)
			continue
		}
		if l.consumeErr == nil {
			l.consumeErr = l.takeRead(b)
		}
	}
}

// takeCached takes the records of a file served by the read cache (n
// records, decoded into recs).
func (l *loader) takeCached(path string, n int, recs []cachedRecord) error {
	l.set.ExpectRepo(n)
	for k := range recs {
		r := &recs[k]
		t := taken{src: record.Source{File: path, Index: r.index, Line: r.line}, raw: r.raw}
		if r.problems != nil {
			t.id, t.problems, t.rawJSON = r.id, r.problems, r.rawJSON
		} else {
			// The record's JSON is not at hand: should it be a duplicate
			// now, the rejects file reads it again.
			t.id, t.sum, t.keys, t.needRaw = r.sum.ID, &r.sum, r.keys, true
		}
		if err := l.take(t); err != nil {
			return err
		}
	}
	return nil
}

// takeRead takes the records of a batch read, and keeps them for the
// read cache.
func (l *loader) takeRead(b *batch) error {
	for k := range b.items {
		ck := &b.items[k]
		t := taken{src: ck.it.Source, id: ck.id, problems: ck.problems, sum: &ck.sum, keys: ck.keys, raw: ck.raw, rawJSON: ck.it.Raw}
		if err := l.take(t); err != nil {
			return err
		}
		if l.rc != nil {
			l.keep(ck)
		}
		ck.it.Raw = nil // let the file's buffer go
	}
	return nil
}

// keep notes a record read for the read cache's entry of its file.
func (l *loader) keep(ck *checked) {
	if l.got == nil || ck.it.Source.File != l.gotPath {
		l.staged()
		l.got, l.gotPath = &cachedFile{}, ck.it.Source.File
	}
	cr := cachedRecord{index: ck.it.Source.Index, line: ck.it.Source.Line, raw: ck.raw}
	if len(ck.problems) > 0 {
		cr.problems, cr.id, cr.rawJSON = ck.problems, ck.id, bytes.Clone(ck.it.Raw)
	} else {
		cr.sum = ck.sum
	}
	l.got.records = append(l.got.records, cr)
	if v := ck.it.DatasetVersion; validate.UTCTime(v) && v > l.got.version {
		l.got.version = v
	}
}

// staged hands the file read whole to the read cache.
func (l *loader) staged() {
	if l.got != nil {
		l.rc.stage(l.gotPath, l.got)
		l.got = nil
	}
}

// flush hands the batch being filled to the validators.
func (l *loader) flush() {
	if len(l.cur.items) > 0 {
		l.queue <- l.cur
		l.work <- l.cur
		l.cur = &batch{done: make(chan struct{})}
	}
}

// read reads the records, batch by batch, and waits for every batch to
// be validated and taken.
func (l *loader) read() (*read.Extras, []error) {
	opts := read.Options{}
	if l.rc != nil {
		opts.Cache = takeFunc{l.rc, l.served}
	}
	extras, errs := opts.Read(l.c.Paths, func(it read.Item) error {
		l.files[it.Source.File] = true
		l.cur.items = append(l.cur.items, checked{it: it})
		if len(l.cur.items) == batchSize {
			l.flush()
		}
		return nil
	})
	l.flush()
	close(l.work)
	close(l.queue)
	l.validators.Wait()
	<-l.consumed
	return extras, errs
}

// served queues a file the read cache served, as a batch whose records a
// validator decodes.
func (l *loader) served(path string, v read.Cached) error {
	f := v.Value.(*cachedFile)
	l.rep.Cached++
	if f.n > 0 {
		l.files[path] = true
	}
	l.flush()
	// A batch per run of records; a file without records is one batch.
	runs := max(1, len(f.runs))
	for run := range runs {
		b := &batch{cached: f, path: path, run: run, last: run == runs-1, done: make(chan struct{})}
		l.queue <- b
		l.work <- b
	}
	return nil
}

// finish reports the files' problems, saves the read cache and completes
// the dataset and the report.
func (l *loader) finish(extras *read.Extras, errs []error) (*dataset, error) {
	c, rep, rc, ds := l.c, l.rep, l.rc, l.ds
	if err := l.rl.finish(); err != nil {
		rc.discard()
		return nil, err
	}
	for _, err := range errs {
		rep.FileErrors++
		c.Problem(err.Error())
		if l.rl.w != nil {
			if err := l.rl.write(read.Rejected(err)); err != nil {
				return nil, err
			}
		}
	}
	if extras != nil {
		rep.FilesFailed = extras.FilesFailed
		if len(extras.Barren) > 0 {
			rc.discard()
			return nil, read.NothingRead(extras.Barren)
		}
	}
	if rc != nil {
		// A cache that cannot be saved only costs the next build time.
		if err := rc.save(errs, len(ds.ids)); err != nil {
			c.cacheProblem("read cache: " + err.Error())
		}
	}
	if ds.unsorted {
		ds.byLoc = make(map[loc]int32, len(ds.locs))
		for i, l := range ds.locs {
			ds.byLoc[l] = int32(i)
		}
	}
	rep.Files = len(l.files)
	rep.Inputs = rc.inputStats(extras)
	if extras != nil {
		rep.Hashed = extras.Hashed
		ds.builder.AddRepoEntries(extras.Repos)
		ds.builder.AddInfos(extras.Infos)
	}
	ds.extras = extras
	return ds, nil
}

// takeFunc is a read cache with the build's own Take.
type takeFunc struct {
	*readCache
	take func(string, read.Cached) error
}

func (t takeFunc) Take(path string, c read.Cached) error { return t.take(path, c) }

// taken is one record for take: its problems are its own (from
// validate.Record); sum is its summary when it has none. rawJSON is the
// record as read, for the rejects file; when it is not at hand (needRaw),
// the rejects file reads it again.
type taken struct {
	src      record.Source
	id       string
	problems []validate.Problem
	sum      *model.Summary
	keys     validate.Keys
	raw      [32]byte
	rawJSON  []byte
	needRaw  bool
}

// take adds one validated record to the dataset, or reports it rejected
// (its own problems, or the dataset's: a duplicate id or slug).
func (l *loader) take(t taken) error {
	rep, ds := l.rep, l.ds
	rep.Read++
	if len(t.problems) == 0 && l.bulk == nil {
		t.problems = l.set.Add(t.src, &record.Record{ID: t.sum.ID, Repo: t.sum.Repo, Slug: t.sum.Slug})
	}
	if len(t.problems) > 0 {
		rep.Rejected++
		rj := validate.Reject{Source: t.src, ID: t.id, Problems: t.problems, Raw: t.rawJSON}
		if l.bulk != nil {
			// Held without its JSON, which may be large and many: the
			// message is made now, and the rejects file reads it again.
			msg := rj.Error()
			rj.Raw = nil
			l.held = append(l.held, heldReject{before: int32(len(ds.ids)), msg: msg, rj: rj, raw: t.raw})
			return nil
		}
		return l.reject(rj.Error(), rj, t.raw, t.needRaw)
	}
	if l.bulk != nil {
		l.bulk.Add(t.sum.Repo, t.keys)
		l.lines = append(l.lines, int32(t.src.Line))
	}
	ds.add(t.src, t.sum, t.raw)
	if rep.Read%1000 == 0 {
		l.c.Progress("read", rep.Read, 0)
	}
	return nil
}

// reject reports a record left out (msg: rj.Error()); the rejects file
// reads its JSON again when rj lacks it (needRaw).
func (l *loader) reject(msg string, rj validate.Reject, raw [32]byte, needRaw bool) error {
	l.c.Problem(msg)
	return l.rl.add(rj, raw, needRaw)
}

// heldReject is a record rejected while the uniqueness rules wait (bulk),
// after before valid records, without its JSON (raw is its sha256).
type heldReject struct {
	before int32
	msg    string
	rj     validate.Reject
	raw    [32]byte
}

// unique applies the uniqueness rules that the reading left to its end
// (bulk), and reports the records rejected since, in read order. When no
// record can break them (Bulk.Clean), there is nothing to apply; else
// every valid record is added to the Set in read order, as the reading
// would have, and those it rejects leave the dataset.
func (l *loader) unique() error {
	if l.bulk == nil {
		return nil
	}
	ds := l.ds
	var late []heldReject
	if !l.bulk.Clean() {
		var gone []int32
		for i := range int32(len(ds.ids)) {
			sum, at := ds.builder.Summary(i), ds.locs[i]
			src := record.Source{File: ds.files[at.file], Index: int(at.index), Line: int(l.lines[i])}
			if ps := l.set.Add(src, &record.Record{ID: sum.ID, Repo: sum.Repo, Slug: sum.Slug}); len(ps) > 0 {
				rj := validate.Reject{Source: src, ID: sum.ID, Problems: ps}
				late = append(late, heldReject{before: i, msg: rj.Error(), rj: rj, raw: ds.raws[i]})
				gone = append(gone, i)
			}
		}
		l.rep.Rejected += len(gone)
		ds.drop(gone)
	}
	// Clean sorted the ids; the site indexes are the order Bulk took
	// the records in, so that sort is the dataset's order by id.
	if order := l.bulk.IDOrder(); order != nil && len(order) == len(ds.ids) {
		ds.byIDOnce.Do(func() { ds.byID = order })
	}
	// A record rejected after before valid ones comes before the valid
	// record of that number.
	held := l.held
	for len(held) > 0 || len(late) > 0 {
		var next heldReject
		if len(late) == 0 || len(held) > 0 && held[0].before <= late[0].before {
			next, held = held[0], held[1:]
		} else {
			next, late = late[0], late[1:]
		}
		if err := l.reject(next.msg, next.rj, next.raw, true); err != nil {
			return err
		}
	}
	l.bulk, l.lines, l.held = nil, nil, nil
	return nil
}

// drop removes the records at the site indexes gone (ascending).
func (ds *dataset) drop(gone []int32) {
	if len(gone) == 0 {
		return
	}
	ds.builder.Drop(gone)
	ds.locs = model.DropAt(ds.locs, gone)
	ds.raws = model.DropAt(ds.raws, gone)
	ds.ids = model.DropAt(ds.ids, gone)
}

// grow makes room for n records: the previous build's count, so that
// the tables are not grown by copying as they fill.
func (ds *dataset) grow(n int) {
	ds.builder.Grow(n)
	ds.locs = slices.Grow(ds.locs, n)
	ds.raws = slices.Grow(ds.raws, n)
	ds.ids = slices.Grow(ds.ids, n)
}

// add adds a valid record read at src.
func (ds *dataset) add(src record.Source, sum *model.Summary, raw [32]byte) {
	// A file's records come together: most find the last one's number.
	fid, ok := int32(len(ds.files)-1), len(ds.files) > 0 && ds.files[len(ds.files)-1] == src.File
	if !ok {
		fid, ok = ds.fileID[src.File]
	}
	if !ok {
		fid = int32(len(ds.files))
		ds.files = append(ds.files, src.File)
		ds.fileID[src.File] = fid
	}
	ds.builder.Add(*sum)
	l := loc{fid, int32(src.Index)}
	if n := len(ds.locs); n > 0 && ds.locs[n-1].cmp(l) >= 0 {
		ds.unsorted = true
	}
	ds.locs = append(ds.locs, l)
	ds.raws = append(ds.raws, raw)
	ds.ids = append(ds.ids, sum.ID)
}
