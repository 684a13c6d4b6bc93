package knownitem

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/errdocs/errdocs/internal/corpus"
)

// Of agrees with Paste: over many pastes of one record, each frequent
// paste's share is its likelihood, and every paste made has one.
func TestLikelihoodMatchesPaste(t *testing.T) {
	recs := corpus.Generate(400, 3).Records()
	l := NewLikelihood()
	rng := rand.New(rand.NewPCG(7, 8))
	checked, varied := 0, 0
	for i := 0; i < len(recs) && checked < 8; i += 41 {
		r := &recs[i]
		const n = 800
		seen := map[string]int{}
		for k := 0; k < n; k++ {
			seen[Paste(rng, r)]++
		}
		sum := 0.0
		for raw, c := range seen {
			p := l.Of(r, raw)
			if p == 0 {
				t.Fatalf("record %d: paste %q made %d times has likelihood 0", i, raw, c)
			}
			sum += p
			share := float64(c) / n
			// a binomial share's standard deviation, 5 of them, where
			// the paste is expected often enough to tell
			if sd := math.Sqrt(p * (1 - p) / n); p*n >= 10 && math.Abs(share-p) > 5*sd {
				t.Errorf("record %d: paste %q share %.4f, likelihood %.4f", i, raw, share, p)
			}
		}
		if sum > 1+1e-9 {
			t.Errorf("record %d: likelihoods of its pastes sum to %.4f", i, sum)
		}
		if len(seen) > 1 {
			varied++
		}
		checked++
	}
	if varied < 4 {
		t.Errorf("only %d of %d records had pastes with other values: the test does not exercise refill", varied, checked)
	}
	// another record's paste, or a paste with a value the generator
	// never writes, is not this record's
	r := &recs[0]
	if p := l.Of(r, "Error: nothing like it"); p != 0 {
		t.Errorf("unrelated paste has likelihood %g", p)
	}
}
