// Package feed writes the files that point crawlers and feed readers at a
// hosted site: robots.txt, the sitemap index and its sitemap files, and an
// Atom feed of the most recently analysed records.
//
// Every string that reaches these files comes from untrusted records; the
// XML is written by encoding/xml (the sitemaps by hand, in its bytes and
// with its escaping: sitemapxml.go), which escapes text and attributes and
// replaces the code points XML forbids, so no record string can end an
// element or an attribute.
package feed

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/errdocs/errdocs/generator/model"
)

// Options are the site-wide settings the files need.
type Options struct {
	BaseURL     string // absolute, ends in "/"; without it only robots.txt is written
	Title       string
	Description string
}

// Files the package writes, relative to the site root.
const (
	RobotsFile  = "robots.txt"
	SitemapFile = "sitemap.xml"
	FeedFile    = "feed.xml"
	// SitemapDir holds the sitemap files the index lists.
	SitemapDir = "sitemaps/"
)

// Limits of the sitemap protocol (sitemaps.org): a sitemap file holds at
// most 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed.
const (
	MaxURLs  = 50000
	MaxBytes = 50 << 20
)

// targetURLs is the average number of URLs a shard is sized for. Half the
// protocol's limit leaves room for the unevenness of hashing, so a shard
// count is rarely doubled by one unlucky shard.
const targetURLs = MaxURLs / 2

// maxShards bounds the doubling; far beyond any real dataset (it would
// mean billions of pages), it only guarantees the loop ends.
const maxShards = 1 << 24

// FeedEntries is how many records the Atom feed lists.
const FeedEntries = 50

// Write emits the files through emit (paths relative to the site root), in
// a fixed order and with the same bytes for the same site.
func Write(s *model.Model, o Options, emit func(path string, data []byte) error) error {
	if err := WriteFeeds(s, o, emit); err != nil {
		return err
	}
	if p := PlanSitemaps(s, o.BaseURL); p != nil {
		return p.Write(emit)
	}
	return nil
}

// WriteFeeds emits robots.txt and the Atom feed: Write without the
// sitemaps, for a caller that writes or keeps them itself.
func WriteFeeds(s *model.Model, o Options, emit func(path string, data []byte) error) error {
	o.BaseURL = withSlash(o.BaseURL)
	robots := "User-agent: *\nAllow: /\n"
	if o.BaseURL == "" || s == nil {
		// Sitemaps and feeds must name absolute URLs (the protocols do not
		// resolve relative ones), so without a base URL there is nothing
		// they could say: only robots.txt is written.
		return emit(RobotsFile, []byte(robots))
	}
	robots += "\nSitemap: " + model.Absolute(o.BaseURL, SitemapFile) + "\n"
	if err := emit(RobotsFile, []byte(robots)); err != nil {
		return err
	}
	b, err := atomFeed(s, o)
	if err != nil {
		return err
	}
	return emit(FeedFile, b)
}

func withSlash(base string) string {
	if base != "" && base[len(base)-1] != '/' {
		base += "/"
	}
	return base
}

// page is one URL of a sitemap: a site path and when it last changed.
type page struct {
	path    string
	lastmod time.Time // zero when unknown
}

// Sitemaps is what the sitemap files are made from: every page they
// list, with its lastmod. Planning is cheap; writing the files is not, so
// a rebuild compares plans by Key and keeps the files of an equal one.
//
// Record pages and binding pages (home, listings, repos, tags, families)
// go to two separate sets of files. A new record changes the lastmod of
// the home page and of every listing it appears in, so the binding pages'
// files change on nearly every rebuild anyway; kept apart, they do not
// drag the record files with them, and a daily rebuild rewrites only the
// record files that gained, lost or changed a record.
type Sitemaps struct {
	base     string
	bindings []page
	// The record pages listed, by model index, with every record's time:
	// a plan is made on every build to be hashed (Key) and seldom
	// written, so the record pages' paths are made only by Write.
	model   *model.Model
	records []int32
	times   []time.Time
}

