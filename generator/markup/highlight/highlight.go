// Package highlight turns record code (source excerpts and code fields)
// into HTML with chroma, using CSS classes from one stylesheet (CSS), and
// caches the result by content hash in memory and on disk.
//
// The markup is small and fixed:
//
//	<pre class="hl hl-n" tabindex="0"><code>
//	  <span class="ln" data-n="912"></span>…tokens…
//	  <mark class="hll"><span class="ln" data-n="913"></span>…tokens…</mark>
//	</code></pre>
//
// Line numbers are drawn from data-n by CSS generated content, so selecting
// and copying the code never copies them. The marked line is a <mark> with
// a left bar and a ▶ glyph whose CSS alternative text reads "raising line"
// to screen readers, so it stands out without colour. Over-long lines and
// over-long inputs end in a <span class="cut"> marker. The <pre> is
// focusable because it scrolls sideways (WCAG 2.1.1).
package highlight

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"path"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// formatVersion changes whenever the HTML this package writes changes, so
// that older cache entries are never used.
const formatVersion = "errdocs-highlight-3"

// Defaults for Options.
const (
	DefaultMaxLineLen  = 200
	DefaultMaxLines    = 200
	DefaultMemoryBytes = 64 << 20
)

// Options configure a Highlighter.
type Options struct {
	// CacheDir holds highlighted HTML between builds; "" means no disk
	// cache. It must lie outside the published site.
	CacheDir string
	// MaxLineLen is the longest line, in characters, printed whole; longer
	// lines are cut with a marker. 0 means DefaultMaxLineLen.
	MaxLineLen int
	// MaxLines is the most lines of one input printed; the rest is replaced
	// by a marker. 0 means DefaultMaxLines.
	MaxLines int
	// MemoryBytes bounds the in-memory cache (least recently used entries
	// go first). 0 means DefaultMemoryBytes; negative turns it off.
	MemoryBytes int64
	// MaxLexWork bounds the lexer's work on one input, counted in steps
	// (lex.go charge, backtrack.go search.step), never in time, so that
	// the output depends only on the input. Some rules backtrack badly on
	// odd text (lines of Java words kept chroma busy for minutes); past the budget
	// the input is printed as plain text instead. 0 means
	// DefaultMaxLexWork.
	MaxLexWork int
}

// Stats counts where highlighted HTML came from.
type Stats struct {
	MemoryHits int64 // served from memory, this process
	DiskHits   int64 // read from CacheDir
	Misses     int64 // highlighted with chroma
	// OverBudget counts inputs printed as plain text because lexing them
	// needed more than MaxLexWork steps (included in Misses).
	OverBudget int64
	// DiskErrors counts cache files that could not be written; the HTML was
	// still returned. FirstDiskError says why the first one failed.
	DiskErrors     int64
	FirstDiskError error
}

// Hits is the number of calls served without chroma.
func (s Stats) Hits() int64 { return s.MemoryHits + s.DiskHits }

// Highlighter highlights code. It is safe for concurrent use; make one per
// build and share it.
type Highlighter struct {
	opts   Options
	table  *styleTable
	config [32]byte // everything besides the input that shapes the output

	lexMu    sync.RWMutex
	lexByExt map[string]chroma.Lexer // nil value: plain text

	mem    *memCache
	disk   *diskCache // nil: no disk cache
	flight flightGroup

	memHits, diskHits, misses, overBudget, diskErrors atomic.Int64
	errMu                                             sync.Mutex
	firstDiskErr                                      error
}

// New makes a Highlighter. It fails only on invalid options.
func New(opts Options) (*Highlighter, error) {
	switch {
	case opts.MaxLineLen < 0:
		return nil, fmt.Errorf("highlight: MaxLineLen %d is negative", opts.MaxLineLen)
	case opts.MaxLines < 0:
		return nil, fmt.Errorf("highlight: MaxLines %d is negative", opts.MaxLines)
	case opts.MaxLexWork < 0:
		return nil, fmt.Errorf("highlight: MaxLexWork %d is negative", opts.MaxLexWork)
	}
	if opts.MaxLexWork == 0 {
		opts.MaxLexWork = DefaultMaxLexWork
	}
	if opts.MaxLineLen == 0 {
		opts.MaxLineLen = DefaultMaxLineLen
	}
	if opts.MaxLines == 0 {
		opts.MaxLines = DefaultMaxLines
	}
	if opts.MemoryBytes == 0 {
		opts.MemoryBytes = DefaultMemoryBytes
	}
	h := &Highlighter{
		opts:     opts,
		table:    table(),
		lexByExt: map[string]chroma.Lexer{},
		mem:      newMemCache(opts.MemoryBytes),
	}
	if opts.CacheDir != "" {
		h.disk = openDiskCache(opts.CacheDir)
	}
	c := sha256.New()
	fmt.Fprintf(c, "%s\x00chroma %s\x00%x\x00%d\x00%d\x00%d\x00", formatVersion, chromaVersion(), h.table.digest, opts.MaxLineLen, opts.MaxLines, opts.MaxLexWork)
	copy(h.config[:], c.Sum(nil))
	return h, nil
}

