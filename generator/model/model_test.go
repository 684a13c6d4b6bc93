package model

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/errdocs/errdocs/generator/record"
)

func rec(id, repo, slug, family string, tags ...string) *record.Record {
	return &record.Record{ID: id, Repo: repo, Slug: slug, BackgroundTag: family, Tags: tags,
		ErrorMessage: "m " + slug, Severity: "error", ErrorType: "exception", FilePath: "a.py",
		MessagePattern: "m " + slug, AnalyzedAt: "2026-01-0" + id[15:] + "T00:00:00Z"}
}

func TestRelatedPrefersFamilyInOtherRepos(t *testing.T) {
	var b Builder
	b.Add(Summarize(rec("0000000000000001", "a/x", "one", "fam", "t1", "t2")))
	b.Add(Summarize(rec("0000000000000002", "a/x", "two", "fam", "t1", "t2"))) // same repo, same family, shares 2 tags
	b.Add(Summarize(rec("0000000000000003", "b/y", "three", "fam")))           // other repo, same family
	b.Add(Summarize(rec("0000000000000004", "c/z", "four", "other", "t1")))    // shares 1 tag
	b.Add(Summarize(rec("0000000000000005", "c/z", "five", "other")))          // unrelated
	s := b.Build()
	got := s.Related(0)
	want := []int32{2, 1, 3}
	if !slices.Equal(got, want) {
		t.Fatalf("Related(0) = %v, want %v", got, want)
	}
	if again := b.Build().Related(0); !slices.Equal(again, got) {
		t.Fatalf("Related not deterministic: %v then %v", got, again)
	}
}

func TestRelatedCapped(t *testing.T) {
	var b Builder
	for i := 0; i < 20; i++ {
		b.Add(Summarize(rec(fmt.Sprintf("%016x", i+1), fmt.Sprintf("o/r%d", i), fmt.Sprintf("s%d", i), "fam")))
	}
	s := b.Build()
	for i := range s.Summaries {
		if n := len(s.Related(int32(i))); n != MaxRelated {
			t.Fatalf("record %d has %d related, want %d", i, n, MaxRelated)
		}
		if slices.Contains(s.Related(int32(i)), int32(i)) {
			t.Fatalf("record %d is related to itself", i)
		}
	}
}

func TestCanonicalGroup(t *testing.T) {
	var b Builder
	a := rec("0000000000000001", "a/x", "bbb", "")
	a.ErrorCode = "E1"
	c := rec("0000000000000002", "b/y", "aaa", "")
	c.ErrorCode = "E1"
	c.Solutions = []string{"fix"}
	d := rec("0000000000000003", "b/y", "alone", "")
	for _, r := range []*record.Record{a, c, d} {
		b.Add(Summarize(r))
	}
	s := b.Build()
	if s.Canonical(0) != 1 || s.Canonical(1) != 1 || s.Canonical(2) != 2 {
		t.Fatalf("canonical = %d %d %d, want 1 1 2", s.Canonical(0), s.Canonical(1), s.Canonical(2))
	}
}

// TestCanonicalGroups checks each record's canonical record among many
// groups (by code, by pattern) and records in none, against the best of
// each group found by comparing every member with every other.
func TestCanonicalGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var b Builder
	var recs []*record.Record
	for i := range 400 {
		r := rec(fmt.Sprintf("%016x", i+1), fmt.Sprintf("o/r%d", rng.IntN(3)), fmt.Sprintf("s%d", i), "")
		r.MessagePattern = ""
		switch rng.IntN(3) {
		case 0:
			r.ErrorCode = fmt.Sprintf("E%d", rng.IntN(15))
		case 1:
			r.MessagePattern = fmt.Sprintf("p%d", rng.IntN(15))
		}
		r.Documentation = strings.Repeat("d", rng.IntN(4))
		if rng.IntN(5) == 0 {
			r.Solutions = []string{"fix"}
		}
		recs = append(recs, r)
		b.Add(Summarize(r))
	}
	s := b.Build()
	group := func(r *record.Record) string {
		if r.ErrorCode != "" {
			return "code " + r.ErrorCode
		}
		if r.MessagePattern != "" {
			return "pattern " + r.MessagePattern
		}
		return ""
	}
	for i, r := range recs {
		want := int32(i)
		if g := group(r); g != "" {
			for j, o := range recs {
				if group(o) != g {
					continue
				}
				w := recs[want]
				if ho, hw := len(o.Solutions) > 0, len(w.Solutions) > 0; ho != hw {
					if ho {
						want = int32(j)
					}
				} else if len(o.Documentation) != len(w.Documentation) {
					if len(o.Documentation) > len(w.Documentation) {
						want = int32(j)
					}
				} else if o.Slug < w.Slug {
					want = int32(j)
				}
			}
		}
		if got := s.Canonical(int32(i)); got != want {
			t.Fatalf("record %d (%s): canonical %d, want %d", i, group(r), got, want)
		}
	}
}

