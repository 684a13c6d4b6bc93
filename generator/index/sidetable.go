package index

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"math/rand/v2"
	"unsafe"

	"github.com/zeebo/xxh3"
)

// sideTable holds the side store's entries: those of the mapped log, found
// through an open-addressing table of their places in the mapping, and
// those put since the log was last mapped, in a map. A map of every record
// was what a build made of the store at open: at half a million records a
// third of a second and some sixty megabytes of fresh heap (an entry and a
// copied id each), for a build that then looks up every record's sort key
// and changes one. The table is two slices of integers, sixteen bytes a
// slot at most half full, and the ids copied one after the other into
// slices of bytes: none of it the collector needs to scan. The ids are
// copies because a lookup compares them: in the mapping they lie among
// the doc data, a page (and a TLB miss) apart, and half a million lookups
// of them cost twice what the map's did.
//
// An id is in at most one of the two: a put in memory takes it out of the
// table, and a put replayed from a mapping takes it out of the map.
type sideTable struct {
	maps   [][]byte // the mappings' bytes the places refer to, by number
	slots  []uint64 // slotEmpty, slotGone, or tag<<48 | the id's offset in ids
	places []uint64 // by slot: where the entry is (mapping<<36 | offset)
	ids    []byte   // the ids of the slots, each length first
	// added are the ids put since ids was made, at offsets from
	// len(ids) on: ids may be the saved table's mapped bytes
	// (sidesave.go), and one put appended to them copied them all.
	added []byte
	used  int // slots not empty: live places and gone ones
	live  int // live places
	heap  map[string]sideEntry
	// seed keys the hash of ids. It is random, so that no dataset's ids
	// can be chosen to collide, and kept with the table when it is saved
	// (sidesave.go): the runtime's own hash (hash/maphash) differs from
	// one process to the next whatever its seed, so a table of its
	// hashes could not be read back.
	seed uint64
}

const (
	slotEmpty = 0
	slotGone  = 1
	// A slot's tag is 15 bits of the id's hash with the top bit set,
	// which keeps a live slot above slotGone. A place is mapping<<36 |
	// offset: the offset of an entry's id (its length first) in a mapping
	// of at most 64 GB, of at most 4096 mappings (one per spill).
	offsetBits  = 36
	mappingBits = 12
	tagMask     = 0xffff << 48
)

var errSideTooLarge = errors.New("side store: too large for the table of places")

func newSideTable(n int) sideTable {
	t := sideTable{seed: rand.Uint64()}
	t.grow(n)
	return t
}

// grow sizes the table for n live places (at most half full), and its
// ids for about as many ids as it holds now per slot, or 20 bytes an id.
func (t *sideTable) grow(n int) {
	size := 1 << max(4, bits.Len(uint(2*n)))
	old := *t
	t.slots, t.places, t.used, t.live = make([]uint64, size), make([]uint64, size), 0, 0
	t.ids, t.added = nil, make([]byte, 0, max(20*n, old.idBytes()*size/max(1, len(old.slots))))
	for i, s := range old.slots {
		if s > slotGone {
			t.insert(old.id(s), old.places[i])
		}
	}
}

func (t *sideTable) hash(id string) uint64 { return xxh3.HashStringSeed(id, t.seed) }

func tagOf(h uint64) uint64 { return (h>>49 | 1<<15) << 48 }

// entryAt decodes the entry at a place: the id, then what a put holds
// after it. The bytes were checked when the segment was replayed, or, when
// the table was read from its file (sidesave.go), not: a log damaged since
// then decodes to an entry whose doc data does not decode (decodeDocData
// says so), never to a read out of bounds.
func (t *sideTable) entryAt(p uint64) (id string, e sideEntry) {
	idb, b := uvarintBytes(t.at(p))
	if len(b) < 16 {
		return unsafe.String(unsafe.SliceData(idb), len(idb)), e
	}
	copy(e.Hash[:], b[:16])
	sk, b := uvarintBytes(b[16:])
	e.Blob, _ = uvarintBytes(b)
	e.SortKey = unsafe.String(unsafe.SliceData(sk), len(sk))
	return unsafe.String(unsafe.SliceData(idb), len(idb)), e
}

// at is the bytes of a place's mapping from its offset on.
func (t *sideTable) at(p uint64) []byte {
	m, off := p>>offsetBits&(1<<mappingBits-1), p&(1<<offsetBits-1)
	if m >= uint64(len(t.maps)) || off >= uint64(len(t.maps[m])) {
		return nil
	}
	return t.maps[m][off:]
}

// id is the id a slot names.
func (t *sideTable) id(slot uint64) string {
	ids, off := t.ids, slot&^tagMask
	if off >= uint64(len(ids)) {
		ids, off = t.added, off-uint64(len(ids))
	}
	idb, _ := uvarintBytes(ids[off:])
	return unsafe.String(unsafe.SliceData(idb), len(idb))
}