// chromaVersion names the chroma module the binary was built with, so that
// a chroma upgrade (new lexer rules) invalidates the disk cache.
func chromaVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/alecthomas/chroma/v2" {
				if d.Replace != nil {
					d = d.Replace
				}
				return d.Version + " " + d.Sum
			}
		}
	}
	return "unknown"
}

// Stats returns the counters so far.
func (h *Highlighter) Stats() Stats {
	return Stats{
		MemoryHits:     h.memHits.Load(),
		DiskHits:       h.diskHits.Load(),
		Misses:         h.misses.Load(),
		OverBudget:     h.overBudget.Load(),
		DiskErrors:     h.diskErrors.Load(),
		FirstDiskError: h.diskErr(),
	}
}

func (h *Highlighter) diskErr() error {
	h.errMu.Lock()
	defer h.errMu.Unlock()
	return h.firstDiskErr
}

func (h *Highlighter) noteDiskError(err error) {
	h.diskErrors.Add(1)
	h.errMu.Lock()
	if h.firstDiskErr == nil {
		h.firstDiskErr = err
	}
	h.errMu.Unlock()
}

// lexerOverrides fixes extensions where chroma's first match is not what
// code in these repositories means (".m" matches Mathematica first).
var lexerOverrides = map[string]string{
	"m":  "Objective-C",
	"mm": "Objective-C",
}

// LexerName names the lexer used for filePath ("" for plain text).
func (h *Highlighter) LexerName(filePath string) string {
	if l := h.lexer(filePath); l != nil {
		return l.Config().Name
	}
	return ""
}

// lexer picks a lexer from the path's extension. lexers.Match walks every
// lexer's globs (over a millisecond), so results are kept per extension.
// Matching a synthetic "x.<ext>" rather than the real name keeps the
// choice the same whatever file of that extension came first.
func (h *Highlighter) lexer(filePath string) chroma.Lexer {
	base := path.Base(strings.ReplaceAll(filePath, "\\", "/"))
	key, probe := "", ""
	if i := strings.LastIndexByte(base, '.'); i > 0 && i < len(base)-1 {
		ext := strings.ToLower(base[i+1:])
		key, probe = "."+ext, "x."+ext
	} else {
		key, probe = base, base // Makefile, Dockerfile
	}
	if !safeName(probe) {
		return nil
	}
	h.lexMu.RLock()
	l, ok := h.lexByExt[key]
	h.lexMu.RUnlock()
	if ok {
		return l
	}
	if name, ok := lexerOverrides[strings.TrimPrefix(key, ".")]; ok && key[0] == '.' {
		l = lexers.Get(name)
	} else {
		l = matchLexer(probe)
	}
	if l != nil && l.Config().Name == "plaintext" {
		l = nil
	}
	h.lexMu.Lock()
	// Bound the map: extensionless names are open-ended.
	if len(h.lexByExt) < 4096 {
		h.lexByExt[key] = l
	}
	h.lexMu.Unlock()
	return l
}

// safeName admits the names worth asking chroma about; anything else is
// plain text and never reaches filepath.Match.
func safeName(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == '-' || c == '+'
		if !ok {
			return false
		}
	}
	return true
}

// matchLexer is lexers.Match, which panics on a bad glob; a panic there
// must not stop a build, so it means "no lexer".
func matchLexer(name string) (l chroma.Lexer) {
	defer func() {
		if recover() != nil {
			l = nil
		}
	}()
	return lexers.Match(name)
}

// kind is which function made an entry; part of the cache key.
type kind byte

const (
	kindExcerpt kind = 'e'
	kindCode    kind = 'c'
)

// Excerpt highlights a source excerpt with the file's own line numbers,
// starting at startLine (1 if 0), and marks line markLine (0: none; a line
// outside the excerpt marks nothing). The language comes from filePath's
// extension; unknown extensions give plain text. Empty code gives "".
func (h *Highlighter) Excerpt(code, filePath string, startLine, markLine int) (template.HTML, error) {
	if startLine < 0 || markLine < 0 {
		return "", fmt.Errorf("highlight %s: negative line number (start %d, mark %d)", filePath, startLine, markLine)
	}
	if startLine == 0 {
		startLine = 1
	}
	return h.do(kindExcerpt, code, filePath, layout{numbers: true, startLine: startLine, markLine: markLine})
}

// Code highlights a code field (exampleFix, validationCode, typeGuard,
// tryCatchPattern) in the language of filePath, without line numbers.
// Leading blank lines are dropped. Empty code gives "".
func (h *Highlighter) Code(code, filePath string) (template.HTML, error) {
	code = strings.TrimLeft(code, "\r\n")
	return h.do(kindCode, code, filePath, layout{startLine: 1})
}

