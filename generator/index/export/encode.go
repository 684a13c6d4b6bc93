package export

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"sync"
)

// The export encodes numbers as "char varints": each character of the
// alphabet carries 5 data bits and a continuation bit, least significant
// group first. Numbers below 32 take one character. Unlike base64 of a byte
// varint, equal numbers give equal characters at any position, which gzip
// compresses well, and the strings are safe inside JS string literals.
const cvAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

type cvWriter struct{ b []byte }

func (w *cvWriter) put(v uint64) {
	for {
		d := v & 31
		v >>= 5
		if v != 0 {
			w.b = append(w.b, cvAlphabet[d|32])
		} else {
			w.b = append(w.b, cvAlphabet[d])
			return
		}
	}
}

func (w *cvWriter) len() int { return len(w.b) }

func (w *cvWriter) String() string { return string(w.b) }

// bitmapChars encodes a sorted doc list as a bitmap, 5 docs per character
// (no continuation bit), for long filter lists.
func bitmapChars(docs []uint32, n int) string {
	vals := make([]byte, bitmapLen(n))
	for _, d := range docs {
		vals[d/5] |= 1 << (d % 5)
	}
	for i, v := range vals {
		vals[i] = cvAlphabet[v]
	}
	return string(vals)
}

// bitmapLen is the length of bitmapChars' encoding of a list of n docs.
func bitmapLen(n int) int { return (n + 4) / 5 }

// normCode returns the field length whose bleve norm is norm, or 0 when
// no integer length reproduces the float32 exactly (then the raw float32
// bits follow in the stream). bleve stores norm = float32(1/sqrt(length)).
func normCode(norm float64) (uint64, bool) {
	if norm <= 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
		return 0, false
	}
	l := math.Round(1 / (norm * norm))
	if l < 1 || l > 1<<31 {
		return 0, false
	}
	if float32(1/math.Sqrt(l)) == float32(norm) {
		return uint64(l), true
	}
	return 0, false
}

// normCode32 is normCode of a float32 norm, looked up in a table of the
// norms of field lengths up to normTableLengths (nearly every posting's):
// an export encodes each posting's norm once or twice, millions of times,
// and the table costs a few nanoseconds against normCode's ~30.
func normCode32(norm float32) (uint64, bool) {
	bits := math.Float32bits(norm)
	t := normTable()
	for h := normSlot(bits); ; h = (h + 1) & (len(t) - 1) {
		switch e := t[h]; {
		case e.length == 0:
			return normCode(float64(norm))
		case e.bits == bits:
			return uint64(e.length), true
		}
	}
}

const (
	normTableBits    = 16
	normTableLengths = 1 << (normTableBits - 1)
)

// normTable is an open-addressing hash table (linear probing, half
// full) from a norm's float32 bits to its field length; made on first use
// from normCode itself, so the two agree by construction.
var normTable = sync.OnceValue(func() *[1 << normTableBits]struct{ bits, length uint32 } {
	t := new([1 << normTableBits]struct{ bits, length uint32 })
	for l := 1; l <= normTableLengths; l++ {
		norm := float32(1 / math.Sqrt(float64(l)))
		code, ok := normCode(float64(norm))
		if !ok || code != uint64(l) {
			continue
		}
		bits := math.Float32bits(norm)
		h := normSlot(bits)
		for t[h].length != 0 && t[h].bits != bits {
			h = (h + 1) & (len(t) - 1)
		}
		t[h].bits, t[h].length = bits, uint32(l)
	}
	return t
})

func normSlot(bits uint32) int {
	return int((bits * 0x9E3779B1) >> (32 - normTableBits))
}

// putTF writes a posting's frequency and norm.
func (w *cvWriter) putTF(freq uint64, norm float64) bool {
	w.put(freq)
	if l, ok := normCode(norm); ok {
		w.put(l)
		return true
	}
	w.put(0)
	w.put(uint64(math.Float32bits(float32(norm))))
	return false
}

// putPostings writes postings column by column: their doc gaps (the
// first from prev), then their tf codes (putTFs). It returns the count of
// norms written as raw float32 bits.
func (w *cvWriter) putPostings(ps []posting, prev uint32) int {
	for _, p := range ps {
		w.put(uint64(p.doc - prev))
		prev = p.doc
	}
	return w.putTFs(ps)
}

// putTFs writes the tf codes of postings column by column: the
// frequencies, then the field lengths (0: no length reproduces the norm),
// then the float32 bits of the norms with length 0. Equal columns
// compress better than interleaved codes. It returns the count of those
// norms.
func (w *cvWriter) putTFs(ps []posting) int {
	for _, p := range ps {
		w.put(uint64(p.freq))
	}
	fallbacks := 0
	for _, p := range ps {
		l, ok := normCode32(p.norm)
		if !ok {
			l = 0
			fallbacks++
		}
		w.put(l)
	}
	if fallbacks > 0 {
		for _, p := range ps {
			if _, ok := normCode32(p.norm); !ok {
				w.put(uint64(math.Float32bits(p.norm)))
			}
		}
	}
	return fallbacks
}

// jsString quotes s for a JS string literal; cv strings need no escaping.
func jsString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
	return b.String()
}

// jsonAppender appends values as encoding/json's Marshal writes them
// (HTML-safe escaping, map keys sorted), through one reused buffer
// rather than a fresh slice per value.
type jsonAppender struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func (j *jsonAppender) append(dst []byte, v any) ([]byte, error) {
	if j.enc == nil {
		j.enc = json.NewEncoder(&j.buf)
	}
	j.buf.Reset()
	if err := j.enc.Encode(v); err != nil {
		return dst, err
	}
	return append(dst, bytes.TrimSuffix(j.buf.Bytes(), []byte{'\n'})...), nil
}
