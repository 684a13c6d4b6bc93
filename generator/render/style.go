package render

import (
	"fmt"
	"io/fs"

	"github.com/errdocs/errdocs/generator/markup/highlight"
	"github.com/errdocs/errdocs/generator/markup/markdown"
)

// The markup packages' renderers are what Options takes.
var (
	_ Markdown    = (*markdown.Renderer)(nil)
	_ Highlighter = (*highlight.Highlighter)(nil)
)

// StyleName is the asset name pages link their one stylesheet by
// (.Asset "style.css"); ChecklistName is the checklist script's.
const (
	StyleName     = "style.css"
	ChecklistName = "checklist.js"
)

// StyleSheet returns the site's one stylesheet: static's style.css followed
// by the highlighter's token classes, so a page makes one CSS request.
// static is the static folder (errdocs.Static, or an override from disk).
func StyleSheet(static fs.FS) ([]byte, error) {
	css, err := fs.ReadFile(static, StyleName)
	if err != nil {
		return nil, fmt.Errorf("render: stylesheet: %w", err)
	}
	out := make([]byte, 0, len(css)+16<<10)
	out = append(out, css...)
	out = append(out, '\n')
	out = append(out, highlight.CSS()...)
	return out, nil
}
