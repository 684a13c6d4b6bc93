package feed

import (
	"bytes"
	"encoding/xml"
)

// The sitemap files are written by hand, in the exact bytes marshal
// (encoding/xml, one element a line) gives for urlSet and sitemapIndex:
// a sitemap holds tens of thousands of URLs, and encoding/xml's
// reflection cost more than the rest of a rebuild's sitemaps. Text goes
// through xml.EscapeText, the escaping encoding/xml applies to it, so no
// string can end an element; a test compares both encoders on hostile
// strings.

// appendURLSet is marshal(urlSet{XMLNS: sitemapNS, URLs: urls}).
func appendURLSet(b *bytes.Buffer, urls []sitemapURL) {
	b.WriteString(xml.Header)
	b.WriteString(`<urlset xmlns="` + sitemapNS + `">`)
	for _, u := range urls {
		b.WriteString("\n <url>")
		element(b, "loc", u.Loc)
		if u.Lastmod != "" {
			element(b, "lastmod", u.Lastmod)
		}
		b.WriteString("\n </url>")
	}
	if len(urls) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("</urlset>\n")
}

// appendSitemapIndex is marshal(sitemapIndex{XMLNS: sitemapNS, Sitemaps: refs}).
func appendSitemapIndex(b *bytes.Buffer, refs []sitemapRef) {
	b.WriteString(xml.Header)
	b.WriteString(`<sitemapindex xmlns="` + sitemapNS + `">`)
	for _, r := range refs {
		b.WriteString("\n <sitemap>")
		element(b, "loc", r.Loc)
		if r.Lastmod != "" {
			element(b, "lastmod", r.Lastmod)
		}
		b.WriteString("\n </sitemap>")
	}
	if len(refs) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("</sitemapindex>\n")
}

// element writes one child element, two spaces in, holding text.
func element(b *bytes.Buffer, name, text string) {
	b.WriteString("\n  <" + name + ">")
	xml.EscapeText(b, []byte(text)) // a bytes.Buffer's writes do not fail
	b.WriteString("</" + name + ">")
}
