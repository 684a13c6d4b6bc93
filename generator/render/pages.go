package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash"
	"html/template"
	"io"
	"net/url"
	"strconv"
	"sync"

	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/zeebo/xxh3"
)

// groupEntry is one repo, tag or family in a listing of them.
type groupEntry struct {
	Name, Href string
	Records    int
	Repos      int // tags and families: repos they span
	// Repos only.
	Description, Language string
	Stars                 int
	Known                 bool // stars are known (the repo had an entry)
}

func repoEntry(p *Page, r *model.Repo) groupEntry {
	return groupEntry{Name: r.Name, Href: p.Link(r.Path()), Records: len(r.Records),
		Description: r.Description, Language: r.Language, Stars: r.Stars, Known: r.Known}
}

func groupEntryOf(p *Page, g *model.Group, path string) groupEntry {
	return groupEntry{Name: g.Name, Href: p.Link(path), Records: len(g.Records), Repos: g.Repos}
}

// homeData is the home page's .Data.
type homeData struct {
	// Intro is the sentence saying what the site is (the site description,
	// or one that describes the dataset).
	Intro                          string
	Records, Repos, Tags, Families int
	Severity, Family               *chart // Family is nil without families
	TopRepos, TopFamilies          []groupEntry
	MoreRepos, MoreFamilies        bool
	Recent                         []entry
}

// pager is the navigation of a paginated listing.
type pager struct {
	Number, Total int
	Prev, Next    string // site paths, "" at the ends
	Pages         []pageLink
}

// pageLink is one page number; Gap marks an ellipsis between numbers.
type pageLink struct {
	N       int
	Path    string
	Current bool
	Gap     bool
}

// listData is the .Data of one page of a listing: a repo's, a tag's or a
// family's records (repo.html, group.html), or the repos, tags or families
// (repos.html, groups.html).
type listData struct {
	Heading string
	Kind    string // "repo", "tag", "family"; for groups.html "tags" or "families"
	Group   groupEntry
	Search  string // URL of the filtered search, "" for none
	Info    *infoData
	Entries []entry
	Groups  []groupEntry
	Pager   *pager // nil when the listing fits one page
	First   int    // 1-based position of the first entry, for <ol start>
}

// infoData is a family's background article.
type infoData struct {
	Title, Summary string
	Background     template.HTML
	Causes         []causeData
	Fixes          []template.HTML
}

type causeData struct {
	Cause  string
	Detail template.HTML
}

// Pages renders every binding page and passes each to emit with its file
// path relative to the site root ("tags/jax/index.html"), in a fixed order.
// Listings are rendered on every core (pageQueue); emit is called from
// one goroutine at a time.
func (r *Renderer) Pages(s *model.Model, emit func(path string, html []byte) error) error {
	steps := []func(*model.Model, *pageQueue) error{
		r.home, r.repos, r.tags, r.families, r.search, r.notFound,
	}
	q := newPageQueue(emit, r.o.Cache)
	for _, step := range steps {
		if err := step(s, q); err != nil {
			if qerr := q.wait(); qerr != nil {
				return qerr // an earlier listing's
			}
			return err
		}
	}
	return q.wait()
}

// Home page sizes: what the home page lists before linking to the full
// listings.
const (
	homeRepos    = 30
	homeFamilies = 20
	homeRecent   = 20
	chartBars    = 10
)

func (r *Renderer) home(s *model.Model, q *pageQueue) error {
	// The home page lists a few of each kind; if records with very long
	// names make it too large, it lists half as many, and so on.
	for div := 1; ; div *= 2 {
		b, err := r.homePage(s, div)
		if err != nil {
			return err
		}
		if len(b) <= MaxPage || div >= homeRepos {
			return q.page("index.html", b)
		}
	}
}

