package export

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/knownitem"
)

// The oracles below bound what any ranker can reach on the keyword
// queries: each orders the records whose message holds every query word
// (stemmed, as the English analyzer sees them) by what it is allowed to
// know, and its reciprocal rank is that of the target's group of the same
// error (knownitem.Skeleton) among the groups, groups tied on what it
// knows taken in random order (the expected reciprocal rank over those
// orders).

// oracleRec is what the oracles know of one record's message.
type oracleRec struct {
	skel    string
	strict  string   // its messagePattern, or its message when it has none
	stems   []string // English analyzer tokens, in order
	surface []string // lowercase words ([A-Za-z][A-Za-z_]+), in order
	usable  int      // how many distinct words knownitem.Keywords may pick
}

func strictKey(msg, pattern string) string {
	if pattern != "" {
		return "p:" + pattern
	}
	return "m:" + msg
}

var oracleWordRE = regexp.MustCompile(`[A-Za-z][A-Za-z_]+`)

func newOracleRecs(m mapping.IndexMapping, recs []record.Record) []oracleRec {
	out := make([]oracleRec, len(recs))
	for i := range recs {
		r := &recs[i]
		o := oracleRec{skel: knownitem.Skeleton(r.ErrorMessage, r.MessagePattern), strict: strictKey(r.ErrorMessage, r.MessagePattern)}
		o.stems = Analyze(m, index.AnalyzerEN, r.ErrorMessage)
		for _, w := range oracleWordRE.FindAllString(r.ErrorMessage, -1) {
			o.surface = append(o.surface, strings.ToLower(w))
		}
		o.usable = usableWords(r.ErrorMessage)
		out[i] = o
	}
	return out
}

// usableWords counts the words knownitem.Keywords chooses among: the
// generator picks three of them, so a message of k such words yields a
// given in-order triple with probability 1/C(k,3).
func usableWords(msg string) int {
	seen := map[string]bool{}
	n := 0
	for _, loc := range oracleWordRE.FindAllStringIndex(msg, -1) {
		if loc[0] > 0 && !isOracleSep(msg[loc[0]-1]) || loc[1] < len(msg) && !isOracleSep(msg[loc[1]]) {
			continue
		}
		w := strings.ToLower(msg[loc[0]:loc[1]])
		if len(w) < 3 || seen[w] || knownitem.IsStopWord(w) {
			continue
		}
		seen[w] = true
		n++
	}
	return n
}

func isOracleSep(c byte) bool {
	return strings.IndexByte(" \t\n:;,()[]{}\"'!?", c) >= 0
}

// inOrder and adjacent are typedOrder's measures (holdsInOrder) of a
// whole word.
func inOrder(have, want []string) bool {
	in, _ := holdsInOrder(have, want, false)
	return in == 1
}

func adjacent(have, want []string) int {
	_, adj := holdsInOrder(have, want, false)
	return adj
}

func containsAll(have, want []string) bool {
	set := map[string]bool{}
	for _, h := range have {
		set[h] = true
	}
	for _, w := range want {
		if !set[w] {
			return false
		}
	}
	return true
}

// oracleScores are the oracles by name: each scores one candidate record
// (higher first); combine says how a group's score is made of its
// records' ("max": a record ranker; "sum": one that also knows how many
// records raise the same error).
type oracle struct {
	name    string
	combine string
	score   func(o *oracleRec, stems, surface []string) float64
}

