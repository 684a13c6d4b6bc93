// Package model is the shape of the site built from the valid records: the
// repos, tags and families that bind the record pages, the related records
// of each record, canonical groups of near-duplicate records, and the
// paginated listings. It holds a small Summary per record, never the whole
// record, so a dataset of half a million records fits in memory.
package model

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"hash/fnv"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unique"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/strsort"
	"github.com/zeebo/xxh3"
)

// Summary is what listings, links and the home page need of a record.
type Summary struct {
	ID         string
	Repo       string
	Slug       string
	Message    string // errorMessage, cut for listings
	Severity   string
	ErrorType  string
	ErrorClass string
	ErrorCode  string
	Family     string // backgroundTag
	Tags       []string
	Language   string
	AnalyzedAt string
	DocLen     int // bytes of documentation
	Solutions  int // number of solutions
	groupKey   string
	// listSum is Sum's hash of the summary, made with it (Summarize) and
	// kept with it (AppendBinary): a rebuild takes half a million summaries
	// from its cache, and hashing them all again was a sizeable share of
	// one that changed a record. Zero: not made (a summary built by hand),
	// hashed by Build.
	listSum [16]byte
}

func groupHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return string(sum[:16])
}

// intern returns the canonical copy of s.
func intern(s string) string { return unique.Make(s).Value() }

// maxListedMessage bounds a message as shown in listings and links.
const maxListedMessage = 200

// Summarize makes a record's summary.
func Summarize(r *record.Record) Summary {
	// The canonical-group key, as a hash: patterns can be long, and every
	// summary keeps its key.
	key := ""
	if r.ErrorCode != "" {
		key = groupHash("code:" + r.ErrorCode)
	} else if r.MessagePattern != "" {
		key = groupHash("pattern:" + r.MessagePattern)
	}
	// Half a million summaries stay in memory for the whole build: the
	// values that many records share (repo, severity, family, tags...)
	// are interned, so each is one string rather than one per record.
	var tags []string
	if len(r.Tags) > 0 {
		tags = make([]string, len(r.Tags))
		for i, t := range r.Tags {
			tags[i] = intern(t)
		}
	}
	s := Summary{
		ID: r.ID, Repo: intern(r.Repo), Slug: r.Slug,
		Message:    Cut(r.ErrorMessage, maxListedMessage),
		Severity:   intern(r.Severity),
		ErrorType:  intern(r.ErrorType),
		ErrorClass: intern(r.ErrorClass),
		ErrorCode:  intern(r.ErrorCode),
		Family:     intern(r.BackgroundTag),
		Tags:       tags,
		Language:   intern(record.Language(r.FilePath)),
		AnalyzedAt: r.AnalyzedAt,
		DocLen:     len(r.Documentation),
		Solutions:  len(r.Solutions),
		groupKey:   key,
	}
	s.listSum = listHash(s.appendHash(nil))
	return s
}

// Cut shortens s to at most n runes, at a word boundary when one is near,
// and marks the cut with an ellipsis.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	runes := []rune(s)
	if len(runes) <= n {
		return s
	}
	cut := string(runes[:n-1])
	if i := strings.LastIndexAny(cut, " \t\n"); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " \t\n") + "…"
}

// Path is the record page's folder relative to the site root.
func (s *Summary) Path() string { return s.Repo + "/" + s.Slug + "/" }

// Thin reports a record with little to say: documentation under 200
// characters and no solutions.
func (s *Summary) Thin() bool { return s.DocLen < 200 && s.Solutions == 0 }

// Repo is one repository of the dataset with its records.
type Repo struct {
	Name        string // owner/name
	Description string
	Language    string // from repos.json, else the records' most common language
	Stars       int
	Known       bool // an entry in repos.json described it
	Records     []int32
}

// Path is the repo page's folder.
func (r *Repo) Path() string { return r.Name + "/" }

// Group is a tag or a family with its records.
type Group struct {
	Name    string
	Records []int32
	Repos   int // distinct repos among Records
	Info    *record.Info
	n       int // records counted while the groups are made (groupTaxonomy)
}

