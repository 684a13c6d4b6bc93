package render

import (
	"fmt"
	"strconv"
)

// The "main" of repo.html and group.html, a repo's, a tag's or a family's
// records, written (pagewrite.go).

// listingData is a listing page's data.
func listingData(p *Page) (*listData, error) {
	d, ok := p.Data.(*listData)
	if !ok {
		return nil, fmt.Errorf("listing page data is %T", p.Data)
	}
	return d, nil
}

// writeRepoMain appends repo.html's "main".
func writeRepoMain(dst []byte, p *Page) ([]byte, error) {
	d, err := listingData(p)
	if err != nil {
		return nil, err
	}
	g := &d.Group
	dst = append(appendHTML(append(dst, "\n<h1>"...), d.Heading), "</h1>"...)
	if g.Description != "" {
		dst = append(appendHTML(append(dst, "\n<p class=\"lead\">"...), g.Description), "</p>"...)
	}
	dst = append(appendHTML(append(dst, "\n<ul class=\"facts\">\n<li>"...), count(g.Records, "documented error")), "</li>"...)
	if g.Language != "" {
		dst = append(appendHTML(append(dst, "\n<li>Language: "...), g.Language), "</li>"...)
	}
	if g.Known {
		dst = append(appendHTML(append(dst, "\n<li>"...), count(g.Stars, "star")), "</li>"...)
	}
	dst = appendURLAttr(append(dst, "\n<li><a href=\""...), d.Search)
	dst = append(dst, "\">Search this repository’s errors</a></li>\n</ul>\n<h2>Errors</h2>"...)
	return writePager(writeEntries(dst, d), p, d.Pager), nil
}

// writeGroupMain appends group.html's "main".
func writeGroupMain(dst []byte, p *Page) ([]byte, error) {
	d, err := listingData(p)
	if err != nil {
		return nil, err
	}
	g := &d.Group
	heading := d.Heading
	if d.Info != nil && d.Info.Title != "" {
		heading = d.Info.Title
	}
	dst = append(appendHTML(append(dst, "\n<h1>"...), heading), "</h1>"...)
	if d.Info != nil && d.Info.Summary != "" {
		dst = append(appendHTML(append(dst, "\n<p class=\"lead\">"...), d.Info.Summary), "</p>"...)
	}
	kind, search := "Family", "of this family"
	if d.Kind == "tag" {
		kind, search = "Tag", "with this tag"
	}
	dst = append(append(append(dst, "\n<ul class=\"facts\">\n<li>"...), kind...), " <code>"...)
	dst = append(appendHTML(dst, g.Name), "</code></li>\n<li>"...)
	dst = append(appendHTML(dst, count(g.Records, "error")), " in "...)
	dst = append(appendHTML(dst, count(g.Repos, "repository", "repositories")), "</li>"...)
	if d.Search != "" {
		dst = appendURLAttr(append(dst, "\n<li><a href=\""...), d.Search)
		dst = append(append(append(dst, "\">Search errors "...), search...), "</a></li>"...)
	}
	dst = append(dst, "\n</ul>"...)
	if d.Info != nil {
		dst = writeInfo(dst, d.Info)
	}
	dst = append(dst, "\n<h2>Errors</h2>"...)
	return writePager(writeEntries(dst, d), p, d.Pager), nil
}

// writeInfo appends a family's background article: background, common
// causes and fixes, each when it has content.
func writeInfo(dst []byte, in *infoData) []byte {
	if in.Background != "" {
		dst = append(dst, "\n<section aria-labelledby=\"h-bg\">\n<h2 id=\"h-bg\"><a class=\"anchor\" href=\"#h-bg\">Background</a></h2>\n<div class=\"prose\">"...)
		dst = append(append(dst, in.Background...), "</div>\n</section>"...)
	}
	if len(in.Causes) > 0 {
		dst = append(dst, "\n<section aria-labelledby=\"h-causes\">\n<h2 id=\"h-causes\"><a class=\"anchor\" href=\"#h-causes\">Common causes</a></h2>\n<dl class=\"causes\">"...)
		for _, c := range in.Causes {
			dst = append(appendHTML(append(dst, "\n<dt>"...), c.Cause), "</dt>"...)
			if c.Detail != "" {
				dst = append(append(append(dst, "\n<dd>"...), c.Detail...), "</dd>"...)
			}
		}
		dst = append(dst, "\n</dl>\n</section>"...)
	}
	if len(in.Fixes) > 0 {
		dst = append(dst, "\n<section aria-labelledby=\"h-fixes\">\n<h2 id=\"h-fixes\"><a class=\"anchor\" href=\"#h-fixes\">Fixes</a></h2>\n<ol class=\"prose sol\">"...)
		dst = append(appendItems(dst, in.Fixes), "\n</ol>\n</section>"...)
	}
	return dst
}

// writeEntries appends partials.html's "entries": the page's records.
func writeEntries(dst []byte, d *listData) []byte {
	dst = append(strconv.AppendInt(append(dst, "\n<ol class=\"list\" start=\""...), int64(d.First), 10), "\">"...)
	for _, e := range d.Entries {
		dst = writeEntry(append(dst, '\n'), e)
	}
	return append(dst, "\n</ol>"...)
}

// writePager appends partials.html's "pager", nothing when the listing
// fits one page.
func writePager(dst []byte, p *Page, pr *pager) []byte {
	if pr == nil {
		return dst
	}
	dst = strconv.AppendInt(append(dst, "\n<nav class=\"pager\" aria-label=\"Pages\">\n<p>Page "...), int64(pr.Number), 10)
	dst = append(strconv.AppendInt(append(dst, " of "...), int64(pr.Total), 10), "</p>\n<ul>"...)
	if pr.Prev != "" {
		dst = append(appendURLAttr(append(dst, "\n<li><a href=\""...), p.Link(pr.Prev)), "\" rel=\"prev\">‹ Previous</a></li>"...)
	}
	for _, l := range pr.Pages {
		switch {
		case l.Gap:
			dst = append(dst, "\n<li class=\"gap\">…</li>"...)
			continue
		case l.Current:
			dst = append(appendURLAttr(append(dst, "\n<li><a href=\""...), p.Link(l.Path)), "\" aria-current=\"page\">"...)
		default:
			dst = append(appendURLAttr(append(dst, "\n<li><a href=\""...), p.Link(l.Path)), "\">"...)
		}
		dst = append(strconv.AppendInt(dst, int64(l.N), 10), "</a></li>"...)
	}
	if pr.Next != "" {
		dst = append(appendURLAttr(append(dst, "\n<li><a href=\""...), p.Link(pr.Next)), "\" rel=\"next\">Next ›</a></li>"...)
	}
	return append(dst, "\n</ul>\n</nav>"...)
}
