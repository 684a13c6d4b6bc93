package index

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"unsafe"

	"github.com/errdocs/errdocs/internal/cachefile"
)

// The side store keeps, for each indexed record, its content hash and its
// DocData, beside the bleve index. A rebuild after one edit must not read
// and write the whole store (tens of megabytes), so it is a log: the
// file is a header and a sequence of segments, each the puts and deletes of
// one Sync, and a later entry for an id replaces an earlier one. Opening
// replays the log (one read, no decoding of the doc data); a Sync appends
// its changes (in segments of at most sideChunk entries), or rewrites the
// file compacted when the dead entries outnumber the live ones.
//
// The file is a log of internal/cachefile: its header, then the segments,
// each an entry (uvarint(len(body)) body crc32c(body)). A segment's body
// is a 16-byte generation, then entries:
//
//	put:    1 uvarint(len(id)) id hash[16] uvarint(len(sortKey)) sortKey uvarint(len(blob)) blob
//	delete: 2 uvarint(len(id)) id
//
// A segment cut short or failing its checksum makes the whole store
// untrusted (Open then rebuilds the index), like the dirty marker does.
//
// The generation is random, new with every write; the last one names the
// records the store holds (sideKey), which is what the search export's
// state is checked against. Two stores with the same records may have
// different generations: that only costs an incremental export.

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

// sideChunk is the most entries a segment holds.
var sideChunk = 4096

// sideSlack is how many dead entries the log may hold beyond as many as
// the live ones before it is compacted.
var sideSlack = 1024

// sideLog is what the Index knows of its side store file.
type sideLog struct {
	generation [16]byte
	entries    int             // entries in the file, live or dead
	changed    map[string]bool // ids put or deleted since the file was written
	size       int64           // the file's length, as read or last written
	last       int64           // where its last segment begins (0: none)
	// current is the first of the Index's sideMaps that maps the file as
	// it is now: a compaction renames a new file over the one mapped
	// before.
	current int
	// saved is whether the table file (sidesave.go) was saved for the
	// file as it is, or found not to be describable (nothing to try
	// again until the file changes).
	saved bool
}

const (
	sideKind    = "side store"
	sideVersion = 2
)

var errSideCorrupt = errors.New("side store: corrupt")

// readSide replays the side store file into ix.side. The file is mapped,
// not read into the heap: the table of entries holds their places in the
// mapping (a one-change rebuild would otherwise touch the whole store
// as fresh memory), which stays mapped until Close. Nothing writes the
// mapped bytes: writeSide appends past them, or compacts into a new file
// renamed over the old one.
func (ix *Index) readSide() error {
	m, err := cachefile.Map(filepath.Join(ix.dir, sideFile))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil // a fresh, empty index
		}
		return err
	}
	ix.sideMaps = append(ix.sideMaps, m)
	if ix.loadTable() {
		return nil
	}
	if err := ix.replayAll(m.Bytes()); err != nil {
		ix.closeSide()
		return err
	}
	return nil
}

// replayAll checks the segments of the file's bytes (the last mapping's),
// then replays them into a table sized for the records they put.
func (ix *Index) replayAll(data []byte) error {
	rest, err := cachefile.Header(data, sideKind, sideVersion)
	if err != nil {
		return errSideCorrupt
	}
	bodies, puts, err := sideSegments(rest)
	if err != nil {
		return err
	}
	ix.log.size = int64(len(data))
	if len(bodies) > 0 {
		ix.log.last = lastSegment(data, bodies[len(bodies)-1])
	}
	ix.side = newSideTable(puts)
	for _, body := range bodies {
		if err := ix.replay(body); err != nil {
			return err
		}
	}
	return nil
}

// sideSegments checks and returns the segment bodies of data, and how many
// puts they hold.
func sideSegments(data []byte) (bodies [][]byte, puts int, err error) {
	r := cachefile.NewReader(data)
	for r.Len() > 0 {
		body := r.Entry()
		if r.Err() != nil {
			return nil, 0, errSideCorrupt
		}
		bodies = append(bodies, body)
		puts += countPuts(body)
	}
	return bodies, puts, nil
}

