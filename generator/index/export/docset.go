package export

import (
	"encoding/binary"
	"math/bits"
)

// A shard's doc set (shardOut.docs: the docs with a posting in it) is
// kept in the export state for the next export, which asks it whether a
// changed record had postings there. A bitset of every doc per shard
// makes the state grow with shards × records (tens of megabytes at
// 100,000 records, to decode on every rebuild), and most shards hold a
// small part of the records; so a set is stored as bytes, whichever is
// shorter of the gaps between its docs (uvarints after a 0 byte) and its
// bitset (little-endian words after a 1 byte), and it is read in place,
// in the mapped state file (statefile.go).
const (
	docSetGaps   = 0
	docSetBitset = 1
)

// encodeDocSet encodes the set of a bitset of docs.
func encodeDocSet(words []uint64) []byte {
	n := len(words)
	for n > 0 && words[n-1] == 0 {
		n--
	}
	words = words[:n]
	count := 0
	for _, w := range words {
		count += bits.OnesCount64(w)
	}
	if count >= 8*len(words) { // a gap takes a byte at least
		return appendBitset(words)
	}
	gaps := make([]byte, 1, 1+2*count)
	prev := uint32(0)
	for i, w := range words {
		for w != 0 {
			doc := uint32(i*64 + bits.TrailingZeros64(w))
			w &= w - 1
			gaps = binary.AppendUvarint(gaps, uint64(doc-prev))
			prev = doc
		}
	}
	if len(gaps) > 1+8*len(words) {
		return appendBitset(words)
	}
	return gaps
}

func appendBitset(words []uint64) []byte {
	b := make([]byte, 1, 1+8*len(words))
	b[0] = docSetBitset
	for _, w := range words {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b
}

// docSetHas reports whether the encoded set holds doc; a set it cannot
// read may hold it.
func docSetHas(set []byte, doc uint32) bool {
	if len(set) == 0 {
		return false
	}
	if set[0] == docSetBitset {
		i := 1 + int(doc/8)
		return i < len(set) && set[i]&(1<<(doc%8)) != 0
	}
	b, d := set[1:], uint32(0)
	for len(b) > 0 {
		gap, k := binary.Uvarint(b)
		if k <= 0 {
			return true
		}
		d += uint32(gap)
		switch {
		case d == doc:
			return true
		case d > doc:
			return false
		}
		b = b[k:]
	}
	return false
}
