package export

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	randv2 "math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
	"github.com/errdocs/errdocs/internal/knownitem"

	"github.com/errdocs/errdocs/generator/index"
)

// edgeTexts exercise tokenizer and filter corners for every analyzer.
var edgeTexts = []string{
	"", " ", "The server's connections were REFUSED; retrying…",
	"java.lang.NullPointerException at com.example.Foo.bar(Foo.java:42)",
	"127.0.0.1:8080 go1.22 v1.2.3 3.14 1,000.5 -42 0x1F __init__ _private snake_case_name",
	"don't can't it's Jones’s JONES'S ＇s s 's", "漢字テストです ひらがな カタカナ한국어",
	"naïve café ΣΊΣΥΦΟΣ ΟΔΥΣΣΕΥΣ İstanbul ǅemal Ⱥbc Straße", "emoji 😀 test 👍🏽 x",
	"tab\tsep\u00a0nbsp\u2003emsp\u3000ideo", "ERR_INVALID_ARG E1234 *os.PathError ECONNREFUSED",
	"\"quoted\" (paren) [bracket] {brace} <angle> a/b a\\b a-b a+b a@b.com http://x.y/z?q=1#f",
	"connections connected connecting connection generalizations relational hopefulness",
	"ยินดีต้อนรับ ສະບາຍດີ", "a.b. U.S.A. e.g. i.e. 1.2.3.4.5", "x_1 1_x __ _ $var @decorator #hash",
	"caffeine\u0301 e\u0301 Z\u0308", "mañana ÅNGSTRÖM", "ﬁle ﬀ", "a'b a’b a''b",
}

func TestAnalyzerParity(t *testing.T) {
	f := buildFixture(t, 1500, 11, Options{})
	m := f.ix.Bleve().Mapping()

	// The source texts of every analyzed field, per record.
	type item struct{ field, analyzer, text string }
	var items []item
	for i := range f.recs {
		doc, _ := index.BuildDoc(&f.recs[i])
		for _, fld := range index.Fields {
			switch v := doc[fld.Name].(type) {
			case string:
				items = append(items, item{fld.Name, fld.Analyzer, v})
			case []interface{}:
				for _, x := range v {
					items = append(items, item{fld.Name, fld.Analyzer, x.(string)})
				}
			}
		}
	}
	analyzers := []string{index.AnalyzerEN, index.AnalyzerIdent, index.AnalyzerCode, index.AnalyzerQCode}
	for _, a := range analyzers {
		for _, s := range edgeTexts {
			items = append(items, item{"", a, s})
		}
	}
	byAnalyzer := map[string][]int{}
	for i, it := range items {
		byAnalyzer[it.analyzer] = append(byAnalyzer[it.analyzer], i)
	}
	var req []map[string]interface{}
	names := sortedKeys(byAnalyzer)
	for _, a := range names {
		var texts []string
		for _, i := range byAnalyzer[a] {
			texts = append(texts, items[i].text)
		}
		req = append(req, map[string]interface{}{"analyzer": a, "texts": texts})
	}
	var resp struct{ Analyze [][][]string }
	runNode(t, map[string]interface{}{"analyze": req}, &resp)

	jsTerms := map[string]map[string]bool{} // field -> terms
	mismatches, compared := 0, 0
	for ai, a := range names {
		for j, i := range byAnalyzer[a] {
			want := Analyze(m, a, items[i].text)
			for k := range want {
				want[k] = jsonString(want[k]) // as the export writes terms
			}
			got := resp.Analyze[ai][j]
			compared++
			if strings.Join(want, "\x00") != strings.Join(got, "\x00") {
				mismatches++
				if mismatches <= 15 {
					t.Errorf("analyzer %s on %q:\n bleve %q\n js    %q", a, items[i].text, want, got)
				}
			}
			if items[i].field != "" {
				if jsTerms[items[i].field] == nil {
					jsTerms[items[i].field] = map[string]bool{}
				}
				for _, g := range got {
					jsTerms[items[i].field][g] = true
				}
			}
		}
	}
	// Every term bleve holds (FieldDict) must be one the JS analyzer made
	// from the same texts, and the other way round.
	r, err := f.ix.Bleve().Advanced()
	if err != nil {
		t.Fatal(err)
	}
	rd, err := r.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	dictTerms := 0
	for _, fld := range index.Fields {
		fd, err := rd.FieldDict(fld.Name)
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for {
			e, err := fd.Next()
			if err != nil || e == nil {
				break
			}
			have[e.Term] = true
			dictTerms++
			if !jsTerms[fld.Name][e.Term] {
				t.Errorf("field %s: bleve term %q not produced by the JS analyzer", fld.Name, e.Term)
			}
		}
		fd.Close()
		for term := range jsTerms[fld.Name] {
			if !have[term] {
				t.Errorf("field %s: JS term %q not in bleve's dictionary", fld.Name, term)
			}
		}
	}
	t.Logf("analyzer parity: %d texts compared token by token, %d mismatches; %d dictionary terms checked", compared, mismatches, dictTerms)
}

