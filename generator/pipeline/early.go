package pipeline

import (
	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/record"
)

// An early export updates the search index with the few records that
// changed and exports it on a goroutine of its own, started as soon as the
// records are read and the page cache says what the index holds: the site
// model, the record pages and the listings need neither, and on a
// one-record rebuild the export is about half of the build.
type earlyExport struct {
	idx  *index.Index
	done chan struct{}
	err  error
}

// maxEarly bounds the records an early export updates: with more, the
// export is likely whole, and made after the site model's last use, when
// its memory is free (at half a million records it needs it).
const maxEarly = 2000

// maxOverlap is the most records for which a build exports the search
// index early, while the site model is alive. Beyond, the export runs
// alone after the model's last use: the two together once outgrew the
// memory budget. Up to this many records they were measured to fit
// (BENCHMARKS.md, session 13, "h16x"); more were not measured.
var maxOverlap = 500000 // a variable for tests

// maxBeside is the most records for which the export runs beside the
// listings (nothing to index again, but the export not kept, or an early
// export that could not start). Such a build may render every page (the
// templates changed) with the model alive: not measured beside the
// export at more records.
var maxBeside = 250000 // a variable for tests

// wait waits for the goroutine and returns its error.
func (e *earlyExport) wait() error {
	<-e.done
	return e.err
}

// startEarlyExport starts an early export, on the index open gives, when between 1 and maxEarly
// records differ from what the index holds and the index holds as many
// records as the page cache says; else it returns nil, and the build
// updates the index and exports as it reads the records for the pages.
func startEarlyExport(c *Config, ds *dataset, prev *pageCache, d indexedDiff, open func() (*index.Index, error), export func(*index.Index) error) (*earlyExport, error) {
	edited, inPrev, ok := d.edited, d.held, d.ok
	n := len(edited)
	if !ok {
		n = maxEarly + 1
	}
	f := exportFacts{records: len(ds.ids), known: true, changed: n,
		restructured: inPrev != len(ds.ids) || inPrev != prev.indexed.n}
	if chooseExport(f) != ExportEarly {
		// Nothing to index (the export is kept, or made from the index as
		// it is: the build decides, by the dataset key), or too much.
		return nil, nil
	}
	idx, err := open()
	if err != nil {
		return nil, err
	}
	if idx.Len() != prev.indexed.n {
		idx.Close()
		return nil, nil
	}
	idx.BatchSize = 1000
	e := &earlyExport{idx: idx, done: make(chan struct{})}
	go func() {
		defer close(e.done)
		// On the goroutine: a lookup in the index for every record, when
		// the index is not the one the page cache names, is not the
		// model's to wait.
		changed, present := changedAmong(ds, edited, inPrev, prev, idx)
		only := map[int32]bool{}
		for i := range changed {
			only[ds.locOf(i).file] = true
		}
		var streamErr error
		each := func(yield func(*record.Record) bool) {
			streamErr = ds.stream(c, only, func(i int32, raw []byte) error {
				if !changed[i] {
					return nil
				}
				rec, err := decode(raw)
				if err != nil {
					return err
				}
				if !yield(rec) {
					return errStop
				}
				return nil
			})
		}
		if _, err := idx.Apply(each, keepIDs(ds, present, idx)); err != nil {
			e.err = err
			return
		}
		if streamErr != nil && streamErr != errStop {
			e.err = streamErr
			return
		}
		e.err = export(idx)
	}()
	return e, nil
}

// changedRecords returns the records (by site index) that differ from
// what the index holds, and how many records of the dataset it holds.
func changedRecords(ds *dataset, prev *pageCache, idx *index.Index, workers int) (map[int32]bool, int) {
	edited, held, _ := prev.indexed.diff(ds.ids, ds.raws, ds.idOrder(), len(ds.ids), workers)
	return changedAmong(ds, edited, held, prev, idx)
}

// changedAmong is changedRecords of the records edited (those the page
// cache says the index holds otherwise, held being how many of the
// dataset's it holds): they and those the index lacks. The index lacks
// none but those when it is as the build that saved the page cache left
// it; else each record is looked up in it.
func changedAmong(ds *dataset, edited []int32, held int, prev *pageCache, idx *index.Index) (map[int32]bool, int) {
	changed := make(map[int32]bool, len(edited))
	for _, i := range edited {
		changed[i] = true
	}
	if prev.IndexKey != ([32]byte{}) && idx.RecordsKey() == prev.IndexKey {
		return changed, held
	}
	present := 0
	for i, id := range ds.ids {
		if idx.Has(id) {
			present++
		} else {
			changed[int32(i)] = true
		}
	}
	return changed, present
}

// keepIDs says which of the index's records to keep: all when it holds as
// many records of the dataset as it holds records (ids are unique), else
// those of the dataset.
func keepIDs(ds *dataset, present int, idx *index.Index) func(string) bool {
	if present == idx.Len() {
		return func(string) bool { return true }
	}
	ids := make(map[string]bool, len(ds.ids))
	for _, id := range ds.ids {
		ids[id] = true
	}
	return func(id string) bool { return ids[id] }
}

// indexOpening is the search index being opened on a goroutine of its own
// (reading its side store and opening bleve take time that grows with
// the records), beside the reading of the records.
type indexOpening struct {
	done  chan struct{}
	idx   *index.Index
	err   error
	taken bool
}

func openIndex(dir string) *indexOpening {
	o := &indexOpening{done: make(chan struct{})}
	go func() {
		defer close(o.done)
		o.idx, o.err = index.Open(dir)
	}()
	return o
}

// take waits for the index and hands it to the caller, who closes it.
func (o *indexOpening) take() (*index.Index, error) {
	<-o.done
	o.taken = true
	return o.idx, o.err
}

// discard closes the index unless it was taken.
func (o *indexOpening) discard() {
	if o == nil {
		return
	}
	<-o.done
	if !o.taken && o.idx != nil {
		o.idx.Close()
	}
}
