package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"runtime"
	"strings"
	"sync"
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
	pstart := time.Now()
	defer func() { x.st.PatternTime = time.Since(pstart) }()
	if kept, err := x.keepPatterns(); kept || err != nil {
		return err
	}
	mInc := inc
	if opts.Pattern == nil {
		mInc = nil // no pattern files, then or now (Options says so)
	}
	x.mKeep = mInc.keepFiles(opts.PatternsPerFile, n, func(f int) string { return inc.prev.mFile(opts.Dir, f) }, x.st)
	next.Unusable = make([]uint64, (n+63)/64)
	x.patterns = make([]json.RawMessage, n)
	if opts.Pattern != nil {
		next.PatSums = make([]byte, 8*n)
		keyAnalyzer := x.ex.ix.Bleve().Mapping().AnalyzerNamed(index.AnalyzerIdent)
		c := &patternCompiler{hook: opts.Pattern, memo: map[string]compiled{}, words: func(expr string) []string {
			return patternWordsOf(keyAnalyzer, expr, pattern.RequiredLiterals)
		}}
		x.words = make([][]string, n)
		per := opts.PatternsPerFile
		err := eachInOrder((n+per-1)/per, runtime.GOMAXPROCS(0), func(f int) (compiledFile, error) {
			if x.mKeep[f] {
				return compiledFile{}, nil
			}
			return x.compileFile(c, f*per, min((f+1)*per, n))
		}, func(f int, cf compiledFile) error {
			for i := f * per; i < min((f+1)*per, n); i++ {
				var sum uint64
				var unusable bool
				if x.mKeep[f] {
					sum, unusable = inc.prev.patSum(i), inc.prev.unusable(i)
				} else {
					k := i - f*per
					sum, unusable, x.patterns[i], x.words[i] = cf.sums[k], cf.unusable[k], cf.progs[k], cf.words[k]
				}
				binary.LittleEndian.PutUint64(next.PatSums[8*i:], sum)
				if unusable {
					next.Unusable[i/64] |= 1 << (i % 64)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, u := range next.Unusable {
			x.st.PatternErrors += bits.OnesCount64(u)
		}
	}
	return x.writePatternKeys()
}

// compiledFile is what compileFile made of a pattern file's records, by
// their place in the file.
type compiledFile struct {
	sums     []uint64          // patternSum
	progs    []json.RawMessage // with the class; nil: none or unusable
	words    [][]string        // of the usable ones
	unusable []bool
}

// patternCompiler runs the Pattern hook once per pattern, for every
// worker, and finds the words of each usable one (its pattern keys).
type patternCompiler struct {
	hook  func(string) (json.RawMessage, error)
	words func(string) []string // safe for concurrent use
	mu    sync.Mutex
	memo  map[string]compiled
}

// compiled is a pattern's program (nil: unusable) and words.
type compiled struct {
	prog  json.RawMessage
	words []string
}

func (c *patternCompiler) compile(expr string) compiled {
	c.mu.Lock()
	p, ok := c.memo[expr]
	c.mu.Unlock()
	if ok {
		return p
	}
	// Two workers may compile one pattern at once: the result is the same
	// either way.
	var err error
	if p.prog, err = callPattern(c.hook, expr); err != nil || !json.Valid(p.prog) {
		p.prog = nil
	} else {
		p.words = c.words(expr)
	}
	c.mu.Lock()
	c.memo[expr] = p
	c.mu.Unlock()
	return p
}

// compileFile compiles the patterns of the records lo..hi-1 (one pattern
// file's).
func (x *exportRun) compileFile(c *patternCompiler, lo, hi int) (compiledFile, error) {
	cf := compiledFile{sums: make([]uint64, hi-lo), progs: make([]json.RawMessage, hi-lo), words: make([][]string, hi-lo), unusable: make([]bool, hi-lo)}
	for i := lo; i < hi; i++ {
		d, err := x.data(i)
		if err != nil {
			return cf, err
		}
		expr, k := d.Pattern, i-lo
		cf.sums[k] = patternSum(expr, d.ErrorClass)
		if expr == "" {
			continue // no pattern: nothing to match, nothing unusable
		}
		p := c.compile(expr)
		cf.progs[k] = withClass(p.prog, shownClass(d.ErrorClass))
		cf.words[k], cf.unusable[k] = p.words, p.prog == nil
	}
	return cf, nil
}

// patternSum fingerprints a messagePattern and the record's errorClass:
// what its program entry and words were made from.
func patternSum(expr, class string) uint64 {
	h := sha256.Sum256([]byte(expr + "\x00" + class))
	return binary.LittleEndian.Uint64(h[:8])
}

// withClass is a compiled program with the record's errorClass as its
// member "c" (FORMAT.md m/): a paste that shows the class the record's
// error is raised with ("TypeError: ...") names that record more likely
// than one of another class whose pattern matches as well.
func withClass(prog json.RawMessage, class string) json.RawMessage {
	n := len(prog)
	if class == "" || n < 2 || prog[0] != '{' || prog[n-1] != '}' {
		return prog
	}
	c, err := json.Marshal(class)
	if err != nil {
		return prog
	}
	out := make(json.RawMessage, 0, n+len(c)+5)
	out = append(out, prog[:n-1]...)
	if len(bytes.TrimSpace(prog[1:n-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, `"c":`...)
	return append(append(out, c...), '}')
}

// shownClass is the part of an errorClass by which a paste shows it, as
// engine.js classShown looks for it: after the last "." or ":"
// ("java.io.IOException" → "IOException", "std::io::Error" → "Error"),
// the whole class when nothing follows. classShown finds the whole class
// in a paste only where this part stands too (after a "." or ":", no word
// character), so a paste's order is the same, and each program is
// shorter.
func shownClass(class string) string {
	if i := strings.LastIndexAny(class, ".:"); i >= 0 && i+1 < len(class) {
		return class[i+1:]
	}
	return class
}

func (s *exportState) patSum(doc int) uint64 {
	if 8*doc+8 <= len(s.PatSums) {
		return binary.LittleEndian.Uint64(s.PatSums[8*doc:])
	}
	return 0
}

// keepPatterns keeps every pattern file and pattern keys file of the
// previous export, and what the state says of them, when none of the
// changed records' messagePatterns changed: the programs, the unusable
// ones and the words, hence the keys, are then those of the previous
// export (the numbering is too, or the export is whole). It reports
// whether it kept them; a file missing from the published site makes
// them written again.
func (x *exportRun) keepPatterns() (bool, error) {
	opts, inc, next, n := x.opts, x.inc, x.next, len(x.docs)
	if inc == nil || opts.Pattern == nil {
		return false, nil
	}
	prev := inc.prev
	nFiles := (n + opts.PatternsPerFile - 1) / opts.PatternsPerFile
	if len(prev.PatSums) != 8*n || len(prev.MHashes) != nFiles || len(prev.KFirst) != len(prev.KHashes) {
		return false, nil
	}
	for _, d := range inc.changed {
		data, err := x.data(int(d))
		if err != nil {
			return false, err
		}
		if patternSum(data.Pattern, data.ErrorClass) != prev.patSum(int(d)) {
			return false, nil
		}
	}
	var files []string
	for f := range prev.MHashes {
		files = append(files, prev.mFile(opts.Dir, f))
	}
	for i, h := range prev.KHashes {
		files = append(files, fmt.Sprintf("%s/k/%04d.%s.js", opts.Dir, i, h))
	}
	for _, rel := range files {
		if !opts.Has(rel) {
			return false, nil
		}
	}
	for _, rel := range files {
		if err := x.w.keep(rel, opts.Keep); err != nil {
			return false, err
		}
	}
	x.mKeep = make([]bool, nFiles)
	for f := range x.mKeep {
		x.mKeep[f] = true
	}
	next.Unusable, next.PatWordsKey, next.PatSums = prev.Unusable, prev.PatWordsKey, prev.PatSums
	next.KFirst, next.KHashes = prev.KFirst, prev.KHashes
	for _, u := range next.Unusable {
		x.st.PatternErrors += bits.OnesCount64(u)
	}
	x.kFirst = prev.KFirst
	for i, h := range prev.KHashes {
		x.names[fmt.Sprintf("k/%04d", i)] = h
	}
	return true, nil
}

// writePatternKeys writes the pattern keys (patternkeys.go): the words of
// every usable pattern, those of unchanged pattern files as the last
// export found them.
func (x *exportRun) writePatternKeys() error {
	opts, inc, next := x.opts, x.inc, x.next
	if opts.Pattern == nil {
		return nil
	}
	words := x.words // by doc number; the kept files' are added here
	pk := newPatternKeys(x.ex.ix.Bleve().Mapping().AnalyzerNamed(index.AnalyzerIdent))
	var prevWords [][]string // of the previous export, read at the first kept file
	tried := false
	for i := range x.docs {
		if next.Unusable[i/64]&(1<<(i%64)) != 0 {
			continue
		}
		kept := x.mKeep[i/opts.PatternsPerFile]
		if kept && !tried {
			prevWords, tried = loadPatWords(x.ex.ix.Dir(), inc.prev.PatWordsKey, len(x.docs)), true
		}
		switch {
		case !kept:
			// found by the pattern workers (compileFile)
		case len(prevWords) > 0:
			words[i] = prevWords[i]
		default:
			// (a kept file's patterns are usable or empty, as they were)
			d, err := x.data(i)
			if err != nil {
				return err
			}
			if d.Pattern != "" {
				words[i] = pk.wordsOf(d.Pattern, pattern.RequiredLiterals)
			}
		}
		pk.add(i, words[i])
	}
	next.patWords, x.words = words, nil
	kFirst, kHash, err := pk.write(x.w, opts.KeyFileBytes)
	if err != nil {
		return err
	}
	x.kFirst = kFirst
	next.KFirst, next.KHashes = kFirst, kHash
	for i, h := range kHash {
		x.names[fmt.Sprintf("k/%04d", i)] = h
	}
	return nil
}