// homePage renders the home page listing 1/div of the usual number of
// repos, families and recent records.
func (r *Renderer) homePage(s *model.Model, div int) ([]byte, error) {
	p := r.page("", "")
	d := &homeData{Records: len(s.Summaries), Repos: len(s.Repos), Tags: len(s.Tags), Families: len(s.Families)}
	d.Intro = r.o.Description
	if d.Intro == "" {
		d.Intro = datasetIntro(d.Records, d.Repos)
	}
	p.Head.Description = cutWords(oneLine(d.Intro), maxDescription)
	var sev []model.Count
	for _, c := range s.SeverityCounts() {
		sev = append(sev, model.Count{Name: sevLabel(c.Name), N: c.N})
	}
	d.Severity = newChart("chart-sev", "Records by severity", sev, record.Severities)
	if len(s.Families) > 0 {
		var fam []model.Count
		for _, g := range s.TopFamilies(chartBars) {
			fam = append(fam, model.Count{Name: g.Name, N: len(g.Records)})
		}
		title := "Records by family"
		if len(s.Families) > chartBars {
			title = "Records in the " + strconv.Itoa(chartBars) + " largest families"
		}
		d.Family = newChart("chart-fam", title, fam, nil)
	}
	for _, rp := range s.TopRepos(homeRepos / div) {
		d.TopRepos = append(d.TopRepos, repoEntry(p, rp))
	}
	d.MoreRepos = len(s.Repos) > len(d.TopRepos)
	for _, g := range s.TopFamilies(homeFamilies / div) {
		d.TopFamilies = append(d.TopFamilies, groupEntryOf(p, g, model.FamilyPath(g.Name)))
	}
	d.MoreFamilies = len(s.Families) > len(d.TopFamilies)
	for _, i := range s.Recent(homeRecent / div) {
		d.Recent = append(d.Recent, entryOf(p, s, i, true))
	}
	p.Data = d
	return r.execute(homePage, p)
}

// datasetIntro is the home page's introduction when the settings give no
// description: what the site holds, in numbers.
func datasetIntro(records, repos int) string {
	return fmt.Sprintf("What %s raised by %s mean, what triggers them and how to fix them, with the source that raises each.",
		count(records, "error"), count(repos, "open-source library", "open-source libraries"))
}