type jsQueryResult struct {
	Error      string
	Ms         float64
	Total      int
	TotalExact bool
	Fuzzy      bool
	Results    []struct {
		ID      string
		Score   float64
		Terms   []string
		Pattern json.RawMessage
	}
	Files    int
	ByKind   map[string]int
	Raw, Gz  int
	EngineGz int
}

type parityQuery struct {
	q       string
	opts    QueryOptions
	setOnly bool
}

func (p parityQuery) jsOpts() map[string]interface{} {
	mode := p.opts.Mode
	if mode == ModeAny {
		mode = "any"
	}
	o := map[string]interface{}{"limit": 10, "prefix": p.opts.Prefix, "fuzzy": p.opts.Fuzzy, "mode": mode}
	if len(p.opts.Filters) > 0 {
		o["filters"] = p.opts.Filters
	}
	return o
}

// parityQueries derives queries from the records: words of messages,
// stop words, inflected forms, codes, classes, tags, filters.
func parityQueries(f *fixture, seed int64) []parityQuery {
	rng := rand.New(rand.NewSource(seed))
	var qs []parityQuery
	add := func(q string, o QueryOptions) { qs = append(qs, parityQuery{q: q, opts: o}) }
	words := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool {
			return r == ' ' || r == ',' || r == '.' || r == ':' || r == '(' || r == ')' || r == '"' || r == '\''
		})
	}
	pick := func() []string {
		for {
			r := &f.recs[rng.Intn(len(f.recs))]
			if ws := words(r.ErrorMessage); len(ws) >= 3 {
				return ws
			}
		}
	}
	for i := 0; i < 12; i++ {
		ws := pick()
		add(ws[rng.Intn(len(ws))], QueryOptions{})
	}
	for i := 0; i < 12; i++ {
		ws := pick()
		j := rng.Intn(len(ws) - 1)
		add(ws[j]+" "+ws[j+1], QueryOptions{})
	}
	for i := 0; i < 8; i++ {
		ws := pick()
		j := rng.Intn(len(ws) - 2)
		add(strings.Join(ws[j:j+3], " "), QueryOptions{})
	}
	// known-item queries (three words of a message, in its order) and the
	// same words reversed: typedOrder orders their first results
	for _, q := range knownitem.Make(f.recs, 10, uint64(seed)) {
		if q.Kind != "keywords" {
			continue
		}
		add(q.Text, QueryOptions{})
		ws := strings.Fields(q.Text)
		slices.Reverse(ws)
		add(strings.Join(ws, " "), QueryOptions{})
	}
	for _, q := range []string{"the connection was refused", "connections refused", "invalid arguments", "is not a valid",
		"timeout", "permission denied", "failed to parse configuration", "memory", "null pointer", "out of memory errors",
		"Unable to connect to the database", "the", "file not found", "KeyError", "TypeError undefined",
		// negations typed without their apostrophe or cut at it (clippedNegation)
		"file doesnt found", "permission isnt denied", "connection refused didn", "invalid value don"} {
		add(q, QueryOptions{})
	}
	codes, classes, tags, repos, langs, families := []string{}, []string{}, []string{}, []string{}, []string{}, []string{}
	for i := range f.recs {
		r := &f.recs[i]
		if r.ErrorCode != "" {
			codes = append(codes, r.ErrorCode)
		}
		if r.ErrorClass != "" {
			classes = append(classes, r.ErrorClass)
		}
		tags = append(tags, r.Tags...)
		repos = append(repos, r.Repo)
		if r.BackgroundTag != "" {
			families = append(families, r.BackgroundTag)
		}
		d, err := f.ix.DocData(r.ID)
		if err != nil {
			panic(err) // a fixture this test built
		}
		langs = append(langs, d.Language)
	}
	for i := 0; i < 6 && len(codes) > 0; i++ {
		add(codes[rng.Intn(len(codes))], QueryOptions{})
	}
	for i := 0; i < 6 && len(classes) > 0; i++ {
		add(classes[rng.Intn(len(classes))], QueryOptions{})
	}
	for i := 0; i < 4 && len(tags) > 0; i++ {
		add(tags[rng.Intn(len(tags))], QueryOptions{})
	}
	// filters
	for i := 0; i < 8; i++ {
		ws := pick()
		o := QueryOptions{Filters: map[string][]string{}}
		switch i % 4 {
		case 0:
			o.Filters["repo"] = []string{repos[rng.Intn(len(repos))]}
		case 1:
			o.Filters["severity"] = []string{"error", "critical"}
		case 2:
			o.Filters["tag"] = []string{tags[rng.Intn(len(tags))]}
			o.Filters["severity"] = []string{"error"}
		case 3:
			if l := langs[rng.Intn(len(langs))]; l != "" {
				o.Filters["language"] = []string{l}
			}
			o.Filters["errorType"] = []string{"exception"}
		}
		add(ws[rng.Intn(len(ws))], o)
	}
	add("", QueryOptions{Filters: map[string][]string{"severity": {"warning"}}})
	add("", QueryOptions{Filters: map[string][]string{"repo": {repos[0]}, "severity": {"error"}}})
	// a family: what its page's search link asks for, alone and with words
	if len(families) > 0 {
		fam := families[rng.Intn(len(families))]
		add("", QueryOptions{Filters: map[string][]string{"family": {fam}}})
		ws := pick()
		add(ws[rng.Intn(len(ws))], QueryOptions{Filters: map[string][]string{"family": {fam}}})
	}
	// prefix (type-ahead): same ranking; fuzzy (typos): same top-10 set
	for i := 0; i < 10; i++ {
		ws := pick()
		w := ws[rng.Intn(len(ws))]
		if rs := []rune(w); len(rs) > 4 {
			w = string(rs[:3+rng.Intn(len(rs)-3)])
		}
		q := w
		if i%2 == 1 {
			q = ws[0] + " " + w
		}
		qs = append(qs, parityQuery{q: q, opts: QueryOptions{Prefix: true}})
	}
	for i := 0; i < 10; i++ {
		ws := pick()
		w := []rune(strings.ToLower(ws[rng.Intn(len(ws))]))
		if len(w) >= 4 {
			k := 2 + rng.Intn(len(w)-2)
			switch i % 3 {
			case 0: // substitution
				w[k] = 'x'
			case 1: // deletion
				w = append(w[:k:k], w[k+1:]...)
			case 2: // transposition
				if k+1 < len(w) {
					w[k], w[k+1] = w[k+1], w[k]
				}
			}
		}
		qs = append(qs, parityQuery{q: string(w), opts: QueryOptions{Fuzzy: true}, setOnly: true})
	}
	// every query form the search page sends: all words (typed, with the
	// last word as a prefix), most words (a pasted error), any word (the
	// "some words" results above) and its fuzzy fallback
	n := len(qs)
	for i := 0; i < n; i++ {
		q := qs[i]
		if q.opts.Fuzzy {
			o := q.opts
			o.Mode = ModeAll
			qs = append(qs, parityQuery{q: q.q, opts: o, setOnly: true})
			continue
		}
		o := q.opts
		o.Mode = ModeAll
		qs = append(qs, parityQuery{q: q.q, opts: o})
		if i%3 == 0 {
			o.Prefix = !o.Prefix
			qs = append(qs, parityQuery{q: q.q, opts: o})
		}
	}
	for i := 0; i < 16; i++ {
		r := &f.recs[rng.Intn(len(f.recs))]
		paste := r.ErrorMessage
		switch i % 4 {
		case 0:
			paste = "ValueError: " + paste
		case 1:
			paste = "panic: " + strings.ReplaceAll(paste, " ", " 42 ")
		case 2:
			paste = "Traceback (most recent call last): File \"/srv/app.py\", line 3, in <module> " + paste
		}
		qs = append(qs, parityQuery{q: paste, opts: QueryOptions{Mode: ModeMost}})
		if i%4 == 3 {
			qs = append(qs, parityQuery{q: paste, opts: QueryOptions{Mode: ModeMost, Filters: map[string][]string{"severity": {"error", "critical"}}}})
		}
	}
	return qs
}

