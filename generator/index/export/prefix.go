package export

import (
	"math"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/errdocs/errdocs/internal/radix"
)

// Prefix lists: for type-ahead, the last word of a query is expanded into
// every term of a field that starts with it (bleve's PrefixQuery), and the
// expansion is a disjunction of all those terms, scored with coord =
// matched/expansion size. A short prefix expands to hundreds of terms, too
// many for the client to bound one by one. For prefixes of PrefixListRunes
// runes whose expansion in a field has at least PrefixListMin terms, the
// export writes the union of the expansion's postings as one list whose
// postings name the matched terms (so the client computes bleve's exact
// score) and whose maxima bound the disjunction's value for a doc.
const (
	PrefixListMinRunes = 3
	PrefixListMaxRunes = 3
	PrefixListMin      = 24
)

type vent struct {
	child int // index of the term in the expansion (code point order)
	freq  uint32
	norm  float32
}

type vposting struct {
	doc  uint32
	v    float64 // (m/n)·Σ sqrt(freq)·norm·idf² over its terms
	ents []vent
}

type vlist struct {
	prefix string
	field  int
	first  string // the expansion's first term, whose entry holds the list
	nTerms int
	posts  []vposting
}

func runePrefix(s string, k int) (string, bool) {
	i := 0
	for n := 0; n < k; n++ {
		if i >= len(s) {
			return "", false
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return s[:i], true
}

// ventry is a posting of a prefix list's expansion, for buildVList.
type ventry struct {
	doc uint32
	vent
}

// vlistBuffers are the memory of a prefix list built, encoded
// (prepareList) and dropped, reused from list to list (vlistScratch).
type vlistBuffers struct {
	all, tmp   []ventry
	ents       []vent
	posts      []vposting
	head, rest []vposting
}

var vlistScratch = sync.Pool{New: func() any { return new(vlistBuffers) }}

// buildVList builds a prefix list in sc's memory (valid until sc is
// used again).
func buildVList(p string, fi int, terms []*fieldTerm, docCount uint64, sc *vlistBuffers) *vlist {
	// All the expansion's postings, in doc order and, for one doc, in
	// child order (a stable sort of the children's lists, each in doc
	// order): the sum below then adds in the order bleve's disjunction does.
	total := 0
	for _, ft := range terms {
		total += len(ft.posts)
	}
	all := slices.Grow(sc.all[:0], total)
	idf := make([]float64, len(terms))
	for c, ft := range terms {
		idf[c] = 1 + math.Log(float64(docCount)/float64(ft.df+1))
		for _, ps := range ft.posts {
			all = append(all, ventry{ps.doc, vent{c, ps.freq, ps.norm}})
		}
	}
	sc.tmp = radix.SortBuf(all, sc.tmp, func(e ventry) uint64 { return uint64(e.doc) })
	sc.all = all
	ents := slices.Grow(sc.ents[:0], len(all))[:len(all)]
	sc.ents = ents
	docs := 0
	for i := range all {
		if i == 0 || all[i].doc != all[i-1].doc {
			docs++
		}
	}
	posts := slices.Grow(sc.posts[:0], docs)
	for i := 0; i < len(all); {
		j := i
		vp := vposting{doc: all[i].doc}
		for ; j < len(all) && all[j].doc == vp.doc; j++ {
			e := all[j].vent
			ents[j] = e
			vp.v += math.Sqrt(float64(e.freq)) * float64(e.norm) * idf[e.child] * idf[e.child]
		}
		vp.ents = ents[i:j:j]
		posts = append(posts, vp)
		i = j
	}
	n := float64(len(terms))
	for i := range posts {
		posts[i].v *= float64(len(posts[i].ents)) / n
	}
	sc.posts = posts
	return &vlist{prefix: p, field: fi, first: terms[0].term, nTerms: len(terms), posts: posts}
}

// splitVHead: the n postings of largest value (ties: smaller doc), and the
// rest, both in doc order.
func splitVHead(posts []vposting, n int, sc *vlistBuffers) (head, rest []vposting) {
	in := topN(len(posts), n, func(a, b int32) bool {
		if posts[a].v != posts[b].v {
			return posts[a].v < posts[b].v
		}
		return a > b
	})
	head, rest = sc.head[:0], slices.Grow(sc.rest[:0], max(len(posts)-n, 0))
	for i, p := range posts {
		if in[i] {
			head = append(head, p)
		} else {
			rest = append(rest, p)
		}
	}
	sc.head, sc.rest = head, rest
	return head, rest
}

// encodeVBlock: per posting cv(doc - prev) cv(m) then m × (cv(child)
// tfcode); returns the block's largest value.
func encodeVBlock(blk []vposting, st *Stats) (cvWriter, float64) {
	var enc cvWriter
	prev := blk[0].doc
	best := 0.0
	for _, p := range blk {
		enc.put(uint64(p.doc - prev))
		prev = p.doc
		enc.put(uint64(len(p.ents)))
		for _, e := range p.ents {
			enc.put(uint64(e.child))
			if !enc.putTF(uint64(e.freq), float64(e.norm)) {
				st.NormFallbacks++
			}
		}
		if p.v > best {
			best = p.v
		}
	}
	return enc, best
}

// f32Up returns the bits of the smallest float32 >= v.
func f32Up(v float64) uint32 {
	f := float32(v)
	if float64(f) < v {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return math.Float32bits(f)
}
