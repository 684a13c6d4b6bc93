package validate

import (
	"math/bits"
	"math/rand/v2"
)

// idTable holds where each id was first read, by the id's eight bytes:
// an open-addressing table of one slice, which a rebuild fills with half
// a million ids. A Go map of them cost a lookup and then an insert, two
// hashes and two probes of a table far larger than the cache, for every
// record; here a record costs one probe, which the insert reuses.
//
// The slot of an id is chosen by multiplying it with a random odd number
// (multiply-shift hashing): ids are untrusted, and a dataset whose ids
// were chosen to share slots would otherwise make each insert walk all
// the ids before it.
type idTable struct {
	slots []idSlot // a power of two, at most half full
	n     int
	mul   uint64
	shift uint // 64 - log2(len(slots))
}

// idSlot is an id's slot; at.file is one more than the place's (0: empty).
type idSlot struct {
	id uint64
	at place
}

func newIDTable(n int) idTable {
	t := idTable{mul: rand.Uint64() | 1}
	t.resize(n)
	return t
}

// resize makes room for n ids, keeping those held.
func (t *idTable) resize(n int) {
	size := 1 << max(4, bits.Len(uint(2*n)))
	old := t.slots
	t.slots, t.shift = make([]idSlot, size), uint(64-bits.TrailingZeros(uint(size)))
	for _, s := range old {
		if s.at.file != 0 {
			t.slots[t.find(s.id)] = s
		}
	}
}

// find returns the slot holding id, or the empty slot where it would go.
func (t *idTable) find(id uint64) int {
	mask := len(t.slots) - 1
	for i := int((id * t.mul) >> t.shift); ; i = (i + 1) & mask {
		if s := &t.slots[i]; s.at.file == 0 || s.id == id {
			return i
		}
	}
}

// lookup returns where id was first read, if it was, and the slot to
// insert it at otherwise.
func (t *idTable) lookup(id uint64) (first place, slot int, ok bool) {
	slot = t.find(id)
	s := t.slots[slot]
	if s.at.file == 0 {
		return place{}, slot, false
	}
	s.at.file--
	return s.at, slot, true
}

// insert puts id, read at p, in the slot lookup gave for it, with no
// insert between the two.
func (t *idTable) insert(slot int, id uint64, p place) {
	p.file++
	t.slots[slot] = idSlot{id, p}
	if t.n++; 2*t.n > len(t.slots) {
		t.resize(t.n)
	}
}

func (t *idTable) len() int { return t.n }
