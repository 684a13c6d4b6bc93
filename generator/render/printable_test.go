package render

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/errdocs/errdocs/generator/markup/htmltext"
)

// TestPrintable checks the table-driven scan against its definition.
func TestPrintable(t *testing.T) {
	want := func(b []byte) bool { return utf8.Valid(b) && !bytes.ContainsFunc(b, htmltext.Forbidden) }
	cases := [][]byte{
		nil, []byte("plain <p>text</p>\n\t\r\f"), []byte("caf\u00e9 \u2603 \U0001F600"),
		[]byte("\x00"), []byte("a\x1fb"), []byte("\x7f"), []byte("\u0085"), []byte("\u009f"),
		[]byte("\ufdd0"), []byte("\ufffe"), []byte("\U0001fffe"), []byte("\ufffd"),
		[]byte("\xff"), []byte("ab\xc3"), []byte("\xed\xa0\x80"), []byte("\xc0\xaf"),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "<", "\n", "\x01", "\x7f", "é", "\u0085", "\ufdd5", "\uffff", "\xff", "\xe2\x98", "☃", "\U0010fffe"}
	for range 5000 {
		var b []byte
		for range rng.IntN(12) {
			b = append(b, alphabet[rng.IntN(len(alphabet))]...)
		}
		cases = append(cases, b)
	}
	// Long runs of ASCII, checked eight bytes at a time, with one byte
	// of every value at each place of a word.
	for c := range 256 {
		for at := range 17 {
			b := []byte("<p>printable ascii text, long enough</p> ~ }")
			b[at] = byte(c)
			cases = append(cases, b)
		}
	}
	for _, b := range cases {
		if got := printable(b); got != want(b) {
			t.Errorf("printable(%q) = %v, want %v", b, got, !got)
		}
	}
}
