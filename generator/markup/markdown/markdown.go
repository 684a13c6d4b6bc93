// Package markdown renders the Markdown of records (documentation,
// triggerScenarios, commonSituations, info articles' background) to HTML
// that is safe to put in a page, and to plain text for meta descriptions
// and search snippets.
//
// Every record string is untrusted, so the renderer:
//   - shows raw HTML as escaped text (the HTML parsers are removed, so
//     "<script>" is just text, never rendered and never dropped);
//   - keeps only links whose destination starts with http://, https:// or
//     mailto: (others render their text only), and marks kept links
//     rel="nofollow ugc noopener";
//   - never loads an image: an image becomes its alt text, linked to its
//     URL when that is http or https;
//   - shifts headings down two levels (h1 → h3, capped at h6) so they nest
//     under the page's h2 sections, and gives them no ids;
//   - replaces control characters, which are HTML parse errors.
//
// GFM tables, strikethrough, task lists and bare-URL autolinks are on.
package markdown

import (
	"bufio"
	"bytes"
	"fmt"
	"html/template"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/errdocs/errdocs/generator/markup/htmltext"
)

// Renderer converts Markdown to safe HTML. It is safe for concurrent use.
type Renderer struct {
	md goldmark.Markdown
}

// New makes a Renderer.
func New() *Renderer {
	return &Renderer{md: goldmark.New(
		goldmark.WithParser(newParser()),
		goldmark.WithExtensions(
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignStyle)),
			extension.Strikethrough,
			extension.TaskList,
			// Only http(s) bare URLs become links; "www." ones get http.
			extension.NewLinkify(extension.WithLinkifyAllowedProtocols([]string{"http:", "https:"})),
		),
		goldmark.WithRendererOptions(
			// Lower numbers win: these replace the default renderers of
			// the same node kinds.
			renderer.WithNodeRenderers(util.Prioritized(&safeRenderer{w: html.DefaultWriter}, 10)),
		),
	)}
}

// newParser is goldmark's CommonMark parser without its two HTML parsers.
// Without them, markup in the source stays text and is escaped like any
// other text, which shows it instead of rendering or silently dropping it.
func newParser() parser.Parser {
	skip := map[reflect.Type]bool{
		reflect.TypeOf(parser.NewHTMLBlockParser()): true,
		reflect.TypeOf(parser.NewRawHTMLParser()):   true,
	}
	keep := func(vs []util.PrioritizedValue) []util.PrioritizedValue {
		var out []util.PrioritizedValue
		for _, v := range vs {
			if !skip[reflect.TypeOf(v.Value)] {
				out = append(out, v)
			}
		}
		return out
	}
	return parser.NewParser(
		parser.WithBlockParsers(keep(parser.DefaultBlockParsers())...),
		parser.WithInlineParsers(keep(parser.DefaultInlineParsers())...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
}

// MaxInput is the most bytes of one Markdown text that are rendered; the
// rest is cut with a visible marker. goldmark is quadratic on some inputs
// (runs of "*a_" or of ">"; BENCHMARKS.md, "Figures behind the code"), so
// an unbounded field could stall a build. Real fields are a few KiB.
const MaxInput = 32 << 10

// Render converts Markdown to HTML.
func (r *Renderer) Render(src string) (template.HTML, error) {
	h, _, err := r.render(src, false, 0)
	return h, err
}

// RenderFirstSentence is Render and FirstSentence(src, max) from one parse.
func (r *Renderer) RenderFirstSentence(src string, max int) (template.HTML, string, error) {
	return r.render(src, true, max)
}

func (r *Renderer) render(src string, sentence bool, max int) (template.HTML, string, error) {
	src, cut := capInput(sanitize(src))
	source := []byte(src)
	// What goldmark's Convert does, the parse kept for FirstSentence.
	doc := r.md.Parser().Parse(text.NewReader(source))
	first := ""
	if sentence {
		first = truncate(firstSentence(firstText(doc, source)), max)
	}
	var b bytes.Buffer
	b.Grow(len(src) + len(src)/4 + 64)
	// goldmark writes through a bufio.Writer of its own (4 KiB) unless it
	// is given one: it is given a pooled one.
	w := bufWriters.Get().(*bufio.Writer)
	w.Reset(&b)
	err := r.md.Renderer().Render(w, source, doc)
	if err == nil {
		err = w.Flush()
	}
	w.Reset(nil)
	bufWriters.Put(w)
	if err != nil {
		return "", "", fmt.Errorf("markdown: rendering %d bytes: %w", len(src), err)
	}
	if cut > 0 {
		fmt.Fprintf(&b, "<p class=\"cut\">… [cut %d characters]</p>\n", cut)
	}
	return template.HTML(b.String()), first, nil
}

var bufWriters = sync.Pool{New: func() any { return bufio.NewWriter(nil) }}

// capInput cuts s to at most MaxInput bytes, at the last line end in the
// second half if there is one (so a paragraph is not split mid-word), and
// reports how many characters it cut.
func capInput(s string) (string, int) {
	if len(s) <= MaxInput {
		return s, 0
	}
	i := MaxInput
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	if nl := strings.LastIndexByte(s[:i], '\n'); nl >= MaxInput/2 {
		i = nl
	}
	return s[:i], utf8.RuneCountInString(s[i:])
}

// sanitize makes the source valid UTF-8 without control characters other
// than tab and newline: those are parse errors in HTML (pages must pass the
// Nu checker) and can hide text. CR and CRLF become LF.
func sanitize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	clean := true
	for _, r := range s {
		if r == '\r' || htmltext.NotInCode(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case htmltext.NotInCode(r):
			return utf8.RuneError
		}
		return r
	}, s)
}

