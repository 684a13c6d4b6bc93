package render

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

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
	out, err := minify(StyleName, string(css)+"\n"+hl, api.LoaderCSS)
	return []byte(out), err
}

// The stylesheet and the scripts every page loads are minified (esbuild):
// a page loads them whole, and comments and white space were a third of
// their bytes.

// compactScripts are the scripts every page loads: ours and the header's
// search box.
var compactScripts = map[string]bool{PageScriptName: true, ThemeScriptName: true, "search/header.js": true}

// minify minifies CSS or JavaScript with esbuild. Local names are
// shortened; globals and properties keep theirs (each script is a
// function that names its globals as window's properties).
func minify(name, src string, loader api.Loader) (string, error) {
	r := api.Transform(src, api.TransformOptions{
		Loader: loader, MinifyWhitespace: true, MinifySyntax: true, MinifyIdentifiers: true,
		Target: api.ES2015, Sourcefile: name, LegalComments: api.LegalCommentsNone,
	})
	if len(r.Errors) > 0 {
		e := r.Errors[0]
		line := 0
		if e.Location != nil {
			line = e.Location.Line
		}
		return "", fmt.Errorf("minify %s:%d: %s", name, line, e.Text)
	}
	return string(r.Code), nil
}

// Minified reports whether the asset named name is minified when
// published (StyleSheet, CompactScript): the costly ones.
func Minified(name string) bool { return name == StyleName || compactScripts[name] }

// CompactScript minifies the scripts every page loads (see
// compactScripts); it returns other files as they are.
func CompactScript(name string, js []byte) ([]byte, error) {
	if !compactScripts[name] {
		return js, nil
	}
	out, err := minify(name, string(js), api.LoaderJS)
	return []byte(out), err
}

// darkQuery opens the highlighter's dark rules.
const darkQuery = "@media (prefers-color-scheme:dark){"

// themedCSS makes the highlighter's dark colours follow the page's theme,
// as style.css's do: its dark rules (one rule a line, in a
// prefers-color-scheme block at its end) apply when <html> has the class
// "dark", which theme.js sets before the first paint to the
// reader's choice or, on auto, to the system's scheme; on screens only, so
// a page prints light. Without JavaScript code blocks stay light.
func themedCSS(css string) (string, error) {
	head, tail, ok := strings.Cut(css, darkQuery)
	body, rest, ok2 := strings.Cut(tail, "\n}")
	if !ok || !ok2 || strings.TrimSpace(rest) != "" {
		return "", fmt.Errorf("the highlighter's CSS has no dark block at its end")
	}
	var dark strings.Builder
	for _, rule := range strings.Split(strings.TrimSpace(body), "\n") {
		sel, decl, ok := strings.Cut(rule, "{")
		if !ok {
			return "", fmt.Errorf("highlighter CSS rule %q", rule)
		}
		var c []string
		for _, s := range strings.Split(sel, ",") {
			c = append(c, ".dark "+s)
		}
		dark.WriteString(strings.Join(c, ",") + "{" + decl + "\n")
	}
	return head + "@media screen{\n" + dark.String() + "}\n", nil
}