// Model is the whole model of a dataset. Records are referred to by their index in
// Summaries, which is the order they were added (the dataset's order).
type Model struct {
	Summaries []Summary
	Repos     []*Repo  // by name
	Tags      []*Group // by name
	Families  []*Group // by name

	repoByName   map[string]*Repo
	tagByName    map[string]*Group
	familyByName map[string]*Group
	canonical    []int32 // canonical record of each record's group (itself when alone)
	sums         [][16]byte
	recentMu     sync.Mutex
	recent       []int32 // the newest records, newest first (Recent)
	related      [][]int32
	severities   map[string]int
}

// Builder collects summaries and dataset extras, then builds the Model.
type Builder struct {
	summaries []Summary
	repos     []record.Repo
	infos     []record.Info

	// Related, when set, keeps the related records from build to build:
	// they depend on few fields of the summaries, which most rebuilds do
	// not change.
	Related RelatedCache
	// Groups, when set, keeps the repos, tags and families with their
	// records from build to build, for the same reason.
	Groups GroupCache
}

// GroupCache keeps the model's groups (GroupsKey says what they are made
// from) in their binary form.
type GroupCache interface {
	// Get calls decode with the bytes Put stored under key, if any, and
	// reports whether decode took them; the bytes are valid during the
	// call only.
	Get(key [16]byte, decode func([]byte) bool) bool
	Put(key [16]byte, groups []byte)
}

// RelatedCache keeps the related records of every record under a key that
// hashes everything they were computed from.
type RelatedCache interface {
	Get(key [16]byte) ([][]int32, bool)
	Put(key [16]byte, related [][]int32)
}

// Add adds a valid record; it returns the record's index in the site.
func (b *Builder) Add(s Summary) int32 {
	if len(b.summaries) == cap(b.summaries) {
		// Doubled, not append's quarter more past a few hundred: at
		// 100,000 summaries that copied five times their size.
		b.summaries = slices.Grow(b.summaries, max(len(b.summaries), 256))
	}
	b.summaries = append(b.summaries, s)
	return int32(len(b.summaries) - 1)
}

// Summary returns the i-th summary added.
func (b *Builder) Summary(i int32) *Summary { return &b.summaries[i] }

// Drop removes the summaries at the indexes gone (ascending), keeping the
// others in order.
func (b *Builder) Drop(gone []int32) { b.summaries = DropAt(b.summaries, gone) }

// DropAt removes the elements of s at the indexes gone (ascending),
// keeping the others in order.
func DropAt[T any](s []T, gone []int32) []T {
	if len(gone) == 0 {
		return s
	}
	kept, g := s[:0], 0
	for i := range s {
		if g < len(gone) && int(gone[g]) == i {
			g++
			continue
		}
		kept = append(kept, s[i])
	}
	clear(s[len(kept):])
	return kept
}

// Grow makes room for n more summaries: a caller that knows about how
// many records come spares the copies of growing the table.
func (b *Builder) Grow(n int) { b.summaries = slices.Grow(b.summaries, n) }

// AddRepoEntries adds repo descriptions from an export's repos.json.
func (b *Builder) AddRepoEntries(rs []record.Repo) { b.repos = append(b.repos, rs...) }

// AddInfos adds background articles from an export's info/ folder.
func (b *Builder) AddInfos(in []record.Info) { b.infos = append(b.infos, in...) }

// Build computes the site. It is deterministic for the same input order.
func (b *Builder) Build() *Model {
	s := &Model{
		Summaries:    b.summaries,
		repoByName:   map[string]*Repo{},
		tagByName:    map[string]*Group{},
		familyByName: map[string]*Group{},
		severities:   map[string]int{},
	}
	languages := s.groupsFrom(b.Groups)
	s.describe(b.repos, b.infos)
	for k, r := range s.Repos {
		if r.Language == "" {
			r.Language = languages[k]
		}
	}
	s.canonical = s.computeCanonical()
	s.sums = s.computeSums(runtime.GOMAXPROCS(0))
	s.related = s.relatedFrom(b.Related)
	return s
}

