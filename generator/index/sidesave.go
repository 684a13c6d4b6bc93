package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/errdocs/errdocs/internal/cachefile"
)

// The side store's table of places (sidetable.go) is saved beside its log,
// in tableFile, after every Apply that changed the log. Opening an index
// reads it instead of replaying the log: the replay reads and checksums
// every byte of the log, which a one-change rebuild otherwise never
// reads, and builds the table anew; the saved table is a small part of
// the log's size. It is mapped copy-on-write and used where it lies (its
// slots and places are 8-byte aligned in the file): a rebuild changes a
// few slots, and reading the table into fresh memory cost more than
// everything else its opening does.
//
// The table is a cache of the log, trusted only for the log it was saved
// with: the log's length and its last segment's generation are in it, and
// Open checks both (and that segment's checksum) before using it. A log
// appended to or compacted since, by a build that could not save the
// table after, does not match, and is replayed.
//
// The file (internal/cachefile, sealed):
//
//	generation[16] uvarint(logSize) uvarint(lastSegment) uvarint(entries)
//	seed(uint64) uvarint(slots) pad(byte) zero[pad]
//	slots[slots](uint64le) places[slots](uint64le) uvarint(len(ids)) ids
//
// where pad (0 to 7) aligns the slots to 8 bytes from the file's start.
//
// A saved place is the entry's offset in the log; the mapping it is read
// from is the one Open makes.

const (
	tableFile    = "docs.table"
	tableKind    = "side store table"
	tableVersion = 2
)

// saveTable starts writing the table of the side store as the log now is,
// unless the file holds it already. The write runs beside what follows an
// Apply (the export reads the table too, which is safe: neither writes
// it); waitTable waits for it, and anything that changes the table or
// unmaps the log calls that first. A table that cannot be saved is not: the
// next Open replays the log.
func (ix *Index) saveTable() {
	if ix.log.saved {
		return
	}
	done := make(chan error, 1)
	ix.tableSaving = done
	go func() { done <- ix.writeTable() }()
}

// waitTable waits for a table being saved, and returns what its write
// returned.
func (ix *Index) waitTable() error {
	if ix.tableSaving == nil {
		return nil
	}
	err := <-ix.tableSaving
	ix.tableSaving = nil
	if err == nil {
		ix.log.saved = true
	}
	return err
}

