// Package radix sorts by unsigned integer keys, a digit of 11 bits at a
// time from the least significant: for long lists of keys spread evenly
// (document numbers, hashes) it does a few passes of counting where a
// comparison sort does log n rounds of compares, and its table of counts
// stays in the processor's first-level cache.
package radix

import (
	"math/bits"
	"slices"
)

const digitBits = 11

// SortBuf sorts xs by key, stably, with its working memory in tmp, grown
// as needed; it returns tmp for the next sort. It makes as many passes as
// the largest key has digits.
func SortBuf[T any](xs, tmp []T, key func(T) uint64) []T {
	var most uint64
	for _, x := range xs {
		most = max(most, key(x))
	}
	passes := (bits.Len64(most) + digitBits - 1) / digitBits
	if passes == 0 || len(xs) < 2 {
		return tmp
	}
	tmp = slices.Grow(tmp[:0], len(xs))[:len(xs)]
	src, dst := xs, tmp
	for shift := 0; shift < digitBits*passes; shift += digitBits {
		var count [1 << digitBits]int
		for _, x := range src {
			count[key(x)>>shift&(1<<digitBits-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, x := range src {
			k := key(x) >> shift & (1<<digitBits - 1)
			dst[count[k]] = x
			count[k]++
		}
		src, dst = dst, src
	}
	if passes%2 == 1 {
		copy(xs, src)
	}
	return tmp
}
