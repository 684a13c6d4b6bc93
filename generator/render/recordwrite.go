package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"strconv"
)

// A record page written by Go code. Half a million record pages executed
// by html/template spend most of their template time in reflection: each
// action is a reflective call of an escaper, each field a lookup by name.
// When the record page's templates are the ones this file was written
// from (recordTemplatesSum), a record page is written here instead, with
// the same escapers (escape.go), byte for byte what html/template writes:
// TestRecordWriterMatchesTemplates holds the two to each other over messy
// and hostile records. Templates from disk that differ are executed by
// html/template as before, so a site's own record.html still works.
//
// To change record.html, layout.html or partials.html, change writeRecord
// to match; the tests then give the new recordTemplatesSum.

// recordTemplates are the files a record page is executed from.
var recordTemplates = []string{layoutFile, partialsFile, recordPage}

// recordTemplatesSum is the SHA-256 of recordTemplates, each file's length
// and bytes in turn, as embedded: the templates writeRecord writes.
const recordTemplatesSum = "fcdad20f223b7ac63b8cce937f909a364b7c5f71af7e57c4d782603cccce24f6"

// templatesSum is the sum of recordTemplates in fsys, "" when one is
// missing.
func templatesSum(fsys fs.FS) string {
	h := sha256.New()
	for _, name := range recordTemplates {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return ""
		}
		h.Write(strconv.AppendInt(nil, int64(len(b)), 10))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeRecord appends record page p, whose data is d, as layout.html
// executed with record.html writes it.
func writeRecord(dst []byte, p *Page, d *recordData) ([]byte, error) {
	dst = append(dst, layoutHead...)
	dst = append(appendHTML(dst, p.Head.Title), "</title>"...)
	h := &p.Head
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
		js, err := json.Marshal(v)
		if err != nil || len(js) == 0 || js[0] != '{' {
			return nil, fmt.Errorf("JSON-LD %T is not an object", v)
		}
		dst = append(append(append(dst, "\n<script type=\"application/ld+json\">"...), js...), "</script>"...)
	}
	var err error
	if dst, err = appendShared(append(dst, '\n'), p, "assets"); err != nil {
		return nil, err
	}
	dst = append(dst, "\n</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to content</a>\n"...)
	if dst, err = appendShared(dst, p, "siteheader"); err != nil {
		return nil, err
	}
	dst = writeCrumbs(dst, p)
	dst = append(dst, "\n<main id=\"main\">\n"...)
	if dst, err = writeRecordMain(dst, p, d); err != nil {
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

// writeRecordMain appends record.html's "main".
func writeRecordMain(dst []byte, p *Page, d *recordData) ([]byte, error) {
	r := d.R
	dst = append(appendHTML(append(dst, "\n<article class=\"rec\">\n<h1 class=\"msg\">"...), r.ErrorMessage), "</h1>"...)
	var err error
	if len(d.Sections) > 0 {
		if dst, err = appendMemo(append(dst, '\n'), p, "toc", d.Sections); err != nil {
			return nil, err
		}
	}
	dst = writeRecordMeta(append(dst, "\n<div class=\"rec-body\">\n<dl class=\"meta\">"...), p, d)
	dst = append(dst, "\n</dl>\n\n<section aria-labelledby=\"source\">\n"...)
	if dst, err = appendSection(dst, p, "source"); err != nil {
		return nil, err
	}
	dst = writeSourcePath(append(dst, "\n<p class=\"path\">"...), d)
	if d.Excerpt != "" {
		dst = append(append(dst, '\n'), d.Excerpt...)
	}
	dst = append(dst, "\n</section>"...)
	if dst, err = writeRecordSections(dst, p, d); err != nil {
		return nil, err
	}
	if d.Report != "" {
		dst = appendURLAttr(append(dst, "\n<p class=\"report\"><a href=\""...), d.Report)
		dst = append(dst, "\">Report a problem with this page</a></p>"...)
	}
	return append(dst, "\n</div>\n</article>"...), nil
}

// writeRecordMeta appends the record's facts (the meta list's items).
func writeRecordMeta(dst []byte, p *Page, d *recordData) []byte {
	r := d.R
	if r.ErrorClass != "" {
		dst = append(appendHTML(append(dst, "\n<div><dt>Error class</dt><dd><code>"...), r.ErrorClass), "</code></dd></div>"...)
	}
	if r.ErrorCode != "" {
		dst = append(appendHTML(append(dst, "\n<div><dt>Error code</dt><dd><code>"...), r.ErrorCode), "</code></dd></div>"...)
	}
	if r.ErrorType != "" {
		dst = append(appendHTML(append(dst, "\n<div><dt>Type</dt><dd>"...), r.ErrorType), "</dd></div>"...)
	}
	if r.Severity != "" {
		dst = appendHTML(append(dst, "\n<div><dt>Severity</dt><dd><span class=\"badge sev-"...), r.Severity)
		dst = append(appendHTML(append(dst, "\">"...), sevLabel(r.Severity)), "</span></dd></div>"...)
	}
	if r.HTTPStatus != 0 {
		dst = append(strconv.AppendInt(append(dst, "\n<div><dt>HTTP status</dt><dd>"...), int64(r.HTTPStatus), 10), "</dd></div>"...)
	}
	dst = appendURLAttr(append(dst, "\n<div><dt>Repository</dt><dd><a href=\""...), p.Link(d.RepoPath))
	dst = append(appendHTML(append(dst, "\">"...), r.Repo), "</a></dd></div>"...)
	if d.Language != "" {
		dst = append(appendHTML(append(dst, "\n<div><dt>Language</dt><dd>"...), d.Language), "</dd></div>"...)
	}
	if f := d.Family; f.Name != "" {
		dst = append(dst, "\n<div><dt>Family</dt><dd>"...)
		dst = append(appendLink(dst, p, f), "</dd></div>"...)
	}
	return dst
}

// appendLink appends l's name, linked when it has a path.
func appendLink(dst []byte, p *Page, l link) []byte {
	if l.Path == "" {
		return appendHTML(dst, l.Name)
	}
	dst = appendURLAttr(append(dst, "<a href=\""...), p.Link(l.Path))
	return append(appendHTML(append(dst, "\">"...), l.Name), "</a>"...)
}

// writeSourcePath appends the raising line's place: file, line, excerpt
// range and commit, each linked where the record's URL allows.
func writeSourcePath(dst []byte, d *recordData) []byte {
	r, up := d.R, d.Upstream
	if up.Line != "" {
		dst = append(appendURLAttr(append(dst, "<a href=\""...), up.Line), "\">"...)
	}
	dst = append(appendHTML(append(dst, "<code>"...), r.FilePath), "</code>"...)
	if r.LineNumber != 0 {
		dst = strconv.AppendInt(append(dst, ", line "...), int64(r.LineNumber), 10)
	}
	if up.Line != "" {
		dst = append(dst, "</a>"...)
	}
	if up.Range != "" {
		dst = appendURLAttr(append(dst, " <span class=\"m\">(excerpt: <a href=\""...), up.Range)
		dst = append(appendHTML(append(dst, "\">"...), up.RangeText), "</a>)</span>"...)
	}
	if sha := r.AnalyzedSha; sha != "" {
		dst = append(dst, " <span class=\"m\">at commit "...)
		if up.Commit != "" {
			dst = append(appendURLAttr(append(dst, "<a href=\""...), up.Commit), "\">"...)
		}
		dst = append(appendHTML(append(dst, "<code>"...), firstRunes(sha, 12)), "</code>"...)
		if up.Commit != "" {
			dst = append(dst, "</a>"...)
		}
		dst = append(dst, "</span>"...)
	}
	return append(dst, "</p>"...)
}

// firstRunes is s cut to n runes, as printf "%.12s" cuts it.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// appendSection appends the heading of section id (the "h2" memo).
func appendSection(dst []byte, p *Page, id string) ([]byte, error) {
	l, err := section(id)
	if err != nil {
		return nil, err
	}
	return appendMemo(dst, p, "h2", l)
}

// writeRecordSections appends the sections after the source: prose,
// solutions, fix, handling, checklist and see also, each when it has
// content.
func writeRecordSections(dst []byte, p *Page, d *recordData) ([]byte, error) {
	var err error
	for _, s := range []struct {
		id   string
		html template.HTML
	}{{"meaning", d.Documentation}, {"triggers", d.Triggers}, {"situations", d.Situations}} {
		if s.html == "" {
			continue
		}
		if dst, err = openSection(dst, p, s.id); err != nil {
			return nil, err
		}
		dst = append(append(append(dst, "\n<div class=\"prose\">"...), s.html...), "</div>\n</section>"...)
	}
	if len(d.Solutions) > 0 {
		if dst, err = openSection(dst, p, "solutions"); err != nil {
			return nil, err
		}
		dst = append(appendItems(append(dst, "\n<ol class=\"prose sol\">"...), d.Solutions), "\n</ol>\n</section>"...)
	}
	if d.ExampleFix != "" {
		if dst, err = openSection(dst, p, "example-fix"); err != nil {
			return nil, err
		}
		dst = append(append(append(dst, '\n'), d.ExampleFix...), "\n</section>"...)
	}
	if d.Strategy != "" || len(d.Patterns) > 0 {
		if dst, err = openSection(dst, p, "handling"); err != nil {
			return nil, err
		}
		if d.Strategy != "" {
			dst = append(appendHTML(append(dst, "\n<p>Recommended strategy: <strong>"...), d.Strategy), "</strong></p>"...)
		}
		for _, c := range d.Patterns {
			dst = append(appendHTML(append(dst, "\n<h3>"...), c.Title), "</h3>\n"...)
			dst = append(dst, c.Code...)
		}
		dst = append(dst, "\n</section>"...)
	}
	if len(d.Tips) > 0 {
		if dst, err = openSection(dst, p, "prevention"); err != nil {
			return nil, err
		}
		dst = append(appendHTML(append(dst, "\n<ul class=\"prose checklist\" data-record=\""...), d.R.ID), "\">"...)
		dst = append(appendItems(dst, d.Tips), "\n</ul>\n</section>"...)
	}
	if len(d.Tags) > 0 || len(d.Related) > 0 {
		if dst, err = openSection(dst, p, "see-also"); err != nil {
			return nil, err
		}
		dst = append(writeSeeAlso(dst, p, d), "\n</section>"...)
	}
	return dst, nil
}

// openSection appends a section's start tag and heading.
func openSection(dst []byte, p *Page, id string) ([]byte, error) {
	dst = append(append(append(dst, "\n<section aria-labelledby=\""...), id...), "\">\n"...)
	return appendSection(dst, p, id)
}

// appendItems appends each rendered item as a list item.
func appendItems(dst []byte, items []template.HTML) []byte {
	for _, h := range items {
		dst = append(append(append(dst, "\n<li>"...), h...), "</li>"...)
	}
	return dst
}

// writeSeeAlso appends the record's tags and related records.
func writeSeeAlso(dst []byte, p *Page, d *recordData) []byte {
	if len(d.Tags) > 0 {
		dst = append(dst, "\n<h3>Tags</h3>\n<ul class=\"tags\">"...)
		for _, t := range d.Tags {
			dst = append(appendLink(append(dst, "\n<li>"...), p, t), "</li>"...)
		}
		dst = append(dst, "\n</ul>"...)
	}
	if len(d.Related) > 0 {
		dst = append(dst, "\n<h3>Related errors</h3>\n<ul class=\"list\">"...)
		for _, e := range d.Related {
			dst = writeEntry(append(dst, '\n'), e)
		}
		dst = append(dst, "\n</ul>"...)
	}
	return dst
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
