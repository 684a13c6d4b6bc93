package export

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/internal/cachefile"
)

// shardWriter lays the dictionary entries out into shards, each with its
// own postings files (p/). A shard and its files depend on the shard's
// terms alone, and every file is named by a hash of its content, so a
// shard whose terms did not change is written again byte for byte,
// whatever changed before it: that is what lets an export redo only the
// shards a changed record touches (see incremental.go).
//
// A shard's postings go to two streams of files: its terms' (impact heads
// and tail blocks) and its large prefix lists' (read only by type-ahead on
// three letters, in larger files). A term with an impact head starts a new
// file unless the current one is less than half full, so that the files a
// query word reads hold mostly that word's postings.
//
// Boundaries are content defined (cdcCut): a file or shard ends after an
// item whose hash says so, so a change moves no boundary but, rarely, one
// next to it. A shard ends where its terms' current postings file ends (or
// when it is far too large), so that it leaves no part-filled file behind.
type shardWriter struct {
	opts Options
	w    *exportWriter
	st   *Stats

	// the shard being filled
	terms    []string
	enc      cvWriter
	x        map[string]*cvWriter // prefix -> prefix list entries
	bytes    int
	dCut     bool
	ps       [2]pstream // postings streams: terms, large prefix lists
	pHashes  []string   // the shard's postings files, by index (reserved when started)
	nDocs    int
	docCount uint64   // bleve's document count, for the weights of term heads
	docs     []uint64 // bitset of the docs with a posting in the shard
	lists    []string // listKey of each prefix list written in the shard

	shards []shardOut
	// vlists wait here for the entry of their first term.
	vlists map[string][]*preparedList
	// needBefore, when set, says which prefix ranges that begin before a
	// run starting mid-dictionary the run must build (nil: all).
	needBefore func(prefixRange) bool
	// ends, when set, are the terms where a run starting mid-dictionary
	// may end, ascending: its read-ahead waits at each (readGate).
	ends []string
	// cacheDir, when set, receives each shard's term postings (termcache.go),
	// gathered in cacheBuf as the shard fills: the cache file's header,
	// then its body (addCached).
	cacheDir string
	cacheBuf []byte
	cacheOut *cacheWriter // writes the files
}

// addCached appends an entry in the term cache's form to the shard's
// cache file, begun on the first.
func (l *shardWriter) addCached(entry []byte) {
	if l.cacheDir == "" {
		return
	}
	if len(l.cacheBuf) == 0 {
		l.cacheBuf = cachefile.Begin(l.cacheBuf, termCacheKind, termCacheVersion)
	}
	l.cacheBuf = append(l.cacheBuf, entry...)
}

// shardOut is a written shard.
type shardOut struct {
	First string   // its first term
	Hash  string   // content hash: the file is d/<Hash>.js
	Files []string // every file it wrote (site paths): d, p
	// docs: the doc numbers with a posting in it (encodeDocSet); in the
	// state file's section of doc sets, not in its gob (statefile.go)
	docs  []byte
	Lists []string // listKey of the prefix lists it holds
}

// listKey names a prefix list: its prefix and field.
func listKey(prefix string, field int) string {
	return prefix + "\x00" + strconv.Itoa(field)
}

// has reports whether doc has a posting in the shard.
func (s *shardOut) has(doc uint32) bool {
	return docSetHas(s.docs, doc)
}

func newShardWriter(opts Options, w *exportWriter, st *Stats, nDocs int) *shardWriter {
	return &shardWriter{opts: opts, w: w, st: st, nDocs: nDocs, x: map[string]*cvWriter{}, vlists: map[string][]*preparedList{}}
}

// takeBuffers takes the buffers of a writer done with its run (nil:
// none), emptied: a one-record export makes a run per changed place in
// the dictionary.
func (l *shardWriter) takeBuffers(done *shardWriter) {
	if done == nil {
		return
	}
	l.enc.b, l.cacheBuf, l.docs = done.enc.b[:0], done.cacheBuf[:0], done.docs
	clear(l.docs)
	for k := range l.ps {
		l.ps[k].w.b = done.ps[k].w.b[:0]
	}
	done.enc.b, done.cacheBuf, done.docs, done.ps = nil, nil, nil, [2]pstream{}
}

// pendingLists reports whether a prefix list whose first term is at or
// after from still waits for that term's entry.
func (l *shardWriter) pendingLists(from string) bool {
	for first := range l.vlists {
		if first >= from {
			return true
		}
	}
	return false
}

