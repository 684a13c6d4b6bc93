// Package render makes the HTML pages of the site from templates/: one page
// per record (Record) and the binding pages that tie them together (Pages).
//
// Every string of a record is untrusted. Pages are executed by html/template,
// which escapes each value for its context; the only record-derived values
// that reach a page as template.HTML are the outputs of the Markdown and
// highlight packages, which make their own output safe.
package render

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/errdocs/errdocs/generator/markup/htmltext"
)

// Markdown renders untrusted Markdown to safe HTML (raw HTML shown as text,
// unsafe link schemes dropped, headings from h3 down).
// *markdown.Renderer satisfies it.
type Markdown interface {
	Render(src string) (template.HTML, error)
}

// Highlighter renders untrusted code to safe, highlighted HTML.
// *highlight.Highlighter satisfies it.
type Highlighter interface {
	// Excerpt numbers lines from startLine and marks markLine (0: none).
	Excerpt(code, filePath string, startLine, markLine int) (template.HTML, error)
	Code(code, filePath string) (template.HTML, error)
}

// Options configure a Renderer.
type Options struct {
	// Templates is the templates folder (embedded or from disk).
	Templates fs.FS
	// Title and Description name the site in every page.
	Title, Description string
	// BaseURL is the site's absolute URL ("https://example.org/errors/"),
	// or "" when unknown: canonical links and the 404 page need it.
	BaseURL string
	// IndexFile makes links name index.html (the offline bundle).
	IndexFile bool
	// Assets maps a static asset's name to its published path (see
	// site.Links).
	Assets map[string]string
	// ReportURL is the template of record pages' "Report a problem with
	// this page" link ({id}, {repo}, {url}, {title}; see CheckReportURL),
	// "" for no link.
	ReportURL string
	// PerPage is the listing page size (default 100).
	PerPage int
	// Cache, when set, lets Pages skip listings made from the same inputs
	// as in the previous build.
	Cache ListingCache
	// Markdown and Highlighter render record text and code. When nil, text
	// is shown as escaped paragraphs and code unhighlighted: output stays
	// safe, only plainer.
	Markdown    Markdown
	Highlighter Highlighter
}

// DefaultPerPage is the listing page size when Options.PerPage is 0.
const DefaultPerPage = 100

// MaxPage is the largest listing page we write. A listing whose page would
// be larger (records with very long names) is split into smaller pages.
const MaxPage = 250 << 10

// Renderer renders pages. It is safe for concurrent use.
type Renderer struct {
	o          Options
	pages      map[string]*template.Template // by page template file name
	openSearch *template.Template            // opensearch.xml, when the templates have it
	pool       sync.Pool
	entries    entryCache
	shared     sync.Map     // sharedKey → template.HTML: the shared fragments (Page.Shared, Page.Memo)
	memos      atomic.Int64 // memos kept in shared
	// written names the pages written by their pageWriter (their
	// templates being the ones it was written from) instead of executed.
	written map[string]bool
}

// Template files. layout.html defines "layout", which a page fills by
// defining "main" and optionally "head" and "scripts"; partials.html holds
// blocks shared by pages. Every other file is one kind of page.
const (
	layoutFile   = "layout.html"
	partialsFile = "partials.html"
	// openSearchFile is the OpenSearch description, rendered when present,
	// so browsers can add the site as a search engine.
	openSearchFile = "opensearch.xml"

	recordPage   = "record.html"
	homePage     = "home.html"
	reposPage    = "repos.html"
	repoPage     = "repo.html"
	groupsPage   = "groups.html"
	groupPage    = "group.html"
	searchPage   = "search.html"
	notFoundPage = "404.html"
)

// requiredPages must exist in the templates folder. search.html is made by
// the search feature and is rendered when present.
var requiredPages = []string{recordPage, homePage, reposPage, repoPage, groupsPage, groupPage, notFoundPage}

// New parses the templates once.
func New(o Options) (*Renderer, error) {
	if o.Templates == nil {
		return nil, errors.New("render: no templates folder")
	}
	if o.PerPage <= 0 {
		o.PerPage = DefaultPerPage
	}
	if o.Title == "" {
		o.Title = "errdocs"
	}
	if o.BaseURL != "" && !strings.HasSuffix(o.BaseURL, "/") {
		o.BaseURL += "/"
	}
	base, err := template.New(layoutFile).Funcs(funcs).ParseFS(o.Templates, layoutFile, partialsFile)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	files, err := fs.Glob(o.Templates, "*.html")
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	r := &Renderer{o: o, pages: map[string]*template.Template{}, written: writtenPages(o.Templates)}
	r.pool.New = func() any { return new(bytes.Buffer) }
	for _, f := range files {
		name := path.Base(f)
		if name == layoutFile || name == partialsFile {
			continue
		}
		t, err := base.Clone()
		if err == nil {
			t, err = t.ParseFS(o.Templates, f)
		}
		if err != nil {
			return nil, fmt.Errorf("render: %w", err)
		}
		if t.Lookup("main") == nil {
			return nil, fmt.Errorf("render: template %s defines no \"main\"", name)
		}
		r.pages[name] = t
	}
	for _, name := range requiredPages {
		if r.pages[name] == nil {
			return nil, fmt.Errorf("render: template %s is missing", name)
		}
	}
	if _, err := fs.Stat(o.Templates, openSearchFile); err == nil {
		if r.openSearch, err = template.ParseFS(o.Templates, openSearchFile); err != nil {
			return nil, fmt.Errorf("render: %w", err)
		}
	}
	return r, nil
}

