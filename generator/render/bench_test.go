package render

import (
	"testing"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
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
	for b.Loop() {
		for i, rec := range recs {
			if _, err := r.Record(s, int32(i), rec); err != nil {
				b.Fatal(err)
			}
		}
	}
}
