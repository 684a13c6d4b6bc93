package export

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/internal/cputime"
)

// BenchmarkOneChangeExport measures the incremental export of one record
// whose documentation got a sentence, over an index of ERRDOCS_BENCH_N
// generated records (default 20,000): what a daily rebuild that edits one
// record pays for its search export. Each iteration edits another record,
// reopens the index and syncs it (not timed), then exports against the
// previous export's files and saves the state (timed), as a build does.
func BenchmarkOneChangeExport(b *testing.B) {
	n := benchN(20000)
	cache := filepath.Join(b.TempDir(), "cache")
	ix, err := index.Open(cache)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { ix.Close() }()
	recs := genRecords(n, 1)
	if _, err := ix.Sync(index.Records(recs)); err != nil {
		b.Fatal(err)
	}
	opts := Options{Pattern: pattern.Compile}
	site := memWriter{}
	ex := New(ix)
	if _, err := ex.Export(site, opts); err != nil {
		b.Fatal(err)
	}
	marker := "build-0"
	if err := ex.SaveState(marker); err != nil {
		b.Fatal(err)
	}
	// ERRDOCS_BENCH_CPUPROFILE: a CPU profile of the iterations alone (the
	// whole export before them left out), for pprof's (*Exporter).Export.
	if path := os.Getenv("ERRDOCS_BENCH_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	// ERRDOCS_BENCH_MEMPROFILE: allocation profiles before (path.base)
	// and after the iterations, for pprof -diff_base: what they allocated.
	memPath := os.Getenv("ERRDOCS_BENCH_MEMPROFILE")
	if memPath != "" {
		writeAllocs(b, memPath+".base")
		defer writeAllocs(b, memPath)
	}
	var st Stats
	var cpu time.Duration // of the timed parts (on a shared machine, steadier than their wall time)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := ix.Close(); err != nil {
			b.Fatal(err)
		}
		if ix, err = index.Open(cache); err != nil {
			b.Fatal(err)
		}
		r := &recs[(i*7919+13)%n]
		r.Documentation += fmt.Sprintf(" Rotating certificate %d fixed it.", i)
		if _, err := ix.Sync(index.Records(recs)); err != nil {
			b.Fatal(err)
		}
		prev := site
		next := memWriter{}
		o := opts
		o.PrevMarker = marker
		o.Has = func(rel string) bool { _, ok := prev[rel]; return ok }
		o.Keep = func(rel string) bool {
			d, ok := prev[rel]
			if ok {
				next[rel] = d
			}
			return ok
		}
		ex = New(ix)
		b.StartTimer()
		c0 := cputime.Process()
		if st, err = ex.Export(next, o); err != nil {
			b.Fatal(err)
		}
		marker = fmt.Sprintf("build-%d", i+1)
		if err := ex.SaveState(marker); err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Process() - c0
		b.StopTimer()
		if !st.Incremental {
			b.Fatal("the export was not incremental")
		}
		site = next
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(st.Files), "written")
	b.ReportMetric(float64(st.Shards), "shards")
}

// writeAllocs writes the allocation profile so far to path.
func writeAllocs(b *testing.B, path string) {
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}
