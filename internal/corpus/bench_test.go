package corpus

import (
	"testing"

	"github.com/errdocs/errdocs/generator/record"
)

func BenchmarkGenerate(b *testing.B) {
	d := Generate(b.N, 1)
	b.ResetTimer()
	d.Each(func(r *record.Record) error { return nil })
}

func BenchmarkMarshal(b *testing.B) {
	d := Generate(b.N, 1)
	b.ResetTimer()
	d.Each(func(r *record.Record) error { _, err := r.MarshalJSON(); return err })
}
