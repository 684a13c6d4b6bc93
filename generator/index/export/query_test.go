package export

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"

	"github.com/errdocs/errdocs/generator/index"
)

// QueryOptions selects the query structure; engine.js builds the same one.
type QueryOptions struct {
	// Prefix adds, for every field, a PrefixQuery on the last word of the
	// text (type-ahead), when the text does not end in a separator and
	// the word has at least MinPrefixRunes runes.
	Prefix bool
	// Fuzzy replaces each term query by a FuzzyQuery with bleve's auto
	// fuzziness (0 edits up to 2 bytes, 1 up to 5, else 2) and FuzzyPrefix.
	Fuzzy bool
	// Filters restrict results: field (one of FilterFields) → accepted
	// values; values of one field OR, fields AND. Filters never score.
	Filters map[string][]string
}

// BuildQuery returns the bleve query for text, or nil when the text has no
// searchable token (then results are filter-only, in doc order).
//
// Structure: a disjunction over clauses; for each field in Fields order
// whose query analyzer yields tokens, one clause: a disjunction of one term
// query (or fuzzy query) per token, with the field's boost; then, in Prefix
// mode, for each field in order, one prefix query on the last word with the
// field's boost. Scoring is bleve's default TF-IDF with coord and queryNorm.
func BuildQuery(m mapping.IndexMapping, text string, opts QueryOptions) (query.Query, error) {
	var clauses []query.Query
	for _, f := range index.Fields {
		a := m.AnalyzerNamed(f.QueryAnalyzer)
		if a == nil {
			return nil, fmt.Errorf("index: no analyzer %q", f.QueryAnalyzer)
		}
		toks := a.Analyze([]byte(text))
		if len(toks) == 0 {
			continue
		}
		tqs := make([]query.Query, len(toks))
		for i, t := range toks {
			term := string(t.Term)
			fz := 0
			if opts.Fuzzy {
				fz = searcher.GetAutoFuzziness(term)
			}
			if fz > 0 {
				q := query.NewFuzzyQuery(term)
				q.SetFuzziness(fz)
				q.SetPrefix(index.FuzzyPrefix)
				q.SetField(f.Name)
				q.SetBoost(f.Boost)
				tqs[i] = q
			} else {
				q := query.NewTermQuery(term)
				q.SetField(f.Name)
				q.SetBoost(f.Boost)
				tqs[i] = q
			}
		}
		d := query.NewDisjunctionQuery(tqs)
		d.SetMin(1)
		clauses = append(clauses, d)
	}
	if opts.Prefix {
		if w := LastWord(m, text); w != "" {
			for _, f := range index.Fields {
				q := query.NewPrefixQuery(w)
				q.SetField(f.Name)
				q.SetBoost(f.Boost)
				clauses = append(clauses, q)
			}
		}
	}
	if len(clauses) == 0 {
		return nil, nil
	}
	top := query.NewDisjunctionQuery(clauses)
	top.SetMin(1)
	return top, nil
}

// LastWord is the type-ahead word: the last token of the unicode tokenizer,
// lowercased, if it ends the text and has at least MinPrefixRunes runes.
func LastWord(m mapping.IndexMapping, text string) string {
	a := m.AnalyzerNamed(index.AnalyzerIdent)
	if a == nil {
		return ""
	}
	toks := a.Analyze([]byte(text))
	if len(toks) == 0 {
		return ""
	}
	last := toks[len(toks)-1]
	if last.End != len(text) || utf8.RuneCount(last.Term) < index.MinPrefixRunes {
		return ""
	}
	return string(last.Term)
}

// filterQuery is the conjunction over filter fields of the disjunction of
// their values, or nil without filters.
func filterQuery(filters map[string][]string) (query.Query, error) {
	var conj []query.Query
	for _, name := range index.FilterFields {
		vals := filters[name]
		if len(vals) == 0 {
			continue
		}
		var ds []query.Query
		for _, v := range vals {
			q := query.NewTermQuery(v)
			q.SetField(index.FilterFieldPrefix + name)
			ds = append(ds, q)
		}
		conj = append(conj, query.NewDisjunctionQuery(ds))
	}
	for name := range filters {
		if !isFilterField(name) {
			return nil, fmt.Errorf("index: unknown filter field %q", name)
		}
	}
	if len(conj) == 0 {
		return nil, nil
	}
	return query.NewConjunctionQuery(conj), nil
}

func isFilterField(name string) bool {
	for _, f := range index.FilterFields {
		if f == name {
			return true
		}
	}
	return false
}

// Hit is one search result of Search.
type Hit struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

// search runs the documented query structure through bleve: the reference
// the browser engine is tested against. Results sort by score, then by
// SortKey (family, class, message shape, newest), then id; filter-only
// queries sort by SortKey, then id, with score 0.
func search(ix *index.Index, text string, opts QueryOptions, size int) ([]Hit, uint64, error) {
	if ix == nil || ix.Bleve() == nil {
		return nil, 0, errors.New("index: Search on a closed index")
	}
	m := ix.Bleve().Mapping()
	q, err := BuildQuery(m, text, opts)
	if err != nil {
		return nil, 0, err
	}
	fq, err := filterQuery(opts.Filters)
	if err != nil {
		return nil, 0, err
	}
	var final query.Query
	sortBy := []string{"-_score", index.SortKeyField, "_id"}
	switch {
	case q == nil && fq == nil:
		return nil, 0, nil
	case q == nil:
		final = fq
		sortBy = []string{index.SortKeyField, "_id"}
	case fq == nil:
		final = q
	default:
		b := query.NewBooleanQuery(nil, nil, nil)
		b.AddMust(q)
		b.AddFilter(fq)
		final = b
	}
	req := bleve.NewSearchRequestOptions(final, size, 0, false)
	req.SortBy(sortBy)
	res, err := ix.Bleve().Search(req)
	if err != nil {
		return nil, 0, err
	}
	hits := make([]Hit, len(res.Hits))
	for i, h := range res.Hits {
		hits[i] = Hit{ID: h.ID, Score: h.Score}
		if q == nil {
			hits[i].Score = 0
		}
	}
	return hits, res.Total, nil
}

// Analyze runs a named analyzer of the mapping over text (for tests and
// for callers that highlight matched words).
func Analyze(m mapping.IndexMapping, analyzer, text string) []string {
	a := m.AnalyzerNamed(analyzer)
	if a == nil {
		return nil
	}
	return terms(a.Analyze([]byte(text)))
}

func terms(ts analysis.TokenStream) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t.Term)
	}
	return out
}

// sortedKeys returns map keys in order (deterministic iteration).