// groupsFrom makes the groups (repos, tags, families) and counts the
// severities, or takes them from cache when it holds them under the key of
// this dataset (and puts them there otherwise). It returns each repo's
// most common language.
func (s *Model) groupsFrom(cache GroupCache) (languages []string) {
	if cache == nil {
		return s.makeGroups()
	}
	key := s.GroupsKey()
	if cache.Get(key, func(b []byte) bool {
		var err error
		languages, err = s.decodeGroups(b)
		return err == nil
	}) {
		return languages
	}
	// A failed decoding may have left some.
	s.Repos, s.Tags, s.Families = nil, nil, nil
	clear(s.repoByName)
	clear(s.tagByName)
	clear(s.familyByName)
	clear(s.severities)
	languages = s.makeGroups()
	cache.Put(key, s.appendGroups(nil, languages))
	return languages
}

// makeGroups makes the groups: the repos in name order, each one's
// records in slug order; the tags and families in name order, each
// one's records in listing order, with their repos counted; and counts
// the severities. It returns each repo's most common language.
func (s *Model) makeGroups() (languages []string) {
	s.groupRepos()
	order, tied := s.listingOrder()
	s.groupTaxonomy(order)
	byName := func(a, b *Group) int { return strings.Compare(a.Name, b.Name) }
	slices.SortFunc(s.Tags, byName)
	slices.SortFunc(s.Families, byName)
	languages = make([]string, len(s.Repos))
	for k, r := range s.Repos {
		languages[k] = s.commonLanguage(r.Records)
	}
	for _, g := range append(slices.Clone(s.Tags), s.Families...) {
		if tied {
			s.sortRecords(g.Records)
		}
		g.Repos = s.countRepos(g.Records)
	}
	return languages
}

// groupRepos counts severities and puts each record in its repo: the
// repos in name order, each one's records in slug order.
func (s *Model) groupRepos() {
	var r *Repo // the last record's: a file's records are one repo's
	for i := range s.Summaries {
		sum := &s.Summaries[i]
		s.severities[sum.Severity]++
		if r == nil || r.Name != sum.Repo {
			r = s.repoByName[sum.Repo]
		}
		if r == nil {
			r = &Repo{Name: sum.Repo}
			s.repoByName[sum.Repo] = r
			s.Repos = append(s.Repos, r)
		}
		r.Records = append(r.Records, int32(i))
	}
	slices.SortFunc(s.Repos, func(a, b *Repo) int { return strings.Compare(a.Name, b.Name) })
	for _, r := range s.Repos {
		s.sortBySlug(r.Records)
	}
}

// sortBySlug orders the records of one repo as sortRecords does, by
// their slugs' bytes eight at a time (strsort) rather than by comparing
// two summaries' slugs at each step; two records with one slug (which
// validation rules out) are left to sortRecords, which orders such ties
// as it always did.
func (s *Model) sortBySlug(ids []int32) {
	if len(ids) < 32 {
		s.sortRecords(ids)
		return
	}
	slugs := make([]string, len(ids))
	for k, i := range ids {
		slugs[k] = s.Summaries[i].Slug
	}
	order := strsort.Order(slugs)
	sorted := make([]int32, len(ids))
	for k, o := range order {
		if k > 0 && slugs[o] == slugs[order[k-1]] {
			s.sortRecords(ids)
			return
		}
		sorted[k] = ids[o]
	}
	copy(ids, sorted)
}

// listingOrder is the order tags and families are filled in. The repos in
// name order, each in slug order, are every record in listing order: tags
// and families filled in that order need no sort of their own. Should two
// records share a repo and slug (which validation rules out), tied is true
// and the order is the site's, to be sorted after, which orders the ties
// as it always did.
func (s *Model) listingOrder() (order []int32, tied bool) {
	order = make([]int32, 0, len(s.Summaries))
	for _, r := range s.Repos {
		for k := 1; k < len(r.Records); k++ {
			if s.Summaries[r.Records[k-1]].Slug == s.Summaries[r.Records[k]].Slug {
				tied = true
			}
		}
		order = append(order, r.Records...)
	}
	if tied {
		for i := range order {
			order[i] = int32(i)
		}
	}
	return order, tied
}

