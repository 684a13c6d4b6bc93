package index

import (
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/cachefile"
	"github.com/errdocs/errdocs/internal/resident"
)

// DefaultBatchSize is the number of index operations per bleve batch: large
// enough to amortise scorch's segment building, small enough to bound memory.
const DefaultBatchSize = 5000

// Index is the on-disk bleve index of the records plus a side store holding,
// for each indexed record, its content hash and its DocData.
type Index struct {
	dir   string
	bleve bleve.Index
	side  sideTable // by record id (sidetable.go)
	log   sideLog   // the side store file's state (side.go)
	// sideMaps are the side store file as Open mapped it and as each
	// spill (side.go) mapped it again: the entries read from them refer to
	// their bytes until Close.
	sideMaps []*cachefile.Mapping
	// tableMap is the saved table Open mapped copy-on-write
	// (sidesave.go): the table's slots, places and ids are its bytes
	// until a put outgrows them.
	tableMap *cachefile.Mapping
	// BatchSize overrides DefaultBatchSize when > 0.
	BatchSize int

	// For an incremental export (changes.go): the records indexed when
	// the index was opened (sideKey), the terms of each record indexed
	// since (nil once too many to track), whether any record was added or
	// deleted since.
	openKey [32]byte
	touched map[string][][]string
	// touchedFilters holds the filter values (DocFilterSum) of the
	// records in touched.
	touchedFilters map[string]uint64
	restructured   bool

	// tableSaving receives the end of the table file's write
	// (sidesave.go) while one runs.
	tableSaving chan error

	// The maker of bleve documents (entry.go), made once, by the first
	// goroutine to prepare an entry.
	docsOnce sync.Once
	docs     *docMaker
	docsErr  error
}

// sideFile is the side store (side.go); dirtyFile exists while a Sync is
// writing, so that a crash between bleve batches and the side store write
// makes the next Open distrust the cache and rebuild it instead of skipping
// changed records.
const (
	bleveDir  = "bleve"
	sideFile  = "docs.log"
	dirtyFile = "sync.dirty"
	verFile   = "version"
	// oldSideFile is the side store of mapping versions up to 5, removed
	// when the index starts over.
	oldSideFile = "docs.gob"
)

// Open opens (or creates) the index in dir, a cache folder outside the
// published site. A cache written by another mapping version, or left dirty
// by an interrupted Sync, is deleted and rebuilt from scratch by the next Sync.
func Open(dir string) (*Index, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ix := &Index{dir: dir, side: newSideTable(0)}
	ver, _ := os.ReadFile(filepath.Join(dir, verFile))
	_, dirtyErr := os.Stat(filepath.Join(dir, dirtyFile))
	trusted := string(ver) == MappingVersion && errors.Is(dirtyErr, os.ErrNotExist)
	if trusted {
		if err := ix.readSide(); err != nil {
			trusted = false
		}
	}
	bpath := filepath.Join(dir, bleveDir)
	if trusted {
		b, err := bleve.Open(bpath)
		if err == nil {
			ix.bleve = b
			ix.openKey = ix.sideKey()
			ix.touched = map[string][][]string{}
			ix.touchedFilters = map[string]uint64{}
			return ix, nil
		}
	}
	// Start over: remove whatever is there.
	ix.closeSide()
	ix.side, ix.log = newSideTable(0), sideLog{}
	for _, n := range []string{bleveDir, sideFile, tableFile, dirtyFile, verFile, oldSideFile} {
		if err := os.RemoveAll(filepath.Join(dir, n)); err != nil {
			return nil, err
		}
	}
	m, err := NewMapping()
	if err != nil {
		return nil, err
	}
	b, err := bleve.NewUsing(bpath, m, scorch.Name, bleve.Config.DefaultKVStore, newIndexConfig())
	if err != nil {
		return nil, fmt.Errorf("index: create %s: %w", bpath, err)
	}
	ix.bleve = b
	if err := os.WriteFile(filepath.Join(dir, verFile), []byte(MappingVersion), 0o644); err != nil {
		b.Close()
		return nil, err
	}
	return ix, nil
}

// newIndexConfig is scorch's configuration of an index made anew (bleve
// keeps it with the index). A cold build gives scorch a segment per batch,
// and scorch's merges beside the build take, by default, a few segments of
// a size at a time: a large index had each record written again by merge
// after merge, tier by tier, before settle merged them all. Merges of
// more segments at once write each record fewer times, for the same
// index (the figures: BENCHMARKS.md, session 44).
func newIndexConfig() map[string]interface{} {
	return map[string]interface{}{
		"scorchMergePlanOptions": map[string]interface{}{
			"MaxSegmentsPerTier":   mergeTier,
			"SegmentsPerMergeTask": mergeTier,
		},
	}
}