// idBytes is the length of the ids' bytes, ids and added.
func (t *sideTable) idBytes() int { return len(t.ids) + len(t.added) }

// uvarintBytes splits a length-prefixed byte string off b; a length
// past b's end gives nothing.
func uvarintBytes(b []byte) (v, rest []byte) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil
	}
	return b[k : k+int(n) : k+int(n)], b[k+int(n):]
}

// find returns the slot holding id's place, or -1, and the slot where a
// place for it would go.
func (t *sideTable) find(id string) (at, free int) {
	h := t.hash(id)
	tag, mask := tagOf(h), uint64(len(t.slots)-1)
	free = -1
	for i := h & mask; ; i = (i + 1) & mask {
		switch p := t.slots[i]; {
		case p == slotEmpty:
			if free < 0 {
				free = int(i)
			}
			return -1, free
		case p == slotGone:
			if free < 0 {
				free = int(i)
			}
		case p&tagMask == tag && t.id(p) == id:
			return int(i), free
		}
	}
}

// insert puts a place for an id known not to be in the table.
func (t *sideTable) insert(id string, p uint64) {
	_, free := t.find(id)
	t.insertAt(free, id, p)
}

// insertAt puts a place for id in slot free, which find gave for it.
func (t *sideTable) insertAt(free int, id string, p uint64) {
	if t.slots[free] == slotEmpty {
		t.used++
	}
	t.slots[free] = tagOf(t.hash(id)) | uint64(t.idBytes())
	t.places[free] = p
	t.added = binary.AppendUvarint(t.added, uint64(len(id)))
	t.added = append(t.added, id...)
	t.live++
}

// get returns id's entry.
func (t *sideTable) get(id string) (sideEntry, bool) {
	if e, ok := t.heap[id]; ok {
		return e, true
	}
	if at, _ := t.find(id); at >= 0 {
		_, e := t.entryAt(t.places[at])
		return e, true
	}
	return sideEntry{}, false
}

// has reports whether id has an entry, without reading the mapping.
func (t *sideTable) has(id string) bool {
	if _, ok := t.heap[id]; ok {
		return true
	}
	at, _ := t.find(id)
	return at >= 0
}

// sortKey returns id's entry's sort key, reading no more of the mapping.
func (t *sideTable) sortKey(id string) (string, bool) {
	if e, ok := t.heap[id]; ok {
		return e.SortKey, true
	}
	at, _ := t.find(id)
	if at < 0 {
		return "", false
	}
	_, b := uvarintBytes(t.at(t.places[at]))
	if len(b) < 16 {
		return "", true
	}
	sk, _ := uvarintBytes(b[16:])
	return unsafe.String(unsafe.SliceData(sk), len(sk)), true
}

func (t *sideTable) len() int { return t.live + len(t.heap) }

// put keeps e in memory for id.
func (t *sideTable) put(id string, e sideEntry) {
	t.unplace(id)
	if t.heap == nil {
		t.heap = map[string]sideEntry{}
	}
	t.heap[id] = e
}

// remove forgets id.
func (t *sideTable) remove(id string) {
	delete(t.heap, id)
	t.unplace(id)
}

func (t *sideTable) unplace(id string) {
	if at, _ := t.find(id); at >= 0 {
		t.slots[at] = slotGone
		t.live--
	}
}

// place records that id's entry is at offset off of mapping m (a put
// replayed from it), instead of wherever it was.
func (t *sideTable) place(id string, m, off int) error {
	if m >= 1<<mappingBits || off >= 1<<offsetBits {
		return errSideTooLarge
	}
	delete(t.heap, id)
	p := uint64(m)<<offsetBits | uint64(off)
	at, free := t.find(id)
	switch {
	case at >= 0:
		t.places[at] = p
	case t.slots[free] == slotGone || 2*(t.used+1) <= len(t.slots):
		t.insertAt(free, id, p)
	default:
		t.grow(2 * (t.live + 1))
		t.insert(id, p)
	}
	return nil
}

// eachID calls f with every id, the table's first, until f returns false,
// reading none of the mapping. The table's ids stay valid: its bytes of
// ids are only appended to, or left behind for new ones when it grows.
func (t *sideTable) eachID(f func(id string) bool) {
	for _, s := range t.slots {
		if s > slotGone && !f(t.id(s)) {
			return
		}
	}
	for id := range t.heap {
		if !f(id) {
			return
		}
	}
}

// each calls f with every entry, the table's first, until f returns false.
// The ids and entries of the table are slices of the mappings.
func (t *sideTable) each(f func(id string, e sideEntry) bool) {
	for i, s := range t.slots {
		if s > slotGone {
			if !f(t.entryAt(t.places[i])) {
				return
			}
		}
	}
	for id, e := range t.heap {
		if !f(id, e) {
			return
		}
	}
}
