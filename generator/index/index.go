package index

import (
	"encoding/gob"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/errdocs/errdocs/generator/record"
)

// DefaultBatchSize is the number of index operations per bleve batch: large
// enough to amortise scorch's segment building, small enough to bound memory.
const DefaultBatchSize = 5000

// Index is the on-disk bleve index of the records plus a side store holding,
// for each indexed record, its content hash and its DocData.
type Index struct {
	dir   string
	bleve bleve.Index
	side  map[string]sideEntry // by record id
	// BatchSize overrides DefaultBatchSize when > 0.
	BatchSize int

	// For an incremental export (incremental.go): the records indexed when
	// the index was opened (sideKey), the terms of each record indexed
	// since (nil once too many to track), whether any record was added or
	// deleted since, and what the last Export leaves for the next.
	openKey      [32]byte
	touched      map[string][][]string
	restructured bool
	pending      *exportState
}

// sideEntry is kept for each of up to half a million records, so it is
// compact: the doc data is encoded in a byte slice (docBlob) that the
// garbage collector need not scan, rather than a dozen strings.
type sideEntry struct {
	Hash    [16]byte // recordHash
	SortKey string   // DocData.SortKey, read for every record at export
	Blob    []byte   // DocData, encoded
}

// data decodes the entry's doc data.
func (e sideEntry) data() (DocData, error) {
	d, err := decodeDocData(e.Blob)
	d.SortKey = e.SortKey
	return d, err
}

// sideRecord is a side entry as the side store file holds it.
type sideRecord struct {
	ID      string
	Hash    [16]byte
	SortKey string
	Blob    []byte
}

// sideFile is the side store; dirtyFile exists while a Sync is writing, so
// that a crash between bleve batches and the side store write makes the next
// Open distrust the cache and rebuild it instead of skipping changed records.
const (
	bleveDir  = "bleve"
	sideFile  = "docs.gob"
	dirtyFile = "sync.dirty"
	verFile   = "version"
)

// Open opens (or creates) the index in dir, a cache folder outside the
// published site. A cache written by another mapping version, or left dirty
// by an interrupted Sync, is deleted and rebuilt from scratch by the next Sync.
func Open(dir string) (*Index, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ix := &Index{dir: dir, side: map[string]sideEntry{}}
	ver, _ := os.ReadFile(filepath.Join(dir, verFile))
	_, dirtyErr := os.Stat(filepath.Join(dir, dirtyFile))
	trusted := string(ver) == mappingVersion && errors.Is(dirtyErr, os.ErrNotExist)
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
			return ix, nil
		}
	}
	// Start over: remove whatever is there.
	ix.side = map[string]sideEntry{}
	for _, n := range []string{bleveDir, sideFile, dirtyFile, verFile} {
		if err := os.RemoveAll(filepath.Join(dir, n)); err != nil {
			return nil, err
		}
	}
	m, err := NewMapping()
	if err != nil {
		return nil, err
	}
	b, err := bleve.New(bpath, m)
	if err != nil {
		return nil, fmt.Errorf("index: create %s: %w", bpath, err)
	}
	ix.bleve = b
	if err := os.WriteFile(filepath.Join(dir, verFile), []byte(mappingVersion), 0o644); err != nil {
		b.Close()
		return nil, err
	}
	return ix, nil
}

// Close closes the bleve index.
func (ix *Index) Close() error {
	if ix == nil || ix.bleve == nil {
		return nil
	}
	err := ix.bleve.Close()
	ix.bleve = nil
	return err
}

// Bleve exposes the underlying index (for parity tests and diagnostics).
func (ix *Index) Bleve() bleve.Index { return ix.bleve }

// DocCount is the number of indexed records.
func (ix *Index) DocCount() int { return len(ix.side) }

func (ix *Index) readSide() error {
	f, err := os.Open(filepath.Join(ix.dir, sideFile))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil // a fresh, empty index
		}
		return err
	}
	defer f.Close()
	dec := gob.NewDecoder(f)
	var head sideHead
	if err := dec.Decode(&head); err != nil {
		return err
	}
	for n := 0; n < head.Count; {
		var entries []sideRecord
		if err := dec.Decode(&entries); err != nil {
			return err
		}
		if len(entries) == 0 {
			return errors.New("side store: empty chunk")
		}
		for _, e := range entries {
			if _, err := decodeDocData(e.Blob); err != nil {
				return fmt.Errorf("side store: record %s: %w", e.ID, err)
			}
			ix.side[e.ID] = sideEntry{Hash: e.Hash, SortKey: e.SortKey, Blob: e.Blob}
		}
		n += len(entries)
	}
	return nil
}

// The side store file is a sideHead, then the entries sorted by id in
// gob messages of at most sideChunk entries: gob holds a message whole
// while it encodes it, and one message of half a million entries took a
// gigabyte of buffers at the end of a cold build.
const sideChunk = 4096

type sideHead struct{ Count int }

func (ix *Index) writeSide() error {
	entries := make([]sideRecord, 0, len(ix.side))
	for id, e := range ix.side {
		entries = append(entries, sideRecord{id, e.Hash, e.SortKey, e.Blob})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].ID < entries[j].ID })
	tmp := filepath.Join(ix.dir, sideFile+".tmp")
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	enc := gob.NewEncoder(f)
	if err := enc.Encode(sideHead{len(entries)}); err != nil {
		f.Close()
		return err
	}
	for lo := 0; lo < len(entries); lo += sideChunk {
		if err := enc.Encode(entries[lo:min(lo+sideChunk, len(entries))]); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(ix.dir, sideFile))
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
	seen := make(map[string]bool, len(ix.side))
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