func (h *Highlighter) do(k kind, code, filePath string, lay layout) (template.HTML, error) {
	if strings.TrimSpace(code) == "" {
		return "", nil
	}
	lexer := h.lexer(filePath)
	lexName := ""
	if lexer != nil {
		lexName = lexer.Config().Name
	}
	key := h.key(k, lexName, lay, code)
	if s, ok := h.mem.get(key); ok {
		h.memHits.Add(1)
		return template.HTML(s), nil
	}
	s, shared, err := h.flight.do(key, func() (string, error) {
		if s, ok := h.mem.get(key); ok {
			h.memHits.Add(1)
			return s, nil
		}
		if s, ok := h.readDisk(key); ok {
			h.diskHits.Add(1)
			h.mem.put(key, s)
			return s, nil
		}
		s := h.render(lexer, code, lay)
		h.misses.Add(1)
		h.mem.put(key, s)
		if err := h.writeDisk(key, s); err != nil {
			h.noteDiskError(err)
		}
		return s, nil
	})
	if shared {
		h.memHits.Add(1) // another goroutine highlighted it just now
	}
	return template.HTML(s), err
}

// key is the content address of one output: the configuration, the kind
// of call, the lexer, the lines and the code itself, each length-prefixed
// so that no two different inputs hash the same bytes.
func (h *Highlighter) key(k kind, lexName string, lay layout, code string) [32]byte {
	c := sha256.New()
	var n [8]byte
	field := func(s string) {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		c.Write(n[:])
		c.Write([]byte(s))
	}
	c.Write(h.config[:])
	c.Write([]byte{byte(k)})
	field(lexName)
	binary.BigEndian.PutUint64(n[:], uint64(lay.startLine))
	c.Write(n[:])
	binary.BigEndian.PutUint64(n[:], uint64(lay.markLine))
	c.Write(n[:])
	field(code)
	var out [32]byte
	copy(out[:], c.Sum(nil))
	return out
}

func keyHex(k [32]byte) string { return hex.EncodeToString(k[:]) }

// render lexes and formats. A lexer that fails, panics, overruns its
// work budget or loses text gives the plain-text rendering instead: one
// odd field must not stop or stall a build, and plain text is still a
// correct rendering. Which of these happens depends only on the input.
func (h *Highlighter) render(lexer chroma.Lexer, code string, lay layout) string {
	p := prepare(code, h.opts.MaxLineLen, h.opts.MaxLines)
	sc := getScratch()
	defer putScratch(sc)
	var lines [][]chroma.Token
	if lexer != nil {
		toks, err := tokenise(lexer, joinLines(p.lines), h.opts.MaxLexWork, sc)
		if errors.Is(err, errOverBudget) {
			h.overBudget.Add(1)
		}
		if err == nil {
			if ls, ok := splitTokens(p, toks, sc); ok {
				lines = ls
			}
		}
	}
	if lines == nil {
		lines = plainLines(p)
	}
	return format(p, lines, lay, h.table)
}

// joinLines is the lines, each ended by a newline: the text to lex.
func joinLines(lines []string) string {
	var b strings.Builder
	b.Grow(sumLen(lines) + len(lines))
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// scratch holds one rendering's working slices, reused between renderings
// (the HTML is a new string; nothing refers to these once it is made).
type scratch struct {
	runes []rune
	toks  []chroma.Token
	flat  []chroma.Token
	lines [][]chroma.Token
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

// putScratch returns sc to the pool unless an odd input made it large.
func putScratch(sc *scratch) {
	if cap(sc.runes) > 1<<17 || cap(sc.toks) > 1<<15 || cap(sc.flat) > 1<<15 {
		return
	}
	clear(sc.toks[:cap(sc.toks)])
	clear(sc.flat[:cap(sc.flat)])
	clear(sc.lines[:cap(sc.lines)])
	scratchPool.Put(sc)
}

var (
	errLexerPanic = errors.New("lexer panicked")
	errOverBudget = errors.New("lexing overran its work budget")
)

// tokenise runs the lexer to the end, or until it has done limit steps.
// A lexer with no fast form (a few rare languages) runs as chroma's,
// with its rules untimed; the input's size bounds its work.
func tokenise(lexer chroma.Lexer, text string, limit int, sc *scratch) (toks []chroma.Token, err error) {
	defer func() {
		if r := recover(); r != nil {
			toks, err = nil, fmt.Errorf("%w: %v", errLexerPanic, r)
		}
	}()
	var it chroma.Iterator
	fl := fastLexerFor(lexer)
	var fit *fastIterator
	if fl != nil {
		fit = fl.iteratorWith(nil, text, limit, sc.runes[:0])
		sc.runes = fit.state.Text
		it = fit.next
	} else {
		untimeAll()
		if it, err = lexer.Tokenise(nil, text); err != nil {
			return nil, err
		}
	}
	toks = sc.toks[:0]
	for t := it(); t != chroma.EOF; t = it() {
		toks = append(toks, t)
	}
	sc.toks = toks
	if fit != nil && fit.over {
		return nil, errOverBudget
	}
	return toks, nil
}
