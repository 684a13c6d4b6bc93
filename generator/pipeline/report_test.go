package pipeline

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
)

// The report says what a build did: each stage's CPU time, how many
// record pages were rendered and kept, and how many record files
// render+index read again (all of them in a cold build, only the edited
// one's in a rebuild that changed one record).
func TestReportCountsPagesFilesAndCPU(t *testing.T) {
	trustAll(t)
	in := filepath.Join(t.TempDir(), "in")
	file := func(f int) string { return filepath.Join(in, fmt.Sprintf("r%d.json", f)) }
	write := func(edited string) {
		t.Helper()
		for f := range 3 {
			var recs []any
			for k := range 4 {
				n := 4*f + k
				recs = append(recs, seedRecord(t, n, func(r map[string]any) {
					r["errorMessage"] = fmt.Sprintf("Host callback lowering created %d channels", 80000+n)
					r["messagePattern"] = fmt.Sprintf(`Host callback lowering created %d channels`, 80000+n)
					if f == 1 && k == 2 {
						r["documentation"] = fmt.Sprint(r["documentation"], edited)
					}
				}))
			}
			writeRecords(t, file(f), recs...)
		}
	}
	dir := t.TempDir()
	out, cache := filepath.Join(dir, "site"), filepath.Join(dir, "cache")
	write("")
	cold := runBuild(t, in, out, cache).rep
	if cold.Reread != -1 || cold.Built != 12 || cold.Reused != 0 {
		t.Errorf("cold build: %d built, %d kept, %d files read again; want 12, 0, every one (-1)", cold.Built, cold.Reused, cold.Reread)
	}
	write(" One sentence more.")
	one := runBuild(t, in, out, cache).rep
	if one.Reread != 1 || one.Built-one.Reused < 1 || one.Reused < 1 {
		t.Errorf("one record edited: %d rendered, %d kept, %d files read again; want some rendered and kept, 1 file", one.Built-one.Reused, one.Reused, one.Reread)
	}
	if runtime.GOOS != "linux" {
		return
	}
	for _, rep := range []*Report{cold, one} {
		var cpu, wall int64
		for _, s := range rep.Stages {
			if s.CPU < 0 {
				t.Errorf("stage %s: CPU %v", s.Name, s.CPU)
			}
			cpu, wall = cpu+int64(s.CPU), wall+int64(s.Time)
		}
		if cpu <= 0 || wall <= 0 {
			t.Errorf("stages' CPU %d ns over %d ns: not measured", cpu, wall)
		}
	}
}