func TestRankingParity(t *testing.T) {
	f := buildFixture(t, 3000, 7, Options{BlockSize: 32, PostingFileBytes: 8 << 10})
	// Churn: delete, change and add records, so that the index has
	// several segments and deletions, as after incremental rebuilds.
	var next []record.Record
	for i, r := range f.recs {
		switch {
		case i%15 == 0:
			continue // deleted
		case i%10 == 0:
			r.ErrorMessage = "changed: " + r.ErrorMessage + " again"
			r.Documentation += "\n\nThis record was changed for the churn test."
		}
		next = append(next, r)
	}
	extra := genRecords(300, 8)
	for i := range extra {
		extra[i].ID = fmt.Sprintf("f%015x", i) // keep ids unique against the first set
		extra[i].Slug += "-x"
	}
	next = append(next, extra...)
	st, err := f.ix.Sync(index.Records(next))
	if err != nil {
		t.Fatal(err)
	}
	if st.Deleted != 200 || st.Updated != 200 || st.Added != 300 {
		t.Errorf("sync stats %+v, want 200 deleted, 200 updated, 300 added", st)
	}
	f.recs = next
	// Small blocks and files so the engine's pruning and block loading run.
	if f.st, err = New(f.ix).Export(dirWriter{f.site + "2"}, Options{BlockSize: 32, PostingFileBytes: 8 << 10}); err != nil {
		t.Fatal(err)
	}
	f.site += "2"
	qs := parityQueries(f, 99)
	if n := checkParity(t, f, qs); n < 5 {
		t.Errorf("typedOrder changed the order of %d queries' results; the parity queries should exercise it more", n)
	}
}