// mark notes docs with a posting in the shard.
func (l *shardWriter) mark(doc uint32) {
	if l.docs == nil {
		l.docs = make([]uint64, (l.nDocs+63)/64)
	}
	if int(doc/64) < len(l.docs) {
		l.docs[doc/64] |= 1 << (doc % 64)
	}
}

// hashLen is the length of a content-hash name: 12 hex digits (48 bits)
// keep names of different files distinct among hundreds of thousands.
const hashLen = 12

// content writes body as the chunk <kind>/<hash>.js and returns the hash
// and the file's site path; quoted says that the data the file loads is
// body as a JS string (a cv string, which needs no escaping).
func (w *exportWriter) content(kind string, body []byte, quoted bool) (string, string, error) {
	if w.hasher == nil {
		w.hasher = sha256.New()
	}
	w.hasher.Reset()
	if quoted {
		w.hasher.Write(quote)
	}
	w.hasher.Write(body)
	if quoted {
		w.hasher.Write(quote)
	}
	var sum [32]byte
	w.hasher.Sum(sum[:0])
	h := hex.EncodeToString(sum[:hashLen/2])
	key := kind + "/" + h
	rel := w.dir + "/" + key + ".js"
	if w.seen == nil {
		w.seen = map[string][32]byte{}
	}
	if prev, ok := w.seen[rel]; ok {
		// the same bytes again (or a kept file of that name): written once
		if prev != sum && prev != keptFile {
			return "", "", fmt.Errorf("index: two export files hash to %s; change Options to export", rel)
		}
		return h, rel, nil
	}
	if w.keepSame != nil && w.keepSame(rel) {
		w.seen[rel] = keptFile
		w.st.Kept++
		return h, rel, nil
	}
	w.seen[rel] = sum
	data := append(w.file[:0], "errdocsSearch.load(\""...)
	data = append(data, key...)
	data = append(data, "\","...)
	if quoted {
		data = append(data, '"')
	}
	data = append(data, body...)
	if quoted {
		data = append(data, '"')
	}
	data = append(data, ");\n"...)
	w.file = data
	return h, rel, w.writeBytes(kind, key+".js", data)
}

var quote = []byte{'"'}

// The postings streams of a shard.
const (
	termStream   = 0
	prefixStream = 1
)

// prefixFileFactor: the prefix postings files' target is this many times
// PostingFileBytes.
const prefixFileFactor = 8

// bigPrefix is the size (postings) from which a prefix list goes to the
// prefix postings files; smaller ones go with the terms'.
const bigPrefix = 4096

// pstream is a stream of postings files of a shard: the file being
// filled, its index in the shard's list (reserved when it starts), its
// target size and whether it ends before the next item.
type pstream struct {
	w      cvWriter
	idx    int
	target int
	cut    bool
}

// stream returns postings stream k with a file started.
func (l *shardWriter) stream(k int) *pstream {
	ps := &l.ps[k]
	if ps.target == 0 {
		ps.idx = len(l.pHashes)
		ps.target = l.opts.PostingFileBytes
		if k == prefixStream {
			ps.target *= prefixFileFactor
		}
		l.pHashes = append(l.pHashes, "")
	}
	return ps
}

// flushPostings writes the stream's current file, if any.
func (l *shardWriter) flushPostings(ps *pstream) error {
	ps.cut = false
	if ps.target == 0 {
		return nil
	}
	if ps.w.len() == 0 {
		return errors.New("index: empty postings file") // a reserved index would name nothing
	}
	h, _, err := l.w.content("p", ps.w.b, true)
	if err != nil {
		return err
	}
	l.pHashes[ps.idx] = h
	ps.w.b, ps.target = ps.w.b[:0], 0 // the buffer serves the next file
	return nil
}

// startItem: before an item's postings, end the stream's current file at
// a content-defined boundary, when it is far too large or, with fresh,
// when it is at least half full; returns the stream with a file started.
func (l *shardWriter) startItem(k int, fresh bool) (*pstream, error) {
	ps := &l.ps[k]
	if ps.w.len() > 0 && (ps.cut || ps.w.len() >= 2*ps.target || fresh && 2*ps.w.len() >= ps.target) {
		if err := l.flushPostings(ps); err != nil {
			return nil, err
		}
	}
	return l.stream(k), nil
}

