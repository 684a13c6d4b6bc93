package strsort

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// plainOrder is Order's definition: the indexes sorted by their
// strings, equal strings by index.
func plainOrder(strs []string) []int32 {
	order := make([]int32, len(strs))
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Or(strings.Compare(strs[a], strs[b]), cmp.Compare(a, b)) })
	return order
}

// TestSortedOrder compares Order with a plain sort on strings that
// share long prefixes (paths of one repo), end within a chunk of eight
// bytes, hold zero bytes (which pad a short string's chunk), repeat, or
// are empty.
func TestSortedOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := map[string][]string{
		"empty": {},
		"one":   {"a"},
		"zeros": {"ab", "ab\x00", "ab\x00\x00", "a", "", "ab\x00b", "\x00", "ab", "abcdefgh\x00", "abcdefgh"},
	}
	var paths, ids, mixed []string
	for i := range 5000 {
		repo := fmt.Sprintf("owner-%d/name%s", rng.IntN(5), strings.Repeat("-x", rng.IntN(3)))
		slug := strings.Repeat("s", rng.IntN(12)) + fmt.Sprint(rng.IntN(50))
		if rng.IntN(4) == 0 {
			slug += "-more"
		}
		paths = append(paths, repo+"/"+slug+"/index.html")
		ids = append(ids, fmt.Sprintf("%016x", rng.Uint64()))
		b := make([]byte, rng.IntN(20))
		for k := range b {
			b[k] = "ab\x00\xff/"[rng.IntN(5)]
		}
		mixed = append(mixed, string(b))
		if i%7 == 0 {
			mixed = append(mixed, string(b)) // equal strings
		}
	}
	cases["paths"], cases["ids"], cases["mixed"] = paths, ids, mixed
	for name, strs := range cases {
		if got, want := Order(strs), plainOrder(strs); !slices.Equal(got, want) {
			t.Errorf("%s: Order differs from a plain sort", name)
		}
	}
}
