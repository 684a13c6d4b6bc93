package export

import (
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/record"
)

// A prefix list is patched (prefixpatch.go) only while its terms keep
// their document frequencies: a record of the list that gains a common
// word other records hold changes that word's idf, so the value of every
// posting of it in its prefix's list (the blocks' maxima, the head), and
// the list must be built again. The same word added to a record that
// holds it already changes that record's values alone, and the list is
// patched. Each incremental export is compared with a whole one
// (checkIncremental).
func TestPatchedPrefixListsEqualWhole(t *testing.T) {
	recs := genRecords(3000, 11)
	im := mapping.NewIndexMapping()
	terms := func(text string) map[string]string { // term → a word that gives it
		out := map[string]string{}
		toks, err := im.AnalyzeText(index.AnalyzerEN, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		for _, tok := range toks {
			w := strings.ToLower(text[tok.Start:tok.End])
			if len(tok.Term) >= 5 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" {
				out[string(tok.Term)] = w
			}
		}
		return out
	}
	docTerms := make([]map[string]string, len(recs))
	df, word := map[string]int{}, map[string]string{}
	byPrefix := map[string]map[string]bool{}
	for i := range recs {
		docTerms[i] = terms(recs[i].Documentation)
		for term, w := range docTerms[i] {
			df[term]++
			word[term] = w
			if byPrefix[term[:3]] == nil {
				byPrefix[term[:3]] = map[string]bool{}
			}
			byPrefix[term[:3]][term] = true
		}
	}
	// a common term of the prefix with the most terms, that many records
	// of the prefix's list lack
	w := ""
	longer := func(a, b string) bool {
		na, nb := len(byPrefix[a[:3]]), len(byPrefix[b[:3]])
		return na > nb || na == nb && a < b
	}
	for term, n := range df {
		if n >= len(recs)/10 && n <= len(recs)/2 && (w == "" || longer(term, w)) {
			w = term
		}
	}
	if w == "" || len(byPrefix[w[:3]]) < 2*PrefixListMin {
		t.Fatalf("no common term of a long prefix list in the generated records (best %q)", w)
	}
	inList := func(i int) bool {
		for term := range docTerms[i] {
			if term != w && strings.HasPrefix(term, w[:3]) {
				return true
			}
		}
		return false
	}
	// Round 0: a record of the list loses every word of the term (its
	// value in the list falls: it stays out of the head), and the term's
	// document frequency with it. Round 1: another record that holds the
	// term gets one more of it.
	pick := func(recs []record.Record) int {
		for i := len(recs) / 3; i < len(recs); i++ {
			if _, has := docTerms[i][w]; has && inList(i) {
				return i
			}
		}
		t.Fatalf("no record of the %q list that holds %q", w[:3], w)
		return 0
	}
	drop := func(recs []record.Record) {
		i := pick(recs)
		doc := recs[i].Documentation
		toks, err := im.AnalyzeText(index.AnalyzerEN, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		for k := len(toks) - 1; k >= 0; k-- {
			if string(toks[k].Term) == w {
				doc = doc[:toks[k].Start] + doc[toks[k].End:]
			}
		}
		recs[i].Documentation = doc
		delete(docTerms[i], w)
	}
	add := func(recs []record.Record) {
		i := pick(recs)
		recs[i].Documentation += " The " + word[w] + " was looked at again."
	}
	stats := checkIncremental(t, recs, Options{Pattern: pattern.Compile}, []func([]record.Record){drop, add}, nil)
	if st := stats[1]; st.PatchedLists == 0 {
		t.Errorf("%q added to a record that holds it: no prefix list patched", word[w])
	}
}