// funcs are the few helpers templates need; everything else is computed
// into the page data, so templates stay declarative.
var funcs = template.FuncMap{
	"sevLabel": sevLabel,
	"add":      func(a, b int) int { return a + b },
	"count":    count,
	"section":  section,
}

// count writes a number with its noun: "1 error", "3 errors". The plural
// is given when adding "s" would be wrong ("repository", "repositories").
func count(n int, noun string, plural ...string) string {
	if n == 1 {
		return "1 " + noun
	}
	if len(plural) > 0 {
		return strconv.Itoa(n) + " " + plural[0]
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// sevLabel capitalises a severity for display ("error" → "Error").
func sevLabel(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// execute renders one page into a pooled buffer and returns a copy.
func (r *Renderer) execute(name string, p *Page) ([]byte, error) {
	var out []byte
	err := r.executeFunc(name, p, func(b []byte) error {
		out = slices.Clone(b)
		return nil
	})
	return out, err
}

// executeFunc renders one page into a pooled buffer and calls emit with
// its bytes (made printable), which are valid only during the call.
func (r *Renderer) executeFunc(name string, p *Page, emit func([]byte) error) error {
	t := r.pages[name]
	if t == nil {
		return fmt.Errorf("render: template %s is missing", name)
	}
	buf := r.pool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		// A buffer grown by one huge page is let go rather than pooled.
		if buf.Cap() <= 4*MaxPage {
			r.pool.Put(buf)
		}
	}()
	p.r, p.set = r, t
	if err := r.executeInto(buf, name, t, p); err != nil {
		return fmt.Errorf("render %s: %w", p.links.From, err)
	}
	if b := buf.Bytes(); printable(b) {
		return emit(b)
	}
	return emit(printableHTML(buf.Bytes()))
}

// executeInto writes page p of template set t into buf: by its writer
// when it has one for these templates, else by html/template.
func (r *Renderer) executeInto(buf *bytes.Buffer, name string, t *template.Template, p *Page) error {
	if !r.written[name] {
		return t.ExecuteTemplate(buf, layoutFile, p)
	}
	b, err := writePage(buf.AvailableBuffer(), p, pageWriters[name])
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// printableHTML returns a copy of a page with invalid UTF-8 and the code
// points HTML forbids in text (C0 and C1 controls other than white space,
// DEL, noncharacters) replaced by U+FFFD. Record text may hold them; they
// are not a danger once escaped, but they make the page invalid HTML, and
// html/template passes them through. A page rarely holds any, so the scan
// copies only when it finds one.
func printableHTML(b []byte) []byte {
	if printable(b) {
		return slices.Clone(b)
	}
	return bytes.Map(func(r rune) rune {
		if htmltext.Forbidden(r) {
			return utf8.RuneError
		}
		return r
	}, bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

// printable reports whether b is valid UTF-8 with no forbidden code point:
// utf8.Valid(b) && !bytes.ContainsFunc(b, forbidden), with runs of
// printable ASCII checked eight bytes at a time and other ASCII bytes by
// table.
func printable(b []byte) bool {
	for i := 0; i < len(b); {
		for i+8 <= len(b) && plainASCII(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		if i == len(b) {
			break
		}
		if c := b[i]; c < utf8.RuneSelf {
			if asciiForbidden[c] {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || htmltext.Forbidden(r) {
			return false
		}
		i += size
	}
	return true
}

// plainASCII reports whether each of the eight bytes of x is printable
// ASCII, from space to '~': no byte below 0x20 (the borrow of a byte less
// 0x20 sets its high bit where x has none) and none above 0x7e (adding 1
// sets the high bit of 0x7f; bytes from 0x80 have it).
func plainASCII(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (x - 0x20*ones) &^ x & highs
	above := (x + ones | x) & highs
	return below|above == 0
}

// asciiForbidden[c] is htmltext.Forbidden(rune(c)).
var asciiForbidden = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = htmltext.Forbidden(rune(c))
	}
	return t
}()

// SetCache sets the listing cache (see Options.Cache) of a renderer made
// before the cache could be. It must not be called while rendering.
func (r *Renderer) SetCache(c ListingCache) { r.o.Cache = c }