// checkParity compares each query's results with bleve's twin; it returns
// how many of them typedOrder put in another order than the scores'.
func checkParity(t *testing.T, f *fixture, qs []parityQuery) (reordered int) {
	t.Helper()
	var jq []map[string]interface{}
	for _, q := range qs {
		jq = append(jq, map[string]interface{}{"q": q.q, "opts": q.jsOpts()})
	}
	var resp struct{ Queries []jsQueryResult }
	runNode(t, map[string]interface{}{"site": f.site, "queries": jq}, &resp)
	if len(resp.Queries) != len(qs) {
		t.Fatalf("node answered %d queries, want %d", len(resp.Queries), len(qs))
	}
	ok, nonEmpty, counted := 0, 0, 0
	for i, q := range qs {
		want, total, err := search(f.ix, q.q, q.opts, 10)
		if err != nil {
			t.Fatalf("bleve %q: %v", q.q, err)
		}
		got := resp.Queries[i]
		if got.Error != "" {
			t.Errorf("js %q: %s", q.q, got.Error)
			continue
		}
		if len(want) > 0 {
			nonEmpty++
		}
		if msg := compareHits(want, got, q.setOnly); msg != "" {
			t.Errorf("query %q %+v: %s", q.q, q.opts, msg)
			continue
		}
		if q.opts.Mode == ModeAll && !q.opts.Fuzzy {
			o := q.opts
			o.Unordered = true
			if plain, _, _ := search(f.ix, q.q, o, 10); !sameIDs(plain, want) {
				reordered++
			}
		}
		// the count of "all" and "most" matches, when the engine says it
		// is exact, is bleve's; otherwise a lower bound
		if q.opts.Mode != ModeAny && !q.opts.Fuzzy {
			if got.TotalExact && uint64(got.Total) != total || !got.TotalExact && uint64(got.Total) > total {
				t.Errorf("query %q %+v: count %d (exact %v), bleve %d", q.q, q.opts, got.Total, got.TotalExact, total)
				continue
			}
			if got.TotalExact {
				counted++
			}
		}
		ok++
		if i%10 == 0 && len(want) > 0 {
			t.Logf("%q %+v: top %s %.6f (js %s %.6f), %d results, js loaded %d files", q.q, q.opts, want[0].ID, want[0].Score,
				got.Results[0].ID, got.Results[0].Score, len(want), got.Files)
		}
	}
	t.Logf("ranking parity: %d/%d queries identical (%d with results, %d ordered by typedOrder); %d all/most counts exact and equal to bleve's",
		ok, len(qs), nonEmpty, reordered, counted)
	return reordered
}

