package export

import (
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/errdocs/errdocs/generator/index"
)

// sortPostings must order any permutation, short or long, with doc
// numbers of every size (the radix passes change above 2^22).
func TestSortPostings(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 5, 255, 256, 1000, 70000} {
		for _, limit := range []uint32{1000, 1 << 22, 1<<32 - 1} {
			ps := make([]posting, n)
			for i := range ps {
				ps[i] = posting{doc: rng.Uint32() % limit, freq: uint32(i)}
			}
			want := slices.Clone(ps)
			slices.SortStableFunc(want, cmpPosting)
			sortPostings(ps)
			for i := range ps {
				if ps[i].doc != want[i].doc {
					t.Fatalf("n=%d limit=%d: position %d holds doc %d, want %d", n, limit, i, ps[i].doc, want[i].doc)
				}
			}
		}
	}
}

// termHead keeps the HeadSize documents of largest weight over a term's
// long lists (m · Σ boost·idf²·sqrt(freq)·norm; ties: smaller doc) with
// all their postings, in doc order, and leaves the others' postings to the
// tails: checked against a plain sort.
func TestTermHead(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const docCount, headSize = 5000, 256
	for _, n := range []int{300, 2000} {
		// three fields of one term; field 2 is inline-sized and left out
		var group []fieldTerm
		for fi, frac := range []int{2, 3, 1000} {
			ft := fieldTerm{term: "t", field: fi * 3}
			for d := 0; d < n; d++ {
				if rng.Intn(frac) == 0 {
					ft.posts = append(ft.posts, posting{doc: uint32(d * 2), freq: uint32(1 + rng.Intn(4)), norm: float32(1 / math.Sqrt(float64(1+rng.Intn(40))))})
				}
			}
			ft.df = uint64(len(ft.posts))
			group = append(group, ft)
		}
		long := []int{0, 1}
		head, tails := termHeadOf(group, long, docCount, headSize)

		weight := map[uint32]float64{}
		count := map[uint32]int{}
		for _, i := range long {
			idf := 1 + math.Log(float64(docCount)/float64(group[i].df+1))
			for _, p := range group[i].posts {
				weight[p.doc] += index.Fields[group[i].field].Boost * idf * idf * math.Sqrt(float64(p.freq)) * float64(p.norm)
				count[p.doc]++
			}
		}
		var docs []uint32
		for d := range weight {
			weight[d] *= float64(count[d])
			docs = append(docs, d)
		}
		slices.SortFunc(docs, func(a, b uint32) int {
			if weight[a] != weight[b] {
				if weight[a] > weight[b] {
					return -1
				}
				return 1
			}
			return int(a) - int(b)
		})
		want := map[uint32]bool{}
		for _, d := range docs[:min(headSize, len(docs))] {
			want[d] = true
		}
		if len(head.docs) != len(want) {
			t.Fatalf("n=%d: head of %d docs, want %d", n, len(head.docs), len(want))
		}
		for k, d := range head.docs {
			if !want[d] || k > 0 && head.docs[k-1] >= d {
				t.Fatalf("n=%d: head doc %d (%d) wrong or out of order", n, k, d)
			}
			for j, i := range long {
				var p posting
				for _, q := range group[i].posts {
					if q.doc == d {
						p = q
					}
				}
				if head.posts[k][j] != p {
					t.Fatalf("n=%d: head doc %d list %d: %+v, want %+v", n, d, j, head.posts[k][j], p)
				}
			}
		}
		for _, i := range long {
			var rest []posting
			for _, p := range group[i].posts {
				if !want[p.doc] {
					rest = append(rest, p)
				}
			}
			if !slices.Equal(tails[i], rest) {
				t.Fatalf("n=%d: tail of list %d differs", n, i)
			}
		}
		if tails[2] != nil {
			t.Fatalf("n=%d: a tail for the inline list", n)
		}
	}
}

// The terms listed from each segment's dictionary without their counts
// are those of bleve's dictionary of the field, in its order, whatever
// the segments: one after the first sync, more as records are edited,
// added and removed (a removed record's terms stay in its segment).
func TestSegmentTermsAreTheDictionary(t *testing.T) {
	recs := genRecords(1500, 5)
	dir := filepath.Join(t.TempDir(), "cache")
	segments := 0
	for round := range 4 {
		// reopened, as by each build, which adds a segment
		ix, err := index.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		ix.BatchSize = 300 // a segment a batch, until merged
		switch round {
		case 1:
			recs[7].Documentation += " Zyzzogeton quuxification happened."
		case 2:
			extra := recs[3]
			extra.ID, extra.Slug = "f0f0f0f0f0f0f0f0", extra.Slug+"-again"
			extra.ErrorMessage = "Frobnicator overheated at %d rpm"
			recs = append(recs, extra)
		case 3:
			recs = slices.Delete(recs, 10, 12)
		}
		if _, err := ix.Sync(index.Records(recs)); err != nil {
			t.Fatal(err)
		}
		if round == 3 {
			// Two more segments, one document each: a build's Sync
			// leaves one at most, and merges the small ones it finds.
			for k, text := range []string{"Quuxifrobnication of the zyzzyva", "zyzzyva again, and aardvarks"} {
				if err := ix.Bleve().Index(fmt.Sprint("extra", k), map[string]interface{}{"documentation": text}); err != nil {
					t.Fatal(err)
				}
			}
		}
		adv, err := ix.Bleve().Advanced()
		if err != nil {
			t.Fatal(err)
		}
		r, err := adv.Reader()
		if err != nil {
			t.Fatal(err)
		}
		is, ok := r.(*scorch.IndexSnapshot)
		if !ok {
			t.Fatalf("the reader is a %T, not scorch's", r)
		}
		segments = max(segments, len(is.Segments()))
		for _, f := range index.Fields {
			fast, ok, err := segmentTerms(is, f.Name)
			if err != nil || !ok {
				t.Fatalf("round %d, %s: segmentTerms: ok %t, %v", round, f.Name, ok, err)
			}
			want, err := fieldDictTerms(r, f.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fast, want) {
				t.Fatalf("round %d, %s: %d terms from the segments, %d in the dictionary", round, f.Name, len(fast), len(want))
			}
		}
		r.Close()
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if segments < 2 {
		t.Errorf("at most %d segment: the merge of segments' terms was not checked", segments)
	}
}