// lastSegment is where in data (the file) the segment of body (a slice of
// data) begins: its length comes first.
func lastSegment(data, body []byte) int64 {
	start := int64(uintptr(unsafe.Pointer(unsafe.SliceData(body))) - uintptr(unsafe.Pointer(unsafe.SliceData(data))))
	return start - int64(len(binary.AppendUvarint(nil, uint64(len(body)))))
}

// countPuts counts the puts of a segment's body, to size the map: growing
// a map of a hundred thousand entries allocates about twice its size. A
// malformed body counts what it can; replay refuses it.
func countPuts(body []byte) int {
	if len(body) < 16 {
		return 0
	}
	r := cachefile.NewReader(body[16:])
	n := 0
	for r.Len() > 0 && r.Err() == nil {
		op := r.Byte()
		r.Bytes() // id
		if op != 1 {
			continue
		}
		n++
		r.Next(16)
		r.Bytes() // sort key
		r.Bytes() // blob
	}
	return n
}

// replay applies one segment's body, a slice of the last mapping of the
// file: each put's place in it goes into the table.
func (ix *Index) replay(body []byte) error {
	if len(body) < 16 || len(ix.sideMaps) == 0 {
		return errSideCorrupt
	}
	for len(ix.side.maps) < len(ix.sideMaps) {
		ix.side.maps = append(ix.side.maps, ix.sideMaps[len(ix.side.maps)].Bytes())
	}
	m := len(ix.sideMaps) - 1
	base := uintptr(unsafe.Pointer(unsafe.SliceData(ix.side.maps[m])))
	end := base + uintptr(len(ix.side.maps[m]))
	r := cachefile.NewReader(body)
	copy(ix.log.generation[:], r.Next(16))
	for r.Len() > 0 {
		op := r.Byte()
		at := uintptr(unsafe.Pointer(unsafe.SliceData(body[len(body)-r.Len():])))
		id := r.Bytes()
		ix.log.entries++
		switch op {
		case 1:
			r.Next(16) // hash
			r.Bytes()  // sort key
			r.Bytes()  // blob
			if r.Err() != nil || at < base || at >= end {
				return errSideCorrupt
			}
			// The table holds where the entry is, not a copy: at half a
			// million records the ids and sort keys alone are tens of
			// megabytes.
			if err := ix.side.place(unsafe.String(unsafe.SliceData(id), len(id)), m, int(at-base)); err != nil {
				return err
			}
		case 2:
			if r.Err() != nil {
				return errSideCorrupt
			}
			ix.side.remove(unsafe.String(unsafe.SliceData(id), len(id)))
		default:
			return errSideCorrupt
		}
	}
	if r.Err() != nil {
		return errSideCorrupt
	}
	return nil
}

// putSide and deleteSide change the side store in memory; writeSide makes
// the file follow.
func (ix *Index) putSide(id string, e sideEntry) {
	ix.side.put(id, e)
	ix.noteSide(id)
}

func (ix *Index) deleteSide(id string) {
	ix.side.remove(id)
	ix.noteSide(id)
}

func (ix *Index) noteSide(id string) {
	if ix.log.changed == nil {
		ix.log.changed = map[string]bool{}
	}
	ix.log.changed[id] = true
}