func TestPaginate(t *testing.T) {
	items := make([]int32, 250)
	pages := Paginate(items, 100)
	if len(pages) != 3 || len(pages[2].Items) != 50 || pages[1].Number != 2 || pages[0].Total != 3 {
		t.Fatalf("bad pages: %d pages", len(pages))
	}
	if len(Paginate(nil, 100)) != 1 {
		t.Fatal("empty listing must have one page")
	}
	if PagePath("o/n/", 1) != "o/n/" || PagePath("o/n/", 3) != "o/n/page/3/" {
		t.Fatal("PagePath")
	}
}

func TestLinks(t *testing.T) {
	cases := []struct {
		from, to  string
		indexFile bool
		want      string
	}{
		{"", "", false, "./"},
		{"", "", true, "index.html"},
		{"", "tags/x/", false, "tags/x/"},
		{"a/b/c/", "", false, "../../../"},
		{"a/b/c/", "tags/x/", true, "../../../tags/x/index.html"},
		{"a/b/c/", "o w/n?#/", false, "../../../o%20w/n%3F%23/"},
		{"404.html", "tags/", false, "tags/"},
		{"", "javascript:alert(1)/x/", false, "javascript%3Aalert%281%29/x/"},
	}
	for _, c := range cases {
		if got := (Links{From: c.from, IndexFile: c.indexFile}).Link(c.to); got != c.want {
			t.Errorf("Link(%q from %q) = %q, want %q", c.to, c.from, got, c.want)
		}
	}
	l := Links{From: "a/", Assets: map[string]string{"style.css": "static/style.abc.css"}}
	if got := l.Asset("style.css"); got != "../static/style.abc.css" {
		t.Errorf("Asset = %q", got)
	}
}

// memRelated is a RelatedCache in memory.
type memRelated struct {
	key  [16]byte
	rel  [][]int32
	puts int
}

func (m *memRelated) Get(key [16]byte) ([][]int32, bool) {
	return m.rel, m.rel != nil && key == m.key
}

func (m *memRelated) Put(key [16]byte, rel [][]int32) { m.key, m.rel, m.puts = key, rel, m.puts+1 }

func TestRelatedCache(t *testing.T) {
	build := func(cache RelatedCache, tag string) *Model {
		b := Builder{Related: cache}
		for i := 0; i < 30; i++ {
			r := rec(fmt.Sprintf("%016x", i+1), fmt.Sprintf("o/r%d", i%4), fmt.Sprintf("s%d", i), fmt.Sprintf("fam%d", i%3), "t1")
			if i == 7 {
				r.Tags = append(r.Tags, tag)
			}
			if i == 9 {
				r.Documentation = "changed"
			}
			b.Add(Summarize(r))
		}
		return b.Build()
	}
	want := build(nil, "x")
	m := &memRelated{}
	if got := build(m, "x"); m.puts != 1 || !slices.EqualFunc(got.related, want.related, slices.Equal) {
		t.Fatalf("first build: %d puts, related %v, want %v", m.puts, got.related, want.related)
	}
	if got := build(m, "x"); m.puts != 1 || !slices.EqualFunc(got.related, want.related, slices.Equal) {
		t.Fatalf("same input: recomputed (%d puts) or differs", m.puts)
	}
	// A change to what related records depend on is a new key.
	other := build(nil, "y")
	if got := build(m, "y"); m.puts != 2 || !slices.EqualFunc(got.related, other.related, slices.Equal) {
		t.Fatalf("tag changed: %d puts, related differ: %v", m.puts, !slices.EqualFunc(got.related, other.related, slices.Equal))
	}
	// What a cache hands back is checked before it is used.
	m.rel = [][]int32{{1}}
	if got := build(m, "y"); !slices.EqualFunc(got.related, other.related, slices.Equal) {
		t.Fatal("a cached table of the wrong size was used")
	}
}

