package export

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// decodeFilterListForTest reads a filter doc list as the browser's
// decodeFilterList does (static/search/engine.js).
func decodeFilterListForTest(t *testing.T, s string, kind int) []uint32 {
	t.Helper()
	var docs []uint32
	if kind == 1 {
		for i := 0; i < len(s); i++ {
			v := strings.IndexByte(cvAlphabet, s[i])
			for b := range 5 {
				if v&(1<<b) != 0 {
					docs = append(docs, uint32(i*5+b))
				}
			}
		}
		return docs
	}
	d, v, shift := uint32(0), uint64(0), 0
	for i := 0; i < len(s); i++ {
		c := uint64(strings.IndexByte(cvAlphabet, s[i]))
		v |= (c & 31) << shift
		shift += 5
		if c&32 == 0 {
			d += uint32(v)
			docs = append(docs, d)
			v, shift = 0, 0
		}
	}
	return docs
}

// A filter value's doc list is written as a gap list or, when that is
// longer, as a bitmap; either way the browser reads the list back.
func TestEncodeDocList(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 44))
	kinds := map[int]int{}
	for _, nDocs := range []int{1, 5, 6, 64, 1000, 100_003} {
		for _, density := range []float64{0, 0.001, 0.05, 0.2, 0.5, 1} {
			var list []uint32
			for d := range nDocs {
				if rng.Float64() < density {
					list = append(list, uint32(d))
				}
			}
			if len(list) == 0 {
				list = []uint32{uint32(nDocs - 1)}
			}
			s, kind := encodeDocList(list, nDocs)
			kinds[kind]++
			var gaps cvWriter
			prev := uint32(0)
			for _, d := range list {
				gaps.put(uint64(d - prev))
				prev = d
			}
			bitmap := bitmapChars(list, nDocs)
			if wantBitmap := len(bitmap) < gaps.len(); wantBitmap != (kind == 1) {
				t.Errorf("%d docs, %d listed: kind %d, but the gap list takes %d characters and the bitmap %d", nDocs, len(list), kind, gaps.len(), len(bitmap))
			}
			if min(len(bitmap), gaps.len()) != len(s) {
				t.Errorf("%d docs, %d listed: %d characters, want the shorter of %d and %d", nDocs, len(list), len(s), gaps.len(), len(bitmap))
			}
			if got := decodeFilterListForTest(t, s, kind); !slices.Equal(got, list) {
				t.Errorf("%d docs, %d listed (kind %d): read back %d docs, first %v; want %v", nDocs, len(list), kind, len(got), got[:min(5, len(got))], list[:min(5, len(list))])
			}
		}
	}
	if kinds[0] == 0 || kinds[1] == 0 {
		t.Errorf("kinds written: %v; want gap lists and bitmaps both", kinds)
	}
}
