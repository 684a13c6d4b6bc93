package pipeline

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// writeYoungDataset writes a dataset of several record files and returns
// when its last file was changed, by the file system's clock.
func writeYoungDataset(t *testing.T, files int) (string, time.Time) {
	t.Helper()
	in := filepath.Join(t.TempDir(), "in")
	for f := range files {
		var recs []any
		for k := range 3 {
			recs = append(recs, seedRecord(t, 100*f+k, nil))
		}
		writeRecords(t, filepath.Join(in, fmt.Sprintf("r%02d.json", f)), recs...)
	}
	fi, err := os.Stat(filepath.Join(in, fmt.Sprintf("r%02d.json", files-1)))
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	changed := time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	if changed.Nanosecond() == 0 {
		t.Skip("this file system keeps whole seconds: the two-second rule applies as it should")
	}
	return in, changed
}

// waitSettled sleeps until the files changed at changed are older than
// the read cache's two-second rule.
func waitSettled(changed time.Time) {
	time.Sleep(time.Until(changed.Add(racyMargin + 100*time.Millisecond)))
}

// TestYoungDatasetNotReadAgain is the must-show of issue 16: a dataset
// written less than two seconds before a build is not read again by the
// next build once its files have settled. Counted by the build's own
// report (Report.Inputs), not timed.
func TestYoungDatasetNotReadAgain(t *testing.T) {
	const files = 6
	in, changed := writeYoungDataset(t, files)
	time.Sleep(time.Until(changed.Add(fineMargin + 150*time.Millisecond)))
	dir := t.TempDir()
	out, cache := filepath.Join(dir, "site"), filepath.Join(dir, "cache")
	age := time.Since(changed)
	if age >= racyMargin {
		t.Fatalf("the first build began %v after the dataset was written: the test wants it within %v", age, racyMargin)
	}
	first := runBuild(t, in, out, cache)
	if in := first.rep.Inputs; in.RecordFiles != files || in.Read != files || in.Young != 0 {
		t.Fatalf("first build: %+v; want %d record files read, none too young to cache", in, files)
	}
	waitSettled(changed)
	second := runBuild(t, in, out, cache)
	in2 := second.rep.Inputs
	if in2.Read != 0 || in2.Served != files || in2.Bytes != 0 {
		t.Fatalf("no-change rebuild of a dataset written %v before the previous build: %d of %d record files read again (%d bytes), %d served; want none read",
			age, in2.Read, in2.RecordFiles, in2.Bytes, in2.Served)
	}
	if in2.Stats != files {
		t.Errorf("no-change rebuild made %d stat calls on %d record files; want one each", in2.Stats, files)
	}
	if len(second.files) == 0 || !maps.Equal(first.files, second.files) {
		t.Errorf("the rebuild made another site: %d files, %d before", len(second.files), len(first.files))
	}
}

// TestTooYoungReadOnceSettled: files changed just before a build looked
// at them (within the file system's clock grain, where a change after the
// read could keep the same times) are not cached by that build; the next
// build, which sees them settled, reads and caches them, and says the
// previous build found them young; the one after reads nothing.
func TestTooYoungReadOnceSettled(t *testing.T) {
	const files = 4
	in, changed := writeYoungDataset(t, files)
	old := fineMargin
	fineMargin = racyMargin // as if the clock's grain were coarse: the files are young at once
	p := newPair(t, in)
	first := p.build()
	fineMargin = old
	if first.rep.Inputs.Young != files {
		t.Fatalf("first build: %+v; want all %d files too young to cache", first.rep.Inputs, files)
	}
	waitSettled(changed)
	second := p.build()
	if in := second.rep.Inputs; in.Read != files || in.WereYoung != files || in.Young != 0 {
		t.Fatalf("second build: %+v; want the %d files read, all found young by the previous build", in, files)
	}
	third := p.build()
	if in := third.rep.Inputs; in.Read != 0 || in.Served != files || in.WereYoung != 0 {
		t.Fatalf("third build: %+v; want every file served, none read", in)
	}
}
