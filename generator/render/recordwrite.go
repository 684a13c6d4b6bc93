package render

import (
	"fmt"
	"html/template"
	"strconv"
)

// record.html's "main", written (pagewrite.go).

// writeRecordMain appends record.html's "main".
func writeRecordMain(dst []byte, p *Page) ([]byte, error) {
	d, ok := p.Data.(*recordData)
	if !ok {
		return nil, fmt.Errorf("record page data is %T", p.Data)
	}
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
