package index

import (
	"math/rand"
	"reflect"
	"slices"
	"testing"
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

// splitHead keeps the n postings of largest impact (ties: smaller doc),
// both halves in doc order: checked against a plain sort.
func TestSplitHead(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, n := range []int{300, 2000} {
		ps := make([]posting, n)
		for i := range ps {
			ps[i] = posting{doc: uint32(i * 3), freq: uint32(1 + rng.Intn(4)), norm: float32(1 / float64(1+rng.Intn(6)))}
		}
		head, rest := splitHead(ps, 256)
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		imp := func(p posting) float64 { return float64(p.freq) * float64(p.norm) * float64(p.norm) }
		slices.SortStableFunc(idx, func(a, b int) int {
			ia, ib := imp(ps[a]), imp(ps[b])
			switch {
			case ia > ib:
				return -1
			case ia < ib:
				return 1
			}
			return a - b
		})
		want := map[uint32]bool{}
		for _, i := range idx[:256] {
			want[ps[i].doc] = true
		}
		if len(head) != 256 || len(rest) != n-256 {
			t.Fatalf("split %d into %d + %d", n, len(head), len(rest))
		}
		for i, p := range head {
			if !want[p.doc] || i > 0 && head[i-1].doc >= p.doc {
				t.Fatalf("head posting %d (doc %d) wrong or out of order", i, p.doc)
			}
		}
		for i, p := range rest {
			if want[p.doc] || i > 0 && rest[i-1].doc >= p.doc {
				t.Fatalf("rest posting %d (doc %d) wrong or out of order", i, p.doc)
			}
		}
	}
}

// The side store's doc data survives its compact encoding, and a
// damaged blob is an error, not a panic or a silent loss.
func TestDocDataEncoding(t *testing.T) {
	for _, d := range []DocData{
		{},
		{ID: "a", Title: "t\x00ü", URL: "x/y/", Repo: "o/r", Severity: "high", ErrorType: "runtime", Language: "go",
			Tags: []string{"", "net", "tls"}, ErrorClass: "E", ErrorCode: "C1", Snippet: "s", Pattern: "^(a+)+$"},
	} {
		b := encodeDocData(d)
		got, err := decodeDocData(b)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Tags) == 0 {
			got.Tags = nil
		}
		if len(d.Tags) == 0 {
			d.Tags = nil
		}
		if !reflect.DeepEqual(got, d) {
			t.Fatalf("round trip: got %+v, want %+v", got, d)
		}
		for cut := 0; cut < len(b); cut++ {
			if _, err := decodeDocData(b[:cut]); err == nil {
				t.Fatalf("a blob cut at %d of %d decoded without error", cut, len(b))
			}
		}
		if _, err := decodeDocData(append(slices.Clone(b), 0)); err == nil {
			t.Fatal("trailing byte accepted")
		}
	}
}