// endItem decides, after an item of n bytes, whether its file ends there.
func (l *shardWriter) endItem(ps *pstream, item string, n int) {
	if !ps.cut {
		ps.cut = cdcCut(item, n, ps.w.len(), ps.target)
	}
}

// flushShard writes the shard's last postings files, then the shard, which
// names them.
func (l *shardWriter) flushShard() error {
	if len(l.terms) == 0 {
		return nil
	}
	for k := range l.ps {
		if err := l.flushPostings(&l.ps[k]); err != nil {
			return err
		}
	}
	body, err := l.shardBody()
	if err != nil {
		return err
	}
	h, rel, err := l.w.content("d", body, false)
	if err != nil {
		return err
	}
	if l.cacheDir != "" {
		l.addCached(nil)
		l.cacheBuf = l.cacheOut.put(l.cacheDir, h, l.cacheBuf)
	}
	out := shardOut{First: l.terms[0], Hash: h, Files: []string{rel}}
	for _, ph := range l.pHashes {
		out.Files = append(out.Files, l.w.dir+"/p/"+ph+".js")
	}
	out.docs = encodeDocSet(l.docs)
	out.Lists = l.lists
	l.shards = append(l.shards, out)

	// the next shard's state; its buffers are those of this one
	l.terms, l.enc.b, l.x, l.bytes, l.dCut = nil, l.enc.b[:0], map[string]*cvWriter{}, 0, false
	l.pHashes, l.lists = nil, nil
	clear(l.docs)
	for k := range l.ps {
		l.ps[k] = pstream{w: cvWriter{b: l.ps[k].w.b[:0]}}
	}
	return nil
}

// shardBody returns the shard's data: {"t":[terms],"e":"<entries>"
// [,"x":{prefix: "<lists>"}][,"p":"<postings files' hashes>"]}, as
// encoding/json writes the terms and prefixes, in the exportWriter's
// buffer (valid until the next shard).
func (l *shardWriter) shardBody() ([]byte, error) {
	w := l.w
	b := append(w.body[:0], `{"t":`...)
	b, err := w.js.append(b, l.terms)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"e":"`...)
	b = append(b, l.enc.b...)
	b = append(b, '"')
	if len(l.x) > 0 {
		// encoding/json's order of a map's keys: by their bytes
		b = append(b, `,"x":{`...)
		for i, k := range sortedKeys(l.x) {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = w.js.append(b, k); err != nil {
				return nil, err
			}
			b = append(b, ':', '"')
			b = append(b, l.x[k].b...)
			b = append(b, '"')
		}
		b = append(b, '}')
	}
	if len(l.pHashes) > 0 {
		b = append(b, `,"p":"`...)
		for _, ph := range l.pHashes {
			b = append(b, ph...)
		}
		b = append(b, '"')
	}
	b = append(b, '}')
	w.body = b
	return b, nil
}

// boundary reports whether the shard would end before a term now: at a
// content-defined boundary of the dictionary where its terms' postings
// file ends too, or when the shard is far too large.
func (l *shardWriter) boundary() bool {
	ps := &l.ps[termStream]
	return l.bytes > 0 && (l.dCut && (ps.cut || ps.w.len() == 0) || l.bytes >= 2*l.opts.DictShardBytes)
}

// preparedTerm is the part of a dictionary entry that depends on the
// term's postings alone: its impact head and its long lists' tail blocks,
// encoded. The postings readers prepare terms beside one another
// (readGroup); the layout, which places them in files, is one goroutine,
// and was most of an export's time when it encoded them too. It holds no
// file position, so the term cache keeps it (appendPrepared) for an
// incremental export to take again.
type preparedTerm struct {
	long []int // indexes into the group of its long lists
	// the impact head, if hasHead: its first and last documents, its
	// count, its largest impact in each long list (freq 0: none), encoded
	hasHead             bool
	headFirst, headLast uint32
	headCount           int
	headBest            []posting
	headEnc             cvWriter
	nTail               []int            // by group index: postings left after the head
	blocks              [][]encodedBlock // by group index: a long list's tail blocks
	fallbacks           int              // norms written as raw bits
	cached              []byte           // the entry in the term cache's form
}

