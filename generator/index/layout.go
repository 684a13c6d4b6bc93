package index

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// shardWriter lays the dictionary entries out into shards, each with its
// own postings files (p/) and one head file (h/) holding the impact heads
// of its long lists (loaded only when a query needs a head: a query word
// loads its shard, not the heads of its neighbours). A shard and its files depend on
// the shard's terms alone, and every file is named by a hash of its
// content, so a shard whose terms did not change is written again byte for
// byte, whatever changed before it: that is what lets an export redo only
// the shards a changed record touches (see incremental.go).
//
// Boundaries are content defined (cdcCut): a file or shard ends after an
// item whose hash says so, so a change moves no boundary but, rarely, one
// next to it.
type shardWriter struct {
	opts ExportOptions
	w    *exportWriter
	st   *ExportStats

	// the shard being filled
	terms   []string
	enc     cvWriter
	x       map[string]*cvWriter // prefix -> prefix list entries
	bytes   int
	dCut    bool
	p       cvWriter // the current postings file
	pCut    bool
	pHashes []string // the shard's postings files written so far
	h       cvWriter // the shard's impact heads (its h/ file)
	nDocs   int
	docs    []uint64 // bitset of the docs with a posting in the shard

	shards []shardOut
	// vlists wait here for the entry of their first term.
	vlists map[string][]*vlist
}

// shardOut is a written shard.
type shardOut struct {
	First string   // its first term
	Hash  string   // content hash: the file is d/<Hash>.js
	Files []string // every file it wrote (site paths): d, p, h
	Docs  []uint64 // bitset of the doc numbers with a posting in it
}

// has reports whether doc has a posting in the shard.
func (s *shardOut) has(doc uint32) bool {
	return int(doc/64) < len(s.Docs) && s.Docs[doc/64]&(1<<(doc%64)) != 0
}