// safeRenderer replaces goldmark's renderers for the nodes that can carry
// URLs, markup or page structure.
type safeRenderer struct {
	w html.Writer
}

func (r *safeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHeading, r.heading)
	reg.Register(ast.KindLink, r.link)
	reg.Register(ast.KindAutoLink, r.autoLink)
	reg.Register(ast.KindImage, r.image)
	// The parser makes no HTML nodes (see newParser); should one appear
	// anyway, it is shown as text like everything else.
	reg.Register(ast.KindHTMLBlock, r.htmlBlock)
	reg.Register(ast.KindRawHTML, r.rawHTML)
	reg.Register(extast.KindTaskCheckBox, r.taskCheckBox)
}

// relAttr goes on every kept link: the links are user content (ugc), must
// not pass ranking (nofollow) and must not get a window.opener handle.
const relAttr = ` rel="nofollow ugc noopener"`

func (r *safeRenderer) heading(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	level := min(node.(*ast.Heading).Level+2, 6)
	if entering {
		fmt.Fprintf(w, "<h%d>", level)
	} else {
		fmt.Fprintf(w, "</h%d>\n", level)
	}
	return ast.WalkContinue, nil
}

func (r *safeRenderer) link(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	href, ok := safeURL(decode(n.Destination), true)
	if !ok || insideLink(n) {
		return ast.WalkContinue, nil // the text stays, the link goes
	}
	if !entering {
		_, _ = w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	r.openLink(w, href, n.Title)
	return ast.WalkContinue, nil
}

// openLink writes the start tag of a link to href, a URL safeURL let
// through, with its title (nil: none).
func (r *safeRenderer) openLink(w util.BufWriter, href, title []byte) {
	_, _ = w.WriteString(`<a href="`)
	_, _ = w.Write(util.EscapeHTML(util.URLEscape(href, false)))
	_ = w.WriteByte('"')
	if title != nil {
		_, _ = w.WriteString(` title="`)
		r.w.Write(w, title)
		_ = w.WriteByte('"')
	}
	_, _ = w.WriteString(relAttr + ">")
}

func (r *safeRenderer) autoLink(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	// An autolink's text is literal: CommonMark resolves no entities or
	// escapes in it, so neither does the check.
	u := n.URL(src)
	if n.AutoLinkType == ast.AutoLinkEmail && !hasPrefixFold(u, "mailto:") {
		u = append([]byte("mailto:"), u...)
	}
	label := util.EscapeHTML(n.Label(src))
	href, ok := safeURL(u, true)
	if !ok || insideLink(n) {
		_, _ = w.Write(label)
		return ast.WalkContinue, nil
	}
	r.openLink(w, href, nil)
	_, _ = w.Write(label)
	_, _ = w.WriteString("</a>")
	return ast.WalkContinue, nil
}

// image writes the alt text, never an <img>: the site must work offline
// and load nothing from elsewhere. The text links to the image when its
// URL is http(s), so the reader can still open it.
func (r *safeRenderer) image(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	alt := strings.TrimSpace(collapse(plainText(n, src)))
	if alt == "" {
		alt = "image" // a link needs a name (WCAG 2.4.4)
	}
	href, ok := safeURL(decode(n.Destination), false)
	if !ok || insideLink(n) {
		_, _ = w.Write(util.EscapeHTML([]byte(alt)))
		return ast.WalkSkipChildren, nil
	}
	r.openLink(w, href, n.Title)
	_, _ = w.Write(util.EscapeHTML([]byte(alt)))
	_, _ = w.WriteString("</a>")
	return ast.WalkSkipChildren, nil
}

func (r *safeRenderer) htmlBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.HTMLBlock)
	_, _ = w.WriteString("<p>")
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(src)))
	}
	if n.HasClosure() {
		_, _ = w.Write(util.EscapeHTML(n.ClosureLine.Value(src)))
	}
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

