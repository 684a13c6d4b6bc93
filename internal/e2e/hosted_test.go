package e2e

import (
	"encoding/json"
	"encoding/xml"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/browsertest"
)

// hostedBase is where the hosted test publishes the site: a path prefix,
// as a site hosted beside others is.
const hostedBase = "https://example.org/docs/errors/"

// hostileMessage would end the JSON-LD script element, then the JSON
// string and object, if either were written unescaped.
const hostileMessage = `</script><script>window.__xss=1</script> "} ]]> <!-- x`

// hostileRecord is a valid record whose text tries to break out of the
// head's JSON-LD and attributes. It stands alone (no error code, its own
// pattern) and is not thin, so its page is canonical and indexable.
func hostileRecord(from record.Record) record.Record {
	r := from
	r.ID = "ffffffffffff0001"
	r.Repo = "hostile/jsonld"
	r.Slug = "script-breakout"
	r.ErrorCode = ""
	r.ErrorMessage = hostileMessage
	r.MessagePattern = `^</script>.*x$`
	r.Documentation = `Breaks "} out </script><script>window.__xss=2</script> of the "head" & more. ` + strings.Repeat("It explains why the error happens. ", 8)
	r.Tags = []string{"hostile"}
	r.BackgroundTag = ""
	r.Solutions = []string{"Escape it."}
	return r
}