// groupTaxonomy puts the records, in order, in their tags and families.
func (s *Model) groupTaxonomy(order []int32) {
	// Two passes: the first makes the groups and counts their records,
	// so that each group's table is made at its size, not grown by
	// copying as it fills (fresh memory is dear).
	// The count is the group's own field, not a table's: a lookup less
	// for each of a record's tags.
	// The counts do not depend on the order: the summaries are counted
	// in the site's order, one after the other in memory, not in the
	// listing order's jumps (the groups' own order is their names').
	s.eachGroup(nil, func(g *Group, _ int32) { g.n++ })
	for _, gs := range [][]*Group{s.Tags, s.Families} {
		for _, g := range gs {
			g.Records = make([]int32, 0, g.n)
		}
	}
	s.eachGroup(order, func(g *Group, idx int32) {
		// A record listing a tag twice is still listed once.
		if n := len(g.Records); n == 0 || g.Records[n-1] != idx {
			g.Records = append(g.Records, idx)
		}
	})
}

// eachGroup calls fn with each tag and the family of each record, in
// order (nil: the site's), making the groups as they are first seen.
func (s *Model) eachGroup(order []int32, fn func(g *Group, idx int32)) {
	n := len(order)
	if order == nil {
		n = len(s.Summaries)
	}
	for k := range n {
		idx := int32(k)
		if order != nil {
			idx = order[k]
		}
		sum := &s.Summaries[idx]
		for _, t := range sum.Tags {
			g := s.tagByName[t]
			if g == nil {
				g = &Group{Name: t}
				s.tagByName[t] = g
				s.Tags = append(s.Tags, g)
			}
			fn(g, idx)
		}
		if sum.Family != "" {
			g := s.familyByName[sum.Family]
			if g == nil {
				g = &Group{Name: sum.Family}
				s.familyByName[sum.Family] = g
				s.Families = append(s.Families, g)
			}
			fn(g, idx)
		}
	}
}

// describe gives repos their export's descriptions and families their
// background articles (the first of each family's).
func (s *Model) describe(repos []record.Repo, infos []record.Info) {
	for _, e := range repos {
		if r := s.repoByName[e.Repo]; r != nil {
			r.Description, r.Language, r.Stars, r.Known = e.Description, e.Language, e.Stars, true
		}
	}
	for i := range infos {
		in := &infos[i]
		if g := s.familyByName[in.Family()]; g != nil && g.Info == nil {
			g.Info = in
		}
	}
}

// relatedFrom is every record's related records: from cache when it holds
// them under the key of this dataset, else computed (and put in cache).
func (s *Model) relatedFrom(cache RelatedCache) [][]int32 {
	if cache == nil {
		return s.computeRelated(runtime.GOMAXPROCS(0))
	}
	key := s.relatedKey()
	if rel, ok := cache.Get(key); ok && s.validRelated(rel) {
		return rel
	}
	rel := s.computeRelated(runtime.GOMAXPROCS(0))
	cache.Put(key, rel)
	return rel
}

// relatedKey hashes what computeRelated reads: each record's id, repo,
// family and tags, in site order, and the constants of the choice.
func (s *Model) relatedKey() [16]byte {
	head := []uint64{uint64(len(s.Summaries)), MaxRelated, relatedWindow}
	return s.hashSummaries(head, func(sum *Summary, str func(string)) {
		str(sum.ID)
		str(sum.Repo)
		str(sum.Family)
	})
}

