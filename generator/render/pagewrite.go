package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
)

// Pages written by Go code. Half a million record pages, and the listings
// of their repos, tags and families, executed by html/template spend most
// of their template time in reflection: each action is a reflective call
// of an escaper, each field a lookup by name. When a page's templates are
// the ones its writer was written from (pageWriter.sum), the page is
// written by its writer instead, with html/template's escapers
// (escape.go): byte for byte what html/template writes, which
// TestWritersMatchTemplates holds them to over messy and hostile records.
// Templates from disk that differ are executed by html/template as
// before, so a site's own record.html still works.
//
// To change layout.html, partials.html or a written page's template,
// change its writer to match; the tests then give the new sum.

// pageWriter writes one kind of page.
type pageWriter struct {
	// sum is templatesSum of the templates the writer writes.
	sum string
	// main writes the page's "main" template.
	main func(dst []byte, p *Page) ([]byte, error)
}

// pageWriters are the written pages, by template file.
var pageWriters = map[string]pageWriter{
	recordPage: {"fcdad20f223b7ac63b8cce937f909a364b7c5f71af7e57c4d782603cccce24f6", writeRecordMain},
	repoPage:   {"7d94027b4b322a07139e001a478dc54e4a64668220b55696f3ca62211c4144d4", writeRepoMain},
	groupPage:  {"9f556685dec0ca7914e1628a7a44fde07bf0e6d87eca539922442eef4fbc4786", writeGroupMain},
}

// writtenPages lists the page templates of fsys that their writers write:
// those whose templates are the writers' own.
func writtenPages(fsys fs.FS) map[string]bool {
	out := map[string]bool{}
	for name, w := range pageWriters {
		out[name] = templatesSum(fsys, name) == w.sum
	}
	return out
}

// templatesSum is the SHA-256 of the page template name with layout.html
// and partials.html, each file's length and bytes in turn; "" when one is
// missing.
func templatesSum(fsys fs.FS, name string) string {
	h := sha256.New()
	for _, f := range []string{layoutFile, partialsFile, name} {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return ""
		}
		h.Write(strconv.AppendInt(nil, int64(len(b)), 10))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writePage appends page p as layout.html writes it around the page's
// "main", which w writes.
func writePage(dst []byte, p *Page, w pageWriter) ([]byte, error) {
	dst, err := writeHead(append(dst, layoutHead...), p)
	if err != nil {
		return nil, err
	}
	if dst, err = appendShared(append(dst, '\n'), p, "assets"); err != nil {
		return nil, err
	}
	dst = append(dst, "\n</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to content</a>\n"...)
	if dst, err = appendShared(dst, p, "siteheader"); err != nil {
		return nil, err
	}
	dst = append(writeCrumbs(dst, p), "\n<main id=\"main\">\n"...)
	if dst, err = w.main(dst, p); err != nil {
		return nil, err
	}
	dst = append(dst, "\n</main>\n"...)
	if dst, err = appendShared(dst, p, "sitefooter"); err != nil {
		return nil, err
	}
	return append(dst, "\n</body>\n</html>\n"...), nil
}

// layoutHead is layout.html up to the title's text.
const layoutHead = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'">
<title>`

// writeHead appends the head from the title's text to the structured
// data.
func writeHead(dst []byte, p *Page) ([]byte, error) {
	h := &p.Head
	dst = append(appendHTML(dst, h.Title), "</title>"...)
	if h.Description != "" {
		dst = append(appendHTML(append(dst, "\n<meta name=\"description\" content=\""...), h.Description), "\">"...)
	}
	if h.Robots != "" {
		dst = append(appendHTML(append(dst, "\n<meta name=\"robots\" content=\""...), h.Robots), "\">"...)
	}
	if h.Canonical != "" {
		dst = append(appendURLAttr(append(dst, "\n<link rel=\"canonical\" href=\""...), h.Canonical), "\">"...)
	}
	dst = append(appendHTML(append(dst, "\n<meta property=\"og:title\" content=\""...), h.Title), "\">"...)
	if h.Description != "" {
		dst = append(appendHTML(append(dst, "\n<meta property=\"og:description\" content=\""...), h.Description), "\">"...)
	}
	ogType := h.Type
	if ogType == "" {
		ogType = "website"
	}
	dst = append(appendHTML(append(dst, "\n<meta property=\"og:type\" content=\""...), ogType), "\">"...)
	if h.Canonical != "" {
		dst = append(appendHTML(append(dst, "\n<meta property=\"og:url\" content=\""...), h.Canonical), "\">"...)
	}
	dst = append(appendHTML(append(dst, "\n<meta property=\"og:site_name\" content=\""...), p.SiteTitle), "\">"...)
	for _, v := range h.JSONLD {
		// html/template marshals a value in a script element with
		// encoding/json, which already escapes <, >, &, U+2028 and U+2029;
		// an object needs no padding.
		js, err := json.Marshal(v)
		if err != nil || len(js) == 0 || js[0] != '{' {
			return nil, fmt.Errorf("JSON-LD %T is not an object", v)
		}
		dst = append(append(append(dst, "\n<script type=\"application/ld+json\">"...), js...), "</script>"...)
	}
	return dst, nil
}

// appendShared appends the page's shared fragment name (Page.Shared).
func appendShared(dst []byte, p *Page, name string) ([]byte, error) {
	h, err := p.Shared(name)
	return append(dst, h...), err
}

// appendMemo appends a memoized fragment (Page.Memo).
func appendMemo(dst []byte, p *Page, name string, arg any) ([]byte, error) {
	h, err := p.Memo(name, arg)
	return append(dst, h...), err
}

// writeCrumbs appends partials.html's "crumbs" for the page's trail.
func writeCrumbs(dst []byte, p *Page) []byte {
	if len(p.Crumbs) == 0 {
		return dst
	}
	dst = append(dst, "\n<nav class=\"crumbs\" aria-label=\"Breadcrumb\">\n<ol>"...)
	for k, c := range p.Crumbs {
		if k == len(p.Crumbs)-1 {
			dst = append(appendHTML(append(dst, "\n<li aria-current=\"page\">"...), c.Name), "</li>"...)
			continue
		}
		dst = appendURLAttr(append(dst, "\n<li><a href=\""...), p.Link(c.Path))
		dst = append(appendHTML(append(dst, "\">"...), c.Name), "</a></li>"...)
	}
	return append(dst, "\n</ol>\n</nav>"...)
}

// appendLink appends l's name, linked when it has a path.
func appendLink(dst []byte, p *Page, l link) []byte {
	if l.Path == "" {
		return appendHTML(dst, l.Name)
	}
	dst = appendURLAttr(append(dst, "<a href=\""...), p.Link(l.Path))
	return append(appendHTML(append(dst, "\">"...), l.Name), "</a>"...)
}

// writeEntry appends partials.html's "entry": a record in a list.
func writeEntry(dst []byte, e entry) []byte {
	dst = appendURLAttr(append(dst, "<li><a href=\""...), e.Href)
	dst = append(appendHTML(append(dst, "\">"...), e.Message), "</a> "...)
	dst = appendHTML(append(dst, "<span class=\"badge sev-"...), e.Severity)
	dst = appendHTML(append(dst, "\"><span class=\"vh\">Severity: </span>"...), sevLabel(e.Severity))
	dst = append(dst, "</span>\n<span class=\"m\">"...)
	if e.Repo != "" {
		dst = append(appendHTML(dst, e.Repo), " · "...)
	}
	return append(appendHTML(dst, e.Detail), "</span></li>"...)
}