func sameIDs(a, b []Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}

func compareHits(want []Hit, got jsQueryResult, setOnly bool) string {
	describe := func() string {
		var b strings.Builder
		for i := 0; i < len(want) || i < len(got.Results); i++ {
			var w, g string
			if i < len(want) {
				w = fmt.Sprintf("%s %.9f", want[i].ID, want[i].Score)
			}
			if i < len(got.Results) {
				g = fmt.Sprintf("%s %.9f", got.Results[i].ID, got.Results[i].Score)
			}
			fmt.Fprintf(&b, "\n  %2d bleve %-30s js %s", i, w, g)
		}
		return b.String()
	}
	if len(want) != len(got.Results) {
		return fmt.Sprintf("%d results, bleve %d%s", len(got.Results), len(want), describe())
	}
	if setOnly {
		a, b := []string{}, []string{}
		for i := range want {
			a = append(a, want[i].ID)
			b = append(b, got.Results[i].ID)
		}
		sort.Strings(a)
		sort.Strings(b)
		if strings.Join(a, ",") != strings.Join(b, ",") {
			return "different top-10 sets" + describe()
		}
		return ""
	}
	// Same order, same scores. Documents whose scores tie to 1e-9 may come
	// in either order: the order of such ties moved between runs of this
	// test on indexes built from the same records (the last bits of a
	// disjunction's sum are not stable across two builds of an index).
	// Such a group must hold the same documents.
	for i := 0; i < len(want); {
		j := i + 1
		for j < len(want) && math.Abs(want[j].Score-want[i].Score) <= 1e-9 {
			j++
		}
		var a, b []string
		for k := i; k < j; k++ {
			if math.Abs(want[k].Score-got.Results[k].Score) > 1e-6 {
				return "different ranking" + describe()
			}
			a = append(a, want[k].ID)
			b = append(b, got.Results[k].ID)
		}
		// The last group may continue past the top 10 (even a single
		// document there may tie with the 11th): its members are
		// interchangeable with the ones beyond, if they tie with them.
		if j < len(want) {
			sort.Strings(a)
			sort.Strings(b)
			if strings.Join(a, ",") != strings.Join(b, ",") {
				return "different ranking" + describe()
			}
		} else {
			for k := i; k < j; k++ {
				if a[k-i] != b[k-i] && math.Abs(want[k].Score-got.Results[k].Score) > 1e-9 {
					return "different ranking" + describe()
				}
			}
		}
		i = j
	}
	return ""
}

var _ = context.Background

// jsonString is s as Go's encoding/json writes it (invalid UTF-8 bytes
// become U+FFFD, one per byte), which is how terms reach the export.
func jsonString(s string) string {
	return index.ValidUTF8PerByte(s)
}

// parityPaste is one paste the page might search: the box's text, the
// paste as copied, filters.
type parityPaste struct {
	text, raw string
	filters   map[string][]string
	limit     int
}

