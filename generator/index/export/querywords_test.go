package export

import (
	"slices"
	"testing"

	"github.com/errdocs/errdocs/generator/index"
)

// TestWordsClippedNegation checks which chunks of a typed query are words:
// a negation typed without its apostrophe or cut at it is none (its whole
// form is a stop word, never indexed), while words that merely end in "n"
// or "nt", and "can", stay words.
func TestWordsClippedNegation(t *testing.T) {
	m, err := index.NewMapping()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text string
		want []string
	}{
		{"cache doesnt support", []string{"cache", "support"}},
		{"root wasn inferred", []string{"root", "inferred"}},
		{"sorting isn supported Don", []string{"sorting", "supported"}},
		{"can print event token open", []string{"can", "print", "event", "token", "open"}},
		{"doesn't support", []string{"support"}},
		{"x-won dont_know", []string{"x-won", "dont_know"}},
	}
	for _, c := range cases {
		if got := Words(m, c.text); !slices.Equal(got, c.want) {
			t.Errorf("Words(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
