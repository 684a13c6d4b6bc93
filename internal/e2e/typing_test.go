package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/internal/browsertest"
	"github.com/errdocs/errdocs/internal/corpus"
)

// TestSearchTypingNeverNoResults types message words into the real search
// page letter by letter: while a word is begun that some record's message
// word starts with, the status line never says "No results" (the engine
// expands a last word as a prefix from three letters; below that it says
// the word is only begun). Before, "d" found 4, "de" none, "dea" 5.
func TestSearchTypingNeverNoResults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a site: skipped in -short mode")
	}
	ctx := browsertest.New(t)
	dir := t.TempDir()
	ds := corpus.Generate(300, 9)
	data := filepath.Join(dir, "data")
	if err := ds.WriteExport(data, false); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(dir, "site")
	runErrdocs(t, dir, "build", data, "--out", site, "--quiet")
	// words of 6+ letters from messages (not stop words, which no field
	// indexes), a few distinct first letters
	m, err := index.NewMapping()
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	seen := map[string]bool{}
	// The message's own tokens, as the index analyzes it: a word inside a
	// dotted name ("staging" of "column-id.staging") is no term of its own.
	wre := regexp.MustCompile(`^[a-z]{6,}$`)
	en := m.AnalyzerNamed(index.AnalyzerEN)
	for _, r := range ds.Records() {
		msg := strings.ToLower(r.ErrorMessage)
		for _, tok := range en.Analyze([]byte(msg)) {
			w := msg[tok.Start:tok.End]
			if wre.MatchString(w) && !seen[w[:2]] && len(words) < 6 {
				seen[w[:2]] = true
				words = append(words, w)
			}
		}
	}
	u := ui{t, ctx}
	u.navigate(browsertest.Serve(t, site) + "search/")
	begun := 0
	for _, w := range words {
		u.clearBox()
		for n := 1; n <= 4; n++ {
			u.typeText(w[n-1 : n])
			u.wait(`document.getElementById('search-q').value === ` + jsString(w[:n]))
			u.settled()
			status := u.eval(`document.getElementById('result-count').textContent`)
			if strings.HasPrefix(status, "No results") {
				t.Errorf("typing %q: status %q, though %q starts with it", w[:n], status, w)
			}
			if strings.HasPrefix(status, "Keep typing") {
				begun++
			}
		}
	}
	if begun == 0 {
		t.Errorf("no prefix of %q was ever only begun: the test did not reach the case it is about", words)
	}
}