// hashSummaries hashes the numbers of head, then for each record in site
// order the strings fields gives (each length-prefixed) and its tags:
// the keys of what the model keeps between builds. The hash is XXH3's
// 128 bits, as for the build's other cache keys: DESIGN.md says why a
// fast hash serves them.
func (s *Model) hashSummaries(head []uint64, fields func(sum *Summary, str func(string))) [16]byte {
	h := xxh3.New()
	var buf []byte
	str := func(v string) {
		buf = binary.AppendUvarint(buf, uint64(len(v)))
		buf = append(buf, v...)
	}
	for _, v := range head {
		buf = binary.AppendUvarint(buf, v)
	}
	for i := range s.Summaries {
		sum := &s.Summaries[i]
		fields(sum, str)
		buf = binary.AppendUvarint(buf, uint64(len(sum.Tags)))
		for _, t := range sum.Tags {
			str(t)
		}
		if len(buf) > 32<<10 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	return h.Sum128().Bytes()
}

// validRelated checks related records kept from an earlier build.
func (s *Model) validRelated(rel [][]int32) bool {
	if len(rel) != len(s.Summaries) {
		return false
	}
	for i, r := range rel {
		if len(r) > MaxRelated {
			return false
		}
		for _, j := range r {
			if j < 0 || int(j) >= len(rel) || int(j) == i {
				return false
			}
		}
	}
	return true
}

// sortRecords orders a listing: by repo, then slug, so pages are stable as
// records are added elsewhere.
func (s *Model) sortRecords(ids []int32) {
	slices.SortFunc(ids, func(a, b int32) int {
		x, y := &s.Summaries[a], &s.Summaries[b]
		return cmp.Or(strings.Compare(x.Repo, y.Repo), strings.Compare(x.Slug, y.Slug))
	})
}

// countRepos counts the repos of a listing in sortRecords' order (by repo
// first), where a repo's records are contiguous.
func (s *Model) countRepos(ids []int32) int {
	n := 0
	for k, i := range ids {
		if k == 0 || s.Summaries[i].Repo != s.Summaries[ids[k-1]].Repo {
			n++
		}
	}
	return n
}

func (s *Model) commonLanguage(ids []int32) string {
	count := map[string]int{}
	best := ""
	for _, i := range ids {
		l := s.Summaries[i].Language
		if l == "" {
			continue
		}
		count[l]++
		if count[l] > count[best] || (count[l] == count[best] && l < best) {
			best = l
		}
	}
	return best
}

// Repo, Tag and Family look up a binding page's group by name.
func (s *Model) Repo(name string) *Repo    { return s.repoByName[name] }
func (s *Model) Tag(name string) *Group    { return s.tagByName[name] }
func (s *Model) Family(name string) *Group { return s.familyByName[name] }

// SeverityCounts returns the number of records of each severity, in the
// schema's order of severities.
func (s *Model) SeverityCounts() []Count {
	out := make([]Count, 0, len(record.Severities))
	for _, sev := range record.Severities {
		out = append(out, Count{Name: sev, N: s.severities[sev]})
	}
	return out
}

// Count is a name with a number, for charts and lists.
type Count struct {
	Name string
	N    int
}

// TopFamilies returns the n largest families, largest first.
func (s *Model) TopFamilies(n int) []*Group {
	fs := slices.Clone(s.Families)
	slices.SortStableFunc(fs, func(a, b *Group) int { return cmp.Compare(len(b.Records), len(a.Records)) })
	return fs[:min(n, len(fs))]
}

// TopRepos returns the n repos with the most records, most first.
func (s *Model) TopRepos(n int) []*Repo {
	rs := slices.Clone(s.Repos)
	slices.SortStableFunc(rs, func(a, b *Repo) int { return cmp.Compare(len(b.Records), len(a.Records)) })
	return rs[:min(n, len(rs))]
}

// Recent returns the n most recently analysed records, newest first (ties by
// path, so the list is deterministic). The caller must not change it.
func (s *Model) Recent(n int) []int32 {
	s.recentMu.Lock()
	defer s.recentMu.Unlock()
	n = max(0, min(n, len(s.Summaries)))
	if n > len(s.recent) {
		s.recent = s.newest(n)
	}
	return s.recent[:n]
}

// maxPicked is the most records newest picks one by one; a longer list
// is had by sorting every record.
const maxPicked = 256

// newest returns the n newest records in Recent's order. The pages ask
// for a few dozen: they are picked in one pass over the records, not by
// sorting every record for them.
func (s *Model) newest(n int) []int32 {
	if n > maxPicked {
		ids := make([]int32, len(s.Summaries))
		for i := range ids {
			ids[i] = int32(i)
		}
		slices.SortFunc(ids, s.newer)
		return ids[:n]
	}
	top := make([]int32, 0, n+1) // sorted, newest first
	for i := range s.Summaries {
		id := int32(i)
		if len(top) == n && s.newer(id, top[n-1]) >= 0 {
			continue
		}
		k, _ := slices.BinarySearchFunc(top, id, s.newer)
		top = slices.Insert(top, k, id)
		if len(top) > n {
			top = top[:n]
		}
	}
	return top
}

// newer orders records newest first, then by path; the index breaks a
// tie that validation rules out (one repo and slug twice).
func (s *Model) newer(a, b int32) int {
	x, y := &s.Summaries[a], &s.Summaries[b]
	return cmp.Or(strings.Compare(y.AnalyzedAt, x.AnalyzedAt),
		strings.Compare(x.Repo, y.Repo), strings.Compare(x.Slug, y.Slug), cmp.Compare(a, b))
}

// Canonical returns the record whose page is canonical for record i's group
// of near-duplicates (records that share an errorCode, or else a
// messagePattern); i itself when it stands alone or is the best of its group.
func (s *Model) Canonical(i int32) int32 { return s.canonical[i] }

// computeCanonical picks each group's best record: has solutions, then the
// longest documentation, then the smallest slug (then path, to break ties
// across repos).
func (s *Model) computeCanonical() []int32 {
	best := map[string]int32{}
	better := func(a, b int32) bool {
		x, y := &s.Summaries[a], &s.Summaries[b]
		if (x.Solutions > 0) != (y.Solutions > 0) {
			return x.Solutions > 0
		}
		if x.DocLen != y.DocLen {
			return x.DocLen > y.DocLen
		}
		if x.Slug != y.Slug {
			return x.Slug < y.Slug
		}
		return x.Path() < y.Path()
	}
	// best maps a group's key to its number; the second pass reads each
	// record's group by number (slot), not by its key again.
	var bestOf []int32
	slot := make([]int32, len(s.Summaries))
	for i := range s.Summaries {
		k := s.Summaries[i].groupKey
		slot[i] = -1
		if k == "" {
			continue
		}
		g, ok := best[k]
		if !ok {
			g = int32(len(bestOf))
			best[k] = g
			bestOf = append(bestOf, int32(i))
		} else if better(int32(i), bestOf[g]) {
			bestOf[g] = int32(i)
		}
		slot[i] = g
	}
	out := slot // each slot read before it is written
	for i, g := range slot {
		if g < 0 {
			out[i] = int32(i)
		} else {
			out[i] = bestOf[g]
		}
	}
	return out
}

// MaxRelated is how many related records a record page links to.
const MaxRelated = 5

// relatedWindow is how many members of each of a record's groups (its
// family and each of its tags) are considered as its related records. A
// group's members are ordered by a hash of their ids, and a record looks at
// the members that follow it in that order: a family of tens of thousands
// costs no more than a small one, links spread over the whole group, and
// adding or removing a record changes the candidates of at most
// relatedWindow others per group, so a daily rebuild re-renders few pages.
const relatedWindow = 48

// Related returns up to MaxRelated records related to record i: records of
// the same family in other repos first, then records sharing the most tags;
// ties broken by a hash of the pair, so the choice is deterministic.
func (s *Model) Related(i int32) []int32 { return s.related[i] }

// hashOrder is a group's members in the order of their id hashes.
type hashOrder struct {
	members []int32
	hashes  []uint64
}

func (s *Model) orderByHash(ids []int32, idHash []uint64) hashOrder {
	o := hashOrder{members: slices.Clone(ids)}
	slices.SortFunc(o.members, func(a, b int32) int {
		return cmp.Or(cmp.Compare(idHash[a], idHash[b]), cmp.Compare(a, b))
	})
	o.hashes = make([]uint64, len(o.members))
	for k, m := range o.members {
		o.hashes[k] = idHash[m]
	}
	return o
}

// window calls fn for the members that follow record i (hash h) in the
// group's hash order, at most relatedWindow of them, never i itself.
func (o *hashOrder) window(i int32, h uint64, fn func(j int32)) {
	n := len(o.members)
	if n == 0 {
		return
	}
	start, _ := slices.BinarySearch(o.hashes, h)
	for k, seen := 0, 0; k < n && seen < relatedWindow; k++ {
		j := o.members[(start+k)%n]
		if j == i {
			continue
		}
		seen++
		fn(j)
	}
}

func (s *Model) computeRelated(workers int) [][]int32 {
	n := len(s.Summaries)
	idHash := make([]uint64, n)
	for i := range s.Summaries {
		idHash[i] = pairHash(s.Summaries[i].ID, "")
	}
	families := map[string]*hashOrder{}
	for _, g := range s.Families {
		o := s.orderByHash(g.Records, idHash)
		families[g.Name] = &o
	}
	tags := map[string]*hashOrder{}
	for _, g := range s.Tags {
		o := s.orderByHash(g.Records, idHash)
		tags[g.Name] = &o
	}
	out := make([][]int32, n)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := newScratch(n)
			for i := w; i < n; i += workers {
				out[i] = s.relatedOf(int32(i), idHash, families, tags, sc)
			}
		}()
	}
	wg.Wait()
	return out
}

