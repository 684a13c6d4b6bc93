package render

import (
	"github.com/errdocs/errdocs/generator/markup/markdown"
	"html/template"
	"strings"
	"sync"
	"unicode/utf8"
)

// markdown renders a prose field; "" stays "" so the template leaves no
// empty section behind.
func (r *Renderer) markdown(src string) (template.HTML, error) {
	if strings.TrimSpace(src) == "" {
		return "", nil
	}
	if r.o.Markdown == nil {
		return plainProse(src), nil
	}
	return r.o.Markdown.Render(src)
}

// inlines renders each entry of a list field (solutions, tips) as Markdown
// fit for a list item, skipping blank entries.
func (r *Renderer) inlines(srcs []string) ([]template.HTML, error) {
	var out []template.HTML
	for _, s := range srcs {
		h, ok := r.entries.get(s)
		if !ok {
			var err error
			if h, err = r.markdown(s); err != nil {
				return nil, err
			}
			if h != "" {
				h = unwrapParagraph(h)
			}
			r.entries.put(s, h)
		}
		if h != "" {
			out = append(out, h)
		}
	}
	return out, nil
}

// entryCache keeps the rendering of short list entries. Records repeat
// their solutions and prevention tips a lot (few of the entries are
// distinct; BENCHMARKS.md, "Figures behind the code"), and a Markdown parse
// costs the same for a one-line entry as its setup. It holds at most maxEntries entries of at
// most maxEntryLen bytes, and starts over when full.
type entryCache struct {
	mu sync.Mutex
	m  map[string]template.HTML
}

const (
	maxEntries  = 4096
	maxEntryLen = 512
)

func (c *entryCache) get(src string) (template.HTML, bool) {
	if len(src) > maxEntryLen {
		return "", false
	}
	c.mu.Lock()
	h, ok := c.m[src]
	c.mu.Unlock()
	return h, ok
}

func (c *entryCache) put(src string, h template.HTML) {
	if len(src) > maxEntryLen {
		return
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxEntries {
		c.m = make(map[string]template.HTML)
	}
	c.m[src] = h
	c.mu.Unlock()
}

// unwrapParagraph drops the <p> around Markdown that rendered to a single
// paragraph, so a list item holds its text directly. It only removes the
// outermost pair of a lone paragraph: what remains is the paragraph's
// content, itself safe HTML with balanced elements.
func unwrapParagraph(h template.HTML) template.HTML {
	s := strings.TrimSpace(string(h))
	inner, ok := strings.CutPrefix(s, "<p>")
	if !ok {
		return h
	}
	inner, ok = strings.CutSuffix(inner, "</p>")
	if !ok || strings.Contains(inner, "<p>") || strings.Contains(inner, "</p>") {
		return h
	}
	return template.HTML(inner)
}

// code highlights a code field in the language of filePath.
func (r *Renderer) code(src, filePath string) (template.HTML, error) {
	if strings.TrimSpace(src) == "" {
		return "", nil
	}
	if r.o.Highlighter == nil {
		return plainCode(src), nil
	}
	return r.o.Highlighter.Code(src, filePath)
}

// excerpt highlights the source excerpt with the file's own line numbers.
func (r *Renderer) excerpt(src, filePath string, start, mark int) (template.HTML, error) {
	if r.o.Highlighter == nil {
		return plainCode(src), nil
	}
	return r.o.Highlighter.Excerpt(src, filePath, start, mark)
}

// plainProse shows text as escaped paragraphs, one per blank-line-separated
// block: the fallback without a Markdown renderer.
func plainProse(src string) template.HTML {
	var b strings.Builder
	for _, para := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n\n") {
		if para = strings.TrimSpace(para); para != "" {
			b.WriteString("<p>")
			b.WriteString(template.HTMLEscapeString(para))
			b.WriteString("</p>\n")
		}
	}
	return template.HTML(b.String())
}

// plainCode shows code escaped, unhighlighted, in the highlighter's frame.
func plainCode(src string) template.HTML {
	return template.HTML(`<pre class="hl" tabindex="0"><code>` +
		template.HTMLEscapeString(strings.TrimRight(src, "\n")) + `</code></pre>`)
}

// firstSentence is the meta description: the first sentence of the
// documentation's plain text, at most max characters, cut at a word.
func firstSentence(src string, max int) string { return markdown.FirstSentence(src, max) }

// cutWords shortens s to at most max runes at a word boundary.
func cutWords(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	runes := []rune(s)
	cut := string(runes[:max-1])
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
