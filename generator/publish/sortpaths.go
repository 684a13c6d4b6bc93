package publish

import (
	"math/bits"
	"slices"
)

// sortPaths sorts paths in byte order, as slices.Sort does. The site's
// paths share long prefixes (owner/repo/ of half a million record pages),
// which a comparison sort compares again at every step: at 500,000 records
// sorting the file list was half of writing it. A three-way radix
// quicksort (Bentley and Sedgewick) looks at each path's bytes past their
// common prefix once.
func sortPaths(paths []string) {
	sortPathsFrom(paths, 0, 2*bits.Len(uint(len(paths)))+16)
}

// sortPathsFrom sorts paths that share their first d bytes. The part equal
// to the pivot byte goes on to the next byte; below depth, what is left is
// a comparison sort's, so that no input makes it quadratic.
func sortPathsFrom(paths []string, d, depth int) {
	for len(paths) > 1 {
		if len(paths) <= 12 || depth == 0 {
			slices.Sort(paths)
			return
		}
		pivot := median3(byteAt(paths[0], d), byteAt(paths[len(paths)/2], d), byteAt(paths[len(paths)-1], d))
		// paths[:lt] < pivot, paths[lt:i] == pivot, paths[gt:] > pivot
		lt, i, gt := 0, 0, len(paths)
		for i < gt {
			switch c := byteAt(paths[i], d); {
			case c < pivot:
				paths[lt], paths[i] = paths[i], paths[lt]
				lt++
				i++
			case c > pivot:
				gt--
				paths[gt], paths[i] = paths[i], paths[gt]
			default:
				i++
			}
		}
		sortPathsFrom(paths[:lt], d, depth-1)
		sortPathsFrom(paths[gt:], d, depth-1)
		if pivot < 0 {
			return // the paths end here: all equal
		}
		paths = paths[lt:gt]
		d++
	}
}

// byteAt is byte d of s, -1 past its end.
func byteAt(s string, d int) int {
	if d < len(s) {
		return int(s[d])
	}
	return -1
}

func median3(a, b, c int) int {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}