func TestSummaryBinary(t *testing.T) {
	for _, r := range []*record.Record{
		rec("0000000000000001", "a/x", "one", "fam", "t1", "t2"),
		rec("0000000000000002", "a/x", "two", ""),
		{ID: "x", ErrorCode: "E1", Documentation: "doc", Solutions: []string{"s"}},
	} {
		s := Summarize(r)
		b := s.AppendBinary([]byte("head"))
		var d SummaryDecoder
		got, rest, err := d.Decode(append(b[4:], 'z'))
		if err != nil || string(rest) != "z" {
			t.Fatalf("decode: %v, rest %q", err, rest)
		}
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", s) {
			t.Errorf("decoded %#v\nwant %#v", got, s)
		}
		for n := 0; n < len(b)-4; n++ {
			if _, _, err := d.Decode(b[4 : 4+n]); err == nil {
				t.Errorf("decoded a summary cut at %d bytes", n)
			}
		}
		// SummaryLen measures what Decode reads, and refuses what it
		// refuses: cut short, or with any byte changed.
		if n, err := SummaryLen(append(b[4:len(b):len(b)], 'z')); err != nil || n != len(b)-4 {
			t.Fatalf("SummaryLen: %d, %v; want %d", n, err, len(b)-4)
		}
		for n := 0; n < len(b)-4; n++ {
			if _, err := SummaryLen(b[4 : 4+n]); err == nil {
				t.Errorf("SummaryLen took a summary cut at %d bytes", n)
			}
		}
		for i := 4; i < len(b); i++ {
			for _, v := range []byte{0, 1, 0x7f, 0x80, 0xff, b[i] + 1} {
				bad := append(slices.Clone(b[4:]), 'z', 'z', 'z')
				bad[i-4] = v
				_, rest, derr := d.Decode(bad)
				n, lerr := SummaryLen(bad)
				if (derr == nil) != (lerr == nil) || derr == nil && n != len(bad)-len(rest) {
					t.Fatalf("byte %d set to %#x: Decode read %d (%v), SummaryLen %d (%v)", i-4, v, len(bad)-len(rest), derr, n, lerr)
				}
			}
		}
	}
}

// TestSummaryDecoderSequence decodes many summaries with one decoder, as
// a cache entry is read: values shared with the summary before, and
// values that change from one to the next, each decode as encoded.
func TestSummaryDecoderSequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	repos := []string{"a/x", "a/x", "b/y", "", "a/xx"}
	fams := []string{"fam", "", "other", "fam"}
	var d SummaryDecoder
	for i := range 300 {
		r := rec(fmt.Sprintf("%016x", i+1), repos[rng.IntN(len(repos))], fmt.Sprintf("s%d", i), fams[rng.IntN(len(fams))], "t1")
		r.Severity = []string{"error", "warning", "error", ""}[rng.IntN(4)]
		r.FilePath = []string{"a.py", "b.go", "c", "a.py"}[rng.IntN(4)]
		s := Summarize(r)
		got, rest, err := d.Decode(s.AppendBinary(nil))
		if err != nil || len(rest) != 0 {
			t.Fatalf("summary %d: %v, %d bytes left", i, err, len(rest))
		}
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", s) {
			t.Fatalf("summary %d decoded %#v\nwant %#v", i, got, s)
		}
	}
}

// TestSummaryDecodeInPlace decodes summaries in place from one buffer, as
// a rebuild does from the read cache's pack: each is the summary encoded,
// its message is the buffer's bytes (no copy), and its other strings are
// not (shared values outlive the buffer in the decoder; the others stay
// together in its blocks).
func TestSummaryDecodeInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var want []Summary
	var b []byte
	for i := range 200 {
		r := wordyRecord(rng, i, 7, 4, 9, 12)
		r.ErrorCode = fmt.Sprintf("E%d", i%3)
		s := Summarize(r)
		want = append(want, s)
		b = s.AppendBinary(b)
	}
	in := func(v string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(v)))
		lo := uintptr(unsafe.Pointer(&b[0]))
		return p >= lo && p < lo+uintptr(len(b))
	}
	var d SummaryDecoder
	rest := b
	for i, w := range want {
		got, r, err := d.DecodeInPlace(rest)
		if err != nil {
			t.Fatalf("summary %d: %v", i, err)
		}
		rest = r
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", w) {
			t.Fatalf("summary %d decoded %#v\nwant %#v", i, got, w)
		}
		if !in(got.Message) {
			t.Fatalf("summary %d: its message was copied, not decoded in place", i)
		}
		for _, v := range append([]string{got.ID, got.Slug, got.ErrorCode, got.groupKey, got.Repo, got.Severity, got.Family, got.Language}, got.Tags...) {
			if v != "" && in(v) {
				t.Fatalf("summary %d: %q is the buffer's bytes, not a copy", i, v)
			}
		}
	}
	if len(rest) != 0 {
		t.Fatalf("%d bytes left", len(rest))
	}
}

