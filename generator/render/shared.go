package render

import (
	"errors"
	"fmt"
	"html/template"
	"strings"
)

// Shared fragments. Much of a page's layout (the header, the asset links,
// the footer) is the same on every page at one folder depth: the site's
// name and links relative to the page, nothing of the page's own. A
// layout names such a fragment with {{.Shared "name"}}: it is executed
// once per template set, depth and kind of page with a siteView of the
// page, and its bytes are reused by every later page, instead of running
// its actions (each a reflective call of an escaper) page after page.

// siteView is what a shared fragment sees of a page: the site's title and
// description, links from the page's depth, and whether the page is the
// search page. A fragment cannot reach anything else of the page, so its
// output depends only on the key it is kept under.
type siteView struct{ p *Page }

// Link returns the URL of a site path from the page.
func (v siteView) Link(path string) string { return v.p.Link(path) }

// Asset returns the URL of a static asset from the page.
func (v siteView) Asset(name string) string { return v.p.Asset(name) }

// Root returns the URL of the site root from the page.
func (v siteView) Root() string { return v.p.Root() }

// IndexFile reports whether links name index.html.
func (v siteView) IndexFile() bool { return v.p.IndexFile() }

// SiteTitle is the site's title.
func (v siteView) SiteTitle() string { return v.p.SiteTitle }

// SiteDescription is the site's description.
func (v siteView) SiteDescription() string { return v.p.SiteDescription }

// Search reports whether the page is the search page.
func (v siteView) Search() bool { return v.p.Search }

// sharedKey is what a shared fragment's output depends on: the template
// set, the fragment, the page's root (its depth, or the absolute base of
// a page served at any depth) and whether it is the search page. The
// site's title, description and assets are the renderer's. A memo (Memo)
// has the value it was given as arg instead of a root.
type sharedKey struct {
	set    *template.Template
	name   string
	root   string
	search bool
	arg    string
}

// notShared marks a fragment that a siteView cannot execute (a template
// from disk that uses more of the page): it is executed with the whole
// page each time, as {{template}} would.
const notShared template.HTML = "\x00"

// Shared returns the fragment name of the page's template set as the page
// would show it.
func (p *Page) Shared(name string) (template.HTML, error) {
	if p.r == nil || p.set == nil {
		return "", errors.New("Shared: the page is not being rendered")
	}
	k := sharedKey{set: p.set, name: name, root: p.Root(), search: p.Search}
	if h, ok := p.r.shared.Load(k); ok && h.(template.HTML) != notShared {
		return h.(template.HTML), nil
	} else if ok {
		return p.execute(name, p)
	}
	h, err := p.execute(name, siteView{p})
	if err != nil {
		if h, err = p.execute(name, p); err != nil {
			return "", err
		}
		p.r.shared.Store(k, notShared)
		return h, nil
	}
	p.r.shared.Store(k, h)
	return h, nil
}

// execute runs the template name of the page's set with data.
func (p *Page) execute(name string, data any) (template.HTML, error) {
	var b strings.Builder
	if err := p.set.ExecuteTemplate(&b, name, data); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

// maxMemos bounds the fragments Memo keeps: a template from disk could
// memoize a value that differs on every page.
const maxMemos = 4096

// Memo returns the fragment name executed with arg alone, kept by arg's
// value: for the record page's section headings and table of contents,
// which are made of the site's fixed section names. arg is a link or a
// list of links, values without methods, so that the output depends on
// the value only.
func (p *Page) Memo(name string, arg any) (template.HTML, error) {
	if p.r == nil || p.set == nil {
		return "", errors.New("Memo: the page is not being rendered")
	}
	var key strings.Builder
	switch a := arg.(type) {
	case link:
		key.WriteString("1\x00" + a.Name + "\x00" + a.Path)
	case []link:
		key.WriteString("n")
		for _, l := range a {
			key.WriteString("\x00" + l.Name + "\x00" + l.Path)
		}
	default:
		return "", fmt.Errorf("Memo %q: %T is neither a link nor a list of links", name, arg)
	}
	k := sharedKey{set: p.set, name: name, arg: key.String()}
	if h, ok := p.r.shared.Load(k); ok {
		return h.(template.HTML), nil
	}
	h, err := p.execute(name, arg)
	if err == nil && p.r.memos.Add(1) <= maxMemos {
		p.r.shared.Store(k, h)
	}
	return h, err
}