// scratch is one worker's reusable candidate table: dense arrays indexed by
// record, reset by bumping a generation number instead of clearing.
type scratch struct {
	gen    []uint32
	shared []uint16
	family []bool
	cur    uint32
	list   []int32
	block  []int32 // the lists returned are cut from it
}

func newScratch(n int) *scratch {
	return &scratch{gen: make([]uint32, n), shared: make([]uint16, n), family: make([]bool, n)}
}

// related returns an empty list of room MaxRelated, cut from the worker's
// block: a list made for each record was a small object per record, live
// to the build's end, that the collector marked on every cycle of a cold
// build.
func (sc *scratch) related() []int32 {
	if cap(sc.block)-len(sc.block) < MaxRelated {
		sc.block = make([]int32, 0, relatedBlock)
	}
	start := len(sc.block)
	sc.block = sc.block[:start+MaxRelated]
	return sc.block[start : start : start+MaxRelated]
}

// relatedBlock is how many entries a block of related lists holds.
const relatedBlock = 8 << 10

func (sc *scratch) touch(j int32) {
	if sc.gen[j] != sc.cur {
		sc.gen[j] = sc.cur
		sc.shared[j] = 0
		sc.family[j] = false
		sc.list = append(sc.list, j)
	}
}

func (s *Model) relatedOf(i int32, idHash []uint64, families, tags map[string]*hashOrder, sc *scratch) []int32 {
	me := &s.Summaries[i]
	sc.cur++
	sc.list = sc.list[:0]
	if o := families[me.Family]; o != nil && me.Family != "" {
		o.window(i, idHash[i], func(j int32) {
			sc.touch(j)
			if s.Summaries[j].Repo != me.Repo {
				sc.family[j] = true
			}
		})
	}
	for _, t := range me.Tags {
		if o := tags[t]; o != nil {
			o.window(i, idHash[i], func(j int32) {
				sc.touch(j)
				sc.shared[j]++
			})
		}
	}
	tie := func(j int32) uint64 { return mix(idHash[i] ^ idHash[j]) }
	better := func(a, b int32) bool {
		if sc.family[a] != sc.family[b] {
			return sc.family[a]
		}
		if sc.shared[a] != sc.shared[b] {
			return sc.shared[a] > sc.shared[b]
		}
		if ta, tb := tie(a), tie(b); ta != tb {
			return ta < tb
		}
		return a < b
	}
	// Keep the best MaxRelated with an insertion into a short sorted list:
	// cheaper than sorting a few hundred candidates.
	best := sc.related()
	for _, j := range sc.list {
		if !sc.family[j] && sc.shared[j] == 0 {
			continue
		}
		if len(best) == MaxRelated && !better(j, best[MaxRelated-1]) {
			continue
		}
		k := len(best)
		if k < MaxRelated {
			best = append(best, j)
		} else {
			k = MaxRelated - 1
		}
		for k > 0 && better(j, best[k-1]) {
			best[k] = best[k-1]
			k--
		}
		best[k] = j
	}
	return best
}

