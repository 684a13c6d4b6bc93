package validate_test

import (
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/validate"
)

// FuzzRecord: no input makes Record panic; a record is clean exactly when it
// has no problem, and every problem has a field and a rule on one line.
func FuzzRecord(f *testing.F) {
	f.Add(seed(f))
	for _, s := range []string{`{}`, `[]`, `null`, `{"id":1,"id":2}`, "{\"\xff\":1}", `{"tags":[1,"A",null]}`, `{"lineNumber":1e400}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, ps := validate.Record(raw)
		for _, p := range ps {
			if p.Field == "" || p.Rule == "" || strings.ContainsAny(p.Field+p.Rule, "\n\r") {
				t.Fatalf("bad problem %q", p)
			}
		}
	})
}
