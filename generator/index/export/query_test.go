package export

import (
	"errors"
	"fmt"
	"strings"
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
	// Mode is how the words of the text combine (see BuildQuery):
	// ModeAny (the zero value), ModeAll or ModeMost.
	Mode string
	// Prefix adds, for every field, a PrefixQuery on the last word of the
	// text (type-ahead), when the text does not end in a separator and
	// the word has at least MinPrefixRunes runes.
	Prefix bool
	// Fuzzy replaces each term query by a FuzzyQuery with bleve's auto
	// fuzziness (0 edits up to 2 bytes, 1 up to 5, else 2) and index.FuzzyPrefix.
	Fuzzy bool
	// Filters restrict results: field (one of FilterFields) → accepted
	// values; values of one field OR, fields AND. Filters never score.
	Filters map[string][]string
	// WordsOnly leaves out the message clause (see BuildQuery): the query
	// form before it, for the scoring benchmark.
	WordsOnly bool
	// Unordered leaves a typed query's results in the score's order (no
	// typedOrder): what the tests compare the ordering with.
	Unordered bool
	// MessageBoost multiplies the boosts of the message clause's queries
	// (0 is 1): a scoring variant of the benchmark.
	MessageBoost float64
}

// Query modes.
const (
	// ModeAny: a record matches when one word matches (the "some words"
	// results, and the fuzzy fallback).
	ModeAny = ""
	// ModeAll: every word must match, each in some field (what a typed
	// query asks; these results come first and are what the count says).
	ModeAll = "all"
	// ModeMost: at least MostMin(n) of the n words must match (a pasted
	// error, whose values and runtime prefix the record does not hold).
	ModeMost = "most"
)

// MostMin is how many of n pasted words a ModeMost match must hold: half,
// rounded up. engine.js uses the same rule.
func MostMin(n int) int {
	return (n + 1) / 2
}

// BuildQuery returns the bleve query for text, or nil when the text has no
// searchable token (then results are filter-only, in doc order).
//
// ModeAny: a disjunction over clauses; for each field in index.Fields order
// whose query analyzer yields tokens, one clause: a disjunction of one term
// query (or fuzzy query) per token, with the field's boost; then, in Prefix
// mode, for each field in order, one prefix query on the last word with the
// field's boost.
//
// ModeAll and ModeMost: the text's words are its whitespace-separated
// chunks (index.AnalyzerQCode's tokens) whose English analysis keeps a token (so
// stop words and bare punctuation are no words). Each word is one clause:
// a disjunction, over the fields in order, of a term (or fuzzy) query per
// token the field's query analyzer makes of the word, with the field's
// boost; the last word, in Prefix mode, also holds the prefix queries of
// ModeAny. ModeAll is a disjunction of two clauses: the conjunction of the
// words' clauses, and the conjunction of the words in errorMessage alone
// (each word's term queries there, the last word's prefix query there);
// the disjunction's coord halves the score of a record whose message
// lacks a word. ModeMost is likewise a disjunction of two clauses: the
// disjunction of the words' clauses with a minimum of MostMin(words), and
// the disjunction of the words in errorMessage alone with the same
// minimum.
//
// Scoring is bleve's default TF-IDF with coord and queryNorm.
func BuildQuery(m mapping.IndexMapping, text string, opts QueryOptions) (query.Query, error) {
	switch opts.Mode {
	case ModeAny:
		return buildAny(m, text, opts)
	case ModeAll, ModeMost:
		return buildWords(m, text, opts)
	}
	return nil, fmt.Errorf("index: unknown query mode %q", opts.Mode)
}

func buildAny(m mapping.IndexMapping, text string, opts QueryOptions) (query.Query, error) {
	var clauses []query.Query
	for _, f := range index.Fields {
		tqs, err := termQueries(m, f, text, opts)
		if err != nil {
			return nil, err
		}
		if len(tqs) == 0 {
			continue
		}
		d := query.NewDisjunctionQuery(tqs)
		d.SetMin(1)
		clauses = append(clauses, d)
	}
	if opts.Prefix {
		clauses = append(clauses, prefixClauses(LastWord(m, text))...)
	}
	if len(clauses) == 0 {
		return nil, nil
	}
	top := query.NewDisjunctionQuery(clauses)
	top.SetMin(1)
	return top, nil
}

// termQueries is one term (or fuzzy) query per token f's query analyzer
// makes of text.
func termQueries(m mapping.IndexMapping, f index.Field, text string, opts QueryOptions) ([]query.Query, error) {
	a := m.AnalyzerNamed(f.QueryAnalyzer)
	if a == nil {
		return nil, fmt.Errorf("index: no analyzer %q", f.QueryAnalyzer)
	}
	toks := a.Analyze([]byte(text))
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
	return tqs, nil
}

// prefixClauses are the type-ahead prefix queries on w, one per field.
func prefixClauses(w string) []query.Query {
	if w == "" {
		return nil
	}
	out := make([]query.Query, len(index.Fields))
	for i, f := range index.Fields {
		q := query.NewPrefixQuery(w)
		q.SetField(f.Name)
		q.SetBoost(f.Boost)
		out[i] = q
	}
	return out
}

// Words returns the words of text as ModeAll and ModeMost take them: its
// whitespace-separated chunks that the English analyzer keeps a token of
// and that are no clipped negation.
func Words(m mapping.IndexMapping, text string) []string {
	var out []string
	for _, w := range words(m, text) {
		out = append(out, w.text)
	}
	return out
}