// wordyRecord is the i'th record of a run to encode and decode: a repo
// every perRepo records, fewer than maxTags tags of tagValues values, and
// fewer than maxWords words before its message.
func wordyRecord(rng *rand.Rand, i, perRepo, maxTags, tagValues, maxWords int) *record.Record {
	tags := make([]string, rng.IntN(maxTags))
	for k := range tags {
		tags[k] = fmt.Sprintf("t%d", rng.IntN(tagValues))
	}
	r := rec(fmt.Sprintf("%016x", i+1), fmt.Sprintf("o/r%d", i/perRepo), fmt.Sprintf("slug-%d", i), "fam", tags...)
	r.ErrorMessage = strings.Repeat("word ", rng.IntN(maxWords)) + r.ErrorMessage
	return r
}

// TestSummaryDecoderKeeps decodes summaries enough to fill several of the
// decoder's blocks of strings and tags, and keeps them all (keepMany).
func TestSummaryDecoderKeeps(t *testing.T) {
	var d SummaryDecoder
	keepMany(t, rand.New(rand.NewPCG(5, 6)), "decoded", func(_ *record.Record, s Summary) (Summary, error) {
		dec, _, err := d.Decode(s.AppendBinary(nil))
		return dec, err
	})
}

// TestSummaryCompact compacts summaries made from records read, enough to
// fill several of the decoder's blocks, and keeps them all (keepMany):
// each must also hold none of its record's strings (the record's may then
// be freed), and cost its blocks' share of an allocation rather than one
// per string.
func TestSummaryCompact(t *testing.T) {
	var d SummaryDecoder
	keepMany(t, rand.New(rand.NewPCG(7, 8)), "compacted", func(r *record.Record, s Summary) (Summary, error) {
		c := d.Compact(s)
		for _, f := range [][2]string{{c.ID, r.ID}, {c.Slug, r.Slug}, {c.AnalyzedAt, r.AnalyzedAt}} {
			if unsafe.StringData(f[0]) == unsafe.StringData(f[1]) {
				return c, fmt.Errorf("still holds its record's string %q", f[1])
			}
		}
		if len(c.Tags) > 0 && &c.Tags[0] == &s.Tags[0] {
			return c, errors.New("still holds the tag list Summarize made")
		}
		return c, nil
	})
	s := Summarize(wordyRecord(rand.New(rand.NewPCG(9, 10)), 1, 100, 6, 40, 60))
	if n := testing.AllocsPerRun(1000, func() { d.Compact(s) }); n > 0.05 {
		t.Errorf("Compact made %.3f allocations a summary, want its share of a block's", n)
	}
}

// keepMany makes 4,000 summaries (one with a message over a block), has
// keep make each one's kept form, and keeps them all: each must still be
// the summary made once the later ones are kept (how: "decoded"), and a
// tag appended to one summary's list must not become the next one's.
func keepMany(t *testing.T, rng *rand.Rand, how string, keep func(*record.Record, Summary) (Summary, error)) {
	t.Helper()
	var want, got []Summary
	for i := range 4000 {
		r := wordyRecord(rng, i, 100, 6, 40, 60)
		if i == 2000 {
			r.ErrorMessage = strings.Repeat("long ", 10000) // over a block
		}
		s := Summarize(r)
		k, err := keep(r, s)
		if err != nil {
			t.Fatalf("summary %d: %v", i, err)
		}
		if i > 0 && len(got[i-1].Tags) > 0 {
			_ = append(got[i-1].Tags, "appended") // after k was made
		}
		want, got = append(want, s), append(got, k)
	}
	for i := range want {
		if fmt.Sprintf("%#v", got[i]) != fmt.Sprintf("%#v", want[i]) {
			t.Fatalf("summary %d, after the others were %s: %#v\nwant %#v", i, how, got[i], want[i])
		}
	}
}

