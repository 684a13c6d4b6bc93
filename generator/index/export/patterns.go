package export

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"time"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/pattern"
)

// compilePatterns is the phase patterns: each record's message pattern as
// the program the browser's linear-time matcher runs, or unusable. An
// incremental export keeps the doc data and pattern files none of whose
// records changed (rKeep, mKeep, by file).
func (x *exportRun) compilePatterns() error {
	opts, inc, next, n := x.opts, x.inc, x.next, len(x.docs)
	x.rKeep = inc.keepFiles(opts.DocsPerFile, n, func(f int) string { return inc.prev.rFile(opts.Dir, f) }, x.st)
	mInc := inc
	if opts.Pattern == nil {
		mInc = nil // no pattern files, then or now (Options says so)
	}
	x.mKeep = mInc.keepFiles(opts.PatternsPerFile, n, func(f int) string { return inc.prev.mFile(opts.Dir, f) }, x.st)
	next.Unusable = make([]uint64, (n+63)/64)
	pstart := time.Now()
	x.patterns = make([]json.RawMessage, n)
	if opts.Pattern != nil {
		memo := map[string]json.RawMessage{}
		for i := range x.docs {
			if x.mKeep[i/opts.PatternsPerFile] {
				if inc.prev.unusable(i) {
					next.Unusable[i/64] |= 1 << (i % 64)
				}
				continue
			}
			d, err := x.data(i)
			if err != nil {
				return err
			}
			expr := d.Pattern
			if expr == "" {
				continue // no pattern: nothing to match, nothing unusable
			}
			p, ok := memo[expr]
			if !ok {
				var err error
				if p, err = callPattern(opts.Pattern, expr); err != nil || !json.Valid(p) {
					p = nil
				}
				memo[expr] = p
			}
			x.patterns[i] = p
			if p == nil {
				next.Unusable[i/64] |= 1 << (i % 64)
			}
		}
		for _, u := range next.Unusable {
			x.st.PatternErrors += bits.OnesCount64(u)
		}
	}
	if err := x.writePatternKeys(); err != nil {
		return err
	}
	x.st.PatternTime = time.Since(pstart)
	return nil
}

// writePatternKeys writes the pattern keys (patternkeys.go): the words of
// every usable pattern, those of unchanged pattern files as the last
// export found them.
func (x *exportRun) writePatternKeys() error {
	opts, inc, next := x.opts, x.inc, x.next
	if opts.Pattern == nil {
		return nil
	}
	next.PatWords = make([][]string, len(x.docs))
	pk := newPatternKeys(x.ex.ix.Bleve().Mapping().AnalyzerNamed(index.AnalyzerIdent))
	for i := range x.docs {
		if next.Unusable[i/64]&(1<<(i%64)) != 0 {
			continue
		}
		if x.mKeep[i/opts.PatternsPerFile] {
			if i < len(inc.prev.PatWords) {
				next.PatWords[i] = inc.prev.PatWords[i]
			}
		} else if x.patterns[i] != nil {
			d, err := x.data(i)
			if err != nil {
				return err
			}
			next.PatWords[i] = pk.wordsOf(d.Pattern, pattern.RequiredLiterals)
		}
		pk.add(i, next.PatWords[i])
	}
	kFirst, kHash, err := pk.write(x.w, opts.KeyFileBytes)
	if err != nil {
		return err
	}
	x.kFirst = kFirst
	for i, h := range kHash {
		x.names[fmt.Sprintf("k/%04d", i)] = h
	}
	return nil
}
