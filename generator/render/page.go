package render

import (
	"html/template"

	"github.com/errdocs/errdocs/generator/model"
)

// Page is the data every template gets. Templates link with .Link "path/"
// (a site path), .Asset "name" (a static asset) and .Root; the page's own
// data is in .Data.
type Page struct {
	links model.Links
	// abs is the base URL when links must be absolute: the 404 page is
	// served at any URL depth, so relative links cannot work there.
	abs string

	// SiteTitle and SiteDescription name the site.
	SiteTitle, SiteDescription string
	// Head feeds the head element: title, description, canonical link,
	// robots; later Open Graph and JSON-LD.
	Head Head
	// Crumbs is the breadcrumb trail; the last one is the page itself.
	Crumbs []Crumb
	// Search marks the search page, whose main element carries the data
	// attributes the search script reads.
	Search bool
	// Data is the page's own data (recordData, homeData, …).
	Data any

	// r and set are the renderer and the template set executing the page
	// (for Shared).
	r   *Renderer
	set *template.Template
}

// Head is what the head element says about a page. Every field is plain
// text or a URL; templates escape them for their contexts.
type Head struct {
	// Title is the full document title.
	Title string
	// Description is the meta description ("" for none).
	Description string
	// Canonical is the page's canonical absolute URL ("" without a base
	// URL).
	Canonical string
	// Robots is the robots meta content ("" for the default).
	Robots string
	// Type is the Open Graph type: "article" for records, else "website".
	// The Open Graph tags reuse Title, Description and Canonical (og:url
	// is the canonical URL, so it is left out without a base URL).
	Type string
	// JSONLD holds structured data objects, each written as its own
	// application/ld+json block (html/template escapes them as JSON inside
	// a script element, so no string can end the element).
	JSONLD []any
}

// Crumb is one step of the breadcrumb trail. Path is a site path; the last
// crumb (the page itself) is not linked.
type Crumb struct {
	Name, Path string
}

// Link returns the URL of a site path from this page.
func (p *Page) Link(path string) string {
	if p.abs != "" {
		u := model.Absolute(p.abs, path)
		if p.links.IndexFile && (path == "" || path[len(path)-1] == '/') {
			u += "index.html"
		}
		return u
	}
	return p.links.Link(path)
}

// Asset returns the URL of a static asset from this page.
func (p *Page) Asset(name string) string {
	if p.abs != "" {
		if pub, ok := p.links.Assets[name]; ok {
			return model.Absolute(p.abs, pub)
		}
		return model.Absolute(p.abs, model.StaticPath+name)
	}
	return p.links.Asset(name)
}

// Root returns the URL of the site root from this page.
func (p *Page) Root() string {
	if p.abs != "" {
		return p.abs
	}
	return p.links.Root()
}

// IndexFile reports whether links name index.html (offline bundle).
func (p *Page) IndexFile() bool { return p.links.IndexFile }

// page starts the data of the page at site path from.
func (r *Renderer) page(from string, title string) *Page {
	t := r.o.Title
	if title != "" {
		t = title + " · " + r.o.Title
	}
	return &Page{
		links:           model.Links{From: from, IndexFile: r.o.IndexFile, Assets: r.o.Assets},
		SiteTitle:       r.o.Title,
		SiteDescription: r.o.Description,
		Head:            Head{Title: t, Canonical: model.Absolute(r.o.BaseURL, from), Type: "website"},
	}
}

// Structured data (schema.org, written as JSON-LD). The types hold plain
// strings; html/template marshals them with encoding/json inside the
// application/ld+json script element, which escapes <, > and & as \u003c
// and the like, so no record string can end the element or the JSON.

// ldContext is the vocabulary every block names.
const ldContext = "https://schema.org"

// techArticle describes a record page.
type techArticle struct {
	Context       string     `json:"@context"`
	Type          string     `json:"@type"`
	Headline      string     `json:"headline"`
	Description   string     `json:"description,omitempty"`
	DatePublished string     `json:"datePublished,omitempty"`
	DateModified  string     `json:"dateModified,omitempty"`
	URL           string     `json:"url,omitempty"`
	InLanguage    string     `json:"inLanguage"`
	Keywords      string     `json:"keywords,omitempty"`
	About         []ldThing  `json:"about,omitempty"`
	IsPartOf      *ldWebSite `json:"isPartOf,omitempty"`
}

// ldThing is what an article is about: the library, the error class or code.
type ldThing struct {
	Type                string `json:"@type"`
	Name                string `json:"name"`
	CodeRepository      string `json:"codeRepository,omitempty"`
	ProgrammingLanguage string `json:"programmingLanguage,omitempty"`
}

type ldWebSite struct {
	Type string `json:"@type"`
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// breadcrumbList is a page's trail.
type breadcrumbList struct {
	Context string       `json:"@context"`
	Type    string       `json:"@type"`
	Items   []breadcrumb `json:"itemListElement"`
}

type breadcrumb struct {
	Type     string `json:"@type"`
	Position int    `json:"position"`
	Name     string `json:"name"`
	Item     string `json:"item,omitempty"`
}

// breadcrumbLD is the trail as a BreadcrumbList, or nil without a base
// URL: its items must be absolute URLs to mean anything to a crawler, and
// a site without a base URL (a preview, an offline bundle) is not crawled.
func (r *Renderer) breadcrumbLD(crumbs []Crumb) any {
	if r.o.BaseURL == "" || len(crumbs) == 0 {
		return nil
	}
	l := &breadcrumbList{Context: ldContext, Type: "BreadcrumbList"}
	for k, c := range crumbs {
		l.Items = append(l.Items, breadcrumb{Type: "ListItem", Position: k + 1, Name: c.Name,
			Item: model.Absolute(r.o.BaseURL, c.Path)})
	}
	return l
}