// TestPasteParity holds engine.js's search, as the search page and the
// header box ask it, to its Go twin (querypaste_test.go), on generated
// and on real messages: every combination of options ui.js and header.js
// send (typed words alone; three words or more with patterns, which lifts
// the results whose pattern matches the query; a paste, or six typed
// words, as a paste: pattern candidates, matches, their order and cap,
// then most words, then the lift; filters; the page sizes).
func TestPasteParity(t *testing.T) {
	for _, set := range []string{"generated", "real"} {
		t.Run(set, func(t *testing.T) {
			ds := corpus.Generate(3000, 21)
			if err := ds.UseMessages(set); err != nil {
				t.Fatal(err)
			}
			recs := ds.Records()
			ix, site := exportedIndex(t, recs)
			tw, err := newPasteTwin(ix)
			if err != nil {
				t.Fatal(err)
			}
			var qs []pageQuery
			for _, p := range parityPastes(recs, 31) {
				qs = append(qs, pageQuery{text: p.text, raw: p.raw, paste: true, patterns: true, filters: p.filters, limit: p.limit})
			}
			// pastes of records whose pattern has no key: the text
			// results find them, the lift marks them
			// (the benchmark's paste, and one whose last word is another
			// value: its message is then not held whole)
			rng := randv2.New(randv2.NewPCG(33, 0))
			for _, n := range tw.keyless[:min(len(tw.keyless), 6)] {
				r := &recs[slices.IndexFunc(recs, func(r record.Record) bool { return r.ID == tw.ids[n] })]
				ws := strings.Fields(r.ErrorMessage)
				ws[len(ws)-1] = "/srv/other/9"
				for _, raw := range []string{knownitem.Paste(rng, r), "Error: " + strings.Join(ws, " ")} {
					qs = append(qs, pageQuery{text: knownitem.Flatten(raw), raw: raw, paste: true, patterns: true, limit: 10})
					// within its repository, where fewer exact matches
					// fill the page before the text results
					qs = append(qs, pageQuery{text: knownitem.Flatten(raw), raw: raw, paste: true, patterns: true, limit: 21,
						filters: map[string][]string{"repo": {r.Repo}}})
				}
			}
			typed := typedPageQueries(recs, 32)
			qs = append(qs, typed...)
			checkPasteParity(t, tw, site, qs)
			// what the queries exercised: each part of the twin
			st := tw.stats
			t.Logf("%d queries (%d typed): %d over the candidate cap, %d with several exact matches, %d held messages, %d with no most-words result, "+
				"%d typed and %d pastes lifted (%d reordered), %d typed with a last stop word left out; %d records with a keyless pattern",
				len(qs), len(typed), st.overCap, st.severalExact, st.held, st.anyWords, st.liftTyped, st.liftPaste, st.liftReordered, st.stopWord, len(tw.keyless))
			if st.overCap == 0 || st.severalExact < 20 || st.held == 0 || st.anyWords == 0 ||
				st.liftTyped < 10 || st.liftPaste == 0 || st.liftReordered < 2 || st.stopWord == 0 {
				t.Errorf("the queries do not exercise every part of the page's query: %+v", st)
			}
		})
	}
}

// typedPageQueries are the typed queries the page and the header box
// send, in each of their option forms: one or two words (no patterns),
// the known-item benchmark's three words and messages of three to five
// words typed whole (patterns: the lift), messages of six words or more
// typed whole (searched as a paste of themselves), the same in the header
// box (limit 8, no patterns), filtered ones (limit 21), a last word that
// is a stop word, and words no record holds (the fuzzy fallback).
func typedPageQueries(recs []record.Record, seed int64) []pageQuery {
	rng := rand.New(rand.NewSource(seed))
	var qs []pageQuery
	page := func(text string, filters map[string][]string) {
		n := len(strings.Fields(text))
		limit := 20
		if filters != nil {
			limit = 21 // a page and one more: whether "More results" shows
		}
		qs = append(qs, pageQuery{text: text, raw: text, patterns: n >= 3, paste: n >= 6, filters: filters, limit: limit})
	}
	header := func(text string) { qs = append(qs, pageQuery{text: text, raw: text, limit: 8}) }
	kws := 0
	for _, q := range knownitem.Make(recs, 60, uint64(seed)) {
		if q.Kind != "keywords" {
			continue
		}
		ws := strings.Fields(q.Text)
		switch kws++; kws % 3 {
		case 0:
			page(q.Text, nil)
		case 1:
			page(strings.Join(ws[:1+rng.Intn(2)], " "), nil)
		default:
			header(q.Text)
		}
	}
	short, long := 0, 0
	for _, i := range rng.Perm(len(recs)) {
		m := recs[i].ErrorMessage
		switch n := len(strings.Fields(m)); {
		case n >= 3 && n <= 5 && short < 40:
			short++
			if short%4 == 0 {
				header(m)
			} else {
				page(m, nil)
			}
		case n >= 6 && n <= 32 && long < 20:
			long++
			page(m, nil)
		}
	}
	filters := []map[string][]string{{"severity": {"error", "critical"}}, {"language": {"Python", "Go", "JavaScript"}}}
	for i := 0; i < 12; i++ {
		m := recs[rng.Intn(len(recs))].ErrorMessage
		ws := strings.Fields(m)
		page(strings.Join(ws[:min(len(ws), 1+i%6)], " "), filters[i%2])
	}
	page("timeout retry after", nil)
	page("connection refused by", nil)
	page("zzqx vvbn", nil)
	page("conection refusd", nil)
	page("the and of", filters[0])
	return qs
}

