package export

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/knownitem"
)

// BenchmarkKnownItemPaste runs the paste queries of the browser benchmark
// (internal/e2e BenchmarkKnownItem: the same records and queries) through
// engine.js in Node, called as the search page calls it for a paste, and
// scores the first result as that benchmark does (strict: the target's
// message or messagePattern; same error: its skeleton). Beside it, the
// oracles: what the best ranker could reach knowing the paste's text and
// the generator's model (knownitem.Likelihood), so how much of a target is
// reachable on this dataset at all. ERRDOCS_KNOWN_OUT=DIR writes each
// miss, classified, to DIR/paste-misses.txt; ERRDOCS_PASTE_SITE=DIR keeps
// the export there for the next run (the records are the same; delete
// DIR when the export changes).
//
//	go test ./generator/index/export -run '^$' -bench KnownItemPaste -benchtime 1x
func BenchmarkKnownItemPaste(b *testing.B) {
	recs, qs := knownItemPastes(b)
	ps := newPasteSet(recs)
	// ERRDOCS_PASTE_SITE=DIR keeps the exported site there, to try
	// engine changes without exporting again
	site := os.Getenv("ERRDOCS_PASTE_SITE")
	if _, err := os.Stat(filepath.Join(site, "search")); site == "" || err != nil {
		site = exportedSite(b, recs)
		if dir := os.Getenv("ERRDOCS_PASTE_SITE"); dir != "" {
			if err := os.CopyFS(dir, os.DirFS(site)); err != nil {
				b.Fatal(err)
			}
		}
	}
	for i := 0; i < b.N; i++ {
		got := ps.run(b, site, qs)
		var s1, same, merged float64
		for j, q := range qs {
			if len(got[j]) > 0 {
				s1 += b2f(ps.right(got[j][0].rec, q))
				same += b2f(ps.sameError(got[j][0].rec, q))
				merged += b2f(ps.sameMerged(got[j][0].rec, q))
			}
		}
		or := ps.oracles(qs)
		b.ReportMetric(s1/float64(len(qs)), "paste-success@1")
		b.ReportMetric(same/float64(len(qs)), "paste-success@1-same-error")
		b.ReportMetric(merged/float64(len(qs)), "paste-success@1-same-error-merged")
		for _, k := range sortedKeys(or) {
			b.ReportMetric(or[k]/float64(len(qs)), "oracle-"+k)
		}
		if out := os.Getenv("ERRDOCS_KNOWN_OUT"); out != "" {
			if err := os.WriteFile(filepath.Join(out, "paste-misses.txt"), []byte(ps.misses(qs, got)), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// knownItemPastes returns the known-item benchmarks' records and their
// paste queries.
func knownItemPastes(b *testing.B) ([]record.Record, []knownitem.Query) {
	n, nq := knownItemSizes()
	recs := knownItemRecords(b, n)
	var qs []knownitem.Query
	for _, q := range knownitem.Make(recs, nq, 5) {
		if q.Kind == "paste" {
			qs = append(qs, q)
		}
	}
	return recs, qs
}

// BenchmarkKnownItemPasteTwin is BenchmarkKnownItemPaste through the Go
// twin of engine.js's paste search (querypaste_test.go; TestPasteParity
// holds the two equal): the fast way to try another order of a paste's
// exact matches before writing it in engine.js.
//
//	go test ./generator/index/export -run '^$' -bench KnownItemPasteTwin -benchtime 1x
func BenchmarkKnownItemPasteTwin(b *testing.B) {
	recs, qs := knownItemPastes(b)
	ps := newPasteSet(recs)
	ix, _ := exportedIndex(b, recs)
	tw, err := newPasteTwin(ix)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var s1, same float64
		for _, q := range qs {
			res, _, err := tw.search(q.Text, q.Raw, nil, 20)
			if err != nil {
				b.Fatal(err)
			}
			if len(res) > 0 {
				s1 += b2f(ps.right(ps.byID[res[0].ID], q))
				same += b2f(ps.sameError(ps.byID[res[0].ID], q))
			}
		}
		b.ReportMetric(s1/float64(len(qs)), "paste-success@1")
		b.ReportMetric(same/float64(len(qs)), "paste-success@1-same-error")
	}
}

// pasteSet is what the paste benchmark knows of the records.
type pasteSet struct {
	recs  []record.Record
	byID  map[string]int
	pats  map[string]map[string]bool // message -> the messagePatterns of its records
	skels map[string]map[string]bool // message -> their skeletons
	progs []*regexp.Regexp           // each record's pattern as pattern.Match runs it (nil: none or unusable)
	lh    *knownitem.Likelihood
}

func newPasteSet(recs []record.Record) *pasteSet {
	ps := &pasteSet{recs: recs, byID: map[string]int{}, pats: map[string]map[string]bool{}, skels: map[string]map[string]bool{},
		progs: make([]*regexp.Regexp, len(recs)), lh: knownitem.NewLikelihood()}
	memo := map[string]*regexp.Regexp{}
	for i := range recs {
		r := &recs[i]
		ps.byID[r.ID] = i
		if ps.pats[r.ErrorMessage] == nil {
			ps.pats[r.ErrorMessage] = map[string]bool{}
			ps.skels[r.ErrorMessage] = map[string]bool{}
		}
		ps.pats[r.ErrorMessage][r.MessagePattern] = true
		ps.skels[r.ErrorMessage][knownitem.Skeleton(r.ErrorMessage, r.MessagePattern)] = true
		re, ok := memo[r.MessagePattern]
		if !ok && r.MessagePattern != "" {
			if _, err := pattern.Parse(r.MessagePattern); err == nil {
				re, _ = regexp.Compile(r.MessagePattern)
			}
			memo[r.MessagePattern] = re
		}
		ps.progs[i] = re
	}
	return ps
}

// right and sameError are the browser benchmark's measures of record i
// as the answer to q.
func (ps *pasteSet) right(i int, q knownitem.Query) bool {
	m := ps.recs[i].ErrorMessage
	return m == q.Target || q.TargetPattern != "" && ps.pats[m][q.TargetPattern]
}

func (ps *pasteSet) sameError(i int, q knownitem.Query) bool {
	return ps.skels[ps.recs[i].ErrorMessage][q.TargetSkeleton]
}

// sameMerged is sameError with each run of variable spans one "*": a
// value a pattern writes as two parts (`-?\d+`, `[A-Za-z_]\w*`,
// `\d{1,3}(?:\.\d{1,3}){3}`) is still one value, which Skeleton splits.
func (ps *pasteSet) sameMerged(i int, q knownitem.Query) bool {
	want := mergeStars(q.TargetSkeleton)
	for s := range ps.skels[ps.recs[i].ErrorMessage] {
		if mergeStars(s) == want {
			return true
		}
	}
	return false
}

func mergeStars(skel string) string {
	var out []string
	for _, w := range strings.Fields(skel) {
		if w == "*" && len(out) > 0 && out[len(out)-1] == "*" {
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// asQuery is record t as a query's target.
func (ps *pasteSet) asQuery(t int) knownitem.Query {
	r := &ps.recs[t]
	return knownitem.Query{Target: r.ErrorMessage, TargetPattern: r.MessagePattern, TargetSkeleton: knownitem.Skeleton(r.ErrorMessage, r.MessagePattern)}
}

// pasteHit is one result of a paste: a record and its group.
type pasteHit struct {
	rec   int
	group string
}

// run searches each paste as the search page does (ui.js run: the box's
// flattened text, the raw paste, a page of results, patterns shown).
func (ps *pasteSet) run(b *testing.B, site string, qs []knownitem.Query) [][]pasteHit {
	var jq []map[string]interface{}
	for _, q := range qs {
		jq = append(jq, map[string]interface{}{"q": q.Text, "opts": map[string]interface{}{"limit": 20, "offset": 0, "patterns": true, "paste": q.Raw}})
	}
	var resp struct {
		Queries []struct {
			Error   string
			Results []struct{ ID, Group string }
		}
	}
	runNode(b, map[string]interface{}{"site": site, "queries": jq}, &resp)
	out := make([][]pasteHit, len(qs))
	for i, q := range resp.Queries {
		if q.Error != "" {
			b.Fatalf("paste %d: %s", i, q.Error)
		}
		for _, r := range q.Results {
			out[i] = append(out[i], pasteHit{ps.byID[r.ID], r.Group})
		}
	}
	return out
}

// oracles sums, over the pastes, the expected success@1 of rankers that
// know more than the engine:
//   - bayes, bayes-same: the best any ranker can do (the first result is
//     the record most likely right given the paste, under the
//     generator's model: each record's posterior is its likelihood, and
//     a record is right for every target it is right for, so a common
//     error's records add up);
//   - likeliest: the single record likeliest to have made the paste;
//   - pattern-any: any record whose pattern matches the paste, at random.
func (ps *pasteSet) oracles(qs []knownitem.Query) map[string]float64 {
	sums := map[string]float64{}
	for _, q := range qs {
		post := ps.posterior(q.Raw)
		for _, m := range []struct {
			name  string
			right func(i int, q knownitem.Query) bool
		}{{"bayes", ps.right}, {"bayes-same", ps.sameError}} {
			sums[m.name] += ps.bestOf(post, q, m.right)
			sums[strings.Replace(m.name, "bayes", "likeliest", 1)] += ps.likeliest(post, q, m.right)
		}
		n, ok, okSame := 0, 0, 0
		for i, re := range ps.progs {
			if re != nil && pattern.MatchRegexp(re, q.Raw) {
				n++
				ok += int(b2f(ps.right(i, q)))
				okSame += int(b2f(ps.sameError(i, q)))
			}
		}
		if n > 0 {
			sums["pattern-any"] += float64(ok) / float64(n)
			sums["pattern-any-same"] += float64(okSame) / float64(n)
		}
	}
	return sums
}

// posterior is each record's likelihood of making raw (those above 0).
func (ps *pasteSet) posterior(raw string) map[int]float64 {
	post := map[int]float64{}
	for i := range ps.recs {
		if p := ps.lh.Of(&ps.recs[i], raw); p > 0 {
			post[i] = p
		}
	}
	return post
}

// bestOf is the chance that the record with the most posterior mass of
// the targets it answers is right for q (ties shared).
func (ps *pasteSet) bestOf(post map[int]float64, q knownitem.Query, right func(int, knownitem.Query) bool) float64 {
	best, hits, ties := -1.0, 0, 0
	for c := range post {
		s := 0.0
		for t, p := range post {
			if right(c, ps.asQuery(t)) {
				s += p
			}
		}
		switch {
		case s > best*(1+1e-9):
			best, hits, ties = s, int(b2f(right(c, q))), 1
		case s >= best*(1-1e-9):
			hits += int(b2f(right(c, q)))
			ties++
		}
	}
	if ties == 0 {
		return 0
	}
	return float64(hits) / float64(ties)
}

func (ps *pasteSet) likeliest(post map[int]float64, q knownitem.Query, right func(int, knownitem.Query) bool) float64 {
	best, hits, ties := -1.0, 0, 0
	for c, p := range post {
		switch {
		case p > best*(1+1e-9):
			best, hits, ties = p, int(b2f(right(c, q))), 1
		case p >= best*(1-1e-9):
			hits += int(b2f(right(c, q)))
			ties++
		}
	}
	if ties == 0 {
		return 0
	}
	return float64(hits) / float64(ties)
}

// misses describes each paste whose first result is not strictly right:
// the paste, the first results, the target, and a class.
func (ps *pasteSet) misses(qs []knownitem.Query, got [][]pasteHit) string {
	var buf strings.Builder
	classes := map[string]int{}
	for i, q := range qs {
		if len(got[i]) > 0 && ps.right(got[i][0].rec, q) {
			continue
		}
		post := ps.posterior(q.Raw)
		class := ps.missClass(q, got[i], post)
		classes[class]++
		fmt.Fprintf(&buf, "[%s] %q\n  want %q  %q\n", class, q.Raw, q.Target, q.TargetPattern)
		for j, h := range got[i] {
			if j < 4 {
				r := &ps.recs[h.rec]
				fmt.Fprintf(&buf, "  got  %-7s right=%v same=%v post=%.3g lang=%s class=%s %q  %q\n", h.group, ps.right(h.rec, q), ps.sameError(h.rec, q),
					post[h.rec], record.Language(r.FilePath), r.ErrorClass, r.ErrorMessage, r.MessagePattern)
			}
		}
	}
	var head strings.Builder
	for _, k := range sortedKeys(classes) {
		fmt.Fprintf(&head, "%4d %s\n", classes[k], k)
	}
	return head.String() + "\n" + buf.String()
}

// missClass names why a paste's first result is not its target.
func (ps *pasteSet) missClass(q knownitem.Query, got []pasteHit, post map[int]float64) string {
	same := len(got) > 0 && ps.sameError(got[0].rec, q)
	prefix := "other-error"
	if same {
		prefix = "same-error"
	}
	if ps.bestOf(post, q, ps.right) == 0 {
		return prefix + ": ambiguous (the bayes oracle misses too)"
	}
	rank := -1
	for j, h := range got {
		if ps.right(h.rec, q) && h.group == "pattern" {
			rank = j
			break
		}
	}
	if rank < 0 {
		return prefix + ": no right record among the pattern matches"
	}
	first := got[0].rec
	if post[first] == 0 {
		return prefix + ": a pattern match the generator could not have made it from"
	}
	right := 0.0
	for t, p := range post {
		if ps.right(t, q) {
			right += p
		}
	}
	if right > post[first] {
		return prefix + ": a right record likelier than the first ranked below it"
	}
	return prefix + ": the first as likely as the right ones"
}