// prepareTerm prepares a term's group (fields ascending, postings
// decoded) for addTerm.
func prepareTerm(group []fieldTerm, opts Options, docCount uint64) *preparedTerm {
	pt := &preparedTerm{nTail: make([]int, len(group)), blocks: make([][]encodedBlock, len(group))}
	// The term's long lists (more than InlineMax postings) share one
	// impact head: the HeadSize documents of largest weight over all of
	// them (termHead), each with its postings in every one of those
	// fields, first in the term's postings. The rest of each list goes in
	// doc-ordered blocks of BlockSize postings after it.
	total := 0
	for i, ft := range group {
		if len(ft.posts) > opts.InlineMax {
			pt.long = append(pt.long, i)
			total += len(ft.posts)
		}
	}
	tails := make([][]posting, len(group))
	for _, i := range pt.long {
		tails[i] = group[i].posts
	}
	if len(pt.long) > 0 && total >= opts.HeadMin {
		// the tails are encoded here and dropped: in memory reused from
		// term to term
		tb := postingsScratch.Get().(*[]posting)
		defer postingsScratch.Put(tb)
		var head *termHead
		head, tails, *tb = termHeadInto(group, pt.long, docCount, opts.HeadSize, (*tb)[:0])
		pt.fallbacks += head.encode(&pt.headEnc)
		pt.hasHead, pt.headCount = true, len(head.docs)
		pt.headFirst, pt.headLast = head.docs[0], head.docs[len(head.docs)-1]
		for j := range pt.long {
			best, _ := head.best(j)
			pt.headBest = append(pt.headBest, best)
		}
	}
	bs := opts.BlockSize
	for _, i := range pt.long {
		posts := tails[i]
		pt.nTail[i] = len(posts)
		for lo := 0; lo < len(posts); lo += bs {
			blk := posts[lo:min(lo+bs, len(posts))]
			var enc cvWriter
			pt.fallbacks += enc.putPostings(blk, blk[0].doc)
			best := bestImpact(blk)
			pt.blocks[i] = append(pt.blocks[i], encodedBlock{enc: enc, first: blk[0].doc, last: blk[len(blk)-1].doc, count: len(blk), putMax: tfMax(best), max: best})
		}
	}
	pt.cached = appendCachedEntry(nil, group, pt)
	return pt
}

// addTerm adds one dictionary entry: a term with every field it occurs in
// (group, fields ascending), plus the prefix lists whose first term it is.
// pt is the group prepared (nil: prepared here).
func (l *shardWriter) addTerm(group []fieldTerm, pt *preparedTerm) error {
	opts, st := l.opts, l.st
	st.Terms += len(group)
	// Start a new shard before this term at a content-defined boundary, or
	// if the shard is far too large; a term is never split.
	if l.boundary() {
		if err := l.flushShard(); err != nil {
			return err
		}
	}
	for i := range group {
		// postings from the term cache are decoded where they are written
		// (inline) or to prepare the term
		if ft := &group[i]; pt == nil || ft.count() <= opts.InlineMax {
			if err := ft.decode(); err != nil {
				return err
			}
		}
	}
	if pt == nil {
		pt = prepareTerm(group, opts, l.docCount)
	}
	l.addCached(pt.cached)
	for i := range group {
		st.Postings += group[i].count()
		if err := group[i].eachDoc(func(doc uint32) bool { l.mark(doc); return true }); err != nil {
			return err
		}
	}
	st.NormFallbacks += pt.fallbacks
	before := l.enc.len()
	l.enc.put(uint64(len(group)))
	if err := l.putHead(pt); err != nil {
		return err
	}
	if err := l.putFieldLists(group, pt); err != nil {
		return err
	}
	term := group[0].term
	l.terms = append(l.terms, term)
	added := l.enc.len() - before + len(term) + 3
	n, err := l.putPrefixLists(term)
	if err != nil {
		return err
	}
	added += n
	l.bytes += added
	if !l.dCut {
		l.dCut = cdcCut(term, added, l.bytes, opts.DictShardBytes)
	}
	return nil
}

// putHead writes the term's impact head, if it has one, where a postings
// file starts (unless the current one is less than half full), and its
// descriptor into the dictionary entry.
func (l *shardWriter) putHead(pt *preparedTerm) error {
	if !pt.hasHead {
		l.enc.put(0)
		return nil
	}
	ps, err := l.startItem(termStream, true)
	if err != nil {
		return err
	}
	enc := pt.headEnc
	l.enc.put(1)
	l.enc.put(uint64(ps.idx))
	l.enc.put(uint64(ps.w.len()))
	l.enc.put(uint64(pt.headFirst))
	l.enc.put(uint64(pt.headLast - pt.headFirst))
	l.enc.put(uint64(pt.headCount))
	l.enc.put(uint64(enc.len()))
	ps.w.b = append(ps.w.b, enc.b...)
	return nil
}

