package corpus

import (
	_ "embed"
	"fmt"
	"strings"
)

// realCode holds source excerpts taken around real raise sites of public
// repositories (Python, Go, JavaScript, TypeScript, Rust, Java, C++), made
// by ./extractcode. Real excerpts run close to the 40-line cap and lex at
// several times the cost of generated ones, so a benchmark of the
// highlighter needs them.
//
//go:embed testdata/realcode.jsonl.gz
var realCode []byte

// realExcerpt is one excerpt of testdata/realcode.jsonl.gz.
type realExcerpt struct {
	Repo  string `json:"repo"`
	Path  string `json:"path"`
	Lang  string `json:"lang"`
	Start int    `json:"start"`
	Raise int    `json:"raise"`
	Code  string `json:"code"`
}

// UseRealCode makes the records' source excerpts real code: each record
// that has an excerpt takes one of the real excerpts of its language
// (chosen by the record's index, so the dataset stays deterministic), with
// its own first line and raising line. Every other field is as without it.
func (d *Dataset) UseRealCode() error {
	pool := map[string][]realExcerpt{}
	err := readJSONL(realCode, func(_ int, e realExcerpt) {
		if e.Code != "" && e.Raise >= 0 && e.Start > 0 {
			pool[e.Lang] = append(pool[e.Lang], e)
		}
	})
	if err != nil {
		return fmt.Errorf("corpus: real code: %w", err)
	}
	for _, lang := range []string{langPy, langGo, langTS, langJS, langRs, langJava, langCpp} {
		if len(pool[lang]) == 0 {
			return fmt.Errorf("corpus: real code: no excerpt of language %s", lang)
		}
	}
	d.real = pool
	return nil
}

// realExcerptFor is the real excerpt record idx of language lang shows:
// its lines, the raising line's index in them and the first line's
// number. It is a 40-line window (fewer at a file's ends) of one of the
// extracted contexts, placed by idx, that holds the raising line: so
// records show distinct excerpts, as real records do, rather than a few
// thousand that the highlight cache would serve again.
func (d *Dataset) realExcerptFor(lang string, idx int) ([]string, int, int) {
	pool := d.real[lang]
	h := splitmix64(uint64(idx) ^ 0x5eed)
	e := pool[h%uint64(len(pool))]
	lines := strings.Split(e.Code, "\n")
	raise := min(e.Raise, len(lines)-1)
	lo := max(0, raise-(maxExcerptLines-1))
	hi := max(lo, min(raise, len(lines)-maxExcerptLines))
	w := lo + int((h>>32)%uint64(hi-lo+1))
	lines = lines[w:min(len(lines), w+maxExcerptLines)]
	return lines, raise - w, e.Start + w
}

// maxExcerptLines is the longest excerpt upstream records hold.
const maxExcerptLines = 40
