// Package strsort sorts many strings by their bytes, eight at a time: the
// record pages' paths, the ids and each repo's slugs of half a million
// records.
package strsort

import (
	"cmp"
	"slices"
	"strings"
)

// Order returns the indexes of strs in the order of the strings
// (strings.Compare; equal strings by index).
//
// A comparison sort of many strings that share long prefixes (paths,
// ids) compares two strings at each step, each a load from wherever the
// string lives. The strings are sorted instead by eight bytes at a time, held
// beside each index as a number (read once per string and level, not at
// each compare), the strings that share their first eight bytes then by
// the next eight, and so on; a run that holds a string ending within the
// bytes compared (equal strings, or one the prefix of another) is
// sorted by the strings themselves.
func Order(strs []string) []int32 {
	ks := make([]strKey, len(strs))
	for k, s := range strs {
		ks[k] = strKey{key: chunk(s, 0), i: int32(k)}
	}
	sortKeyed(strs, ks, 0)
	order := make([]int32, len(strs))
	for k := range ks {
		order[k] = ks[k].i
	}
	return order
}

// strKey is a string's index with eight of its bytes, big-endian.
type strKey struct {
	key uint64
	i   int32
}

// chunk is the eight bytes of s from depth, big-endian, zeros past its end.
func chunk(s string, depth int) uint64 {
	var k uint64
	for j := depth; j < depth+8; j++ {
		k <<= 8
		if j < len(s) {
			k |= uint64(s[j])
		}
	}
	return k
}

// smallRun is the length of a run sorted by its strings at once.
const smallRun = 16

// sortKeyed sorts ks, whose strings are equal before depth and whose keys
// are their eight bytes from depth.
func sortKeyed(strs []string, ks []strKey, depth int) {
	slices.SortFunc(ks, func(a, b strKey) int { return cmp.Compare(a.key, b.key) })
	for start := 0; start < len(ks); {
		end := start + 1
		for end < len(ks) && ks[end].key == ks[start].key {
			end++
		}
		if end-start > 1 {
			sortRun(strs, ks[start:end], depth)
		}
		start = end
	}
}

// sortRun sorts ks, whose strings are equal before depth and whose keys
// (their eight bytes from depth, zeros past their end) are equal: when
// every string has those eight bytes, by the next eight; else, or when
// the run is short, by the strings from depth.
func sortRun(strs []string, ks []strKey, depth int) {
	deeper := len(ks) > smallRun
	for k := range ks {
		if len(strs[ks[k].i]) < depth+8 {
			deeper = false // a string ends: its zeros are no bytes
			break
		}
	}
	if !deeper {
		slices.SortFunc(ks, func(a, b strKey) int {
			return cmp.Or(strings.Compare(strs[a.i][depth:], strs[b.i][depth:]), cmp.Compare(a.i, b.i))
		})
		return
	}
	for k := range ks {
		ks[k].key = chunk(strs[ks[k].i], depth+8)
	}
	sortKeyed(strs, ks, depth+8)
}