var oracles = []oracle{
	{"tie", "max", func(o *oracleRec, stems, surface []string) float64 { return 1 }},
	{"shortest", "max", func(o *oracleRec, stems, surface []string) float64 { return -float64(len(o.stems)) }},
	{"adjacent-pairs", "max", func(o *oracleRec, stems, surface []string) float64 { return float64(adjacent(o.stems, stems)) }},
	{"adjacent-pairs-surface", "max", func(o *oracleRec, stems, surface []string) float64 {
		return 10*float64(adjacent(o.stems, stems)) + b2f(containsAll(o.surface, surface))
	}},
	{"adjacent-pairs-sum", "sum", func(o *oracleRec, stems, surface []string) float64 {
		return math.Pow(10, float64(adjacent(o.stems, stems)))
	}},
	{"order", "max", func(o *oracleRec, stems, surface []string) float64 {
		in := inOrder(o.stems, stems)
		return b2f(in)
	}},
	{"order-adjacent", "max", func(o *oracleRec, stems, surface []string) float64 {
		return 10*b2f(inOrder(o.stems, stems)) + float64(adjacent(o.stems, stems))
	}},
	{"surface", "max", func(o *oracleRec, stems, surface []string) float64 {
		return b2f(containsAll(o.surface, surface))
	}},
	{"order-surface", "max", func(o *oracleRec, stems, surface []string) float64 {
		in := inOrder(o.surface, surface)
		return b2f(in)
	}},
	{"order-surface-shortest", "max", func(o *oracleRec, stems, surface []string) float64 {
		in := inOrder(o.surface, surface)
		return 1000*b2f(in) - float64(len(o.stems))
	}},
	// bayes: the probability that the record's message made the query
	// (knownitem.Keywords' rule), summed over a group: the best any
	// ranker can do on these queries.
	{"bayes", "sum", func(o *oracleRec, stems, surface []string) float64 {
		in := inOrder(o.surface, surface)
		if !in || o.usable < 3 {
			return 0
		}
		k := float64(o.usable)
		return 6 / (k * (k - 1) * (k - 2))
	}},
	{"bayes-record", "max", func(o *oracleRec, stems, surface []string) float64 {
		in := inOrder(o.surface, surface)
		if !in || o.usable < 3 {
			return 0
		}
		k := float64(o.usable)
		return 6 / (k * (k - 1) * (k - 2))
	}},
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// oracleMRR returns each oracle's mean reciprocal rank@10 (same error)
// over the keyword queries.
func oracleMRR(m mapping.IndexMapping, recs []record.Record, qs []knownitem.Query) map[string]float64 {
	ors := newOracleRecs(m, recs)
	byStem := map[string][]int{}
	for i := range ors {
		seen := map[string]bool{}
		for _, s := range ors[i].stems {
			if !seen[s] {
				seen[s] = true
				byStem[s] = append(byStem[s], i)
			}
		}
	}
	sums := map[string]float64{}
	n := 0
	for _, q := range qs {
		if q.Kind != "keywords" {
			continue
		}
		surface := strings.Fields(q.Text)
		var stems []string
		for _, w := range surface {
			stems = append(stems, Analyze(m, index.AnalyzerEN, w)...)
		}
		if len(stems) == 0 {
			continue
		}
		n++
		cands := candidates(byStem, ors, stems)
		for _, or := range oracles {
			sums[or.name] += groupRR(or, ors, cands, stems, surface, q.TargetSkeleton, false)
			sums[or.name+"-strict"] += groupRR(or, ors, cands, stems, surface, strictKey(q.Target, q.TargetPattern), true)
		}
	}
	for k := range sums {
		sums[k] /= float64(n)
	}
	return sums
}

func candidates(byStem map[string][]int, ors []oracleRec, stems []string) []int {
	var out []int
	for _, i := range byStem[stems[0]] {
		if containsAll(ors[i].stems, stems) {
			out = append(out, i)
		}
	}
	return out
}

// groupRR is the expected reciprocal rank (0 past 10) of the target's
// group when groups are ordered by or's score, ties at random.
func groupRR(or oracle, ors []oracleRec, cands []int, stems, surface []string, target string, strict bool) float64 {
	group := map[string]float64{}
	for _, i := range cands {
		s := or.score(&ors[i], stems, surface)
		key := ors[i].skel
		if strict {
			key = ors[i].strict
		}
		g, ok := group[key]
		switch {
		case !ok:
			group[key] = s
		case or.combine == "sum":
			group[key] = g + s
		case s > g:
			group[key] = s
		}
	}
	ts, ok := group[target]
	if !ok {
		return 0
	}
	higher, tied := 0, 0
	for _, s := range group {
		switch {
		case s > ts:
			higher++
		case s == ts:
			tied++
		}
	}
	sum := 0.0
	for p := higher + 1; p <= higher+tied && p <= 10; p++ {
		sum += 1 / float64(p)
	}
	return sum / float64(tied)
}

// BenchmarkKnownItemOracles reports the oracles' MRR@10 (same error) on
// the keyword queries of BenchmarkKnownItemScoring.
//
//	go test ./generator/index/export -run '^$' -bench KnownItemOracles -benchtime 1x
func BenchmarkKnownItemOracles(b *testing.B) {
	n, nq := knownItemSizes()
	recs := knownItemRecords(b, n)
	qs := knownitem.Make(recs, nq, 5)
	m, err := index.NewMapping()
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		res := oracleMRR(m, recs, qs)
		for _, or := range oracles {
			b.ReportMetric(res[or.name], "MRR-"+or.name)
			b.ReportMetric(res[or.name+"-strict"], "MRR-"+or.name+"-strict")
		}
	}
}