// parityPastes are pastes of recs' messages: the known-item benchmark's
// (other values, runtime prefixes), verbatim behind log prefixes, inside
// multi-line tracebacks of several runtimes, logs of many messages (past
// the candidate cap), pastes no pattern matches, and filtered ones.
func parityPastes(recs []record.Record, seed int64) []parityPaste {
	rng := rand.New(rand.NewSource(seed))
	var ps []parityPaste
	add := func(raw string, filters map[string][]string, limit int) {
		ps = append(ps, parityPaste{text: knownitem.Flatten(raw), raw: raw, filters: filters, limit: limit})
	}
	for i, q := range knownitem.Make(recs, 80, uint64(seed)) {
		if q.Kind == "paste" {
			add(q.Raw, nil, 10+10*(i%2))
		}
	}
	msg := func() string { return recs[rng.Intn(len(recs))].ErrorMessage }
	other := func() string {
		for _, q := range knownitem.Make(recs[rng.Intn(len(recs)-1):], 1, rng.Uint64()) {
			if q.Kind == "paste" {
				return knownitem.Flatten(errorText(q.Raw))
			}
		}
		return msg()
	}
	logPrefixes := []string{"2026-12-02T05:36:10Z ERROR worker-3: ", "[app] WARN db: ", "E1202 05:36:10.123456 main.go:42] ",
		"ERROR: ValueError: ", "level=error msg=", "Caused by: java.io.IOException: "}
	for i := 0; i < 24; i++ {
		add(logPrefixes[i%len(logPrefixes)]+msg(), nil, 10)
	}
	tracebacks := []func(string) string{
		func(m string) string {
			return "Traceback (most recent call last):\n  File \"/srv/app/main.py\", line 42, in <module>\n    main()\n" +
				"  File \"/srv/app/run.py\", line 7, in main\n    raise Error(x)\nRuntimeError: " + m
		},
		func(m string) string {
			return "panic: " + m + "\n\ngoroutine 7 [running]:\nmain.(*server).run(0xc000010000)\n\t/srv/app/server.go:88 +0x1d\n" +
				"main.main()\n\t/srv/app/main.go:12 +0x25\nexit status 2"
		},
		func(m string) string {
			return "Exception in thread \"main\" java.lang.IllegalStateException: " + m + "\n\tat com.example.App.run(App.java:31)\n" +
				"\tat com.example.App.main(App.java:14)\nCaused by: java.io.IOException: " + m + "\n\t... 3 more"
		},
		func(m string) string {
			return "Uncaught (in promise) TypeError: " + m + "\n    at Object.<anonymous> (/srv/app/index.js:3:9)\n    at node:internal/main:5:3"
		},
		func(m string) string {
			return "thread 'main' panicked at src/main.rs:12:5:\n" + m + "\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
		},
		func(m string) string {
			return "terminate called after throwing an instance of 'std::runtime_error'\r\n  what():  " + m + "\r\nAborted (core dumped)"
		},
	}
	for i := 0; i < 36; i++ {
		m := msg()
		if i%2 == 1 {
			m = other()
		}
		add(tracebacks[i%len(tracebacks)](m), nil, 10)
	}
	// logs of many messages: more pattern candidates than the cap
	for i := 0; i < 3; i++ {
		var lines []string
		for j := 0; j < 120+60*i; j++ {
			lines = append(lines, msg())
		}
		add(strings.Join(lines, "\n"), nil, 10)
	}
	// no pattern matches: other words, a dump alone, stop words
	add("quux frobnicator zorbled the lattice at step 5", nil, 10)
	add("goroutine 1 [running]:\nmain.main()\n\t/srv/app/main.go:12 +0x1d", nil, 10)
	add("panic: the and of it", nil, 10)
	add("zzqx vvbn wwrt", nil, 10)
	add("zzqx vvbn wwrt", map[string][]string{"severity": {"warning"}}, 10)
	// spaces JavaScript and Go tell apart, line separators
	add(strings.ReplaceAll(msg(), " ", "\u00a0"), nil, 10)
	add("ValueError:\u2028"+msg()+"\ufeff", nil, 10)
	// filters
	for i := 0; i < 12; i++ {
		f := map[string][]string{"severity": {"error", "critical"}}
		if i%2 == 1 {
			f = map[string][]string{"language": {"Python", "Go", "JavaScript"}}
		}
		add(tracebacks[i%len(tracebacks)](other()), f, 10)
	}
	return ps
}

