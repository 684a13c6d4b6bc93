package pipeline

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/record"
)

// TestPathOrder checks that the record pages' order taken from the model
// is the order of their paths, where a name's order and its path's differ:
// repos and slugs that are the start of another followed by a byte below
// or above the slash ("a-b/" and "a.b/" before "a/", "a0/" after), in
// files that give their records in no order.
func TestPathOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	owners := []string{"a", "a-b", "a.b", "a0", "ab"}
	names := []string{"x", "x-y", "x.y", "x_y", "xy", "x0"}
	slugs := []string{"s", "s-t", "s.t", "s0", "st", "s-t-u", "s_t"}
	var b model.Builder
	seen := map[string]bool{}
	for i := range 3000 {
		repo := owners[rng.IntN(len(owners))] + "/" + names[rng.IntN(len(names))]
		slug := slugs[rng.IntN(len(slugs))] + fmt.Sprint(rng.IntN(40))
		if rng.IntN(3) == 0 {
			slug = slugs[rng.IntN(len(slugs))]
		}
		if seen[repo+" "+slug] {
			continue // validation leaves one record per repo and slug
		}
		seen[repo+" "+slug] = true
		s := model.Summarize(&record.Record{ID: fmt.Sprintf("%016x", i+1), Repo: repo, Slug: slug})
		b.Add(s)
	}
	m := b.Build()
	rels := make([]string, len(m.Summaries))
	for i := range rels {
		rels[i] = m.Summaries[i].Repo + "/" + m.Summaries[i].Slug + "/index.html"
	}
	got, ok := modelPathOrder(m, rels)
	if want := sortedOrder(rels); !ok || !slices.Equal(got, want) {
		t.Errorf("the model's path order (taken: %v) differs from the paths' sort", ok)
	}
	if !slices.Equal(pathOrder(m, rels), sortedOrder(rels)) {
		t.Errorf("pathOrder differs from the paths' sort")
	}
}

// TestRecordPaths checks that the paths cut from one block are each
// record page's own, and stay so once all are made.
func TestRecordPaths(t *testing.T) {
	var sums []model.Summary
	for i := range 2000 {
		sums = append(sums, model.Summarize(&record.Record{ID: fmt.Sprintf("%016x", i+1), Repo: fmt.Sprintf("o%d/r%d", i%7, i%3), Slug: fmt.Sprintf("slug-%d", i)}))
	}
	rels := make([]string, len(sums))
	recordPaths(sums[:700], rels[:700])
	recordPaths(sums[700:], rels[700:])
	for i := range sums {
		if want := sums[i].Path() + "index.html"; rels[i] != want {
			t.Fatalf("record %d: path %q, want %q", i, rels[i], want)
		}
	}
}

// TestPathOrderInterleaved gives the model repos whose pages interleave
// (one repo's name is a folder of the other's, which validation rules
// out): the model's order is refused, and the paths sorted.
func TestPathOrderInterleaved(t *testing.T) {
	var b model.Builder
	for i, r := range [][2]string{{"a/b", "x"}, {"a/b", "d"}, {"a/b/c", "y"}} {
		b.Add(model.Summarize(&record.Record{ID: fmt.Sprintf("%016x", i+1), Repo: r[0], Slug: r[1]}))
	}
	m := b.Build()
	rels := make([]string, len(m.Summaries))
	recordPaths(m.Summaries, rels)
	if _, ok := modelPathOrder(m, rels); ok {
		t.Errorf("the model's order was taken for interleaved repos")
	}
	if got, want := pathOrder(m, rels), sortedOrder(rels); !slices.Equal(got, want) {
		t.Errorf("pathOrder %v, want %v", got, want)
	}
}

// TestInsertionSort sorts runs whose paths are a few places from their
// own, as a repo's slug order leaves them, and gives up on a run in
// reverse, which it leaves holding each record once.
func TestInsertionSort(t *testing.T) {
	rels := []string{"r/a/index.html", "r/a-b/index.html", "r/a-b-c/index.html", "r/b/index.html", "r/b.c/index.html", "r/c/index.html"}
	run := []int32{0, 1, 2, 3, 4, 5}
	if !insertionSort(rels, run) || !increasing(rels, run) {
		t.Errorf("slug order %v not sorted by path", run)
	}
	var many []string
	for i := range 200 {
		many = append(many, fmt.Sprintf("r/%04d/index.html", 200-i))
	}
	run = make([]int32, len(many))
	for i := range run {
		run[i] = int32(i)
	}
	if insertionSort(many, run) {
		t.Errorf("a run in reverse was sorted one path at a time")
	}
	if seen := slices.Sorted(slices.Values(run)); seen[0] != 0 || seen[len(seen)-1] != 199 || len(slices.Compact(seen)) != 200 {
		t.Errorf("the run given up on no longer holds each record once")
	}
}
