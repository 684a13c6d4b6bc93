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
	appendList(b, "urlset", "url", len(urls), func(i int) (string, string) { return urls[i].Loc, urls[i].Lastmod })
}

// appendSitemapIndex is marshal(sitemapIndex{XMLNS: sitemapNS, Sitemaps: refs}).
func appendSitemapIndex(b *bytes.Buffer, refs []sitemapRef) {
	appendList(b, "sitemapindex", "sitemap", len(refs), func(i int) (string, string) { return refs[i].Loc, refs[i].Lastmod })
}

// appendList writes a document of n items (a loc and an optional lastmod
// each) inside a root element in the sitemap namespace.
func appendList(b *bytes.Buffer, root, item string, n int, at func(int) (loc, lastmod string)) {
	b.WriteString(xml.Header)
	b.WriteString("<" + root + ` xmlns="` + sitemapNS + `">`)
	for i := 0; i < n; i++ {
		loc, lastmod := at(i)
		tag(b, "\n <", item)
		element(b, "loc", loc)
		if lastmod != "" {
			element(b, "lastmod", lastmod)
		}
		tag(b, "\n </", item)
	}
	if n > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("</" + root + ">\n")
}

// element writes one child element, two spaces in, holding text.
func element(b *bytes.Buffer, name, text string) {
	tag(b, "\n  <", name)
	xml.EscapeText(b, []byte(text)) // a bytes.Buffer's writes do not fail
	tag(b, "</", name)
}

// tag writes open, name and ">" (no string built for each of a sitemap's
// tens of thousands of URLs).
func tag(b *bytes.Buffer, open, name string) {
	b.WriteString(open)
	b.WriteString(name)
	b.WriteByte('>')
}