// TestRelatedFromBlocks checks that the related lists of many records
// are cut from a few blocks, not made one by one (the collector marks
// every object live on each of a cold build's cycles), and that a list
// appended to does not write into the next record's.
func TestRelatedFromBlocks(t *testing.T) {
	var b Builder
	const n = 3000
	for i := range n {
		b.Add(Summarize(rec(fmt.Sprintf("%016x", i+1), fmt.Sprintf("o/r%d", i%7), fmt.Sprintf("s%d", i), "fam", fmt.Sprintf("t%d", i%3))))
	}
	s := b.Build()
	if allocs := testing.AllocsPerRun(2, func() { s.computeRelated(1) }); allocs > n/20 {
		t.Errorf("related lists of %d records took %.0f allocations, want a few blocks' worth", n, allocs)
	}
	want := slices.Clone(s.Related(1))
	if len(want) != MaxRelated {
		t.Fatalf("record 1 has %d related, want %d", len(want), MaxRelated)
	}
	for i := range int32(n) {
		_ = append(s.Related(i), -1)
	}
	if got := s.Related(1); !slices.Equal(got, want) {
		t.Errorf("record 1's related records became %v after the others' lists were appended to, want %v", got, want)
	}
}

// Listings are filled in listing order rather than sorted; they must hold
// the same records in the same order as sorting each would give.
func TestListingsOrder(t *testing.T) {
	for _, ties := range []bool{false, true} {
		var b Builder
		var sums []Summary
		for i := 0; i < 300; i++ {
			slug := fmt.Sprintf("s%d", (i*7919)%300)
			if ties && i%50 == 0 {
				slug = "same"
			}
			r := rec(fmt.Sprintf("%016x", i+1), fmt.Sprintf("o/r%d", (i*31)%7), slug, fmt.Sprintf("fam%d", i%4),
				fmt.Sprintf("t%d", i%5), fmt.Sprintf("t%d", i%3), "t0")
			sums = append(sums, Summarize(r))
			b.Add(sums[i])
		}
		s := b.Build()
		check := func(name string, got []int32, member func(*Summary) bool) {
			var want []int32
			for i := range sums {
				if member(&sums[i]) {
					want = append(want, int32(i))
				}
			}
			s.sortRecords(want)
			if !slices.Equal(got, want) {
				t.Errorf("ties %v: %s lists %v, want %v", ties, name, got, want)
			}
		}
		for _, g := range s.Tags {
			check("tag "+g.Name, g.Records, func(x *Summary) bool { return slices.Contains(x.Tags, g.Name) })
		}
		for _, g := range s.Families {
			check("family "+g.Name, g.Records, func(x *Summary) bool { return x.Family == g.Name })
		}
		for _, r := range s.Repos {
			check("repo "+r.Name, r.Records, func(x *Summary) bool { return x.Repo == r.Name })
		}
	}
}

// Sum changes with every field a listing entry shows, and with nothing
// else: an edit of the documentation, tags or date re-renders no listing.
func TestSumShownFields(t *testing.T) {
	sum := func(edit func(r *record.Record)) [16]byte {
		r := rec("0000000000000001", "a/x", "one", "fam", "t1", "t2")
		edit(r)
		var b Builder
		b.Add(Summarize(r))
		return b.Build().Sum(0)
	}
	base := sum(func(*record.Record) {})
	shown := map[string]func(r *record.Record){
		"message":  func(r *record.Record) { r.ErrorMessage += " changed" },
		"severity": func(r *record.Record) { r.Severity = "low" },
		"class":    func(r *record.Record) { r.ErrorClass = "OtherError" },
		"type":     func(r *record.Record) { r.ErrorType = "other" },
		"language": func(r *record.Record) { r.FilePath = "a.rs" },
		"repo":     func(r *record.Record) { r.Repo = "b/y" },
		"slug":     func(r *record.Record) { r.Slug = "another-slug" },
	}
	for name, edit := range shown {
		if sum(edit) == base {
			t.Errorf("Sum does not change with the %s, which listings show", name)
		}
	}
	hidden := map[string]func(r *record.Record){
		"documentation": func(r *record.Record) { r.Documentation += " More words." },
		"solutions":     func(r *record.Record) { r.Solutions = append(r.Solutions, "Another fix.") },
		"tags":          func(r *record.Record) { r.Tags = append(r.Tags, "t3") },
		"analyzedAt":    func(r *record.Record) { r.AnalyzedAt = "2020-01-01T00:00:00Z" },
	}
	for name, edit := range hidden {
		if sum(edit) != base {
			t.Errorf("Sum changes with the %s, which no listing shows", name)
		}
	}
}

