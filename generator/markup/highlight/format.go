package highlight

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"

	"github.com/errdocs/errdocs/generator/markup/htmltext"
)

// prepared is code made safe to lex and print: valid UTF-8, LF line ends,
// no control characters, lines and line count bounded.
type prepared struct {
	lines []string
	// cut[i] is how many characters were cut from the end of lines[i].
	cut []int
	// moreLines is how many lines were left out after the last one.
	moreLines int
}

// sanitize makes untrusted text printable in HTML. Control characters
// other than tab and newline are parse errors in HTML (the page must pass
// the Nu checker) and can hide text, so C0 controls become their visible
// Unicode "control picture" and the rest (DEL, C1, noncharacters) U+FFFD.
func sanitize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	clean := true
	for _, r := range s {
		if htmltext.NotInCode(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case r == '\r':
			b.WriteByte('\n')
		case !htmltext.NotInCode(r):
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune(0x2421)
		default:
			b.WriteRune(utf8.RuneError)
		}
	}
	return b.String()
}

// prepare splits code into at most maxLines lines of at most maxLen
// characters. Cutting before lexing is what bounds the lexer's time: a
// regexp2 lexer never sees more than maxLines × maxLen characters.
func prepare(code string, maxLen, maxLines int) prepared {
	code = strings.TrimSuffix(sanitize(code), "\n")
	n := min(strings.Count(code, "\n")+1, maxLines)
	p := prepared{lines: make([]string, 0, n), cut: make([]int, 0, n)}
	for n := 0; ; n++ {
		line, rest, more := strings.Cut(code, "\n")
		if n == maxLines {
			p.moreLines = strings.Count(code, "\n") + 1
			break
		}
		cut := 0
		if len(line) > maxLen { // bytes ≥ runes: cheap test first
			if c := utf8.RuneCountInString(line); c > maxLen {
				cut = c - maxLen
				i := 0
				for range maxLen {
					_, size := utf8.DecodeRuneInString(line[i:])
					i += size
				}
				line = line[:i]
			}
		}
		p.lines = append(p.lines, line)
		p.cut = append(p.cut, cut)
		if !more {
			break
		}
		code = rest
	}
	return p
}

// escapeText writes s escaped for HTML element content. Quotes need no
// escaping outside attributes, and leaving them as they are keeps code with
// many string literals small.
func escapeText(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '&':
			esc = "&amp;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}

// lineWriter writes the tokens of one line, merging neighbours that get the
// same class so that each run of one colour is one span. Escaping is per
// character, so a run is escaped token by token as it comes.
type lineWriter struct {
	b     *strings.Builder
	class string
	open  bool // a run is being written (in a span when class != "")
}

func (w *lineWriter) add(class, text string) {
	if text == "" {
		return
	}
	if !w.open || class != w.class {
		w.flush()
		w.class, w.open = class, true
		if class != "" {
			w.b.WriteString(`<span class="`)
			w.b.WriteString(class)
			w.b.WriteString(`">`)
		}
	}
	escapeText(w.b, text)
}

// flush ends the current run.
func (w *lineWriter) flush() {
	if w.open && w.class != "" {
		w.b.WriteString(`</span>`)
	}
	w.open = false
}

// layout says how to frame the lines.
type layout struct {
	numbers   bool
	startLine int
	markLine  int // 0: none
}

// format writes the HTML for prepared code split into tokens. Tokens must
// spell exactly the prepared lines joined by "\n" (checked by the caller).
func format(p prepared, lines [][]chroma.Token, lay layout, t *styleTable) string {
	var b strings.Builder
	b.Grow(64 + 48*len(p.lines) + sumLen(p.lines)*2)
	if lay.numbers {
		b.WriteString(`<pre class="hl hl-n" tabindex="0"><code>`)
	} else {
		b.WriteString(`<pre class="hl" tabindex="0"><code>`)
	}
	digits := len(strconv.Itoa(lay.startLine + len(p.lines) - 1))
	w := lineWriter{b: &b}
	for i := range p.lines {
		n := lay.startLine + i
		marked := lay.numbers && n == lay.markLine
		if marked {
			b.WriteString(`<mark class="hll">`)
		}
		if lay.numbers {
			fmt.Fprintf(&b, `<span class="ln" data-n="%*d"></span>`, digits, n)
		}
		for _, tok := range lines[i] {
			w.add(t.class(tok.Type), tok.Value)
		}
		w.flush()
		if p.cut[i] > 0 {
			fmt.Fprintf(&b, `<span class="cut">… [cut %d chars]</span>`, p.cut[i])
		}
		// No newline after the last line: a trailing newline in a pre can
		// show as an empty line.
		if i < len(p.lines)-1 {
			b.WriteByte('\n')
		}
		if marked {
			b.WriteString(`</mark>`)
		}
	}
	if p.moreLines > 0 {
		s := "s"
		if p.moreLines == 1 {
			s = ""
		}
		fmt.Fprintf(&b, "\n<span class=\"cut\">… [%d more line%s not shown]</span>", p.moreLines, s)
	}
	b.WriteString(`</code></pre>`)
	return b.String()
}

func sumLen(ss []string) int {
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	return n
}

// plainLines gives each line as one untyped token, for unknown languages
// and as the fallback when a lexer fails.
func plainLines(p prepared) [][]chroma.Token {
	out := make([][]chroma.Token, len(p.lines))
	flat := make([]chroma.Token, len(p.lines))
	for i, l := range p.lines {
		flat[i] = chroma.Token{Type: chroma.Text, Value: l}
		out[i] = flat[i : i+1 : i+1]
	}
	return out
}

// splitTokens cuts a token stream into lines, splitting tokens that span
// lines (block comments, multi-line strings) so that no span crosses a line
// end and the marked line's element nests properly. It reports false when
// the tokens do not spell the input exactly, which would mean the lexer
// lost or invented text; the caller then prints the text unhighlighted.
func splitTokens(p prepared, toks []chroma.Token, sc *scratch) ([][]chroma.Token, bool) {
	out := slices.Grow(sc.lines[:0], len(p.lines))[:len(p.lines)]
	sc.lines = out
	// The lines' tokens share one array: a token spanning k line ends
	// makes k+1 pieces.
	flat := slices.Grow(sc.flat[:0], len(toks)+len(p.lines))
	defer func() { sc.flat = flat }()
	first := 0      // index in flat of line li's first token
	li, pos := 0, 0 // line index, byte offset in p.lines[li]
	for _, tok := range toks {
		v := tok.Value
		for v != "" {
			if li >= len(p.lines) {
				// Only a final newline the lexer added may remain.
				if v == "\n" {
					v = ""
					continue
				}
				return nil, false
			}
			line := p.lines[li]
			piece, rest, nl := strings.Cut(v, "\n")
			if !strings.HasPrefix(line[pos:], piece) {
				return nil, false
			}
			if piece != "" {
				flat = append(flat, chroma.Token{Type: tok.Type, Value: piece})
				pos += len(piece)
			}
			if !nl {
				break
			}
			if pos != len(line) {
				return nil, false
			}
			out[li] = flat[first:len(flat):len(flat)]
			first = len(flat)
			li, pos = li+1, 0
			v = rest
		}
	}
	if li < len(p.lines)-1 || (li == len(p.lines)-1 && pos != len(p.lines[li])) {
		return nil, false
	}
	if li < len(p.lines) {
		out[li] = flat[first:len(flat):len(flat)]
	}
	return out, true
}