func newShardWriter(opts ExportOptions, w *exportWriter, st *ExportStats, nDocs int) *shardWriter {
	return &shardWriter{opts: opts, w: w, st: st, nDocs: nDocs, x: map[string]*cvWriter{}, vlists: map[string][]*vlist{}}
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
// and the file's site path.
func (w *exportWriter) content(kind, body string) (string, string, error) {
	sum := sha256.Sum256([]byte(body))
	h := hex.EncodeToString(sum[:hashLen/2])
	key := kind + "/" + h
	rel := w.dir + "/" + key + ".js"
	if w.seen == nil {
		w.seen = map[string][32]byte{}
	}
	if prev, ok := w.seen[rel]; ok {
		// the same bytes again (or a kept file of that name): written once
		if prev != sum && prev != keptFile {
			return "", "", fmt.Errorf("index: two export files hash to %s; change ExportOptions to export", rel)
		}
		return h, rel, nil
	}
	if w.keepSame != nil && w.keepSame(rel) {
		w.seen[rel] = keptFile
		w.st.Kept++
		return h, rel, nil
	}
	w.seen[rel] = sum
	return h, rel, w.write(kind, key+".js", "errdocsSearch.load("+jsString(key)+","+body+");\n")
}

func (l *shardWriter) flushPostings() error {
	l.pCut = false
	if l.p.len() == 0 {
		return nil
	}
	h, _, err := l.w.content("p", jsString(l.p.String()))
	if err != nil {
		return err
	}
	l.pHashes = append(l.pHashes, h)
	l.p = cvWriter{}
	return nil
}

// startTail: before an item's postings, end the current file at a
// content-defined boundary or when it is far too large.
func (l *shardWriter) startTail() error {
	if l.p.len() > 0 && (l.pCut || l.p.len() >= 2*l.opts.PostingFileBytes) {
		return l.flushPostings()
	}
	return nil
}

func (l *shardWriter) endTail(item string, n int) {
	if !l.pCut {
		l.pCut = cdcCut(item, n, l.p.len(), l.opts.PostingFileBytes)
	}
}

// flushShard writes the shard's last postings and head files, then the
// shard, which names them.
func (l *shardWriter) flushShard() error {
	if len(l.terms) == 0 {
		return nil
	}
	if err := l.flushPostings(); err != nil {
		return err
	}
	tj, err := json.Marshal(l.terms)
	if err != nil {
		return err
	}
	body := `{"t":` + string(tj) + `,"e":` + jsString(l.enc.String())
	if len(l.x) > 0 {
		x := map[string]string{}
		for k, v := range l.x {
			x[k] = v.String()
		}
		xj, err := json.Marshal(x)
		if err != nil {
			return err
		}
		body += `,"x":` + string(xj)
	}
	if len(l.pHashes) > 0 {
		body += `,"p":` + jsString(strings.Join(l.pHashes, ""))
	}
	var headFile string
	if l.h.len() > 0 {
		hh, rel, err := l.w.content("h", jsString(l.h.String()))
		if err != nil {
			return err
		}
		body += `,"h":` + jsString(hh)
		headFile = rel
	}
	body += `}`
	h, rel, err := l.w.content("d", body)
	if err != nil {
		return err
	}
	out := shardOut{First: l.terms[0], Hash: h, Files: []string{rel}}
	if headFile != "" {
		out.Files = append(out.Files, headFile)
	}
	for _, ph := range l.pHashes {
		out.Files = append(out.Files, l.w.dir+"/p/"+ph+".js")
	}
	out.Docs = l.docs
	l.shards = append(l.shards, out)

	l.terms, l.enc, l.x, l.bytes, l.dCut = nil, cvWriter{}, map[string]*cvWriter{}, 0, false
	l.pHashes, l.h, l.docs = nil, cvWriter{}, nil
	return nil
}

// boundary reports whether the shard would end before a term now.
func (l *shardWriter) boundary() bool {
	return l.bytes > 0 && (l.dCut || l.bytes >= 2*l.opts.DictShardBytes)
}

// addTerm adds one dictionary entry: a term with every field it occurs in
// (group, fields ascending), plus the prefix lists whose first term it is.
func (l *shardWriter) addTerm(group []fieldTerm) error {
	opts, st := l.opts, l.st
	st.Terms += len(group)
	// Start a new shard before this term at a content-defined boundary, or
	// if the shard is far too large; a term is never split.
	if l.boundary() {
		if err := l.flushShard(); err != nil {
			return err
		}
	}
	before := l.enc.len()
	l.enc.put(uint64(len(group)))
	for _, ft := range group {
		st.Postings += len(ft.posts)
		for _, p := range ft.posts {
			l.mark(p.doc)
		}
		l.enc.put(uint64(ft.field))
		l.enc.put(ft.df)
		l.enc.put(uint64(len(ft.posts)))
		if len(ft.posts) <= opts.InlineMax {
			prev := uint32(0)
			for _, p := range ft.posts {
				l.enc.put(uint64(p.doc - prev))
				prev = p.doc
				if !l.enc.putTF(uint64(p.freq), float64(p.norm)) {
					st.NormFallbacks++
				}
			}
			continue
		}
		// An impact head: the HeadSize postings of largest impact
		// (sqrt(freq)·norm, ties by doc) in doc order, in the head file; the
		// rest in blocks of BlockSize postings in doc order, in postings
		// files (putList).
		item := ft.term + "\x00" + Fields[ft.field].Name
		posts := ft.posts
		var head []posting
		if len(posts) >= opts.HeadMin {
			head, posts = splitHead(posts, opts.HeadSize)
		}
		var hb *encodedBlock
		if head != nil {
			enc, best := encodeBlock(head, st)
			hb = &encodedBlock{enc, head[0].doc, head[len(head)-1].doc, len(head),
				func(w *cvWriter) { w.putTF(uint64(best.freq), float64(best.norm)) }}
		}
		err := l.putList(&l.enc, item, len(posts), hb, func(lo, hi int) encodedBlock {
			blk := posts[lo:hi]
			enc, best := encodeBlock(blk, st)
			return encodedBlock{enc, blk[0].doc, blk[len(blk)-1].doc, len(blk),
				func(w *cvWriter) { w.putTF(uint64(best.freq), float64(best.norm)) }}
		})
		if err != nil {
			return err
		}
	}
	term := group[0].term
	l.terms = append(l.terms, term)
	added := l.enc.len() - before + len(term) + 3
	// Prefix lists whose first expansion term is this one.
	vls := l.vlists[term]
	delete(l.vlists, term)
	slices.SortFunc(vls, func(a, b *vlist) int {
		if c := strings.Compare(a.prefix, b.prefix); c != 0 {
			return c
		}
		return a.field - b.field
	})
	for _, vl := range vls {
		xw := l.x[vl.prefix]
		if xw == nil {
			xw = &cvWriter{}
			l.x[vl.prefix] = xw
		}
		b0 := xw.len()
		xw.put(uint64(vl.field))
		xw.put(uint64(vl.nTerms))
		xw.put(uint64(len(vl.posts)))
		if err := l.writeVirtual(vl, xw); err != nil {
			return err
		}
		added += xw.len() - b0
	}
	l.bytes += added
	if !l.dCut {
		l.dCut = cdcCut(term, added, l.bytes, opts.DictShardBytes)
	}
	return nil
}

// writeVirtual writes a prefix list like a long postings list (impact head
// in the shard's head file, doc-ordered tail blocks in postings files); its postings
// carry the matched expansion terms, its maxima are float32 upper bounds of
// the list's per-doc value (see FORMAT.md).
func (l *shardWriter) writeVirtual(vl *vlist, xw *cvWriter) error {
	opts, st := l.opts, l.st
	item := "\x01" + vl.prefix + "\x00" + Fields[vl.field].Name
	posts := vl.posts
	for _, p := range posts {
		l.mark(p.doc)
	}
	var head []vposting
	if len(posts) >= opts.HeadMin {
		head, posts = splitVHead(posts, opts.HeadSize)
	}
	var hb *encodedBlock
	if head != nil {
		enc, best := encodeVBlock(head, st)
		hb = &encodedBlock{enc, head[0].doc, head[len(head)-1].doc, len(head),
			func(w *cvWriter) { w.put(uint64(f32Up(best))) }}
	}
	return l.putList(xw, item, len(posts), hb, func(lo, hi int) encodedBlock {
		blk := posts[lo:hi]
		enc, best := encodeVBlock(blk, st)
		return encodedBlock{enc, blk[0].doc, blk[len(blk)-1].doc, len(blk),
			func(w *cvWriter) { w.put(uint64(f32Up(best))) }}
	})
}

// encodedBlock is a block of postings as written: its bytes, doc range
// and count, and how the entry writes its maximum.
type encodedBlock struct {
	enc         cvWriter
	first, last uint32
	count       int
	putMax      func(*cvWriter)
}

// putList writes a long list (FORMAT.md, "Dictionary entry"): its head,
// if any, into the shard's head file and its nTail tail postings, in blocks of
// BlockSize that block encodes, into the shard's postings files; and their
// descriptors to w. The tail goes to the current postings file unless that
// file ends here (content-defined boundary or past twice its target); a
// tail larger than that is split at block boundaries.
func (l *shardWriter) putList(w *cvWriter, item string, nTail int, head *encodedBlock, block func(lo, hi int) encodedBlock) error {
	bs := l.opts.BlockSize
	if err := l.startTail(); err != nil {
		return err
	}
	nb := (nTail + bs - 1) / bs
	w.put(uint64(nb))
	w.put(uint64(len(l.pHashes)))
	w.put(uint64(l.p.len()))
	if head == nil {
		w.put(0)
	} else {
		w.put(1)
		w.put(uint64(l.h.len()))
		w.put(uint64(head.first))
		w.put(uint64(head.last - head.first))
		w.put(uint64(head.count))
		w.put(uint64(head.enc.len()))
		head.putMax(w)
		l.h.b = append(l.h.b, head.enc.b...)
	}
	prevLast := uint32(0)
	tail := 0
	for b := 0; b < nb; b++ {
		fileDelta := 0
		if b > 0 && l.p.len() >= l.opts.PostingFileBytes*2 {
			if err := l.flushPostings(); err != nil {
				return err
			}
			fileDelta = 1
		}
		blk := block(b*bs, min((b+1)*bs, nTail))
		w.put(uint64(fileDelta))
		w.put(uint64(blk.first - prevLast))
		w.put(uint64(blk.last - blk.first))
		w.put(uint64(blk.count))
		w.put(uint64(blk.enc.len()))
		blk.putMax(w)
		prevLast = blk.last
		l.p.b = append(l.p.b, blk.enc.b...)
		tail += blk.enc.len()
	}
	if nb > 0 {
		l.endTail(item, tail)
	}
	return nil
}