// mergeTier is how many segments of a size scorch lets gather, and merges
// at once.
const mergeTier = 50

// Close closes the bleve index and unmaps the side store: the sort keys
// SortKeyOf returned must not be used after.
func (ix *Index) Close() error {
	if ix == nil || ix.bleve == nil {
		return nil
	}
	terr := ix.waitTable()
	err := ix.bleve.Close()
	ix.bleve = nil
	ix.closeSide()
	return errors.Join(err, terr)
}

// closeSide forgets the entries read from the side store file and unmaps
// it.
func (ix *Index) closeSide() {
	if len(ix.sideMaps) == 0 {
		return
	}
	ix.side = newSideTable(0)
	for _, m := range ix.sideMaps {
		m.Close()
	}
	ix.sideMaps = nil
	ix.tableMap.Close()
	ix.tableMap = nil
}

// Bleve exposes the underlying index (for parity tests and diagnostics).
func (ix *Index) Bleve() bleve.Index { return ix.bleve }

// DocCount is the number of indexed records.
func (ix *Index) DocCount() int { return ix.side.len() }

// Dir is the index's cache folder; the export keeps its own state there.
func (ix *Index) Dir() string { return ix.dir }

// RecordsKey fingerprints the records indexed now.
func (ix *Index) RecordsKey() [32]byte { return ix.sideKey() }

// SortKeyOf returns the sort key of an indexed record, valid until Close.
func (ix *Index) SortKeyOf(id string) (string, bool) {
	return ix.side.sortKey(id)
}

// DocData returns what a result list shows of an indexed record.
func (ix *Index) DocData(id string) (DocData, error) {
	e, _ := ix.side.get(id)
	d, err := e.data()
	if err != nil {
		err = fmt.Errorf("index: side store entry of %s: %w; delete the cache", id, err)
	}
	return d, err
}

// SyncStats counts what a Sync did.
type SyncStats struct {
	Added, Updated, Deleted, Unchanged int
	Duration                           time.Duration
}

// Sync makes the index hold exactly the given records: it indexes records
// that are new or whose content hash changed, deletes records that are no
// longer in the sequence, and leaves the rest untouched. recs must yield the
// whole dataset; a nil record is skipped; a duplicate id keeps the last one.
func (ix *Index) Sync(recs iter.Seq[*record.Record]) (SyncStats, error) {
	// Sync is Apply over the whole dataset: every record is offered (the
	// unchanged ones are skipped by their hash) and what was not offered is
	// deleted.
	seen := make(map[string]bool, ix.side.len())
	return ix.Apply(func(yield func(*record.Record) bool) {
		for r := range recs {
			if r != nil && r.ID != "" {
				seen[r.ID] = true
			}
			if !yield(r) {
				return
			}
		}
	}, func(id string) bool { return seen[id] })
}

// Records adapts a slice to the sequence Sync takes.
func Records(rs []record.Record) iter.Seq[*record.Record] {
	return func(yield func(*record.Record) bool) {
		for i := range rs {
			if !yield(&rs[i]) {
				return
			}
		}
	}
}

// ReadBytes is the size of the files under dir (an index's folder) that
// exporting the index reads through mappings: the bleve store and the
// side store's log. A build about to export can count them as resident
// memory before their pages arrive (cmd/errdocs: internal/resident).
func ReadBytes(dir string) int64 {
	return bleveBytes(dir) + sideBytes(dir)
}

// bleveBytes is the size of the bleve store's files under dir.
func bleveBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(filepath.Join(dir, bleveDir), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// sideBytes is the size of the side store's log under dir.
func sideBytes(dir string) int64 {
	if fi, err := os.Stat(filepath.Join(dir, sideFile)); err == nil {
		return fi.Size()
	}
	return 0
}

// The two parts of what an export reads through mappings, which it holds
// resident one at a time (export/mapped.go). Letting go of a part's pages
// costs only reading them again: the kernel keeps them in its page cache.

// BleveBytes is the size of the bleve store's files.
func (ix *Index) BleveBytes() int64 { return bleveBytes(ix.dir) }

// SideBytes is the size of the side store's log.
func (ix *Index) SideBytes() int64 { return sideBytes(ix.dir) }

// EvictSide lets the pages of the side store's log that the index maps
// leave the process's resident memory.
func (ix *Index) EvictSide() {
	for _, m := range ix.sideMaps {
		m.Evict(0)
	}
}

// EvictBleve lets the pages of the bleve store's files that bleve maps
// leave the process's resident memory.
func (ix *Index) EvictBleve() {
	resident.EvictUnder(filepath.Join(ix.dir, bleveDir))
}
