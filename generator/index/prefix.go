package index

import (
	"math"
	"sort"
	"unicode/utf8"
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
	nTerms int
	posts  []vposting
}

// prefixLists returns the prefix lists keyed by their first expansion
// term (their dictionary entry goes with that term's).
func prefixLists(perField [][]fieldTerm, docCount uint64, opts ExportOptions) map[string][]*vlist {
	out := map[string][]*vlist{}
	for fi := range perField {
		terms := make([]*fieldTerm, len(perField[fi]))
		for i := range perField[fi] {
			terms[i] = &perField[fi][i]
		}
		sort.Slice(terms, func(i, j int) bool { return terms[i].term < terms[j].term })
		for k := PrefixListMinRunes; k <= PrefixListMaxRunes; k++ {
			for i := 0; i < len(terms); {
				p, ok := runePrefix(terms[i].term, k)
				if !ok {
					i++
					continue
				}
				j := i + 1
				for j < len(terms) && len(terms[j].term) >= len(p) && terms[j].term[:len(p)] == p {
					j++
				}
				if j-i >= PrefixListMin {
					vl := buildVList(p, fi, terms[i:j], docCount)
					out[terms[i].term] = append(out[terms[i].term], vl)
				}
				i = j
			}
		}
	}
	for _, l := range out {
		sort.Slice(l, func(a, b int) bool {
			if l[a].prefix != l[b].prefix {
				return l[a].prefix < l[b].prefix
			}
			return l[a].field < l[b].field
		})
	}
	return out
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

func buildVList(p string, fi int, terms []*fieldTerm, docCount uint64) *vlist {
	byDoc := map[uint32]int{}
	var posts []vposting
	for c, ft := range terms {
		idf := 1 + math.Log(float64(docCount)/float64(ft.df+1))
		for _, ps := range ft.posts {
			x, ok := byDoc[ps.doc]
			if !ok {
				x = len(posts)
				byDoc[ps.doc] = x
				posts = append(posts, vposting{doc: ps.doc})
			}
			posts[x].ents = append(posts[x].ents, vent{c, ps.freq, ps.norm})
			posts[x].v += math.Sqrt(float64(ps.freq)) * float64(ps.norm) * idf * idf
		}
	}
	n := float64(len(terms))
	for i := range posts {
		posts[i].v *= float64(len(posts[i].ents)) / n
	}
	sort.Slice(posts, func(i, j int) bool { return posts[i].doc < posts[j].doc })
	return &vlist{prefix: p, field: fi, nTerms: len(terms), posts: posts}
}

// splitVHead: the n postings of largest value (ties: smaller doc), and the
// rest, both in doc order.
func splitVHead(posts []vposting, n int) (head, rest []vposting) {
	idx := make([]int, len(posts))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		if posts[idx[a]].v != posts[idx[b]].v {
			return posts[idx[a]].v > posts[idx[b]].v
		}
		return idx[a] < idx[b]
	})
	in := make([]bool, len(posts))
	for _, i := range idx[:n] {
		in[i] = true
	}
	for i, p := range posts {
		if in[i] {
			head = append(head, p)
		} else {
			rest = append(rest, p)
		}
	}
	return head, rest
}

// encodeVBlock: per posting cv(doc - prev) cv(m) then m × (cv(child)
// tfcode); returns the block's largest value.
func encodeVBlock(blk []vposting, st *ExportStats) (cvWriter, float64) {
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
