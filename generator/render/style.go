package render

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/errdocs/errdocs/generator/markup/highlight"
	"github.com/errdocs/errdocs/generator/markup/markdown"
)

// The markup packages' renderers are what Options takes.
var (
	_ Markdown    = (*markdown.Renderer)(nil)
	_ Highlighter = (*highlight.Highlighter)(nil)
)

// Asset names pages link by (.Asset "style.css"): the one stylesheet, the
// page behaviour script (copy buttons, checklist) and the theme script,
// which applies the reader's colour theme before the first paint.
const (
	StyleName       = "style.css"
	PageScriptName  = "page.js"
	ThemeScriptName = "theme.js"
)

// StyleSheet returns the site's one stylesheet: static's style.css followed
// by the highlighter's token classes, so a page makes one CSS request.
// static is the static folder (errdocs.Static, or an override from disk).
func StyleSheet(static fs.FS) ([]byte, error) {
	css, err := fs.ReadFile(static, StyleName)
	if err != nil {
		return nil, fmt.Errorf("render: stylesheet: %w", err)
	}
	hl, err := themedCSS(highlight.CSS())
	if err != nil {
		return nil, fmt.Errorf("render: stylesheet: %w", err)
	}
	return []byte(compactCSS(string(css) + "\n" + hl)), nil
}

// compactCSS drops comments, indentation and line ends from our own
// stylesheet: a page loads it whole, and they are a sixth of its bytes.
// It relies on what our CSS is like: no "/*" inside a string, and a line
// ending mid-declaration continues after a space.
func compactCSS(css string) string {
	var b strings.Builder
	b.Grow(len(css))
	for css != "" {
		i := strings.Index(css, "/*")
		if i < 0 {
			i = len(css)
		}
		writeLines(&b, css[:i])
		css = css[i:]
		if css == "" {
			break
		}
		_, rest, ok := strings.Cut(css[2:], "*/")
		if !ok {
			break
		}
		css = rest
	}
	return b.String() + "\n"
}

// writeLines appends text's lines, trimmed, joined directly after a line
// that ends a rule, declaration, selector or block, else with a space.
func writeLines(b *strings.Builder, text string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if n := b.Len(); n > 0 && !strings.ContainsRune("{};,", rune(b.String()[n-1])) {
			b.WriteByte(' ')
		}
		b.WriteString(line)
	}
}

// CompactScript drops the whole-line comments of our own scripts (page.js,
// theme.js), which are most of their size; it returns other files as they
// are.
func CompactScript(name string, js []byte) []byte {
	if name != PageScriptName && name != ThemeScriptName {
		return js
	}
	var out []byte
	for _, line := range strings.SplitAfter(string(js), "\n") {
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		out = append(out, strings.TrimLeft(line, " ")...)
	}
	return out
}

// darkQuery opens the highlighter's dark rules.
const darkQuery = "@media (prefers-color-scheme:dark){"

// themedCSS makes the highlighter's colours follow the page's theme, as
// style.css's do: its dark rules (one rule a line, in a
// prefers-color-scheme block) apply when the system is dark and the reader
// did not choose light, or when the reader chose dark (data-theme on
// <html>, set by theme.js); on screens only, so a page prints light.
func themedCSS(css string) (string, error) {
	head, tail, ok := strings.Cut(css, darkQuery)
	body, rest, ok2 := strings.Cut(tail, "\n}")
	if !ok || !ok2 || strings.TrimSpace(rest) != "" {
		return "", fmt.Errorf("the highlighter's CSS has no dark block at its end")
	}
	var auto, chosen strings.Builder
	for _, rule := range strings.Split(strings.TrimSpace(body), "\n") {
		sel, decl, ok := strings.Cut(rule, "{")
		if !ok {
			return "", fmt.Errorf("highlighter CSS rule %q", rule)
		}
		var a, c []string
		for _, s := range strings.Split(sel, ",") {
			a = append(a, ":root:not([data-theme=light]) "+s)
			c = append(c, ":root[data-theme=dark] "+s)
		}
		auto.WriteString(strings.Join(a, ",") + "{" + decl + "\n")
		chosen.WriteString(strings.Join(c, ",") + "{" + decl + "\n")
	}
	return head + "@media screen and (prefers-color-scheme:dark){\n" + auto.String() + "}\n" +
		"@media screen{\n" + chosen.String() + "}\n", nil
}
