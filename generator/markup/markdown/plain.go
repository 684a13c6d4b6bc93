package markdown

import (
	"strings"
	"sync"
	"unicode"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// plainText is the text under n with escapes and references resolved, as
// a reader sees it.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			if c.IsRaw() {
				b.Write(c.Value(src))
			} else {
				b.Write(decode(c.Value(src)))
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if tt, ok := t.(*ast.Text); ok {
					b.Write(tt.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.Image:
			if c != n {
				b.WriteString(plainText(c, src))
				return ast.WalkSkipChildren, nil
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// collapse turns every run of white space into one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// block is the plain text of one text block, and whether it is prose (a
// paragraph) rather than a heading, code or a table cell.
type block struct {
	text  string
	prose bool
}

// shared parses for Plain and FirstSentence, with the same extensions as
// Render so that both read the source the same way.
var shared = sync.OnceValue(New)

// blocks parses src and returns its text blocks in order.
func blocks(src string) []block {
	capped, _ := capInput(sanitize(src))
	source := []byte(capped)
	doc := shared().md.Parser().Parse(text.NewReader(source))
	var out []block
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindParagraph, ast.KindTextBlock, ast.KindHeading, extast.KindTableCell:
			prose := n.Kind() == ast.KindParagraph || n.Kind() == ast.KindTextBlock
			if t := collapse(plainText(n, source)); t != "" {
				out = append(out, block{t, prose})
			}
			return ast.WalkSkipChildren, nil
		case ast.KindCodeBlock, ast.KindFencedCodeBlock:
			var b strings.Builder
			lines := n.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				b.Write(seg.Value(source))
			}
			if t := collapse(b.String()); t != "" {
				out = append(out, block{t, false})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}

// Plain returns the text of the Markdown without markup, white space
// collapsed, blocks separated by a space: for search snippets. It is not
// HTML; the caller escapes it.
func Plain(src string) string {
	bs := blocks(src)
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = b.text
	}
	return strings.Join(parts, " ")
}

// FirstSentence returns the plain text of the first sentence of the
// Markdown's first paragraph (the first text block when there is no
// paragraph), cut at a word boundary to at most max characters with "…"
// when it is longer: for meta descriptions. max ≤ 0 means no limit. It is
// not HTML; the caller escapes it.
func FirstSentence(src string, max int) string {
	capped, _ := capInput(sanitize(src))
	source := []byte(capped)
	doc := shared().md.Parser().Parse(text.NewReader(source))
	return truncate(firstSentence(firstText(doc, source)), max)
}

// firstText is the text of the first prose block of doc, or of its first
// text block when it has no prose: the block FirstSentence reads (as
// blocks would list them), found without going through the others.
func firstText(doc ast.Node, source []byte) string {
	first, prose := "", ""
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindParagraph, ast.KindTextBlock, ast.KindHeading, extast.KindTableCell:
			isProse := n.Kind() == ast.KindParagraph || n.Kind() == ast.KindTextBlock
			if !isProse && first != "" {
				return ast.WalkSkipChildren, nil
			}
			t := collapse(plainText(n, source))
			if t == "" {
				return ast.WalkSkipChildren, nil
			}
			if isProse {
				prose = t
				return ast.WalkStop, nil
			}
			first = t
			return ast.WalkSkipChildren, nil
		case ast.KindCodeBlock, ast.KindFencedCodeBlock:
			if first == "" {
				var b strings.Builder
				lines := n.Lines()
				for i := range lines.Len() {
					seg := lines.At(i)
					b.Write(seg.Value(source))
				}
				first = collapse(b.String())
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if prose != "" {
		return prose
	}
	return first
}

// abbreviations end in a period without ending a sentence. Compared in
// lower case, without the final period.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "eg": true, "ie": true, "etc": true, "vs": true,
	"cf": true, "approx": true, "incl": true, "esp": true, "viz": true,
	"al": true, "fig": true, "no": true, "mr": true, "mrs": true, "ms": true,
	"dr": true, "st": true, "resp": true, "ca": true,
}

// firstSentence cuts s after the first . ! or ? that ends a sentence: one
// followed by white space (after any closing quotes or brackets) and then
// not by a lower-case letter, and for a period not ending an abbreviation.
// Dotted names and versions (jax.debug.callback, 1.2.3) have no space
// after the dot and so never end a sentence.
func firstSentence(s string) string {
	rs := []rune(s)
	for i, r := range rs {
		if r != '.' && r != '!' && r != '?' && r != '。' && r != '！' && r != '？' {
			continue
		}
		j := i + 1
		for j < len(rs) && strings.ContainsRune(`"')]}”’»`, rs[j]) {
			j++
		}
		if j == len(rs) {
			return s
		}
		if r >= 0x3000 { // CJK full stops need no space after them
			return string(rs[:j])
		}
		if rs[j] != ' ' {
			continue
		}
		if k := j + 1; k < len(rs) && isLower(rs[k]) {
			continue
		}
		if r == '.' && abbreviations[strings.ToLower(wordBefore(rs, i))] {
			continue
		}
		return string(rs[:j])
	}
	return s
}

func isLower(r rune) bool { return unicode.IsLower(r) }

// wordBefore is the run of letters and inner periods that ends at rs[i].
func wordBefore(rs []rune, i int) string {
	j := i
	for j > 0 && (rs[j-1] == '.' || isLetter(rs[j-1])) {
		j--
	}
	return string(rs[j:i])
}

func isLetter(r rune) bool { return unicode.IsLetter(r) }

// truncate cuts s to at most max characters, at the last space that keeps
// at least half of it, ending with "…".
func truncate(s string, max int) string {
	rs := []rune(s)
	if max <= 0 || len(rs) <= max {
		return s
	}
	if max == 1 {
		return "…"
	}
	cut := rs[:max-1]
	if rs[max-1] != ' ' { // the cut falls inside a word: drop that word
		if sp := lastSpace(cut); sp >= (max-1)/2 {
			cut = cut[:sp]
		}
	}
	return strings.TrimRight(string(cut), " ,;:-–—([{") + "…"
}

func lastSpace(rs []rune) int {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i] == ' ' {
			return i
		}
	}
	return -1
}