type word struct {
	text string
	end  int // byte offset of its end in the query text
}

func words(m mapping.IndexMapping, text string) []word {
	ws := m.AnalyzerNamed(index.AnalyzerQCode)
	en := m.AnalyzerNamed(index.AnalyzerEN)
	if ws == nil || en == nil {
		return nil
	}
	var out []word
	for _, t := range ws.Analyze([]byte(text)) {
		w := text[t.Start:t.End]
		if len(en.Analyze([]byte(w))) > 0 && !clippedNegation(en, w) {
			out = append(out, word{w, t.End})
		}
	}
	return out
}

// clippedNegation reports a negation typed without its apostrophe
// ("doesnt", "isnt") or cut at it ("doesn" of "doesn't"): the whole form
// is a stop word, never indexed, so the word would match nothing and
// empty an all-words query. "can" is a word of its own. engine.js
// clippedNegation is its twin.
func clippedNegation(en analysis.Analyzer, w string) bool {
	l := strings.ToLower(w)
	if l == "can" || l == "" || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz") != "" {
		return false
	}
	if strings.HasSuffix(l, "nt") && len(en.Analyze([]byte(l[:len(l)-1]+"'t"))) == 0 {
		return true
	}
	return strings.HasSuffix(l, "n") && len(en.Analyze([]byte(l+"'t"))) == 0
}

func buildWords(m mapping.IndexMapping, text string, opts QueryOptions) (query.Query, error) {
	ws := words(m, text)
	last := ""
	if opts.Prefix {
		last = LastWord(m, text)
	}
	// A word being typed that is a stop word so far ("for" of "format")
	// still counts, by its prefix clauses alone.
	if last != "" && (len(ws) == 0 || ws[len(ws)-1].end != len(text)) {
		ws = append(ws, word{"", len(text)})
	}
	var clauses []query.Query
	for _, w := range ws {
		var kids []query.Query
		for _, f := range index.Fields {
			tqs, err := termQueries(m, f, w.text, opts)
			if err != nil {
				return nil, err
			}
			kids = append(kids, tqs...)
		}
		// the last word takes the prefix clauses when it ends the text
		if last != "" && w.end == len(text) {
			kids = append(kids, prefixClauses(last)...)
		}
		d := query.NewDisjunctionQuery(kids)
		d.SetMin(1)
		clauses = append(clauses, d)
	}
	if len(clauses) == 0 {
		return nil, nil
	}
	if opts.Mode == ModeAll {
		all := query.NewConjunctionQuery(clauses)
		if opts.WordsOnly {
			return all, nil
		}
		msg, err := messageClauses(m, ws, last, text, opts)
		if err != nil || msg == nil {
			return all, err
		}
		top := query.NewDisjunctionQuery([]query.Query{all, msg})
		top.SetMin(1)
		return top, nil
	}
	top := query.NewDisjunctionQuery(clauses)
	top.SetMin(float64(MostMin(len(clauses))))
	if opts.WordsOnly {
		return top, nil
	}
	msg, err := messageClauses(m, ws, last, text, opts)
	if err != nil || msg == nil {
		return top, err
	}
	mq := query.NewDisjunctionQuery(msg.(*query.ConjunctionQuery).Conjuncts)
	mq.SetMin(float64(MostMin(len(clauses))))
	both := query.NewDisjunctionQuery([]query.Query{top, mq})
	both.SetMin(1)
	return both, nil
}

// messageClauses is the conjunction over ws of each word's clause in
// errorMessage alone (the last word with its prefix query there).
func messageClauses(m mapping.IndexMapping, ws []word, last, text string, opts QueryOptions) (query.Query, error) {
	var f index.Field
	for _, x := range index.Fields {
		if x.Name == "errorMessage" {
			f = x
		}
	}
	if f.Name == "" {
		return nil, nil
	}
	var clauses []query.Query
	for _, w := range ws {
		kids, err := termQueries(m, f, w.text, opts)
		if err != nil {
			return nil, err
		}
		if opts.MessageBoost > 0 {
			for _, k := range kids {
				k.(query.BoostableQuery).SetBoost(f.Boost * opts.MessageBoost)
			}
		}
		if last != "" && w.end == len(text) {
			p := query.NewPrefixQuery(last)
			p.SetField(f.Name)
			p.SetBoost(f.Boost)
			if opts.MessageBoost > 0 {
				p.SetBoost(f.Boost * opts.MessageBoost)
			}
			kids = append(kids, p)
		}
		if len(kids) == 0 {
			return nil, nil
		}
		d := query.NewDisjunctionQuery(kids)
		d.SetMin(1)
		clauses = append(clauses, d)
	}
	if len(clauses) == 0 {
		return nil, nil
	}
	return query.NewConjunctionQuery(clauses), nil
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
// queries sort by SortKey, then id, with score 0; a typed query's first
// results (ModeAll, not fuzzy) are then ordered by typedOrder.
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
	// a typed query's first results are ordered by their messages
	ordered := q != nil && opts.Mode == ModeAll && !opts.Fuzzy && !opts.Unordered
	n := size
	if ordered {
		n = max(size, typedOrderN)
	}
	req := bleve.NewSearchRequestOptions(final, n, 0, false)
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
	if ordered {
		hits = typedOrder(m, text, opts.Prefix, hits, func(id string) string {
			d, _ := ix.DocData(id)
			return d.Title
		})
		hits = hits[:min(len(hits), size)]
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