// indexes makes the list 0..n-1, the items of a listing of groups.
func indexes(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

func (r *Renderer) repos(s *model.Model, q *pageQueue) error {
	err := q.listing(r.listing(model.ReposPath, indexes(len(s.Repos)), reposPage,
		func(h hash.Hash) {
			for _, rp := range s.Repos {
				hashRepo(h, rp)
			}
		},
		func(p *Page, items []int32) {
			p.Head.Title = "Repositories · " + r.o.Title
			p.Crumbs = []Crumb{{"Home", ""}, {"Repositories", model.ReposPath}}
			d := &listData{Heading: "Repositories", Kind: "repos"}
			for _, k := range items {
				d.Groups = append(d.Groups, repoEntry(p, s.Repos[k]))
			}
			p.Data = d
		}))
	if err != nil {
		return err
	}
	for _, rp := range s.Repos {
		err := q.listing(r.listing(rp.Path(), rp.Records, repoPage, func(h hash.Hash) {
			hashRepo(h, rp)
			hashRecords(h, s, rp.Records)
		}, func(p *Page, items []int32) {
			p.Head.Title = rp.Name + " errors · " + r.o.Title
			p.Head.Description = repoDescription(rp)
			p.Crumbs = []Crumb{{"Home", ""}, {rp.Name, rp.Path()}}
			d := &listData{Heading: rp.Name, Kind: "repo", Group: repoEntry(p, rp),
				Search: p.Link(model.SearchPath) + "?repo=" + url.QueryEscape(rp.Name)}
			for _, i := range items {
				d.Entries = append(d.Entries, entryOf(p, s, i, false))
			}
			p.Data = d
		}))
		if err != nil {
			return err
		}
	}
	return nil
}

func repoDescription(rp *model.Repo) string {
	d := fmt.Sprintf("%d documented errors that %s can raise", len(rp.Records), rp.Name)
	if rp.Description != "" {
		d += ": " + oneLine(rp.Description)
	}
	return cutWords(d, maxDescription)
}

func (r *Renderer) tags(s *model.Model, q *pageQueue) error {
	return r.groups(s, s.Tags, "tags", "Tags", model.TagsPath, model.TagPath, q)
}

func (r *Renderer) families(s *model.Model, q *pageQueue) error {
	return r.groups(s, s.Families, "families", "Error families", model.FamiliesPath, model.FamilyPath, q)
}

// groups renders the index of tags or families and one listing per group.
func (r *Renderer) groups(s *model.Model, gs []*model.Group, kind, heading, base string,
	pathOf func(string) string, q *pageQueue) error {
	err := q.listing(r.listing(base, indexes(len(gs)), groupsPage, func(h hash.Hash) {
		for _, g := range gs {
			fmt.Fprintf(h, "%q %d %d\n", g.Name, len(g.Records), g.Repos)
		}
	}, func(p *Page, items []int32) {
		p.Head.Title = heading + " · " + r.o.Title
		p.Crumbs = []Crumb{{"Home", ""}, {heading, base}}
		d := &listData{Heading: heading, Kind: kind}
		for _, k := range items {
			d.Groups = append(d.Groups, groupEntryOf(p, gs[k], pathOf(gs[k].Name)))
		}
		p.Data = d
	}))
	if err != nil {
		return err
	}
	one := "tag"
	if kind == "families" {
		one = "family"
	}
	for _, g := range gs {
		path := pathOf(g.Name)
		var info *infoData
		if one == "family" && g.Info != nil {
			if info, err = r.info(g.Info); err != nil {
				return fmt.Errorf("render family %s: info %s: %w", g.Name, g.Info.Slug, err)
			}
		}
		err := q.listing(r.listing(path, g.Records, groupPage, func(h hash.Hash) {
			fmt.Fprintf(h, "%q %d %d %q\n", g.Name, len(g.Records), g.Repos, kind)
			if g.Info != nil {
				json.NewEncoder(h).Encode(g.Info)
			}
			hashRecords(h, s, g.Records)
		}, func(p *Page, items []int32) {
			p.Head.Title = g.Name + " · " + heading + " · " + r.o.Title
			p.Head.Description = fmt.Sprintf("%d documented errors in %d repositories, %s %s.", len(g.Records), g.Repos, one, g.Name)
			if info != nil && info.Summary != "" {
				p.Head.Description = cutWords(oneLine(info.Summary), maxDescription)
			}
			p.Crumbs = []Crumb{{"Home", ""}, {heading, base}, {g.Name, path}}
			d := &listData{Heading: g.Name, Kind: one, Group: groupEntryOf(p, g, path), Info: info}
			// the filtered search: ?tag= or ?family= (ui.js's parameters)
			d.Search = p.Link(model.SearchPath) + "?" + one + "=" + url.QueryEscape(g.Name)
			for _, i := range items {
				d.Entries = append(d.Entries, entryOf(p, s, i, true))
			}
			p.Data = d
		}))
		if err != nil {
			return err
		}
	}
	return nil
}

// info renders a family's background article.
func (r *Renderer) info(in *record.Info) (*infoData, error) {
	d := &infoData{Title: in.Title, Summary: in.Summary}
	bg, err := r.markdown(in.Background)
	if err != nil {
		return nil, err
	}
	d.Background = bg
	for _, c := range in.CommonCauses {
		h, err := r.markdown(c.Detail)
		if err != nil {
			return nil, err
		}
		if c.Cause != "" || h != "" {
			d.Causes = append(d.Causes, causeData{Cause: c.Cause, Detail: unwrapParagraph(h)})
		}
	}
	if d.Fixes, err = r.inlines(in.Fixes); err != nil {
		return nil, err
	}
	return d, nil
}

// listing returns the work of a paginated listing whose first page is at
// base, for a pageQueue worker: its key, then its pages unless the cache
// keeps them. key writes everything the listing shows; fill sets a page's
// data from its items.
func (r *Renderer) listing(base string, items []int32, tmpl string,
	key func(h hash.Hash), fill func(p *Page, items []int32)) func() (listingPages, error) {
	return func() (listingPages, error) {
		lp := listingPages{base: base}
		if c := r.o.Cache; c != nil {
			h := listingHashers.Get().(*xxh3.Hasher)
			h.Reset()
			io.WriteString(h, tmpl+"\x00"+base+"\x00"+strconv.Itoa(r.o.PerPage)+"\x00")
			key(h)
			lp.key = h.Sum128().Bytes()
			listingHashers.Put(h)
			if c.Keep(base, lp.key) {
				return lp, nil
			}
			lp.keyed = true
		}
		var err error
		lp.paths, lp.html, err = r.renderListing(base, items, tmpl, fill)
		return lp, err
	}
}

// renderListing renders the pages of a listing. If a page would exceed
// MaxPage (long names can make entries large), the whole listing is
// paginated again with half as many entries a page, so every page stays
// small and the page numbers stay consistent.
func (r *Renderer) renderListing(base string, items []int32, tmpl string,
	fill func(p *Page, items []int32)) (paths []string, html [][]byte, err error) {
	per := r.o.PerPage
	for {
		pages := model.Paginate(items, per)
		out := make([][]byte, len(pages))
		tooBig := false
		for k, pg := range pages {
			path := model.PagePath(base, pg.Number)
			p := r.page(path, "")
			fill(p, pg.Items)
			if pg.Number > 1 {
				p.Head.Title = "Page " + strconv.Itoa(pg.Number) + " · " + p.Head.Title
			}
			if d, ok := p.Data.(*listData); ok {
				d.First = (pg.Number-1)*per + 1
				if pg.Total > 1 {
					d.Pager = newPager(base, pg)
				}
			}
			b, err := r.execute(tmpl, p)
			if err != nil {
				return nil, nil, err
			}
			if len(b) > MaxPage && per > 1 {
				tooBig = true
				break
			}
			out[k] = b
		}
		if tooBig {
			per /= 2
			continue
		}
		paths = make([]string, len(pages))
		for k, pg := range pages {
			paths[k] = model.PagePath(base, pg.Number) + "index.html"
		}
		return paths, out, nil
	}
}

// pagerWindow is how many page numbers are shown each side of the current
// page; the first and last are always shown.
const pagerWindow = 2

func newPager(base string, pg model.Page) *pager {
	pr := &pager{Number: pg.Number, Total: pg.Total}
	if pg.Number > 1 {
		pr.Prev = model.PagePath(base, pg.Number-1)
	}
	if pg.Number < pg.Total {
		pr.Next = model.PagePath(base, pg.Number+1)
	}
	for n := 1; n <= pg.Total; n++ {
		near := n == 1 || n == pg.Total || (n >= pg.Number-pagerWindow && n <= pg.Number+pagerWindow)
		if !near {
			if k := len(pr.Pages); k == 0 || !pr.Pages[k-1].Gap {
				pr.Pages = append(pr.Pages, pageLink{Gap: true})
			}
			continue
		}
		pr.Pages = append(pr.Pages, pageLink{N: n, Path: model.PagePath(base, n), Current: n == pg.Number})
	}
	return pr
}

func (r *Renderer) search(s *model.Model, q *pageQueue) error {
	if r.pages[searchPage] == nil {
		return nil
	}
	p := r.page(model.SearchPath, "Search")
	p.Head.Description = "Search " + strconv.Itoa(len(s.Summaries)) + " documented errors by message, library or tag."
	p.Crumbs = []Crumb{{"Home", ""}, {"Search", model.SearchPath}}
	p.Search = true
	b, err := r.execute(searchPage, p)
	if err != nil {
		return err
	}
	if err := q.page(model.SearchPath+"index.html", b); err != nil {
		return err
	}
	if r.openSearch == nil {
		return nil
	}
	var buf bytes.Buffer
	if err := r.openSearch.Execute(&buf, struct{ Title, BaseURL string }{r.o.Title, r.o.BaseURL}); err != nil {
		return fmt.Errorf("render %s: %w", openSearchFile, err)
	}
	return q.page(openSearchFile, printableHTML(buf.Bytes()))
}

func (r *Renderer) notFound(s *model.Model, q *pageQueue) error {
	p := r.page("404.html", "Page not found")
	p.abs = r.o.BaseURL
	p.Head.Canonical = ""
	p.Head.Robots = "noindex"
	p.Crumbs = []Crumb{{"Home", ""}, {"Page not found", ""}}
	b, err := r.execute(notFoundPage, p)
	if err != nil {
		return err
	}
	return q.page("404.html", b)
}

// listingHashers keeps the hashers of listings' keys: a hasher holds a
// kilobyte of buffer, and a site has a listing for every repo, tag and
// family.
var listingHashers = sync.Pool{New: func() any { return xxh3.New() }}

// ListingKey identifies what a listing is made from: XXH3's 128 bits, as
// the build's other cache keys (DESIGN.md says why a fast hash serves
// them).
type ListingKey [16]byte

// ListingCache lets a build skip listings whose inputs did not change: the
// renderer computes each listing's key from everything it shows, asks Keep
// first, and when the build cannot keep the files it made last time from
// the same key, renders the listing and tells Made about each file.
type ListingCache interface {
	Keep(base string, key ListingKey) bool
	Made(base string, key ListingKey, path string)
}

func hashRepo(h hash.Hash, rp *model.Repo) {
	fmt.Fprintf(h, "%q %q %q %d %t %d\n", rp.Name, rp.Description, rp.Language, rp.Stars, rp.Known, len(rp.Records))
}

func hashRecords(h hash.Hash, s *model.Model, ids []int32) {
	// The sums are written to h in runs from one buffer, pooled: a sum
	// passed alone would escape to the heap, one allocation per record
	// per listing it is in.
	bp := sumBuffers.Get().(*[]byte)
	b := (*bp)[:0]
	for _, i := range ids {
		sum := s.Sum(i)
		b = append(b, sum[:]...)
		if len(b) >= cap(b)-len(sum) {
			h.Write(b)
			b = b[:0]
		}
	}
	h.Write(b)
	*bp = b
	sumBuffers.Put(bp)
}

// sumBuffers holds hashRecords' buffers.
var sumBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 4<<10)
	return &b
}}
