package index

import (
	"hash/fnv"
	"strings"
	"unicode/utf8"
)

// What changed since the index was opened, for an incremental export
// (generator/index/export): the terms each changed record holds now, its
// filter values, and whether any record was added or deleted.

// MaxChanged bounds the changed records the index tracks; beyond it an
// incremental export would be about as slow as a whole one.
const MaxChanged = 2000

// Changes is what the index knows of the records indexed since it was
// opened.
type Changes struct {
	// Opened fingerprints the records indexed when the index was opened
	// (RecordsKey then).
	Opened [32]byte
	// Terms holds, by record id, the terms bleve indexed for it, per
	// field of Fields; nil when the index cannot tell.
	Terms map[string][][]string
	// FilterSums holds the DocFilterSum of each record of Terms.
	FilterSums map[string]uint64
	// Restructured is set once a record was added or deleted.
	Restructured bool
}

// Changes reports the records indexed since the index was opened.
func (ix *Index) Changes() Changes {
	return Changes{Opened: ix.openKey, Terms: ix.touched, FilterSums: ix.touchedFilters, Restructured: ix.restructured}
}

// Incremental reports whether the next Export can be incremental as far
// as the index knows: records were only edited since it was opened, and
// few. (The export may still turn out whole: its saved state decides.)
func (ix *Index) Incremental() bool {
	return ix != nil && ix.touched != nil && !ix.restructured && len(ix.touched) <= MaxChanged
}

// noteTerms records, for an incremental export, the terms bleve will
// index for a record: per field, as the export writes them.
func (ix *Index) noteTerms(id string, doc map[string]interface{}) {
	if ix.touched == nil || len(ix.touched) > MaxChanged {
		return
	}
	m := ix.bleve.Mapping()
	perField := make([][]string, len(Fields))
	for fi, f := range Fields {
		a := m.AnalyzerNamed(f.Analyzer)
		if a == nil {
			ix.touched = nil // cannot tell: no incremental export
			return
		}
		var texts []string
		switch v := doc[f.Name].(type) {
		case string:
			texts = []string{v}
		case []interface{}:
			for _, x := range v {
				if s, ok := x.(string); ok {
					texts = append(texts, s)
				}
			}
		}
		seen := map[string]bool{}
		for _, text := range texts {
			for _, tok := range a.Analyze([]byte(text)) {
				t := ValidUTF8PerByte(string(tok.Term))
				if !seen[t] {
					seen[t] = true
					perField[fi] = append(perField[fi], t)
				}
			}
		}
	}
	ix.touched[id] = perField
	ix.touchedFilters[id] = DocFilterSum(doc)
}

// FilterSum is a doc's filter values as one number: the sum of a hash
// of each (field, value), so that it can be added up from the value
// lists (a whole export) or from a record (a changed one) alike.
func FilterSum(field, value string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(field))
	h.Write([]byte{0})
	h.Write([]byte(value))
	x := h.Sum64()
	// splitmix64's finaliser: sums of raw FNV values collide too easily
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// DocFilterSum is FilterSum added over a record's filter values, as the
// bleve document holds them (each distinct value once, as a term).
func DocFilterSum(doc map[string]interface{}) uint64 {
	var sum uint64
	for _, name := range FilterFields {
		seen := map[string]bool{}
		add := func(v string) {
			if !seen[v] {
				seen[v] = true
				sum += FilterSum(name, v)
			}
		}
		switch v := doc[FilterFieldPrefix+name].(type) {
		case string:
			add(v)
		case []interface{}:
			for _, x := range v {
				if s, ok := x.(string); ok {
					add(s)
				}
			}
		}
	}
	return sum
}

// ValidUTF8PerByte replaces each byte that is not part of valid UTF-8 by
// U+FFFD, as encoding/json does. bleve's lowercase filter can leave such
// bytes in a term (see analyzer.js lowerBytes); the export writes terms in
// this form and sorts them in it, so the client's code point order holds.
func ValidUTF8PerByte(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}