// PlanSitemaps lists the pages of s's sitemaps under base; nil without a
// base URL (then there are none).
func PlanSitemaps(s *model.Model, base string) *Sitemaps {
	base = withSlash(base)
	if base == "" || s == nil {
		return nil
	}
	p := &Sitemaps{base: base, model: s, records: make([]int32, 0, len(s.Summaries))}
	// Each record's time, parsed once: the binding pages take the newest
	// of their records', and a record is on several (repo, tags, family).
	p.times = make([]time.Time, len(s.Summaries))
	for i := range s.Summaries {
		p.times[i] = parseTime(s.Summaries[i].AnalyzedAt)
	}
	for i := range s.Summaries {
		// Only pages left indexable are listed: a record that points its
		// canonical link elsewhere, or a thin canonical one (noindex),
		// would only make a crawler fetch a page it must not index.
		if s.Canonical(int32(i)) != int32(i) || s.Summaries[i].Thin() {
			continue
		}
		p.records = append(p.records, int32(i))
	}
	p.bindings = bindingPages(s, p.times)
	return p
}

// recordPages is the record pages listed.
func (p *Sitemaps) recordPages() []page {
	out := make([]page, len(p.records))
	for k, i := range p.records {
		out[k] = page{p.model.Summaries[i].Path(), p.times[i]}
	}
	return out
}

// Key writes to h everything the sitemap files are made from: two plans
// that write the same to h make the same files.
func (p *Sitemaps) Key(h io.Writer) {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(p.base)))
	b = append(b, p.base...)
	flush := func() {
		if len(b) > 64<<10 {
			h.Write(b)
			b = b[:0]
		}
	}
	// The record pages, as recordPages has them, without making them.
	b = binary.AppendUvarint(b, uint64(len(p.records)))
	for _, i := range p.records {
		sum := &p.model.Summaries[i]
		b = binary.AppendUvarint(b, uint64(len(sum.Repo)+len(sum.Slug)+2))
		b = append(append(append(append(b, sum.Repo...), '/'), sum.Slug...), '/')
		b = appendTimeKey(b, p.times[i])
		flush()
	}
	b = binary.AppendUvarint(b, uint64(len(p.bindings)))
	for _, pg := range p.bindings {
		b = binary.AppendUvarint(b, uint64(len(pg.path)))
		b = append(b, pg.path...)
		b = appendTimeKey(b, pg.lastmod)
		flush()
	}
	h.Write(b)
}

// appendTimeKey appends what Format(time.RFC3339) shows of t: the instant
// and the offset.
func appendTimeKey(b []byte, t time.Time) []byte {
	_, offset := t.Zone()
	b = binary.AppendVarint(b, t.Unix())
	b = binary.AppendVarint(b, int64(t.Nanosecond()))
	return binary.AppendVarint(b, int64(offset))
}

// Write writes the sitemap files and the index over them.
func (p *Sitemaps) Write(emit func(string, []byte) error) error {
	var index []sitemapRef
	for _, set := range []struct {
		prefix string
		pages  []page
	}{{"sitemap-", p.recordPages()}, {"sitemap-pages-", p.bindings}} {
		files, err := shardFiles(set.pages, p.base, set.prefix)
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := emit(f.path, f.data); err != nil {
				return err
			}
			ref := sitemapRef{Loc: model.Absolute(p.base, f.path)}
			if !f.lastmod.IsZero() {
				ref.Lastmod = f.lastmod.Format(time.RFC3339)
			}
			index = append(index, ref)
		}
	}
	var b bytes.Buffer
	appendSitemapIndex(&b, index)
	return emit(SitemapFile, b.Bytes())
}

// bindingPages lists the first page of every listing, with the newest
// analyzedAt of the records it lists. Later pages of a listing are left
// out: how many there are depends on the page size and on how large the
// entries render, which only the renderer knows, and a crawler reaches
// them from the first page's links anyway.
func bindingPages(s *model.Model, times []time.Time) []page {
	// The binding pages hold each record several times over (repo, tags,
	// family): their times are compared as plain numbers, not as
	// time.Time values.
	at := make([]instant, len(times))
	for i, t := range times {
		at[i] = instantOf(t)
	}
	all := newest(times, at, nil, true)
	out := []page{
		{"", all},
		{model.ReposPath, all},
		{model.TagsPath, all},
		{model.FamiliesPath, all},
	}
	for _, r := range s.Repos {
		out = append(out, page{r.Path(), newest(times, at, r.Records, false)})
	}
	for _, g := range s.Tags {
		out = append(out, page{model.TagPath(g.Name), newest(times, at, g.Records, false)})
	}
	for _, g := range s.Families {
		out = append(out, page{model.FamilyPath(g.Name), newest(times, at, g.Records, false)})
	}
	return out
}

// instant is a time as seconds and nanoseconds, in the order time.Time's
// After gives.
type instant struct {
	sec  int64
	nsec int32
}

func instantOf(t time.Time) instant { return instant{t.Unix(), int32(t.Nanosecond())} }