func (r *safeRenderer) rawHTML(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	segs := node.(*ast.RawHTML).Segments
	for i := range segs.Len() {
		seg := segs.At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(src)))
	}
	return ast.WalkSkipChildren, nil
}

// taskCheckBox writes a glyph instead of a disabled <input>: an input
// without a label fails accessibility checks, and these boxes cannot be
// ticked anyway.
func (r *safeRenderer) taskCheckBox(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	if node.(*extast.TaskCheckBox).IsChecked {
		_, _ = w.WriteString("☑ ")
	} else {
		_, _ = w.WriteString("☐ ")
	}
	return ast.WalkContinue, nil
}

// decode resolves what CommonMark resolves in a link destination
// (backslash escapes, entity and numeric references), so the scheme is
// judged on the URL a browser would get, not on its spelling in the
// source: "javascript&#58;" is "javascript:".
func decode(dest []byte) []byte {
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(dest)))
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}

// safeURL returns u when it may become an href: it must begin, with
// nothing before it, with http://, https:// or (when mail is allowed)
// mailto:, in any letter case; contain no control characters or white
// space (browsers strip some of them, which could change how the URL is
// read); and parse as a URL with that scheme and, for http(s), a host.
// Relative and scheme-less URLs are refused: in a record they point
// nowhere useful on this site.
func safeURL(u []byte, mail bool) ([]byte, bool) {
	okPrefix := hasPrefixFold(u, "http://") || hasPrefixFold(u, "https://") ||
		(mail && hasPrefixFold(u, "mailto:"))
	if !okPrefix {
		return nil, false
	}
	for _, r := range string(u) {
		if r <= ' ' || (r >= 0x7f && r <= 0x9f) || r == utf8.RuneError ||
			r == '\u00a0' || r == '\u2028' || r == '\u2029' || r == '\ufeff' {
			return nil, false
		}
	}
	p, err := url.Parse(string(u))
	if err != nil {
		return nil, false
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https":
		if p.Host == "" {
			return nil, false
		}
	case "mailto":
		if !mail || p.Opaque == "" {
			return nil, false
		}
	default:
		return nil, false
	}
	return u, true
}

// insideLink reports whether n has a link ancestor that is written as an
// <a>: nested <a> elements are invalid HTML, so an inner link or image
// gives its text only.
func insideLink(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if l, ok := p.(*ast.Link); ok {
			if _, ok := safeURL(decode(l.Destination), true); ok {
				return true
			}
		}
	}
	return false
}
