package render

import "github.com/errdocs/errdocs/generator/markup/markdown"

// testMarkdown returns the Markdown renderer tests use: the real one, so
// that tests see the markup pages carry.
func testMarkdown(m Markdown) Markdown {
	if m != nil {
		return m
	}
	return markdown.New()
}