// checkPasteParity searches each query with engine.js (Node) and with
// the twin: the same results in the same order, the same groups, the
// text results' scores to 1e-6, the same count when engine.js says it is
// exact.
func checkPasteParity(t *testing.T, tw *pasteTwin, site string, qs []pageQuery) {
	t.Helper()
	var jq []map[string]interface{}
	for _, q := range qs {
		jq = append(jq, map[string]interface{}{"q": q.text, "opts": q.jsOpts()})
	}
	var resp struct {
		Queries []struct {
			Error      string
			Total      int
			TotalExact bool
			Results    []pasteResult
		}
	}
	runNode(t, map[string]interface{}{"site": site, "queries": jq}, &resp)
	if len(resp.Queries) != len(qs) {
		t.Fatalf("node answered %d queries, want %d", len(resp.Queries), len(qs))
	}
	same, exact := 0, 0
	for i, q := range qs {
		want, total, err := tw.page(q)
		if err != nil {
			t.Fatal(err)
		}
		got := resp.Queries[i]
		if got.Error != "" {
			t.Errorf("js %q: %s", q.raw, got.Error)
			continue
		}
		if msg := comparePaste(want, got.Results); msg != "" {
			t.Errorf("query %q (paste %v, patterns %v, limit %d) %v: %s", q.raw, q.paste, q.patterns, q.limit, q.filters, msg)
			continue
		}
		if got.TotalExact && uint64(got.Total) != total || !got.TotalExact && uint64(got.Total) > total {
			t.Errorf("query %q: count %d (exact %v), twin %d", q.raw, got.Total, got.TotalExact, total)
			continue
		}
		same++
		if len(want) > 0 && want[0].Group == "pattern" {
			exact++
		}
	}
	t.Logf("page query parity: %d/%d queries identical (%d with an exact match first)", same, len(qs), exact)
}

// comparePaste compares the twin's results with engine.js's: the exact
// matches one by one, the text results as compareHits does.
func comparePaste(want, got []pasteResult) string {
	describe := func() string {
		var b strings.Builder
		for i := 0; i < len(want) || i < len(got); i++ {
			var w, g pasteResult
			if i < len(want) {
				w = want[i]
			}
			if i < len(got) {
				g = got[i]
			}
			fmt.Fprintf(&b, "\n  %2d twin %-7s %-18s %.6f  js %-7s %-18s %.6f", i, w.Group, w.ID, w.Score, g.Group, g.ID, g.Score)
		}
		return b.String()
	}
	if len(want) != len(got) {
		return fmt.Sprintf("%d results, twin %d%s", len(got), len(want), describe())
	}
	i := 0
	for ; i < len(want) && want[i].Group == "pattern"; i++ {
		if got[i].Group != "pattern" || got[i].ID != want[i].ID {
			return "different exact matches" + describe()
		}
	}
	var hits []Hit
	js := jsQueryResult{}
	for j := i; j < len(want); j++ {
		if want[j].Group != got[j].Group {
			return "different groups" + describe()
		}
		hits = append(hits, Hit{ID: want[j].ID, Score: want[j].Score})
		js.Results = append(js.Results, struct {
			ID      string
			Score   float64
			Terms   []string
			Pattern json.RawMessage
		}{ID: got[j].ID, Score: got[j].Score})
	}
	if msg := compareHits(hits, js, false); msg != "" {
		return msg + describe()
	}
	return ""
}
