package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/internal/corpus"
)

func TestParseStats(t *testing.T) {
	out := `stage            time       cpu   share
read+validate      44ms      80ms     0.8%
model             118ms     120ms     2.1%
export (rest)    4.617s     8.1s    82.6%
write                0s        0s     0.0%
total            5.588s    8.42s
errdocs: read 2000 records from 13 files, built 2000, rejected 0; 2545 files written, 7 unchanged → out (5.588s)
`
	got := parseStats(out)
	want := []Stage{{"read+validate", 0.044, 0.08}, {"model", 0.118, 0.12}, {"export (rest)", 4.617, 8.1}, {"write", 0, 0}}
	if len(got) != len(want) {
		t.Fatalf("parseStats: %v, want %v", got, want)
	}
	for i := range want {
		if got[i].Name != want[i].Name || math.Abs(got[i].Seconds-want[i].Seconds) > 1e-9 || math.Abs(got[i].CPUSeconds-want[i].CPUSeconds) > 1e-9 {
			t.Errorf("stage %d: %v, want %v", i, got[i], want[i])
		}
	}
	if w, u := parseSummary(out); w != 2545 || u != 7 {
		t.Errorf("parseSummary: %d, %d", w, u)
	}
}

// TestAnonHeld reads the largest anonymous memory of a build's stages
// from its --stats line, whatever the units.
func TestAnonHeld(t *testing.T) {
	for out, want := range map[string]int64{
		"total 3.5s 6.1s\nanonymous memory resident at each stage's end (heap, stacks; not mapped files): read+validate 412.6 MB, cache 1.25 GB, export (rest) 835.0 MB, write 900.0 KB\nprocess: 4s user\n": int64(1.25 * (1 << 30)),
		"anonymous memory resident at each stage's end (heap, stacks; not mapped files): read+validate 512 B, write 2.0 KB\n":                                                                                2 << 10,
		"stage time cpu share\nwrite 0s 0s 0.0%\n": 0,
	} {
		if got := anonHeld(out); got != want {
			t.Errorf("anonHeld(%q) = %d, want %d", out, got, want)
		}
	}
}

func TestClassify(t *testing.T) {
	rec := "acme/lib/some-error/"
	for p, want := range map[string]string{
		"acme/lib/some-error/index.html":  kindRecord,
		"acme/lib/other-error/index.html": kindRelated,
		"acme/lib/index.html":             kindListing,
		"acme/lib/page/2/index.html":      kindListing,
		"tags/io/index.html":              kindListing,
		"tags/io/page/2/index.html":       kindListing,
		"index.html":                      kindListing,
		"search/d/0001.js":                kindSearch,
		"sitemap.xml":                     kindSitemap,
		"sitemaps/sitemap-0.xml":          kindSitemap,
		"feed.xml":                        kindFeed,
		"static/app.123.css":              kindStatic,
		".errdocs-site":                   kindMarker,
	} {
		if got := classify(p, rec); got != want {
			t.Errorf("classify(%q) = %q, want %q", p, got, want)
		}
	}
	if got := formatKinds(map[string]int{kindSearch: 2, kindRecord: 1}); got != "record page 1, search 2" {
		t.Errorf("formatKinds: %q", got)
	}
}

func TestMedian(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median odd: %v", m)
	}
	if m := median([]float64{4, 1, 2, 3}); m != 2.5 {
		t.Errorf("median even: %v", m)
	}
}

// TestEdits checks that an edit and a removal change only their record and
// the manifest, keep the files valid, and restore byte for byte.
func TestEdits(t *testing.T) {
	dir := t.TempDir()
	if err := corpus.Generate(300, 3).WriteExport(dir, false); err != nil {
		t.Fatal(err)
	}
	edit, removes, err := pickTargets(dir)
	if err != nil {
		t.Fatal(err)
	}
	rm := removes[0]
	if edit.File == rm.File {
		t.Fatalf("edit and removal in the same file %s", edit.File)
	}
	orig := map[string][]byte{}
	for _, f := range []string{edit.File, rm.File, filepath.Join(dir, "manifest.json")} {
		orig[f], _ = os.ReadFile(f)
	}

	e, err := changeDoc(dir, edit, "Benchmark edit.")
	if err != nil {
		t.Fatal(err)
	}
	elems, err := readArray(edit.File)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(elems[edit.Index]), "Benchmark edit.") {
		t.Error("edit not in the record")
	}
	if strings.Count(string(mustRead(t, edit.File)), "\n") != strings.Count(string(orig[edit.File]), "\n") {
		t.Error("edit changed the layout of the file (one record per line)")
	}
	if err := e.restore(); err != nil {
		t.Fatal(err)
	}

	r, err := removeRecord(dir, rm)
	if err != nil {
		t.Fatal(err)
	}
	after, err := readArray(rm.File)
	if err != nil {
		t.Fatal(err)
	}
	before := orig[rm.File]
	if strings.Contains(string(mustRead(t, rm.File)), rm.ID) {
		t.Error("removed record still in its file")
	}
	if n := strings.Count(string(before), "\n") - strings.Count(string(mustRead(t, rm.File)), "\n"); n != 1 || len(after) == 0 {
		t.Errorf("removal took %d lines", n)
	}
	if err := r.restore(); err != nil {
		t.Fatal(err)
	}
	for f, want := range orig {
		if got := mustRead(t, f); string(got) != string(want) {
			t.Errorf("%s not restored", f)
		}
	}
	if _, err := os.Stat(dir + backupDir); !os.IsNotExist(err) {
		t.Error("backup left behind")
	}
}

func mustRead(t testing.TB, f string) []byte {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkBuild builds a generated dataset of 1,000 records through the
// errdocs binary: cold (fresh output and cache) and with nothing changed.
//
//	go test -bench Build -benchtime 3x ./cmd/benchmark
func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "errdocs")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/errdocs/errdocs/cmd/errdocs").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	dataset := filepath.Join(dir, "dataset")
	if err := corpus.Generate(1000, 1).WriteExport(dataset, false); err != nil {
		b.Fatal(err)
	}
	build := func(b *testing.B, out, cache string) Run {
		r, _, err := timed(dir, bin, "build", dataset, "--out", out, "--cache", cache, "--quiet", "--base-url", baseURL)
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	report := func(b *testing.B, peak int64) {
		b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
		b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	}
	b.Run("cold", func(b *testing.B) {
		var peak int64
		i := 0
		for b.Loop() {
			b.StopTimer()
			i++
			run := filepath.Join(dir, "cold", itoa(i))
			b.StartTimer()
			peak = max(peak, build(b, filepath.Join(run, "site"), filepath.Join(run, "cache")).PeakRSS)
			// The run is deleted with dir, after the last build: deleting
			// it here would make the next cold build pay for the freed
			// inodes (trash.go).
		}
		report(b, peak)
	})
	b.Run("nochange", func(b *testing.B) {
		out, cache := filepath.Join(dir, "warm", "site"), filepath.Join(dir, "warm", "cache")
		build(b, out, cache)
		var peak int64
		for b.Loop() {
			peak = max(peak, build(b, out, cache).PeakRSS)
		}
		report(b, peak)
	})
}