// writeTable writes the table file, or removes it when the table cannot
// be described by offsets in the log as it is now (an entry still on the
// heap, or read from a mapping of a file compacted away). It streams:
// the table grows with the records, and is not copied into fresh memory.
func (ix *Index) writeTable() error {
	path := filepath.Join(ix.dir, tableFile)
	t, log := &ix.side, &ix.log
	if !ix.tableInLog() {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	w, err := cachefile.CreateStream(path, tableKind, tableVersion)
	if err != nil {
		return err
	}
	head := append([]byte(nil), log.generation[:]...)
	head = binary.AppendUvarint(head, uint64(log.size))
	head = binary.AppendUvarint(head, uint64(log.last))
	head = binary.AppendUvarint(head, uint64(log.entries))
	head = binary.LittleEndian.AppendUint64(head, t.seed)
	head = binary.AppendUvarint(head, uint64(len(t.slots)))
	pad := (8 - (w.Len()+uint64(len(head))+1)%8) % 8
	head = append(head, byte(pad))
	head = append(head, make([]byte, pad)...)
	w.Write(head)
	buf := make([]byte, 0, 64<<10)
	for _, s := range t.slots {
		buf = binary.LittleEndian.AppendUint64(buf, s)
		buf = flushFull(w, buf)
	}
	for i, p := range t.places {
		if t.slots[i] <= slotGone {
			p = 0
		}
		buf = binary.LittleEndian.AppendUint64(buf, p&(1<<offsetBits-1))
		buf = flushFull(w, buf)
	}
	w.Write(buf)
	w.Write(binary.AppendUvarint(nil, uint64(t.idBytes())))
	w.Write(t.ids)
	w.Write(t.added)
	return w.Commit()
}

// tableInLog reports whether every entry of the table is at a place in
// the log as it is now: none on the heap, none read from a mapping of a
// file compacted away since.
func (ix *Index) tableInLog() bool {
	t := &ix.side
	if len(t.heap) > 0 || ix.log.last == 0 {
		return false
	}
	for i, s := range t.slots {
		if s > slotGone && int(t.places[i]>>offsetBits&(1<<mappingBits-1)) < ix.log.current {
			return false
		}
	}
	return true
}

// flushFull writes buf to w once it is full, and returns it emptied.
func flushFull(w *cachefile.StreamWriter, buf []byte) []byte {
	if len(buf) < cap(buf) {
		return buf
	}
	w.Write(buf)
	return buf[:0]
}

// loadTable maps the table file into the index, for the log Open mapped
// (the first of sideMaps), and reports whether it could: whether the file
// is whole and describes that log.
func (ix *Index) loadTable() bool {
	m, err := cachefile.MapPrivate(filepath.Join(ix.dir, tableFile))
	if err != nil {
		return false
	}
	body, err := cachefile.Open(m.Bytes(), tableKind, tableVersion)
	if err != nil {
		m.Close()
		return false
	}
	log := ix.sideMaps[0].Bytes()
	t, l, ok := decodeTable(body, log)
	if !ok {
		m.Close()
		return false
	}
	t.maps = [][]byte{log}
	ix.side, ix.log, ix.tableMap = t, l, m
	ix.log.saved = true
	return true
}

// decodeTable decodes a table file's body, and checks it against log, the
// side store file's bytes: their lengths, the last segment's generation
// and checksum, and that every place and id is within bounds. The table
// refers to body's bytes (and writes its slots and places there), which
// must stay as long as it does.
func decodeTable(body, log []byte) (sideTable, sideLog, bool) {
	var t sideTable
	var l sideLog
	r := cachefile.NewReader(body)
	copy(l.generation[:], r.Next(16))
	l.size = int64(r.Uvarint())
	l.last = int64(r.Uvarint())
	l.entries = r.Int(1 << 40)
	t.seed = r.Uint64()
	n := r.Int(r.Len() / 16)
	pad := int(r.Byte())
	r.Next(pad)
	slots, places := r.Next(8*n), r.Next(8*n)
	ids := r.Bytes()
	if r.Done() != nil || pad >= 8 || n < 16 || bits.OnesCount(uint(n)) != 1 || !lastSegmentIs(log, l) {
		return t, l, false
	}
	t.ids = ids // an id put later is appended to t.added
	t.slots, t.places = words(slots), words(places)
	for i := range n {
		s, p := t.slots[i], t.places[i]
		if s > slotGone {
			// In bounds is enough: reads past there give nothing
			// (uvarintBytes), and an id not as saved is not found.
			if s&^tagMask >= uint64(len(t.ids)) || p >= uint64(len(log)) {
				return t, l, false
			}
			t.live++
		}
		if s != slotEmpty {
			t.used++
		}
	}
	return t, l, 2*t.used <= n
}

// words is b's little-endian uint64s: b itself, where this machine's
// order is little-endian and b is aligned, else a copy.
func words(b []byte) []uint64 {
	if len(b) == 0 {
		return nil
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	if littleEndian && uintptr(p)%8 == 0 {
		return unsafe.Slice((*uint64)(p), len(b)/8)
	}
	w := make([]uint64, len(b)/8)
	for i := range w {
		w[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return w
}

// littleEndian is whether this machine stores a uint64's low byte first.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// lastSegmentIs reports whether log is as long as l says and ends with a
// whole segment of l's generation where l says it begins.
func lastSegmentIs(log []byte, l sideLog) bool {
	if l.size != int64(len(log)) || l.last <= 0 || l.last >= l.size {
		return false
	}
	r := cachefile.NewReader(log[l.last:])
	body := r.Entry()
	return r.Err() == nil && r.Len() == 0 && len(body) >= 16 && bytes.Equal(body[:16], l.generation[:])
}
