package publish

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortPaths orders paths as slices.Sort does: site-like paths sharing long
// prefixes, duplicates, empty strings, prefixes of one another, and bytes
// above 0x7f.
func TestSortPathsIsByteOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 13, 100, 5000} {
		var paths []string
		for i := 0; i < n; i++ {
			switch rng.IntN(5) {
			case 0:
				paths = append(paths, "")
			case 1:
				paths = append(paths, fmt.Sprintf("owner-%d/repo/", rng.IntN(4)))
			case 2:
				paths = append(paths, fmt.Sprintf("search/r/%04d.%x.js", rng.IntN(50), rng.Uint32()))
			case 3:
				paths = append(paths, fmt.Sprintf("owner-%d/repo/caf\xc3\xa9-%d/index.html", rng.IntN(4), rng.IntN(100)))
			default:
				paths = append(paths, fmt.Sprintf("owner-%d/repo/slug-%d/index.html", rng.IntN(4), rng.IntN(1000)))
			}
		}
		want := slices.Clone(paths)
		slices.Sort(want)
		sortPaths(paths)
		if !slices.Equal(paths, want) {
			t.Fatalf("%d paths: not in byte order", n)
		}
	}
}

func BenchmarkSortPaths(b *testing.B) {
	var paths []string
	for i := 0; i < 500000; i++ {
		paths = append(paths, fmt.Sprintf("owner-%d/repo-%d/some-error-message-slug-%d/index.html", i%60, i%3333, i))
	}
	rand.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	work := make([]string, len(paths))
	for _, sorter := range []struct {
		name string
		sort func([]string)
	}{{"radix", sortPaths}, {"slices", slices.Sort[[]string]}} {
		b.Run(sorter.name, func(b *testing.B) {
			for b.Loop() {
				copy(work, paths)
				sorter.sort(work)
			}
		})
	}
}
