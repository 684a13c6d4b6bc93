package render

import (
	"testing"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
	"github.com/errdocs/errdocs/internal/cputime"
)

// BenchmarkRecord renders the pages of 300 generated records, highlighting
// served from memory after the first iteration: the page cost besides
// chroma (Markdown, template execution, JSON-LD).
func BenchmarkRecord(b *testing.B) {
	all := corpus.Generate(300, 1).Records()
	recs := make([]*record.Record, len(all))
	for i := range all {
		recs[i] = &all[i]
	}
	s := build(recs)
	r := newRenderer(b, Options{})
	var n int64
	for i, rec := range recs {
		p, err := r.Record(s, int32(i), rec)
		if err != nil {
			b.Fatal(err)
		}
		n += int64(len(p))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	done := cpuPerOp(b)
	for b.Loop() {
		for i, rec := range recs {
			if _, err := r.Record(s, int32(i), rec); err != nil {
				b.Fatal(err)
			}
		}
	}
	done()
}

// cpuPerOp starts counting the process's CPU time (user+sys, the
// collector's included); the function it returns reports it per iteration
// as cpu-ns/op, which varies far less than ns/op on a shared machine.
func cpuPerOp(b *testing.B) func() {
	start := cputime.Process()
	return func() { b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op") }
}

// BenchmarkRecordTemplate makes the record pages of 300 generated
// records from their data made beforehand: the page's markup alone, as
// the build makes it ("written", pagewrite.go) and as html/template
// executes it ("executed", what a site's own templates cost).
func BenchmarkRecordTemplate(b *testing.B) {
	all := corpus.Generate(300, 1).Records()
	s := build(func() []*record.Record {
		recs := make([]*record.Record, len(all))
		for i := range all {
			recs[i] = &all[i]
		}
		return recs
	}())
	r := newRenderer(b, Options{})
	pages := make([]*Page, len(all))
	for i := range all {
		p, err := r.recordPage(s, int32(i), &all[i])
		if err != nil {
			b.Fatal(err)
		}
		pages[i] = p
	}
	emit := func(page []byte) error { return nil }
	for _, c := range []struct {
		name    string
		written bool
	}{{"written", true}, {"executed", false}} {
		b.Run(c.name, func(b *testing.B) {
			r.written = map[string]bool{recordPage: c.written}
			b.ReportAllocs()
			done := cpuPerOp(b)
			for b.Loop() {
				for _, p := range pages {
					if err := r.executeFunc(recordPage, p, emit); err != nil {
						b.Fatal(err)
					}
				}
			}
			done()
		})
	}
}
