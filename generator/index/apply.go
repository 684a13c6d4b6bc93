package index

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"

	"github.com/errdocs/errdocs/generator/record"
)

// Has reports whether the index holds a record with this id.
func (ix *Index) Has(id string) bool {
	return ix.side.has(id)
}

// Len is the number of records in the index.
func (ix *Index) Len() int { return ix.side.len() }

// Apply updates the index from a change set instead of the whole dataset:
// changed yields the records that are new or changed, and every record of
// the index for which keep returns false is deleted. A caller that knows
// which records changed (the build keeps a hash of each record's source)
// so avoids reading and hashing every record of an unchanged dataset; the
// result is the same as Sync over the whole dataset.
func (ix *Index) Apply(changed iter.Seq[*record.Record], keep func(id string) bool) (SyncStats, error) {
	return ix.ApplyEntries(func(yield func(*Entry) bool) {
		for r := range changed {
			if !yield(&Entry{rec: r}) {
				return
			}
		}
	}, keep)
}

// ApplyEntries is Apply over entries, each of a record, made by Prepare
// or not yet made.
func (ix *Index) ApplyEntries(changed iter.Seq[*Entry], keep func(id string) bool) (SyncStats, error) {
	start := time.Now()
	var st SyncStats
	if ix == nil || ix.bleve == nil {
		return st, errors.New("index: Apply on a closed index")
	}
	ix.waitTable() // it reads the table Apply changes
	bs := ix.BatchSize
	if bs <= 0 {
		bs = DefaultBatchSize
	}
	b := &applyBatch{ix: ix, batch: ix.bleve.NewBatch(), size: bs, dirty: filepath.Join(ix.dir, dirtyFile)}
	// Whatever ends the Apply, no batch is left running behind it.
	defer b.wait()
	for e := range changed {
		if err := b.put(e, &st); err != nil {
			return st, err
		}
	}
	if err := b.deleteGone(keep, &st); err != nil {
		return st, err
	}
	if err := b.flush(); err != nil {
		return st, err
	}
	if err := b.wait(); err != nil {
		return st, err
	}
	if b.flushes > 0 {
		if err := ix.settle(b.flushes == 1); err != nil {
			return st, err
		}
	}
	if b.marked {
		if err := ix.flushSide(); err != nil {
			return st, err
		}
		if err := os.Remove(b.dirty); err != nil {
			return st, err
		}
	}
	ix.saveTable()
	st.Duration = time.Since(start)
	return st, nil
}

// applyBatch is an Apply's bleve batch, flushed every size operations.
type applyBatch struct {
	ix      *Index
	batch   *bleve.Batch
	size    int
	dirty   string // the file that says the side store may disagree
	marked  bool   // dirty written
	flushes int
	// running receives the end of the batch bleve is applying, while it
	// runs beside the filling of the next one.
	running chan error
}

// put indexes e's record unless the side store holds its hash already.
func (b *applyBatch) put(e *Entry, st *SyncStats) error {
	r := e.rec
	if r == nil || r.ID == "" {
		return nil
	}
	ix := b.ix
	if !e.made {
		e.hash = recordHash(r)
	}
	old, had := ix.side.get(r.ID)
	if had && old.Hash == e.hash {
		st.Unchanged++
		return nil
	}
	if !e.made {
		ix.fillEntry(e)
	}
	if e.err != nil {
		return e.err
	}
	if err := b.batch.IndexAdvanced(e.doc); err != nil {
		return fmt.Errorf("index: record %s: %w", r.ID, err)
	}
	if had {
		st.Updated++
		ix.noteTerms(r.ID, e.fields)
	} else {
		st.Added++
		ix.restructured = true
	}
	ix.putSide(r.ID, e.side)
	return b.flushIfFull()
}

// deleteGone deletes the records keep does not keep, in id order.
func (b *applyBatch) deleteGone(keep func(id string) bool, st *SyncStats) error {
	ix := b.ix
	var gone []string
	ix.side.eachID(func(id string) bool {
		if !keep(id) {
			gone = append(gone, id)
		}
		return true
	})
	sort.Strings(gone)
	for _, id := range gone {
		b.batch.Delete(id)
		ix.deleteSide(id)
		ix.restructured = true
		st.Deleted++
		if err := b.flushIfFull(); err != nil {
			return err
		}
	}
	return nil
}

func (b *applyBatch) flushIfFull() error {
	if b.batch.Size() >= b.size {
		return b.flush()
	}
	return nil
}

// flush applies the batch to bleve, the first time after marking the
// side store dirty.
func (b *applyBatch) flush() error {
	if b.batch.Size() == 0 {
		return nil
	}
	if !b.marked {
		// Until the side store is written again, the index and the side
		// store may disagree: a crash now makes Open start over.
		if err := os.WriteFile(b.dirty, nil, 0o644); err != nil {
			return err
		}
		b.marked = true
	}
	// bleve applies a batch on the caller's goroutine, and builds its
	// segment on one core: the next batch fills meanwhile, so that the
	// records read for the index (and the pages rendered from them) do
	// not stop for every batch. One batch runs at a time.
	if err := b.wait(); err != nil {
		return err
	}
	batch, running := b.batch, make(chan error, 1)
	go func() { running <- b.ix.bleve.Batch(batch) }()
	b.running = running
	b.flushes++
	// A new batch, not the old one Reset: the old one is bleve's until
	// its Batch returns, and scorch's Batch may even then still range
	// over its operations (the deletes after the last update) on a
	// goroutine of its own; Reset writes the fields it reads.
	b.batch = b.ix.bleve.NewBatch()
	return b.ix.spillSide()
}

// wait waits for the batch bleve is applying, if any, and returns its
// error.
func (b *applyBatch) wait() error {
	if b.running == nil {
		return nil
	}
	err := <-b.running
	b.running = nil
	if err != nil {
		return fmt.Errorf("index: batch: %w", err)
	}
	return nil
}

// settle merges segments now, so that the export that follows and later
// builds read few. After a Sync that made several segments (a cold build
// makes one per batch) it merges them all: left to scorch's background
// merger, the merges would run during the next builds instead, where a
// one-record rebuild would pay for merging a tenth of the index. After a
// small one (small), it merges only the small segments that earlier
// rebuilds left, one each, which every term's read would otherwise visit.
// (The segment this Sync made is not merged yet: scorch has yet to persist
// it, and merges only persisted ones.)
func (ix *Index) settle(small bool) error {
	adv, err := ix.bleve.Advanced()
	if err != nil {
		return err
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil
	}
	opts := mergeplan.SingleSegmentMergePlanOptions
	opts.SegmentsPerMergeTask = 1 << 20
	if small {
		// Segments of fewer than smallSegment live documents.
		opts.MaxSegmentSize = 2 * smallSegment
	}
	if err := s.ForceMerge(context.Background(), &opts); err != nil {
		return fmt.Errorf("index: merge segments: %w", err)
	}
	return nil
}

// smallSegment is the size (live documents) below which settle(true)
// merges a segment: a day's edits, not the bulk of the index.
const smallSegment = 5000