// mix scrambles a 64-bit value (splitmix64's finaliser).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

func pairHash(a, b string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(a))
	h.Write([]byte{0})
	h.Write([]byte(b))
	return h.Sum64()
}

// Page is one page of a paginated listing.
type Page struct {
	Number int     // 1-based
	Total  int     // number of pages
	Items  []int32 // records (or group indexes) on this page
}

// Paginate splits a listing into pages of per items; an empty listing has
// one empty page, so its binding page still exists.
func Paginate(items []int32, per int) []Page {
	if per <= 0 {
		per = 100
	}
	total := max(1, (len(items)+per-1)/per)
	pages := make([]Page, total)
	for p := range pages {
		lo, hi := p*per, min((p+1)*per, len(items))
		pages[p] = Page{Number: p + 1, Total: total, Items: items[lo:hi]}
	}
	return pages
}

// PagePath is the folder of page n of a listing whose first page is base
// ("owner/name/" → "owner/name/page/2/").
func PagePath(base string, n int) string {
	if n <= 1 {
		return base
	}
	return base + "page/" + strconv.Itoa(n) + "/"
}

// Site sections: the folders of the binding pages.
const (
	ReposPath    = "repos/"
	TagsPath     = "tags/"
	FamiliesPath = "families/"
	SearchPath   = "search/"
	StaticPath   = "static/"
)

