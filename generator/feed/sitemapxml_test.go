package feed

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSitemapXMLIsEncodingXML checks the hand-written sitemap encoders
// against encoding/xml (marshal) on empty sets and on URLs holding every
// character XML escapes or forbids.
func TestSitemapXMLIsEncodingXML(t *testing.T) {
	pieces := []string{"https://errors.example.org/", "a&b", "<script>", "\"q\"", "'s'", "x>y", "\t", "\n", "\r",
		"\x00", "\x1f", "\uFFFD", "\xff", "\xed\xa0\x80", "é", "😀", "\uFFFE", " ", "]]>", "%2F", ""}
	rng := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var s strings.Builder
		for n := rng.IntN(6); n > 0; n-- {
			s.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return s.String()
	}
	for round := 0; round < 300; round++ {
		n := rng.IntN(4)
		if round < 2 {
			n = round // an empty set, then one URL
		}
		var urls []sitemapURL
		var refs []sitemapRef
		for i := 0; i < n; i++ {
			urls = append(urls, sitemapURL{Loc: text(), Lastmod: text()})
			refs = append(refs, sitemapRef{Loc: text(), Lastmod: text()})
		}
		want, err := marshal(urlSet{XMLNS: sitemapNS, URLs: urls})
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		appendURLSet(&got, urls)
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("urlset of %q:\n got %q\nwant %q", urls, got.Bytes(), want)
		}
		want, err = marshal(sitemapIndex{XMLNS: sitemapNS, Sitemaps: refs})
		if err != nil {
			t.Fatal(err)
		}
		got.Reset()
		appendSitemapIndex(&got, refs)
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("sitemap index of %q:\n got %q\nwant %q", refs, got.Bytes(), want)
		}
	}
}