func (a instant) after(b instant) bool { return a.sec > b.sec || a.sec == b.sec && a.nsec > b.nsec }

// newest returns the latest of the records ids' times (every record's
// when all is set); zero when none parses or none is later than the zero
// time. at holds the same times as instants.
func newest(times []time.Time, at []instant, ids []int32, all bool) time.Time {
	best, latest := -1, instantOf(time.Time{})
	see := func(i int) {
		if at[i].after(latest) {
			best, latest = i, at[i]
		}
	}
	if all {
		for i := range at {
			see(i)
		}
	} else {
		for _, i := range ids {
			if int(i) >= 0 && int(i) < len(at) {
				see(int(i))
			}
		}
	}
	if best < 0 {
		return time.Time{}
	}
	return times[best]
}

// parseTime reads an analyzedAt. Times are compared parsed, not as
// strings: "…:00Z" sorts after "…:00.5Z" as text. An unreadable time is
// zero, and the page simply carries no lastmod.
func parseTime(v string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// shardFile is one sitemap file ready to write.
type shardFile struct {
	path    string
	data    []byte
	lastmod time.Time
}

// Shard returns the shard of a page path when there are n shards (a power
// of two).
//
// A page's shard is fixed by a hash of its path, never by its position in
// a sorted list, so adding or removing other pages does not move it: a
// rebuild rewrites only the files whose own pages changed. The number of
// shards grows only by doubling, when the pages would no longer fit; a
// doubling moves each page either nowhere or to shard k+n, and happens
// once for every doubling of the site. SHA-256 rather than a fast hash:
// paths come from untrusted records, and a hash that can be steered could
// pile crafted paths into one shard.
func Shard(path string, n int) int {
	sum := sha256.Sum256([]byte(path))
	return int(binary.BigEndian.Uint64(sum[:8]) & uint64(n-1))
}

// ShardCount is the number of shards for pages: the least power of two
// that sizes shards at targetURLs on average and leaves none over the
// protocol's limits.
func ShardCount(pages []string, base string) int {
	n := 1
	for n < maxShards && n*targetURLs < len(pages) {
		n *= 2
	}
	for n < maxShards && !fits(pages, base, n) {
		n *= 2
	}
	return n
}

// urlOverhead is the bytes of a <url> entry besides its location: the
// element tags, the lastmod and its tags.
const urlOverhead = len("<url><loc></loc><lastmod>2006-01-02T15:04:05Z</lastmod></url>") + 8

// fileOverhead is the bytes of a sitemap file besides its entries.
const fileOverhead = 256

// fits reports whether every shard stays within the limits with n shards.
// The size is an upper bound: escaping is counted at its worst (6 bytes a
// byte, "&quot;"), so a path that passes can never produce a file that
// does not.
func fits(pages []string, base string, n int) bool {
	count := make([]int, n)
	size := make([]int64, n)
	for _, p := range pages {
		k := Shard(p, n)
		count[k]++
		size[k] += int64(urlOverhead + 6*len(model.Absolute(base, p)))
		if count[k] > MaxURLs || size[k]+fileOverhead > MaxBytes {
			return false
		}
	}
	return true
}

// shardFiles splits pages into sitemap files named prefix + shard number.
// An empty set still writes one empty file, so the index always names
// the same files for the same shard count.
func shardFiles(pages []page, base, prefix string) ([]shardFile, error) {
	paths := make([]string, len(pages))
	for i, p := range pages {
		paths[i] = p.path
	}
	n := ShardCount(paths, base)
	shards := make([][]page, n)
	for _, p := range pages {
		k := Shard(p.path, n)
		shards[k] = append(shards[k], p)
	}
	var out []shardFile
	for k, ps := range shards {
		// Within a file, pages are in path order: the bytes depend on
		// which pages the file holds, not on the order records arrived.
		slices.SortFunc(ps, func(a, b page) int {
			switch {
			case a.path < b.path:
				return -1
			case a.path > b.path:
				return 1
			}
			return 0
		})
		us := urlSet{XMLNS: sitemapNS, URLs: make([]sitemapURL, 0, len(ps))}
		var last time.Time
		for _, p := range ps {
			u := sitemapURL{Loc: model.Absolute(base, p.path)}
			if !p.lastmod.IsZero() {
				u.Lastmod = p.lastmod.Format(time.RFC3339)
				if p.lastmod.After(last) {
					last = p.lastmod
				}
			}
			us.URLs = append(us.URLs, u)
		}
		var buf bytes.Buffer
		appendURLSet(&buf, us.URLs)
		b := buf.Bytes()
		if len(us.URLs) > MaxURLs || len(b) > MaxBytes {
			// fits and ShardCount rule this out; checked again so a
			// file over the protocol's limits is an error, never output.
			return nil, fmt.Errorf("feed: sitemap %s%d holds %d URLs in %d bytes, over the protocol's limits", prefix, k, len(us.URLs), len(b))
		}
		out = append(out, shardFile{path: SitemapDir + prefix + strconv.Itoa(k) + ".xml", data: b, lastmod: last})
	}
	return out, nil
}

const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

type urlSet struct {
	XMLName xml.Name     `xml:"urlset"`
	XMLNS   string       `xml:"xmlns,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapURL struct {
	Loc     string `xml:"loc"`
	Lastmod string `xml:"lastmod,omitempty"`
}

type sitemapIndex struct {
	XMLName  xml.Name     `xml:"sitemapindex"`
	XMLNS    string       `xml:"xmlns,attr"`
	Sitemaps []sitemapRef `xml:"sitemap"`
}

type sitemapRef struct {
	Loc     string `xml:"loc"`
	Lastmod string `xml:"lastmod,omitempty"`
}

// marshal writes v as an XML document with its declaration, one element a
// line so a diff of two builds is readable.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", " ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("feed: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// Atom (RFC 4287).

const atomNS = "http://www.w3.org/2005/Atom"

type atomFeedDoc struct {
	XMLName  xml.Name    `xml:"feed"`
	XMLNS    string      `xml:"xmlns,attr"`
	Title    string      `xml:"title"`
	Subtitle string      `xml:"subtitle,omitempty"`
	ID       string      `xml:"id"`
	Updated  string      `xml:"updated"`
	Links    []atomLink  `xml:"link"`
	Author   atomPerson  `xml:"author"`
	Entries  []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	Title      string         `xml:"title"`
	ID         string         `xml:"id"`
	Updated    string         `xml:"updated"`
	Links      []atomLink     `xml:"link"`
	Summary    *atomText      `xml:"summary,omitempty"`
	Categories []atomCategory `xml:"category"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Text string `xml:",chardata"`
}

type atomCategory struct {
	Term string `xml:"term,attr"`
}

// epoch stands in for a missing or unreadable time: Atom requires an
// updated time on the feed and each entry, and a fixed one keeps the bytes
// deterministic where the clock would not.
var epoch = time.Unix(0, 0).UTC()

// atomFeed is the feed of the FeedEntries most recently analysed records.
// Entry ids are the pages' absolute URLs: permanent as long as the site
// stays where it is, and what feed readers expect.
func atomFeed(s *model.Model, o Options) ([]byte, error) {
	title := o.Title
	if title == "" {
		title = "errdocs"
	}
	f := atomFeedDoc{
		XMLNS: atomNS, Title: title, Subtitle: o.Description,
		ID: o.BaseURL,
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: model.Absolute(o.BaseURL, FeedFile)},
			{Rel: "alternate", Type: "text/html", Href: o.BaseURL},
		},
		Author: atomPerson{Name: title},
	}
	updated := epoch
	for _, i := range s.Recent(FeedEntries) {
		sum := &s.Summaries[i]
		at := parseTime(sum.AnalyzedAt)
		if at.IsZero() {
			at = epoch
		}
		if at.After(updated) {
			updated = at
		}
		u := model.Absolute(o.BaseURL, sum.Path())
		e := atomEntry{
			Title:   sum.Message + " (" + sum.Repo + ")",
			ID:      u,
			Updated: at.Format(time.RFC3339),
			Links:   []atomLink{{Rel: "alternate", Type: "text/html", Href: u}},
			Summary: &atomText{Type: "text", Text: entrySummary(sum)},
		}
		seen := map[string]bool{}
		for _, t := range sum.Tags {
			if t != "" && !seen[t] {
				seen[t] = true
				e.Categories = append(e.Categories, atomCategory{Term: t})
			}
		}
		f.Entries = append(f.Entries, e)
	}
	f.Updated = updated.Format(time.RFC3339)
	return marshal(f)
}

// entrySummary says in one line what a record is.
func entrySummary(sum *model.Summary) string {
	kind := sum.ErrorClass
	if kind == "" {
		kind = sum.ErrorType
	}
	out := sum.Severity
	if kind != "" {
		out += " " + kind
	}
	out += " in " + sum.Repo
	if sum.Language != "" {
		out += " (" + sum.Language + ")"
	}
	return out + ": " + sum.Message
}
