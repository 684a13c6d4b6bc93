package index

import (
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/single"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/whitespace"
	"github.com/blevesearch/bleve/v2/mapping"
)

// Analyzer names. The browser mirrors each of them in analyzer.js; changing
// one means changing both (the parity test catches a mismatch).
const (
	// AnalyzerEN is bleve's English analyzer for prose: unicode tokenizer,
	// possessive filter, lowercase, Lucene's English stop words, Porter.
	AnalyzerEN = en.AnalyzerName
	// AnalyzerIdent indexes identifiers (class names, source identifiers).
	// The camelCase/snake_case/dotted splitting happens in Go before
	// indexing (IdentifierText), so the analyzer itself stays trivial to
	// mirror in JavaScript: unicode tokenizer + lowercase, no stop words
	// and no stemming (identifiers are not English).
	AnalyzerIdent = "errdocs_ident"
	// AnalyzerCode indexes codes, tags, families and repos as one
	// lowercased keyword: "ERR_INVALID_ARG" and "err_invalid_arg" match.
	AnalyzerCode = "errdocs_code"
	// AnalyzerQCode analyzes query text for keyword fields: whitespace
	// tokenizer + lowercase, so each whitespace-separated word of a query
	// can equal a whole code, tag or repo.
	AnalyzerQCode = "errdocs_qcode"
)

// Field is one searchable text field of the index.
type Field struct {
	Name          string  // bleve field name (also used in the export)
	Analyzer      string  // index-time analyzer
	QueryAnalyzer string  // query-time analyzer
	Boost         float64 // term query boost
}

// Fields are the searchable fields in their fixed order; the export and the
// client refer to them by position. Message, code and class rank first.
var Fields = []Field{
	// The message weighs most: on known-item queries (BenchmarkKnownItemScoring,
	// BENCHMARKS.md) a boost of 5 ranked the record sought better than 3.
	{"errorMessage", AnalyzerEN, AnalyzerEN, 5.0},
	{"errorCode", AnalyzerCode, AnalyzerQCode, 3.0},
	{"errorClass", AnalyzerIdent, AnalyzerIdent, 2.5},
	{"tags", AnalyzerCode, AnalyzerQCode, 1.5},
	{"backgroundTag", AnalyzerCode, AnalyzerQCode, 1.5},
	{"repo", AnalyzerCode, AnalyzerQCode, 1.2},
	{"documentation", AnalyzerEN, AnalyzerEN, 1.0},
	{"solutions", AnalyzerEN, AnalyzerEN, 1.0},
	{"preventionTips", AnalyzerEN, AnalyzerEN, 0.8},
	{"identifiers", AnalyzerIdent, AnalyzerIdent, 0.8},
}

// FilterFields are the exact-value keyword fields used for filtering. In
// bleve they are named "f_" + name so they never collide with text fields.
// family is the record's backgroundTag (its family page links to it).
var FilterFields = []string{"repo", "severity", "errorType", "tag", "language", "family"}

// FilterFieldPrefix prefixes the bleve names of the filter fields.
const FilterFieldPrefix = "f_"

// SortKeyField holds SortKey (family, class, message shape, then newest
// analyzedAt first); it is the tie-break order of scored results and the
// order of filter-only ones.
const SortKeyField = "sortKey"

// MappingVersion changes whenever the mapping or the document derivation
// changes, so that an old cache is rebuilt rather than trusted.
const MappingVersion = "errdocs-index-9"

// NewMapping returns the explicit index mapping.
func NewMapping() (*mapping.IndexMappingImpl, error) {
	im := mapping.NewIndexMapping()
	im.IndexDynamic = false
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	if err := im.AddCustomAnalyzer(AnalyzerIdent, map[string]interface{}{
		"type":          custom.Name,
		"tokenizer":     unicode.Name,
		"token_filters": []string{lowercase.Name},
	}); err != nil {
		return nil, err
	}
	if err := im.AddCustomAnalyzer(AnalyzerCode, map[string]interface{}{
		"type":          custom.Name,
		"tokenizer":     single.Name,
		"token_filters": []string{lowercase.Name},
	}); err != nil {
		return nil, err
	}
	if err := im.AddCustomAnalyzer(AnalyzerQCode, map[string]interface{}{
		"type":          custom.Name,
		"tokenizer":     whitespace.Name,
		"token_filters": []string{lowercase.Name},
	}); err != nil {
		return nil, err
	}

	dm := mapping.NewDocumentStaticMapping()
	for _, f := range Fields {
		fm := mapping.NewTextFieldMapping()
		fm.Analyzer = f.Analyzer
		fm.Store = false
		fm.IncludeTermVectors = false // scoring needs freq and norm only
		fm.IncludeInAll = false
		fm.DocValues = false
		dm.AddFieldMappingsAt(f.Name, fm)
	}
	for _, name := range FilterFields {
		fm := mapping.NewKeywordFieldMapping()
		fm.Store = false
		fm.IncludeTermVectors = false
		fm.IncludeInAll = false
		fm.DocValues = false
		dm.AddFieldMappingsAt(FilterFieldPrefix+name, fm)
	}
	sk := mapping.NewKeywordFieldMapping()
	sk.Store = false
	sk.IncludeTermVectors = false
	sk.IncludeInAll = false
	sk.DocValues = true // sorted on by the Go parity queries
	dm.AddFieldMappingsAt(SortKeyField, sk)

	// No field goes into "_all" (IncludeInAll is off for each): the
	// mapping would still give every document an empty "_all" field.
	dm.AddSubDocumentMapping("_all", mapping.NewDocumentDisabledMapping())

	im.DefaultMapping = dm
	im.DefaultAnalyzer = AnalyzerEN
	return im, nil
}

// MinPrefixRunes is the shortest last word that gets a prefix clause (in
// the client, and in the Go twin of its queries the tests hold): a
// shorter prefix expands to too many terms for the client to load cheaply.
const MinPrefixRunes = 3

// FuzzyPrefix is the number of leading bytes a fuzzy candidate must share
// with the query term (bleve's FuzzyQuery prefix). It restricts candidates
// to a dictionary range the client loads in one or two shards.
const FuzzyPrefix = 2
