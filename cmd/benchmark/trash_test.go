package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestTrashDefersDeletion checks that a discarded folder is moved, not
// deleted (its files are the same files, still on disk), and deleted only
// by empty.
func TestTrashDefersDeletion(t *testing.T) {
	work := t.TempDir()
	tr := newTrash(work, t.Logf)
	run := filepath.Join(work, "runs", "1")
	page := filepath.Join(run, "site", "a", "index.html")
	if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, []byte("<p>a</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second time there is nothing left to move
		if err := tr.discard(run); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(run); !os.IsNotExist(err) {
		t.Fatalf("the discarded folder is still in place: %v", err)
	}
	moved, err := os.Stat(filepath.Join(tr.dir, "1", "site", "a", "index.html"))
	if err != nil {
		t.Fatalf("the discarded page is not in the trash: %v", err)
	}
	if !os.SameFile(before, moved) {
		t.Fatal("the page in the trash is a copy: the original was deleted")
	}
	if err := tr.empty(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tr.dir); !os.IsNotExist(err) {
		t.Fatalf("the trash is still there after empty: %v", err)
	}
}

// TestBenchmarkLeavesNoRuns runs the benchmark twice over a small dataset
// (the second time reusing it): the runs' folders go through the trash,
// and nothing but the dataset and the binary is left; the cost of fresh
// memory and of new pages is measured at the start and at the end (the
// probe's pages deleted with the trash); each build's account of
// the no-change fast path is kept; each timed rebuild waits the gap.
func TestBenchmarkLeavesNoRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds errdocs and a site twice")
	}
	work := t.TempDir()
	o := options{records: 1000, seed: 3, runs: 2, work: work, gap: 300 * time.Millisecond}
	res, err := benchmark(o, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cold.Runs) != 2 || len(res.OneChange.Runs) != 2 {
		t.Fatalf("%d cold and %d one-change runs timed, want 2 each", len(res.Cold.Runs), len(res.OneChange.Runs))
	}
	// The builds say why a no-change rebuild could or could not be quick.
	if why := res.Cold.Runs[0].NoChangeMissed; !strings.Contains(why, "no site of an earlier build") {
		t.Errorf("the cold build says it did not take the no-change fast path because %q", why)
	}
	// Each timed rebuild waited the gap after whatever ran before it.
	for _, sc := range []Summary{res.NoChange, res.OneChange, res.OneRemoved} {
		for _, r := range sc.Runs {
			if r.IdleSeconds < o.gap.Seconds() {
				t.Errorf("a timed rebuild started %.3f s after the last build or look at the output, want at least %v", r.IdleSeconds, o.gap)
			}
		}
	}
	for _, r := range res.NoChange.Runs {
		if r.NoChangeMissed != "" || r.StampSkipped != "" {
			t.Errorf("a no-change rebuild missed the fast path (%q) or left no stamp (%q)", r.NoChangeMissed, r.StampSkipped)
		}
	}
	if fresh := res.Machine.FreshGB; runtime.GOOS == "linux" && (len(fresh) != 2 || fresh[0].Seconds <= 0 || fresh[1].Seconds <= 0) {
		t.Errorf("fresh memory measured %v, want a time at the start and at the end", fresh)
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err == nil {
		for _, f := range res.Machine.FreshGB {
			if f.HugeSeconds <= 0 {
				t.Errorf("fresh memory in huge pages not measured (%v) where the kernel has them", res.Machine.FreshGB)
			}
		}
	}
	// Each rebuild's fresh memory, as the build reports it, for the
	// report to weigh at the machine's rates.
	for _, r := range res.OneChange.Runs {
		if runtime.GOOS == "linux" && r.AnonHeld <= 0 {
			t.Errorf("a one-change rebuild held %d bytes of anonymous memory, as parsed from its --stats", r.AnonHeld)
		}
	}
	var printed strings.Builder
	report(&printed, res)
	if runtime.GOOS == "linux" && strings.Count(printed.String(), "at this machine's rates (above): the ") < 3 {
		t.Errorf("the report weighs the fresh memory of fewer than three scenarios at the machine's rates:\n%s", printed.String())
	}
	if pages := res.Machine.NewPages; runtime.GOOS == "linux" && (len(pages) != 2 || pages[0].CPUMicros <= 0 || pages[1].CPUMicros <= 0) {
		t.Errorf("new pages measured %v, want a CPU time at the start and at the end", pages)
	}
	for _, gone := range []string{"runs/1", "runs/2", "trash"} {
		if _, err := os.Stat(filepath.Join(work, gone)); !os.IsNotExist(err) {
			t.Errorf("%s left in the work folder: %v", gone, err)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "dataset-1000-s3.complete")); err != nil {
		t.Errorf("the dataset was not kept: %v", err)
	}
}

// TestRebuildsBuildHugoOnce runs the benchmark with -rebuilds and -hugo
// against a stand-in for hugo that counts its builds: Hugo is built cold
// once, as errdocs is, whatever -runs says.
func TestRebuildsBuildHugoOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds errdocs and a site")
	}
	work := t.TempDir()
	count := filepath.Join(work, "hugo-builds")
	fake := filepath.Join(work, "fake-hugo")
	script := `#!/bin/sh
[ "$1" = version ] && { echo "hugo stand-in"; exit 0; }
while [ $# -gt 0 ]; do
  [ "$1" = --destination ] && { mkdir -p "$2" && echo page > "$2/index.html"; }
  shift
done
echo build >> ` + count + "\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	o := options{records: 300, seed: 5, runs: 3, rebuilds: 1, hugo: true, hugoBin: fake, work: work, gap: 100 * time.Millisecond}
	res, err := benchmark(o, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res.Hugo == nil {
		t.Fatal("no Hugo results")
	}
	if len(res.Cold.Runs) != 1 || len(res.Hugo.Cold.Runs) != 1 {
		t.Fatalf("errdocs built cold %d times, Hugo %d; want once each", len(res.Cold.Runs), len(res.Hugo.Cold.Runs))
	}
	b, err := os.ReadFile(count)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "build"); n != 2 {
		t.Errorf("hugo ran %d builds, want 2 (one cold, one with nothing changed)", n)
	}
}
