package export

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// sortDocs gives the order of a comparison sort by (sort key, id) on keys
// that share long prefixes, end inside one another, hold bytes of every
// value (NUL and 0xff too), tie, or come in sorted, reversed and
// all-equal runs.
func TestSortDocs(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	families := []string{"", "~", "net", "net|x", "db\x00", "\xff\xfe", strings.Repeat("k", 70)}
	key := func() string {
		var b strings.Builder
		b.WriteString(families[rng.Intn(len(families))])
		for range rng.Intn(4) {
			b.WriteByte("|a\x00\xffZ"[rng.Intn(5)])
			b.WriteString(strings.Repeat("x", rng.Intn(3)))
		}
		if rng.Intn(3) > 0 {
			fmt.Fprintf(&b, "|%020d", rng.Intn(50))
		}
		return b.String()
	}
	for _, n := range []int{0, 1, 2, 5, 13, 100, 3000, 20000} {
		for _, shape := range []string{"random", "sorted", "reversed", "equal"} {
			docs := make([]docRef, n)
			for i := range docs {
				docs[i] = docRef{id: fmt.Sprintf("%016x", rng.Int63n(int64(n)+1)), sortKey: key()}
				if shape == "equal" {
					docs[i].sortKey = "same|key"
				}
			}
			switch shape {
			case "sorted":
				slices.SortFunc(docs, cmpDocs)
			case "reversed":
				slices.SortFunc(docs, func(a, b docRef) int { return cmpDocs(b, a) })
			}
			want := slices.Clone(docs)
			slices.SortStableFunc(want, cmpDocs)
			sortDocs(docs)
			for i := range docs {
				if docs[i].sortKey != want[i].sortKey || docs[i].id != want[i].id {
					t.Fatalf("n %d, %s: at %d got (%q, %s), want (%q, %s)", n, shape, i, docs[i].sortKey, docs[i].id, want[i].sortKey, want[i].id)
				}
			}
		}
	}
}
