package export

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"slices"

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

// preparedSize is the size of what appendPrepared appends.
func preparedSize(pt *preparedTerm) int {
	l := func(v int) int { return uvarintLen(uint64(v)) }
	n := l(pt.fallbacks) + l(len(pt.long)) + l(boolInt(pt.hasHead))
	for _, i := range pt.long {
		n += l(i)
	}
	if pt.hasHead {
		n += l(int(pt.headFirst)) + l(int(pt.headLast-pt.headFirst)) + l(pt.headCount) + l(len(pt.headEnc.b)) + len(pt.headEnc.b)
		for _, p := range pt.headBest {
			n += bestSize(p)
		}
	}
	for _, i := range pt.long {
		n += l(pt.nTail[i]) + l(len(pt.blocks[i]))
		for _, blk := range pt.blocks[i] {
			n += l(int(blk.first)) + l(int(blk.last-blk.first)) + l(blk.count) + bestSize(blk.max) + l(len(blk.enc.b)) + len(blk.enc.b)
		}
	}
	return n
}

// bestSize is the size of what appendBest appends.
func bestSize(p posting) int {
	if p.freq == 0 {
		return 1
	}
	return uvarintLen(uint64(p.freq)) + 4
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

// preparedList is a prefix list encoded as writeVirtual writes it, less
// its place in the postings files: like a preparedTerm, the postings
// readers make it beside one another, and the term cache keeps it for an
// incremental export to take again when none of its terms changed.
type preparedList struct {
	prefix    string
	field     int
	first     string // the expansion's first live term, whose entry holds it
	nTerms    int
	nPosts    int
	sum       uint64        // termsSum of the expansion's live terms
	docs      []byte        // the docs of its postings: uvarint gaps
	head      *encodedBlock // its impact head, if any
	blocks    []encodedBlock
	fallbacks int    // norms written as raw bits
	cached    []byte // the list in the term cache's form
}

// termsSum fingerprints the live terms of a prefix list's expansion.
func termsSum(terms []*fieldTerm) uint64 {
	h := sha256.New()
	var n [8]byte
	for _, ft := range terms {
		binary.LittleEndian.PutUint64(n[:], uint64(len(ft.term)))
		h.Write(n[:])
		h.Write([]byte(ft.term))
	}
	return binary.LittleEndian.Uint64(h.Sum(nil))
}

// prepareList encodes a built prefix list: its head (the HeadSize
// postings of largest value, when it has HeadMin postings or more) and
// its tail blocks of BlockSize postings.
func prepareList(vl *vlist, opts Options, sum uint64, sc *vlistBuffers) *preparedList {
	pl := &preparedList{prefix: vl.prefix, field: vl.field, first: vl.first, nTerms: vl.nTerms, nPosts: len(vl.posts), sum: sum}
	prev := uint32(0)
	for _, p := range vl.posts {
		pl.docs = binary.AppendUvarint(pl.docs, uint64(p.doc-prev))
		prev = p.doc
	}
	var st Stats
	block := func(blk []vposting) encodedBlock {
		enc, best := encodeVBlock(blk, &st)
		return encodedBlock{enc: enc, first: blk[0].doc, last: blk[len(blk)-1].doc, count: len(blk), putMax: vmax(best), maxBits: f32Up(best)}
	}
	posts := vl.posts
	if len(posts) >= opts.HeadMin {
		var head []vposting
		head, posts = splitVHead(posts, opts.HeadSize, sc)
		hb := block(head)
		pl.head = &hb
	}
	bs := max(opts.BlockSize, 1)
	for lo := 0; lo < len(posts); lo += bs {
		pl.blocks = append(pl.blocks, block(posts[lo:min(lo+bs, len(posts))]))
	}
	pl.fallbacks = st.NormFallbacks
	pl.cached = appendList(nil, pl)
	return pl
}

// eachDoc calls fn with the doc of each of the list's postings.
func (pl *preparedList) eachDoc(fn func(uint32)) error {
	b, doc := pl.docs, uint32(0)
	for range pl.nPosts {
		gap, k := binary.Uvarint(b)
		if k <= 0 {
			return errTermCache
		}
		doc += uint32(gap)
		fn(doc)
		b = b[k:]
	}
	return nil
}

// appendList appends a prepared list in the term cache's form: uvarint 0
// (an entry of no field), prefix, field, first, nTerms, the terms' sum
// (8 bytes), nPosts, fallbacks, the docs (a byte string), hasHead, the
// head block, the count of tail blocks and the blocks; a block is its
// first doc, last - first, count, maximum (float32 bits) and encoding.
func appendList(b []byte, pl *preparedList) []byte {
	b = slices.Grow(b, listSize(pl))
	u := binary.AppendUvarint
	b = u(b, 0)
	b = cachefile.AppendString(b, pl.prefix)
	b = u(b, uint64(pl.field))
	b = cachefile.AppendString(b, pl.first)
	b = u(b, uint64(pl.nTerms))
	b = binary.LittleEndian.AppendUint64(b, pl.sum)
	b = u(b, uint64(pl.nPosts))
	b = u(b, uint64(pl.fallbacks))
	b = cachefile.AppendBytes(b, pl.docs)
	b = u(b, uint64(boolInt(pl.head != nil)))
	if pl.head != nil {
		b = appendVBlock(b, pl.head)
	}
	b = u(b, uint64(len(pl.blocks)))
	for i := range pl.blocks {
		b = appendVBlock(b, &pl.blocks[i])
	}
	return b
}

// listSize is the size of what appendList appends: the list is built in
// a buffer of that size, since a prefix list of a common prefix holds
// most records, and grown by appends it was allocated about twice over.
func listSize(pl *preparedList) int {
	l := func(v int) int { return uvarintLen(uint64(v)) }
	n := 1 + l(len(pl.prefix)) + len(pl.prefix) + l(pl.field) + l(len(pl.first)) + len(pl.first) +
		l(pl.nTerms) + 8 + l(pl.nPosts) + l(pl.fallbacks) + l(len(pl.docs)) + len(pl.docs) + 1 + l(len(pl.blocks))
	if pl.head != nil {
		n += vblockSize(pl.head)
	}
	for i := range pl.blocks {
		n += vblockSize(&pl.blocks[i])
	}
	return n
}

// vblockSize is the size of what appendVBlock appends.
func vblockSize(blk *encodedBlock) int {
	l := func(v int) int { return uvarintLen(uint64(v)) }
	return l(int(blk.first)) + l(int(blk.last-blk.first)) + l(blk.count) + 4 + l(len(blk.enc.b)) + len(blk.enc.b)
}

func appendVBlock(b []byte, blk *encodedBlock) []byte {
	b = binary.AppendUvarint(b, uint64(blk.first))
	b = binary.AppendUvarint(b, uint64(blk.last-blk.first))
	b = binary.AppendUvarint(b, uint64(blk.count))
	b = binary.LittleEndian.AppendUint32(b, blk.maxBits)
	return cachefile.AppendBytes(b, blk.enc.b)
}

func readVBlock(r *cachefile.Reader) encodedBlock {
	blk := encodedBlock{first: uint32(r.Int(math.MaxUint32))}
	blk.last = blk.first + uint32(r.Int(math.MaxUint32-int(blk.first)))
	blk.count = r.Count()
	blk.maxBits = r.Uint32()
	blk.putMax = func(w *cvWriter) { w.put(uint64(blk.maxBits)) }
	blk.enc.b = r.Bytes()
	return blk
}

// readList reads what appendList wrote after its leading 0; start is
// where the list began in body, r reads body.
func readList(r *cachefile.Reader, body []byte, start int) *preparedList {
	pl := &preparedList{prefix: r.String(), field: r.Int(math.MaxInt32), first: r.String(), nTerms: r.Count()}
	pl.sum = r.Uint64()
	pl.nPosts = r.Count()
	pl.fallbacks = r.Count()
	pl.docs = r.Bytes()
	if r.Int(1) == 1 {
		hb := readVBlock(r)
		pl.head = &hb
	}
	pl.blocks = make([]encodedBlock, r.Count())
	for i := range pl.blocks {
		pl.blocks[i] = readVBlock(r)
	}
	end := len(body) - r.Len()
	pl.cached = body[start:end:end]
	return pl
}
