package pipeline

import (
	"path/filepath"
	"slices"
	"testing"
)

// A rebuild that changes one record exports the search index early,
// beside the site model and the pages, up to maxOverlap records, and
// alone after the model's last use above it (the memory of half a million
// records). Either way it makes what a fresh build makes.
func TestOneChangeExportPaths(t *testing.T) {
	trustAll(t)
	for _, tc := range []struct {
		name       string
		maxOverlap int
		stage      string // the stage that says how the export ran
	}{
		{"early", 250000, "export (rest)"},
		{"alone", 5, "export"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := maxOverlap
			maxOverlap = tc.maxOverlap
			t.Cleanup(func() { maxOverlap = old })
			in, files := testInput(t)
			p := newPair(t, in)
			p.build()
			files[0][1].(map[string]any)["documentation"] = "An edited explanation, longer than it was before the edit."
			writeRecords(t, filepath.Join(in, "f0.json"), files[0]...)
			o := p.build()
			var stages []string
			for _, st := range o.rep.Stages {
				stages = append(stages, st.Name)
			}
			if !slices.Contains(stages, tc.stage) {
				t.Errorf("stages %v: no %q", stages, tc.stage)
			}
			for _, other := range []string{"export (rest)", "export", "listings+export"} {
				if other != tc.stage && slices.Contains(stages, other) {
					t.Errorf("stages %v: %q too", stages, other)
				}
			}
			if o.rep.Written == 0 || o.rep.Unchanged == 0 {
				t.Errorf("wrote %d files, kept %d: not a rebuild of one record", o.rep.Written, o.rep.Unchanged)
			}
		})
	}
}