// EscapePath's fast path for plain paths gives what escaping each segment
// gives, on paths of every byte that matters.
func TestEscapePathPlain(t *testing.T) {
	slow := func(p string) string {
		if p == "" {
			return ""
		}
		segs := strings.Split(p, "/")
		for i, s := range segs {
			segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
		}
		return strings.Join(segs, "/")
	}
	alphabet := "aZ09-_.~/:?#% é\x00\xff<>\"'&;=+@$,"
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 5000; n++ {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if got, want := EscapePath(string(b)), slow(string(b)); got != want {
			t.Fatalf("EscapePath(%q) = %q, want %q", b, got, want)
		}
	}
}

// TestRecentNewestFirst checks Recent against every record sorted newest
// first, then by repo and slug, for lengths picked one by one and sorted,
// on times that tie often and come in no order, asked for in any order.
func TestRecentNewestFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	var b Builder
	times := []string{"2026-01-02T00:00:00Z", "2025-12-31T23:59:59Z", "", "2026-01-02T00:00:00+01:00", "2024-02-29T12:00:00Z"}
	for i := range 700 {
		r := rec(fmt.Sprintf("%016x", i+1), fmt.Sprintf("o%d/r", rng.IntN(9)), fmt.Sprintf("s%03d", rng.IntN(1000)), "")
		r.Slug += fmt.Sprintf("-%d", i) // a repo's slugs are unique, as validated
		r.AnalyzedAt = times[rng.IntN(len(times))]
		b.Add(Summarize(r))
	}
	s := b.Build()
	all := make([]int32, len(s.Summaries))
	for i := range all {
		all[i] = int32(i)
	}
	slices.SortFunc(all, func(a, b int32) int {
		x, y := &s.Summaries[a], &s.Summaries[b]
		if c := strings.Compare(y.AnalyzedAt, x.AnalyzedAt); c != 0 {
			return c
		}
		if c := strings.Compare(x.Repo, y.Repo); c != 0 {
			return c
		}
		return strings.Compare(x.Slug, y.Slug)
	})
	for _, n := range []int{5, 1, 50, 20, 0, maxPicked, maxPicked + 1, 699, 700, 900} {
		want := all[:min(n, len(all))]
		if got := s.Recent(n); !slices.Equal(got, want) {
			t.Fatalf("Recent(%d) = %v..., want %v...", n, got[:min(5, len(got))], want[:min(5, len(want))])
		}
	}
}

// memGroups is a GroupCache in memory.
type memGroups struct {
	key        [16]byte
	data       []byte
	gets, puts int
}

func (m *memGroups) Get(key [16]byte, decode func([]byte) bool) bool {
	if m.data == nil || key != m.key {
		return false
	}
	m.gets++
	return decode(m.data)
}

func (m *memGroups) Put(key [16]byte, data []byte) { m.key, m.data, m.puts = key, data, m.puts+1 }

// groupsOf is everything the groups say, to compare two models'.
func groupsOf(s *Model) string {
	var b strings.Builder
	for _, r := range s.Repos {
		fmt.Fprintf(&b, "repo %q %q %v %v\n", r.Name, r.Language, r.Records, s.Repo(r.Name) == r)
	}
	for _, g := range s.Tags {
		fmt.Fprintf(&b, "tag %q %d %v %v\n", g.Name, g.Repos, g.Records, s.Tag(g.Name) == g)
	}
	for _, g := range s.Families {
		fmt.Fprintf(&b, "family %q %d %v %v %v\n", g.Name, g.Repos, g.Records, s.Family(g.Name) == g, g.Info)
	}
	fmt.Fprintln(&b, s.SeverityCounts())
	return b.String()
}