// writeRecords writes records as one JSON array file in a folder of its
// own and returns the folder.
func writeRecords(t testing.TB, dir string, rs ...record.Record) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(rs, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var (
	canonicalRE   = regexp.MustCompile(`<link rel="canonical" href="([^"]*)">`)
	robotsRE      = regexp.MustCompile(`<meta name="robots" content="([^"]*)">`)
	descriptionRE = regexp.MustCompile(`<meta name="description" content="([^"]*)">`)
	ogRE          = regexp.MustCompile(`<meta property="(og:[a-z_]+)" content="([^"]*)">`)
	jsonLDRE      = regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`)
)

// attr returns the unescaped first submatch of re in page, or "".
func attr(re *regexp.Regexp, page []byte) string {
	m := re.FindSubmatch(page)
	if m == nil {
		return ""
	}
	return html.UnescapeString(string(m[1]))
}

// TestHosted builds the sample dataset (and one hostile record) with a
// base URL that has a path prefix, serves the output under that prefix on
// loopback, and checks what a host and a crawler see: links followed in
// Chromium resolve and stay under the prefix; canonical links, the
// sitemap index, each sitemap file (within the protocol's limits), the
// Atom feed and robots.txt point at pages that resolve; the JSON-LD of a
// hostile record parses back as the record's text; meta descriptions are
// at most 160 characters cut at a word.
func TestHosted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a site: skipped in -short mode")
	}
	data, recs := sampleData(t)
	tmp := t.TempDir()
	hostile := hostileRecord(recs[0])
	extra := writeRecords(t, filepath.Join(tmp, "extra"), hostile)
	recs = append(slices.Clone(recs), hostile)
	out := filepath.Join(tmp, "site")
	runErrdocs(t, tmp, "build", data, extra, "--out", out, "--cache", filepath.Join(tmp, "cache"),
		"--base-url", hostedBase, "--quiet")

	// Serve the output under the base URL's path, as the host would.
	const prefix = "/docs/errors/"
	mux := http.NewServeMux()
	mux.Handle(prefix, http.StripPrefix(strings.TrimSuffix(prefix, "/"), http.FileServer(http.Dir(out))))
	origin := browsertest.ServeHandler(t, mux)
	local := strings.TrimSuffix(origin, "/") + prefix
	// toLocal maps a URL under the base URL to the loopback server.
	toLocal := func(t *testing.T, u string) string {
		t.Helper()
		rest, ok := strings.CutPrefix(u, hostedBase)
		if !ok {
			t.Errorf("%s is not under the base URL %s", u, hostedBase)
			return ""
		}
		return local + rest
	}
	resolves := func(t *testing.T, u, from string) {
		t.Helper()
		if u == "" {
			return
		}
		if code, _, _ := get(t, u); code != http.StatusOK {
			t.Errorf("%s (from %s): status %d", u, from, code)
		}
	}

	t.Run("robots", func(t *testing.T) {
		code, _, b := get(t, local+"robots.txt")
		if code != http.StatusOK || !strings.Contains(string(b), "\nSitemap: "+hostedBase+"sitemap.xml\n") {
			t.Errorf("robots.txt (%d) does not name the sitemap:\n%s", code, b)
		}
	})

	t.Run("links in the browser", func(t *testing.T) {
		ctx := browsertest.New(t)
		// Visit the home page, then one page of each kind found by
		// following links; on each, every link, stylesheet, script and
		// icon must stay under the prefix and resolve.
		kinds := []*regexp.Regexp{
			regexp.MustCompile(`/docs/errors/repos/$`),
			regexp.MustCompile(`/docs/errors/tags/[^/]+/$`),
			regexp.MustCompile(`/docs/errors/families/[^/]+/$`),
			regexp.MustCompile(`/docs/errors/[^/]+/[^/]+/$`),        // a repo
			regexp.MustCompile(`/docs/errors/[^/]+/[^/]+/[^/]+/$`),  // a record
			regexp.MustCompile(`/docs/errors/[^/]+/[^/]+/page/2/$`), // a second page
			regexp.MustCompile(`/docs/errors/search/$`),
		}
		visited := map[string]bool{}
		checked := map[string]bool{}
		queue := []string{local}
		for len(queue) > 0 && len(visited) < 12 {
			page := queue[0]
			queue = queue[1:]
			if visited[page] {
				continue
			}
			visited[page] = true
			browsertest.Navigate(t, ctx, page)
			if got := browsertest.Eval[string](t, ctx, `location.href`); got != page {
				t.Errorf("opened %s, the browser shows %s", page, got)
			}
			urls := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('a[href],link[href],script[src],img[src],form[action]')).map(function(e){return e.href||e.src||e.action})`)
			for _, u := range urls {
				if !strings.HasPrefix(u, origin) {
					continue // GitHub and other sites
				}
				u, _, _ = strings.Cut(u, "#")
				if !strings.HasPrefix(u, local) {
					t.Errorf("%s links to %s, outside the site's prefix %s", page, u, prefix)
					continue
				}
				if !checked[u] {
					checked[u] = true
					resolves(t, u, page)
				}
				for k, re := range kinds {
					if re != nil && re.MatchString(u) && !strings.Contains(u, "?") {
						queue = append(queue, u)
						kinds[k] = nil
					}
				}
			}
			if c := browsertest.Eval[string](t, ctx, `(document.querySelector('link[rel=canonical]')||{}).href||''`); c != "" {
				resolves(t, toLocal(t, c), page+" (canonical)")
			}
		}
		if len(visited) < 6 {
			t.Errorf("visited only %d pages: %v", len(visited), slices.Sorted(func(yield func(string) bool) {
				for k := range visited {
					if !yield(k) {
						return
					}
				}
			}))
		}
		t.Logf("visited %d pages, checked %d URLs", len(visited), len(checked))
	})

	// indexable is every record page a crawler may index: its canonical
	// link names itself and it carries no noindex.
	indexable := map[string]bool{}
	t.Run("canonical links", func(t *testing.T) {
		for _, r := range recs {
			page, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(r.Path()), "index.html"))
			if err != nil {
				t.Errorf("record %s has no page: %v", r.ID, err)
				continue
			}
			self := hostedBase + r.Path()
			c := attr(canonicalRE, page)
			robots := attr(robotsRE, page)
			switch {
			case c == "":
				t.Errorf("%s has no canonical link", r.Path())
			case c == self:
				thin := len(r.Documentation) < 200 && len(r.Solutions) == 0
				if thin != strings.Contains(robots, "noindex") {
					t.Errorf("%s: thin %v but robots %q", r.Path(), thin, robots)
				}
				if !thin {
					indexable[self] = true
				}
			default:
				// A duplicate points at its group's best page, which is
				// canonical itself: no chains.
				target, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(c, hostedBase)), "index.html"))
				if err != nil {
					t.Errorf("%s: canonical %s has no page", r.Path(), c)
				} else if tc := attr(canonicalRE, target); tc != c {
					t.Errorf("%s: canonical %s is itself canonical to %s", r.Path(), c, tc)
				}
			}
			if og := attr(regexp.MustCompile(`<meta property="og:url" content="([^"]*)">`), page); og != c {
				t.Errorf("%s: og:url %q, canonical %q", r.Path(), og, c)
			}
		}
		if len(indexable) == 0 {
			t.Error("no record page is indexable")
		}
	})

	t.Run("sitemaps", func(t *testing.T) {
		code, _, b := get(t, local+"sitemap.xml")
		if code != http.StatusOK {
			t.Fatalf("sitemap.xml: status %d", code)
		}
		var idx struct {
			XMLName  xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 sitemapindex"`
			Sitemaps []struct {
				Loc     string `xml:"loc"`
				Lastmod string `xml:"lastmod"`
			} `xml:"sitemap"`
		}
		if err := xml.Unmarshal(b, &idx); err != nil {
			t.Fatalf("sitemap.xml is not a sitemap index: %v", err)
		}
		if len(idx.Sitemaps) == 0 {
			t.Fatal("the sitemap index names no sitemap")
		}
		listed := map[string]bool{}
		for _, sm := range idx.Sitemaps {
			code, _, b := get(t, toLocal(t, sm.Loc))
			if code != http.StatusOK {
				t.Errorf("%s: status %d", sm.Loc, code)
				continue
			}
			if _, err := time.Parse(time.RFC3339, sm.Lastmod); err != nil {
				t.Errorf("%s: lastmod %q: %v", sm.Loc, sm.Lastmod, err)
			}
			var us struct {
				XMLName xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
				URLs    []struct {
					Loc     string `xml:"loc"`
					Lastmod string `xml:"lastmod"`
				} `xml:"url"`
			}
			if err := xml.Unmarshal(b, &us); err != nil {
				t.Errorf("%s is not a sitemap: %v", sm.Loc, err)
				continue
			}
			if len(us.URLs) > 50000 || len(b) > 50<<20 {
				t.Errorf("%s: %d URLs in %d bytes, over the protocol's limits", sm.Loc, len(us.URLs), len(b))
			}
			for _, u := range us.URLs {
				if listed[u.Loc] {
					t.Errorf("%s is listed twice", u.Loc)
				}
				listed[u.Loc] = true
				if _, err := time.Parse(time.RFC3339, u.Lastmod); err != nil {
					t.Errorf("%s: lastmod %q: %v", u.Loc, u.Lastmod, err)
				}
				l := toLocal(t, u.Loc)
				if l == "" {
					continue
				}
				code, _, page := get(t, l)
				if code != http.StatusOK {
					t.Errorf("%s (in %s): status %d", u.Loc, sm.Loc, code)
					continue
				}
				if strings.Contains(attr(robotsRE, page), "noindex") {
					t.Errorf("%s is listed but carries noindex", u.Loc)
				}
				if c := attr(canonicalRE, page); c != u.Loc {
					t.Errorf("%s is listed but its canonical link is %s", u.Loc, c)
				}
			}
		}
		for u := range indexable {
			if !listed[u] {
				t.Errorf("the indexable page %s is in no sitemap", u)
			}
		}
		if !listed[hostedBase] {
			t.Error("the home page is in no sitemap")
		}
		t.Logf("%d sitemap files, %d URLs (%d indexable record pages of %d)", len(idx.Sitemaps), len(listed), len(indexable), len(recs))
	})

	t.Run("feed", func(t *testing.T) {
		code, hdr, b := get(t, local+"feed.xml")
		if code != http.StatusOK {
			t.Fatalf("feed.xml: status %d", code)
		}
		t.Logf("feed.xml served as %s", hdr.Get("Content-Type"))
		var f struct {
			XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
			ID      string   `xml:"id"`
			Updated string   `xml:"updated"`
			Links   []struct {
				Rel  string `xml:"rel,attr"`
				Href string `xml:"href,attr"`
			} `xml:"link"`
			Entries []struct {
				Title   string `xml:"title"`
				ID      string `xml:"id"`
				Updated string `xml:"updated"`
				Link    struct {
					Href string `xml:"href,attr"`
				} `xml:"link"`
			} `xml:"entry"`
		}
		if err := xml.Unmarshal(b, &f); err != nil {
			t.Fatalf("feed.xml is not an Atom feed: %v", err)
		}
		if want := min(50, len(recs)); len(f.Entries) != want {
			t.Errorf("the feed has %d entries, want %d", len(f.Entries), want)
		}
		if _, err := time.Parse(time.RFC3339, f.Updated); err != nil {
			t.Errorf("feed updated %q: %v", f.Updated, err)
		}
		self := false
		for _, l := range f.Links {
			self = self || (l.Rel == "self" && l.Href == hostedBase+"feed.xml")
		}
		if !self || f.ID != hostedBase {
			t.Errorf("feed id %q, links %v: want id %s and a self link to feed.xml", f.ID, f.Links, hostedBase)
		}
		prev := time.Now().Add(24 * time.Hour * 365 * 10)
		for _, e := range f.Entries {
			if !strings.HasPrefix(e.ID, hostedBase) || e.Title == "" {
				t.Errorf("entry %q: id %q", e.Title, e.ID)
			}
			at, err := time.Parse(time.RFC3339, e.Updated)
			if err != nil {
				t.Errorf("entry %s: updated %q: %v", e.ID, e.Updated, err)
			}
			if at.After(prev) {
				t.Errorf("entry %s is newer than the one before it: not newest first", e.ID)
			}
			prev = at
			resolves(t, toLocal(t, e.Link.Href), "feed.xml")
		}
	})

	t.Run("hostile JSON-LD", func(t *testing.T) {
		page, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(hostile.Path()), "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		blocks := jsonLDRE.FindAllSubmatch(page, -1)
		if len(blocks) != 2 {
			t.Fatalf("%d JSON-LD blocks, want a TechArticle and a BreadcrumbList", len(blocks))
		}
		var article struct {
			Type          string `json:"@type"`
			Headline      string `json:"headline"`
			Description   string `json:"description"`
			DatePublished string `json:"datePublished"`
			DateModified  string `json:"dateModified"`
			URL           string `json:"url"`
			Keywords      string `json:"keywords"`
			About         []struct {
				Name string `json:"name"`
			} `json:"about"`
		}
		if err := json.Unmarshal(blocks[0][1], &article); err != nil {
			t.Fatalf("the TechArticle does not parse: %v\n%s", err, blocks[0][1])
		}
		if article.Type != "TechArticle" || article.Headline != hostileMessage || article.URL != hostedBase+hostile.Path() ||
			article.DatePublished != hostile.AnalyzedAt || article.DateModified != hostile.AnalyzedAt ||
			!strings.Contains(article.Description, `</script><script>window.__xss=2</script>`) ||
			len(article.About) == 0 || article.About[0].Name != hostile.Repo || !strings.Contains(article.Keywords, "hostile") {
			t.Errorf("TechArticle does not carry the record's text: %+v", article)
		}
		var crumbs struct {
			Type  string `json:"@type"`
			Items []struct {
				Position int    `json:"position"`
				Name     string `json:"name"`
				Item     string `json:"item"`
			} `json:"itemListElement"`
		}
		if err := json.Unmarshal(blocks[1][1], &crumbs); err != nil {
			t.Fatalf("the BreadcrumbList does not parse: %v\n%s", err, blocks[1][1])
		}
		if crumbs.Type != "BreadcrumbList" || len(crumbs.Items) != 3 || crumbs.Items[2].Item != hostedBase+hostile.Path() ||
			crumbs.Items[1].Item != hostedBase+hostile.Repo+"/" || crumbs.Items[0].Position != 1 {
			t.Errorf("BreadcrumbList: %+v", crumbs)
		}
		// The open tags and close tags of script elements pair up: no
		// record text ended one or opened another.
		if o, c := strings.Count(string(page), "<script"), strings.Count(string(page), "</script>"); o != c {
			t.Errorf("%d <script> and %d </script>", o, c)
		}
		og := map[string]string{}
		for _, m := range ogRE.FindAllSubmatch(page, -1) {
			og[string(m[1])] = html.UnescapeString(string(m[2]))
		}
		if !strings.HasPrefix(og["og:title"], hostileMessage) || og["og:type"] != "article" || og["og:site_name"] == "" ||
			og["og:description"] != attr(descriptionRE, page) || og["og:url"] != hostedBase+hostile.Path() {
			t.Errorf("Open Graph: %q", og)
		}

		// And in a browser: nothing ran, the blocks parse as JSON.
		ctx := browsertest.New(t)
		browsertest.Navigate(t, ctx, local+hostile.Path())
		if n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('script[type="application/ld+json"]').length`); n != 2 {
			t.Errorf("the browser sees %d JSON-LD blocks", n)
		}
		if got := browsertest.Eval[string](t, ctx, `JSON.parse(document.querySelector('script[type="application/ld+json"]').textContent).headline`); got != hostileMessage {
			t.Errorf("the browser reads the headline as %q", got)
		}
		if ran := browsertest.Eval[bool](t, ctx, `window.__xss !== undefined`); ran {
			t.Error("record text ran as script")
		}
		if got := browsertest.Eval[string](t, ctx, `document.querySelector('meta[property="og:title"]').content`); !strings.HasPrefix(got, hostileMessage) {
			t.Errorf("the browser reads og:title as %q", got)
		}
	})

	t.Run("meta descriptions", func(t *testing.T) {
		for _, r := range recs {
			page, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(r.Path()), "index.html"))
			if err != nil {
				continue // reported by canonical links
			}
			d := attr(descriptionRE, page)
			if d == "" || utf8.RuneCountInString(d) > 160 {
				t.Errorf("%s: description of %d characters: %q", r.Path(), utf8.RuneCountInString(d), d)
				continue
			}
			// A cut description ends with a whole word of the
			// documentation (or the message) before its ellipsis.
			if cut, ok := strings.CutSuffix(d, "…"); ok {
				words := strings.Fields(cut)
				if len(words) == 0 {
					t.Errorf("%s: description %q", r.Path(), d)
					continue
				}
				last := strings.TrimRightFunc(words[len(words)-1], unicode.IsPunct)
				src := strings.Fields(r.Documentation + " " + r.ErrorMessage)
				if !slices.ContainsFunc(src, func(w string) bool { return strings.Contains(w, last) && wordEdge(w, last) }) {
					t.Errorf("%s: description %q is cut inside a word (%q)", r.Path(), d, last)
				}
			}
		}
	})
}

// wordEdge reports whether part ends w or is followed in w by a character
// that is not a letter or digit: it ends a word there.
func wordEdge(w, part string) bool {
	for i := strings.Index(w, part); i >= 0; {
		end := i + len(part)
		if end == len(w) {
			return true
		}
		r, _ := utf8.DecodeRuneInString(w[end:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return true
		}
		j := strings.Index(w[i+1:], part)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
