package export

import (
	"encoding/binary"
	"math"

	"github.com/errdocs/errdocs/internal/cachefile"
)

// appendPrepared appends a prepared term with long lists in the term
// cache's form: uvarints fallbacks, the long lists' indexes (count
// first), hasHead; with a head its first doc, last - first, count, its
// encoding (a byte string) and per long list its best posting (freq, and
// when not 0 the norm's float32 bits); then per long list its tail count
// and blocks (count first), each its first doc, last - first, count, best
// posting (freq, norm bits) and encoding.
func appendPrepared(b []byte, pt *preparedTerm) []byte {
	u := binary.AppendUvarint
	b = u(b, uint64(pt.fallbacks))
	b = u(b, uint64(len(pt.long)))
	for _, i := range pt.long {
		b = u(b, uint64(i))
	}
	b = u(b, uint64(boolInt(pt.hasHead)))
	if pt.hasHead {
		b = u(b, uint64(pt.headFirst))
		b = u(b, uint64(pt.headLast-pt.headFirst))
		b = u(b, uint64(pt.headCount))
		b = cachefile.AppendBytes(b, pt.headEnc.b)
		for _, p := range pt.headBest {
			b = appendBest(b, p)
		}
	}
	for _, i := range pt.long {
		b = u(b, uint64(pt.nTail[i]))
		b = u(b, uint64(len(pt.blocks[i])))
		for _, blk := range pt.blocks[i] {
			b = u(b, uint64(blk.first))
			b = u(b, uint64(blk.last-blk.first))
			b = u(b, uint64(blk.count))
			b = appendBest(b, blk.max)
			b = cachefile.AppendBytes(b, blk.enc.b)
		}
	}
	return b
}

func appendBest(b []byte, p posting) []byte {
	b = binary.AppendUvarint(b, uint64(p.freq))
	if p.freq != 0 {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(p.norm))
	}
	return b
}

func readBest(r *cachefile.Reader) posting {
	p := posting{freq: uint32(r.Int(math.MaxUint32))}
	if p.freq != 0 {
		p.norm = math.Float32frombits(r.Uint32())
	}
	return p
}

// readPrepared reads what appendPrepared wrote, for a group of n fields.
// The encodings are sub-slices of b.
func readPrepared(b []byte, n int) (*preparedTerm, error) {
	r := cachefile.NewReader(b)
	pt := &preparedTerm{nTail: make([]int, n), blocks: make([][]encodedBlock, n)}
	pt.fallbacks = r.Count()
	pt.long = make([]int, r.Int(n))
	for k := range pt.long {
		pt.long[k] = r.Int(n - 1)
		if k > 0 && pt.long[k] <= pt.long[k-1] {
			return nil, errTermCache
		}
	}
	pt.hasHead = r.Int(1) == 1
	if pt.hasHead {
		pt.headFirst = uint32(r.Int(math.MaxUint32))
		pt.headLast = pt.headFirst + uint32(r.Int(math.MaxUint32-int(pt.headFirst)))
		pt.headCount = r.Count()
		pt.headEnc.b = r.Bytes()
		for range pt.long {
			pt.headBest = append(pt.headBest, readBest(r))
		}
	}
	for _, i := range pt.long {
		pt.nTail[i] = r.Int(math.MaxInt32)
		blocks := make([]encodedBlock, r.Count())
		for k := range blocks {
			blk := &blocks[k]
			blk.first = uint32(r.Int(math.MaxUint32))
			blk.last = blk.first + uint32(r.Int(math.MaxUint32-int(blk.first)))
			blk.count = r.Count()
			blk.max = readBest(r)
			blk.putMax = tfMax(blk.max)
			blk.enc.b = r.Bytes()
		}
		pt.blocks[i] = blocks
	}
	if err := r.Done(); err != nil {
		return nil, errTermCache
	}
	return pt, nil
}