// TagPath and FamilyPath are the folders of one tag's and one family's page.
func TagPath(tag string) string       { return TagsPath + tag + "/" }
func FamilyPath(family string) string { return FamiliesPath + family + "/" }

// Sum is a hash of what a listing shows of record i (see appendHash),
// computed once per build: pages that list many records (repo, tag and
// family listings, related-record links) key themselves by these, so an
// edit that changes nothing a listing shows, such as the documentation,
// re-renders none of them.
func (s *Model) Sum(i int32) [16]byte { return s.sums[i] }

// computeSums gathers the summaries' hashes into one table (Sum is
// asked of records in any order, many times), hashing those that have
// none.
func (s *Model) computeSums(workers int) [][16]byte {
	out := make([][16]byte, len(s.Summaries))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for i := w; i < len(out); i += workers {
				sum := &s.Summaries[i]
				if sum.listSum == ([16]byte{}) {
					buf = sum.appendHash(buf[:0])
					sum.listSum = listHash(buf)
				}
				out[i] = sum.listSum
			}
		}()
	}
	wg.Wait()
	return out
}

// listHash is Sum's hash of a summary's appendHash.
func listHash(b []byte) [16]byte {
	full := sha256.Sum256(b)
	return [16]byte(full[:16])
}

// appendHash appends, length-prefixed, the fields a listing entry shows
// (render's entryOf): the page path (repo and slug), the message, the
// severity, the error class or type and the language. A field that entries
// come to show must be added here, or listings would go stale; what they do
// not show (documentation length, tags, dates) stays out, so that editing
// it re-renders no listing. Pages built from more of a record key
// themselves by its full hash besides.
func (s *Summary) appendHash(b []byte) []byte {
	str := func(v string) {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	str(s.Repo)
	str(s.Slug)
	str(s.Message)
	str(s.Severity)
	str(s.ErrorType)
	str(s.ErrorClass)
	str(s.Language)
	return b
}