// putFieldLists writes each field's postings of the term: inline when
// short, else as tail blocks in postings files.
func (l *shardWriter) putFieldLists(group []fieldTerm, pt *preparedTerm) error {
	opts := l.opts
	j := 0 // long list number: bit j of a head document's field mask
	for i, ft := range group {
		l.enc.put(uint64(ft.field))
		l.enc.put(ft.df)
		l.enc.put(uint64(ft.count()))
		if ft.count() <= opts.InlineMax {
			l.st.NormFallbacks += l.enc.putPostings(ft.posts, 0)
			continue
		}
		var hmax func(*cvWriter)
		if pt.hasHead {
			// the list's largest impact in the head; cv(0) (no freq is
			// 0) when no head document has the term in this field
			hmax = func(w *cvWriter) { w.put(0) }
			if best := pt.headBest[j]; best.freq != 0 {
				hmax = tfMax(best)
			}
			j++
		}
		blocks := pt.blocks[i]
		err := l.putList(&l.enc, termStream, false, ft.term+"\x00"+index.Fields[ft.field].Name, pt.nTail[i], nil, hmax, func(lo, hi int) encodedBlock {
			return blocks[lo/opts.BlockSize]
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// putPrefixLists writes the prefix lists whose first expansion term is
// term, and returns the bytes they added.
func (l *shardWriter) putPrefixLists(term string) (int, error) {
	vls := l.vlists[term]
	delete(l.vlists, term)
	slices.SortFunc(vls, func(a, b *preparedList) int {
		if c := strings.Compare(a.prefix, b.prefix); c != 0 {
			return c
		}
		return a.field - b.field
	})
	added := 0
	for _, vl := range vls {
		xw := l.x[vl.prefix]
		if xw == nil {
			xw = &cvWriter{}
			l.x[vl.prefix] = xw
		}
		l.lists = append(l.lists, listKey(vl.prefix, vl.field))
		b0 := xw.len()
		xw.put(uint64(vl.field))
		xw.put(uint64(vl.nTerms))
		xw.put(uint64(vl.nPosts))
		if err := l.writeVirtual(vl, xw); err != nil {
			return 0, err
		}
		l.addCached(vl.cached)
		added += xw.len() - b0
	}
	return added, nil
}

// tfMax writes a block's maximum as the tf code of its max-impact posting.
func tfMax(p posting) func(*cvWriter) {
	return func(w *cvWriter) { w.putTF(uint64(p.freq), float64(p.norm)) }
}

// bestImpact returns the posting of largest impact sqrt(freq)·norm (the
// first of equals).
func bestImpact(ps []posting) posting {
	best, bestImp := ps[0], -1.0
	for _, p := range ps {
		if imp := math.Sqrt(float64(p.freq)) * float64(p.norm); imp > bestImp {
			best, bestImp = p, imp
		}
	}
	return best
}

// termHead is the impact head of a term: its documents in doc order and,
// per document, its posting in each of the term's long lists (a zero freq:
// none).
type termHead struct {
	docs  []uint32
	posts [][]posting // [doc][long list j]
}

// termHeadOf picks the headSize documents of largest weight for the term
// among its long lists long (indexes into group) and returns the head and,
// per field of group, the postings left for its tail. A document's weight
// is what its postings of the term add to a query of the term alone, up
// to the query norm: m · Σ boost·idf²·sqrt(freq)·norm over the m fields it
// has the term in (m counts the clauses it matches, bleve's coord); ties
// go to the smaller doc number. A query's best documents are mostly in
// the heads of its words, and a head gives all their postings of the
// word: such a document's score needs no tail block of that word.
func termHeadOf(group []fieldTerm, long []int, docCount uint64, headSize int) (*termHead, [][]posting) {
	h, tails, _ := termHeadInto(group, long, docCount, headSize, nil)
	return h, tails
}

// postingsScratch holds working lists of postings (termHeadInto's tails,
// sortPostings' radix buffer), reused from term to term.
var postingsScratch = sync.Pool{New: func() any { return new([]posting) }}

// termHeadInto is termHeadOf with the tails in buf, grown as needed; it
// returns buf for the next term.
func termHeadInto(group []fieldTerm, long []int, docCount uint64, headSize int, buf []posting) (*termHead, [][]posting, []posting) {
	w := listWeights(group, long, docCount)
	// the documents of the long lists in doc order, with their weights
	// (a merge of the lists, each in doc order), in buffers kept from
	// term to term: a common word's run a hundred thousand long
	sc := headScratch.Get().(*headBuffers)
	defer headScratch.Put(sc)
	docs, wts := sc.docs[:0], sc.wts[:0]
	defer func() { sc.docs, sc.wts = docs[:0], wts[:0] }()
	pos := make([]int, len(long))
	for {
		d, m, wt := uint32(math.MaxUint32), 0, 0.0
		for j, i := range long {
			if ps := group[i].posts; pos[j] < len(ps) && ps[pos[j]].doc < d {
				d = ps[pos[j]].doc
			}
		}
		if d == math.MaxUint32 {
			break
		}
		for j, i := range long {
			if ps := group[i].posts; pos[j] < len(ps) && ps[pos[j]].doc == d {
				p := ps[pos[j]]
				wt += w[j] * math.Sqrt(float64(p.freq)) * float64(p.norm)
				m++
				pos[j]++
			}
		}
		docs = append(docs, d)
		wts = append(wts, wt*float64(m))
	}
	in := topN(len(docs), headSize, func(a, b int32) bool {
		if wts[a] != wts[b] {
			return wts[a] < wts[b]
		}
		return a > b
	})
	h := &termHead{docs: make([]uint32, 0, min(headSize, len(docs)))}
	for k, d := range docs {
		if in[k] {
			h.docs = append(h.docs, d)
		}
	}
	// each head document's row of postings, in one slice
	rows := make([]posting, len(h.docs)*len(long))
	h.posts = make([][]posting, len(h.docs))
	for x := range h.posts {
		h.posts[x] = rows[x*len(long) : (x+1)*len(long) : (x+1)*len(long)]
	}
	// each head document's postings, list by list (both in doc order)
	for j, i := range long {
		x := 0
		for _, p := range group[i].posts {
			for x < len(h.docs) && h.docs[x] < p.doc {
				x++
			}
			if x < len(h.docs) && h.docs[x] == p.doc {
				h.posts[x][j] = p
			}
		}
	}
	// the tails: each list without the head's documents (both in doc
	// order)
	tails := make([][]posting, len(group))
	total := 0
	for _, i := range long {
		total += len(group[i].posts)
	}
	buf = slices.Grow(buf[:0], total)
	for _, i := range long {
		from := len(buf)
		x := 0
		for _, p := range group[i].posts {
			for x < len(h.docs) && h.docs[x] < p.doc {
				x++
			}
			if x == len(h.docs) || h.docs[x] != p.doc {
				buf = append(buf, p)
			}
		}
		tails[i] = buf[from:len(buf):len(buf)]
	}
	return h, tails, buf
}

// listWeights returns the weight of a posting's impact in each long list
// (the field's boost times the term's idf there, squared), as
// termHeadInto weighs a document.
func listWeights(group []fieldTerm, long []int, docCount uint64) []float64 {
	w := make([]float64, len(long))
	for j, i := range long {
		idf := 1 + math.Log(float64(docCount)/float64(group[i].df+1))
		w[j] = index.Fields[group[i].field].Boost * idf * idf
	}
	return w
}

// headBuffers are termHeadOf's working lists, reused (headScratch).
type headBuffers struct {
	docs []uint32
	wts  []float64
}

var headScratch = sync.Pool{New: func() any { return new(headBuffers) }}

// best returns the head's posting of largest impact in long list j.
func (h *termHead) best(j int) (posting, bool) {
	var ps []posting
	for _, row := range h.posts {
		if row[j].freq != 0 {
			ps = append(ps, row[j])
		}
	}
	if len(ps) == 0 {
		return posting{}, false
	}
	return bestImpact(ps), true
}

// encode writes the head column by column: the doc gaps (from its first
// document), the field masks (bit j: the document has the term in the
// j-th long list), then the tf codes (putTFs) of the set bits in document,
// then list order. It returns the count of norms written as raw bits.
func (h *termHead) encode(w *cvWriter) int {
	prev := h.docs[0]
	for _, d := range h.docs {
		w.put(uint64(d - prev))
		prev = d
	}
	var ps []posting
	for _, row := range h.posts {
		mask := uint64(0)
		for j, p := range row {
			if p.freq != 0 {
				mask |= 1 << j
				ps = append(ps, p)
			}
		}
		w.put(mask)
	}
	return w.putTFs(ps)
}

// writeVirtual writes a prefix list like a long postings list with its own
// impact head, at the start of its postings, and doc-ordered tail blocks;
// its postings carry the matched expansion terms, its maxima are float32
// upper bounds of the list's per-doc value (see FORMAT.md). A list of
// bigPrefix postings or more goes to the prefix postings files.
func (l *shardWriter) writeVirtual(pl *preparedList, xw *cvWriter) error {
	if err := pl.eachDoc(l.mark); err != nil {
		return err
	}
	l.st.NormFallbacks += pl.fallbacks
	item := "\x01" + pl.prefix + "\x00" + index.Fields[pl.field].Name
	k := termStream
	if pl.nPosts >= bigPrefix {
		k = prefixStream
	}
	nTail := pl.nPosts
	if pl.head != nil {
		nTail -= pl.head.count
	}
	return l.putList(xw, k, true, item, nTail, pl.head, nil, func(lo, hi int) encodedBlock {
		return pl.blocks[lo/l.opts.BlockSize]
	})
}

// vmax writes a prefix-list block's maximum: the bits of the smallest
// float32 at least v.
func vmax(v float64) func(*cvWriter) {
	return func(w *cvWriter) { w.put(uint64(f32Up(v))) }
}

// encodedBlock is a block of postings as written: its bytes, doc range
// and count, and how the entry writes its maximum.
type encodedBlock struct {
	enc         cvWriter
	first, last uint32
	count       int
	putMax      func(*cvWriter)
	max         posting // a term's block: its posting of largest impact
	maxBits     uint32  // a prefix list's block: its maximum (vmax)
}

// putList writes a long list's postings (FORMAT.md, "Dictionary entry")
// to postings stream k of the shard and its descriptor to w: for a prefix
// list (virtual) its head block, if any, then its nTail tail postings in
// blocks of BlockSize that block encodes; for a term's list, hmax, if not
// nil, writes the list's maximum in the term's head. The list goes to the
// current file unless that file ends here (content-defined boundary or
// past twice its target); a list larger than that is split at block
// boundaries.
func (l *shardWriter) putList(w *cvWriter, k int, virtual bool, item string, nTail int, head *encodedBlock, hmax func(*cvWriter), block func(lo, hi int) encodedBlock) error {
	bs := l.opts.BlockSize
	w.put(uint64(nTail))
	if nTail == 0 && head == nil {
		// nothing in the postings files (the term's head holds it all)
		w.put(0)
		w.put(0)
		if hmax != nil {
			hmax(w)
		}
		return nil
	}
	ps, err := l.startItem(k, false)
	if err != nil {
		return err
	}
	w.put(uint64(ps.idx))
	w.put(uint64(ps.w.len()))
	if hmax != nil {
		hmax(w)
	}
	n := 0
	if virtual {
		// cv(hasHead), the head first in the file
		if head == nil {
			w.put(0)
		} else {
			w.put(1)
			w.put(uint64(head.count))
			w.put(uint64(head.first))
			w.put(uint64(head.last - head.first))
			w.put(uint64(head.enc.len()))
			head.putMax(w)
			ps.w.b = append(ps.w.b, head.enc.b...)
			n += head.enc.len()
		}
	}
	// per block: cv(fileDelta) cv(first - previous block's first) and its
	// maximum; a block's doc range ends before the next block's first doc
	// (the last block's at the list's last doc, given after the blocks),
	// and its offset follows from the blocks before it in its file
	prevFirst, last := uint32(0), uint32(0)
	for b := 0; b*bs < nTail; b++ {
		fileDelta := 0
		if n > 0 && ps.w.len() >= 2*ps.target {
			prev := ps.idx
			if err := l.flushPostings(ps); err != nil {
				return err
			}
			ps = l.stream(k)
			fileDelta = ps.idx - prev
		}
		blk := block(b*bs, min((b+1)*bs, nTail))
		w.put(uint64(fileDelta))
		w.put(uint64(blk.first - prevFirst))
		blk.putMax(w)
		prevFirst, last = blk.first, blk.last
		ps.w.b = append(ps.w.b, blk.enc.b...)
		n += blk.enc.len()
	}
	if nTail > 0 {
		w.put(uint64(last - prevFirst))
	}
	l.endItem(ps, item, n)
	return nil
}
