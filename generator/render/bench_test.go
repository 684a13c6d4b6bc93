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

// BenchmarkRecordTemplate executes record.html for the pages of 300
// generated records made beforehand: template execution alone.
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
	var n int64
	emit := func(page []byte) error { n += int64(len(page)); return nil }
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
}
