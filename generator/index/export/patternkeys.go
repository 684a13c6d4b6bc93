package export

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
)

// Pattern keys (FORMAT.md "Pattern keys", k/ files) let the client find
// the records whose messagePattern may match a pasted error without
// ranking text first: a paste full of common values (a path, "main", a
// number) would otherwise bury its own record below records that merely
// hold those values, and only the top results' patterns were tried.
//
// Every match of a pattern contains its required literals
// (pattern.RequiredLiterals); the words inside them are words of every
// matching paste, as AnalyzerIdent makes words of a paste. Each pattern is
// filed under its rarest word (its key) with up to keyOthers of its next
// rarest words; the client tries every pattern whose key and other words
// are all words of the paste.

// keyOthers is how many more required words an entry carries: enough to
// rule out most patterns before their programs load.
const keyOthers = 4

// patternWords returns the words every text matching a pattern with these
// required literals holds, as an analyzer that lowercases and splits on
// UAX#29 word boundaries makes them: the tokens of each literal that have
// white space between them and both of the literal's ends (a token at an
// end may continue into the text around it, and UAX#29 joins some
// characters across punctuation, never across white space).
//
// A pattern whose literals hold no such token ("quuxing (\w+) = \d+") is
// filed under its edge words instead: the tokens of at least
// minEdgeWord runes that touch a literal's end. A paste holds them as
// tokens unless the text around glues onto them ("xquuxing"), so such a
// pattern is tried on most pastes it matches rather than on none.
func patternWords(a analysis.Analyzer, lits []string) []string {
	var inner, edge []string
	seen := map[string]bool{}
	for _, lit := range lits {
		first := strings.IndexFunc(lit, unicode.IsSpace)
		last := strings.LastIndexFunc(lit, unicode.IsSpace)
		for _, t := range a.Analyze([]byte(lit)) {
			w := string(t.Term)
			if seen[w] {
				continue
			}
			if first >= 0 && t.Start > first && t.End <= last {
				seen[w] = true
				inner = append(inner, w)
			} else if utf8.RuneCountInString(w) >= minEdgeWord {
				edge = append(edge, w)
			}
		}
	}
	if len(inner) > 0 {
		return inner
	}
	var out []string
	for _, w := range edge {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// minEdgeWord is the shortest edge word a pattern is filed under: a
// shorter one ("at", "id") keys too many patterns to rule any out.
const minEdgeWord = 4

// patternKeys collects each usable pattern's words, then files them.
type patternKeys struct {
	a     analysis.Analyzer
	docs  []int
	words [][]string
	memo  map[string][]string
}

func newPatternKeys(a analysis.Analyzer) *patternKeys {
	return &patternKeys{a: a, memo: map[string][]string{}}
}

// wordsOf returns the words of expr's required literals (memoized: records
// of one message template often share a pattern).
func (pk *patternKeys) wordsOf(expr string, lits func(string) ([]string, error)) []string {
	ws, ok := pk.memo[expr]
	if !ok {
		ws = patternWordsOf(pk.a, expr, lits)
		pk.memo[expr] = ws
	}
	return ws
}

// patternWordsOf returns the words of expr's required literals (none when
// they cannot be found).
func patternWordsOf(a analysis.Analyzer, expr string, lits func(string) ([]string, error)) []string {
	if ls, err := lits(expr); err == nil {
		return patternWords(a, ls)
	}
	return nil
}

func (pk *patternKeys) add(doc int, ws []string) {
	if len(ws) > 0 {
		pk.docs = append(pk.docs, doc)
		pk.words = append(pk.words, ws)
	}
}

// entries are the key files' entries by key: each pattern's doc number
// and its other words, space-separated (FORMAT.md "Pattern keys"; the
// paste query's Go twin reads them here).
func (pk *patternKeys) entries() map[string][][]any {
	df := map[string]int{}
	for _, ws := range pk.words {
		for _, x := range ws {
			df[x]++
		}
	}
	byKey := map[string][][]any{}
	for i, ws := range pk.words {
		ws = append([]string(nil), ws...)
		sort.Slice(ws, func(a, b int) bool { return df[ws[a]] < df[ws[b]] || df[ws[a]] == df[ws[b]] && ws[a] < ws[b] })
		others := ws[1:min(len(ws), 1+keyOthers)]
		byKey[ws[0]] = append(byKey[ws[0]], []any{pk.docs[i], strings.Join(others, " ")})
	}
	return byKey
}

// write files the entries by key, in key order, into files of about
// fileBytes each, and returns each file's first key and its hash.
func (pk *patternKeys) write(w *exportWriter, fileBytes int) (first, hashes []string, err error) {
	byKey := pk.entries()
	keys := sortedKeys(byKey)
	chunk := map[string][][]any{}
	size := 0
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		b, err := json.Marshal(chunk)
		if err != nil {
			return err
		}
		h, err := w.script("k", fmt.Sprintf("k/%04d", len(hashes)), string(b))
		if err != nil {
			return err
		}
		hashes = append(hashes, h)
		chunk, size = map[string][][]any{}, 0
		return nil
	}
	for _, k := range keys {
		if size >= fileBytes {
			if err := flush(); err != nil {
				return nil, nil, err
			}
		}
		if len(chunk) == 0 {
			first = append(first, k)
		}
		chunk[k] = byKey[k]
		size += len(k) + 4
		for _, e := range byKey[k] {
			size += 8 + len(e[1].(string))
		}
	}
	return first, hashes, flush()
}