// The groups taken from the cache are the groups made from the summaries,
// and a change of any field they are made from (repo, slug, family, tags,
// language, severity) makes them again; a damaged form is not used.
func TestGroupsCache(t *testing.T) {
	records := func(change func(i int, r *record.Record)) []*record.Record {
		var rs []*record.Record
		for i := 0; i < 60; i++ {
			r := rec(fmt.Sprintf("%016x", i+1), fmt.Sprintf("o/r%d", (i*7)%5), fmt.Sprintf("s%d", (i*13)%60),
				fmt.Sprintf("fam%d", i%4), fmt.Sprintf("t%d", i%3), fmt.Sprintf("t%d", i%7))
			r.FilePath = []string{"a.py", "b.go", "c.rs"}[i%3]
			if change != nil {
				change(i, r)
			}
			rs = append(rs, r)
		}
		return rs
	}
	build := func(cache GroupCache, rs []*record.Record) *Model {
		b := Builder{Groups: cache}
		for _, r := range rs {
			b.Add(Summarize(r))
		}
		b.AddRepoEntries([]record.Repo{{Repo: "o/r1", Description: "d", Language: "Go"}})
		return b.Build()
	}
	m := &memGroups{}
	base := records(nil)
	want := groupsOf(build(nil, base))
	if got := groupsOf(build(m, base)); m.puts != 1 || got != want {
		t.Fatalf("first build: %d puts; groups\n%s\nwant\n%s", m.puts, got, want)
	}
	if got := groupsOf(build(m, base)); m.gets != 1 || m.puts != 1 || got != want {
		t.Fatalf("same input: %d gets, %d puts; groups\n%s\nwant\n%s", m.gets, m.puts, got, want)
	}
	for name, change := range map[string]func(i int, r *record.Record){
		"repo":     func(i int, r *record.Record) { r.Repo = "o/r" + fmt.Sprint((i*7+1)%5) },
		"slug":     func(i int, r *record.Record) { r.Slug = fmt.Sprintf("s%d", (i*17)%60) },
		"family":   func(i int, r *record.Record) { r.BackgroundTag = fmt.Sprintf("fam%d", i%5) },
		"tags":     func(i int, r *record.Record) { r.Tags = r.Tags[:1] },
		"language": func(i int, r *record.Record) { r.FilePath = "x.rb" },
		"severity": func(i int, r *record.Record) { r.Severity = "warning" },
	} {
		for _, one := range []bool{true, false} {
			rs := records(func(i int, r *record.Record) {
				if !one || i == 11 {
					change(i, r)
				}
			})
			puts := m.puts
			want := groupsOf(build(nil, rs))
			if got := groupsOf(build(m, rs)); m.puts != puts+1 || got != want {
				t.Errorf("%s changed (one record %v): %d puts; groups\n%s\nwant\n%s", name, one, m.puts-puts, got, want)
			}
			build(m, base) // the cache holds the base's groups again
		}
	}
	for _, cut := range []int{0, 1, len(m.data) / 2, len(m.data) - 1} {
		m.data = m.data[:cut]
		if got := groupsOf(build(m, base)); got != want {
			t.Fatalf("groups cut at %d bytes: %s", cut, got)
		}
	}
}

// A summary's hash for listings made with it (Summarize, kept through its
// binary form) is the one Build makes of a summary that has none.
func TestSumsMadeWithSummaries(t *testing.T) {
	var made, bare Builder
	var d SummaryDecoder
	for i := range 9 {
		r := rec(fmt.Sprintf("%016x", i+1), "a/x", fmt.Sprintf("s%d", i), "fam", "t1")
		if i%3 == 1 {
			r.ErrorMessage = "same message"
		}
		r.Documentation = strings.Repeat("d", i)
		s := Summarize(r)
		dec, _, err := d.Decode(s.AppendBinary(nil))
		if err != nil {
			t.Fatal(err)
		}
		made.Add(dec)
		s.listSum = [16]byte{}
		bare.Add(s)
	}
	m, b := made.Build(), bare.Build()
	for i := range int32(9) {
		if m.Sum(i) != b.Sum(i) || m.Sum(i) == ([16]byte{}) {
			t.Fatalf("record %d: the hash kept with its summary %x, the one made by Build %x", i, m.Sum(i), b.Sum(i))
		}
	}
	if m.Sum(1) == m.Sum(4) {
		t.Error("two records with one message, on two pages, share a hash")
	}
}