// writeSide appends the changes since the last write as segments, or
// rewrites the file compacted when more than half of it would be dead. It
// returns where in the file the segments it wrote begin.
func (ix *Index) writeSide() (from int64, err error) {
	if len(ix.log.changed) == 0 {
		return 0, nil
	}
	path := filepath.Join(ix.dir, sideFile)
	ids := make([]string, 0, len(ix.log.changed))
	for id := range ix.log.changed {
		ids = append(ids, id)
	}
	compact := ix.log.entries+len(ids) > 2*ix.side.len()+sideSlack
	if compact {
		ids = ids[:0]
		ix.side.eachID(func(id string) bool {
			ids = append(ids, id)
			return true
		})
	}
	sort.Strings(ids)
	if _, err := rand.Read(ix.log.generation[:]); err != nil {
		return 0, err
	}
	var f *os.File
	if compact {
		f, err = os.Create(path + ".tmp")
	} else {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	}
	if err != nil {
		return 0, fmt.Errorf("side store: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, fmt.Errorf("side store: %w", err)
	}
	from = st.Size()
	if from == 0 {
		head := cachefile.Begin(nil, sideKind, sideVersion)
		bw.Write(head)
		from = int64(len(head))
	}
	end, last := from, int64(0)
	// Segments of at most sideChunk entries, each with the new generation:
	// a cold build's half a million entries are not put in one buffer.
	var body, frame []byte
	for lo := 0; lo < len(ids); lo += sideChunk {
		body = append(body[:0], ix.log.generation[:]...)
		for _, id := range ids[lo:min(lo+sideChunk, len(ids))] {
			e, ok := ix.side.get(id)
			if !ok {
				body = append(body, 2)
				body = cachefile.AppendString(body, id)
				continue
			}
			body = append(body, 1)
			body = cachefile.AppendString(body, id)
			body = append(body, e.Hash[:]...)
			body = cachefile.AppendString(body, e.SortKey)
			body = cachefile.AppendBytes(body, e.Blob)
		}
		frame = cachefile.AppendEntry(frame[:0], body)
		bw.Write(frame)
		last, end = end, end+int64(len(frame))
	}
	err = bw.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && compact {
		err = os.Rename(path+".tmp", path)
	}
	if err != nil {
		return 0, fmt.Errorf("side store: %w", err)
	}
	if compact {
		ix.log.entries = len(ids)
		ix.log.current = len(ix.sideMaps) // the next mapping is the new file's
	} else {
		ix.log.entries += len(ids)
	}
	ix.log.size, ix.log.last, ix.log.saved = end, last, false
	ix.log.changed = nil
	return from, nil
}

// sideSpill is how many entries put or deleted since the side store file
// was written make an Apply write them (spillSide): at half a million
// records a cold build's doc data would otherwise stay on the heap until
// the end of the indexing, which is where the collector then ran back to
// back against the soft memory limit.
var sideSpill = 16384

// spillSide writes the changes so far when they are many (flushSide).
func (ix *Index) spillSide() error {
	if len(ix.log.changed) < sideSpill {
		return nil
	}
	return ix.flushSide()
}

// flushSide writes the changes so far, maps the file again and points
// their entries at its bytes, so that their sort keys and doc data leave
// the heap, and every entry is somewhere in the file as it is now, which
// is what its table (sidesave.go) records. The file is written under the
// dirty marker Apply already set.
func (ix *Index) flushSide() error {
	from, err := ix.writeSide()
	if err != nil || from == 0 {
		return err // from 0: nothing to write
	}
	m, err := cachefile.Map(filepath.Join(ix.dir, sideFile))
	if err != nil {
		return fmt.Errorf("side store: %w", err)
	}
	ix.sideMaps = append(ix.sideMaps, m)
	data := m.Bytes()
	if from > int64(len(data)) {
		return errSideCorrupt
	}
	bodies, _, err := sideSegments(data[from:])
	if err != nil {
		return err
	}
	// Replaying what was just written changes no entry's content, only
	// where its bytes are; the file's entry count is writeSide's.
	entries := ix.log.entries
	for _, body := range bodies {
		if err := ix.replay(body); err != nil {
			return err
		}
	}
	ix.log.entries = entries
	// The replay touched the pages just written; nothing reads them again
	// until the export, so they need not stay in the build's resident
	// memory beside its heap until then.
	m.Evict(int(from))
	return nil
}

// sideKey names the records the index holds: the side store's generation,
// which every write renews.
func (ix *Index) sideKey() [32]byte {
	var k [32]byte
	copy(k[:], "side ")
	copy(k[16:], ix.log.generation[:])
	return k
}
