package export

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/errdocs/errdocs/generator/pattern"

	"github.com/errdocs/errdocs/generator/index"
)

// TestExportBudget checks the file budgets at small scale: no file over
// 1 MB, few files per record, a deterministic export.
func TestExportBudget(t *testing.T) {
	f := buildFixture(t, 2000, 3, Options{})
	st := f.st
	if st.MaxFileBytes > 1<<20 {
		t.Errorf("largest file %s is %d bytes, over 1 MB", st.MaxFile, st.MaxFileBytes)
	}
	// < 5,000 files at 100,000 records (BenchmarkSearchBudget measures it
	// there) scales to < 100 at 2,000, plus the fixed part (manifest,
	// filter values, id shards) and, per dictionary shard (3 KiB of
	// entries), its last postings files (one per stream), which may be
	// partly filled: 190 with postings files of 10 KiB.
	if st.Files > 200 {
		t.Errorf("%d files for 2,000 records", st.Files)
	}
	if st.NormFallbacks != 0 {
		t.Errorf("%d norms did not round-trip as field lengths", st.NormFallbacks)
	}
	m1, m2 := memWriter{}, memWriter{}
	if _, err := New(f.ix).Export(m1, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := New(f.ix).Export(m2, Options{}); err != nil {
		t.Fatal(err)
	}
	if len(m1) != len(m2) {
		t.Fatalf("exports differ in file count: %d vs %d", len(m1), len(m2))
	}
	for k, v := range m1 {
		if !bytes.Equal(v, m2[k]) {
			t.Errorf("export not deterministic: %s differs", k)
		}
	}
	t.Logf("2,000 records: %d files, %d bytes, largest %d (%s), by kind %v", st.Files, st.Bytes, st.MaxFileBytes, st.MaxFile, st.FilesByKind)
}

func benchN(def int) int {
	if s := os.Getenv("ERRDOCS_BENCH_N"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return def
}

// discardWriter drops what it is given (the export's own memory is measured).
type discardWriter struct{}

func (discardWriter) WriteFile(string, []byte) error { return nil }

// BenchmarkExport measures Export alone on an index of ERRDOCS_BENCH_N
// generated records (default 20,000).
// With ERRDOCS_BENCH_INDEX set to a build's index cache folder
// (CACHE/index), it exports that index instead (read only).
func BenchmarkExport(b *testing.B) {
	var ix *index.Index
	var err error
	if dir := os.Getenv("ERRDOCS_BENCH_INDEX"); dir != "" {
		if ix, err = index.Open(dir); err != nil {
			b.Fatal(err)
		}
		if ix.Len() == 0 {
			b.Fatalf("%s holds no index", dir)
		}
	} else {
		n := benchN(20000)
		if ix, err = index.Open(filepath.Join(b.TempDir(), "cache")); err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Sync(index.Records(genRecords(n, 1))); err != nil {
			b.Fatal(err)
		}
	}
	defer ix.Close()
	b.ResetTimer()
	var st Stats
	for b.Loop() {
		st, err = New(ix).Export(discardWriter{}, Options{})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Files), "files")
	b.ReportMetric(float64(st.Bytes)/1e6, "MB")
	b.ReportMetric(float64(dirBytes(b, filepath.Join(ix.Dir(), termCacheDir)))/1e6, "termcacheMB")
}

// dirBytes is the size of the files in dir.
func dirBytes(b *testing.B, dir string) int64 {
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for _, e := range ents {
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}

// BenchmarkSearchBudget is the budget measurement at scale (default
// 100,000 records; ERRDOCS_BENCH_N overrides): index time, export time,
// file count and sizes, and the bytes (gzip-equivalent) a Node client of
// engine.js loads for typical 2-3 word queries from a cold start and warm.
// Run: go test ./generator/index/export -run '^$' -bench SearchBudget -benchtime 1x -timeout 30m
func BenchmarkSearchBudget(b *testing.B) {
	n := benchN(100000)
	for b.Loop() {
		dir := b.TempDir()
		ix, err := index.Open(filepath.Join(dir, "cache"))
		if err != nil {
			b.Fatal(err)
		}
		recs := genRecords(n, 1)
		t0 := time.Now()
		if _, err := ix.Sync(index.Records(recs)); err != nil {
			b.Fatal(err)
		}
		indexTime := time.Since(t0)
		site := filepath.Join(dir, "site")
		st, err := New(ix).Export(dirWriter{site}, Options{Pattern: pattern.Compile})
		if err != nil {
			b.Fatal(err)
		}
		// no-change sync
		t1 := time.Now()
		ss, err := ix.Sync(index.Records(recs))
		if err != nil {
			b.Fatal(err)
		}
		resync := time.Since(t1)

		qs := budgetQueries(recs)
		// cold: each query in a fresh engine; warm: the queries one after
		// another in one engine (later ones find files earlier ones
		// loaded); second: each query B in a fresh engine after another
		// budget query A (the one before it), B's bytes alone, the strict
		// measure of "each further query"
		var cold, warm, second struct{ Queries []jsQueryResult }
		runNode(b, map[string]interface{}{"site": site, "queries": qs, "coldQueries": true}, &cold)
		runNode(b, map[string]interface{}{"site": site, "queries": qs}, &warm)
		runNode(b, map[string]interface{}{"site": site, "queries": qs, "pairQueries": true}, &second)
		coldGz, warmGz, secondGz, ms := []int{}, []int{}, []int{}, []float64{}
		secondKind := map[string]int{}
		for i := range cold.Queries {
			coldGz = append(coldGz, cold.Queries[i].Gz+cold.Queries[i].EngineGz)
			if i > 0 {
				warmGz = append(warmGz, warm.Queries[i].Gz)
			}
			secondGz = append(secondGz, second.Queries[i].Gz)
			for k, v := range second.Queries[i].ByKind {
				secondKind[k] += v
			}
			ms = append(ms, cold.Queries[i].Ms)
		}
		med := func(x []int) int { s := append([]int(nil), x...); sort.Ints(s); return s[len(s)/2] }
		p95 := func(x []int) int { s := append([]int(nil), x...); sort.Ints(s); return s[len(s)*95/100] }
		mx := func(x []int) int { s := append([]int(nil), x...); sort.Ints(s); return s[len(s)-1] }
		msInts := []int{}
		for _, m := range ms {
			msInts = append(msInts, int(m*1000))
		}
		b.ReportMetric(float64(med(coldGz))/1000, "coldKB-med")
		b.ReportMetric(float64(p95(coldGz))/1000, "coldKB-p95")
		b.ReportMetric(float64(med(warmGz))/1000, "warmKB-med")
		b.ReportMetric(float64(med(secondGz))/1000, "secondKB-med")
		b.ReportMetric(float64(p95(secondGz))/1000, "secondKB-p95")
		b.ReportMetric(float64(st.Files), "files")
		b.ReportMetric(float64(st.MaxFileBytes)/1000, "maxFileKB")
		b.ReportMetric(indexTime.Seconds(), "index-s")
		b.ReportMetric(st.Duration.Seconds(), "export-s")
		fmt.Printf("records %d: index %.1fs, export %.1fs (read %.1fs, patterns %.1fs, %d pattern errors), no-change sync %.1fs %+v\n", n, indexTime.Seconds(), st.Duration.Seconds(), st.ReadTime.Seconds(), st.PatternTime.Seconds(), st.PatternErrors, resync.Seconds(), ss)
		fmt.Printf("bytes by kind %v\n", st.BytesByKind)
		fmt.Printf("files %d (%v), %.1f MB, largest %d B (%s), postings %d, terms %d, norm fallbacks %d\n",
			st.Files, st.FilesByKind, float64(st.Bytes)/1e6, st.MaxFileBytes, st.MaxFile, st.Postings, st.Terms, st.NormFallbacks)
		fmt.Printf("cold query gzip KB (incl. engine+analyzer %d B): median %.1f p95 %.1f max %.1f; warm median %.1f p95 %.1f max %.1f; node ms median %.1f\n",
			cold.Queries[0].EngineGz, float64(med(coldGz))/1000, float64(p95(coldGz))/1000, float64(mx(coldGz))/1000,
			float64(med(warmGz))/1000, float64(p95(warmGz))/1000, float64(mx(warmGz))/1000, float64(med(msInts))/1000)
		meanKind := map[string]string{}
		for k, v := range secondKind {
			meanKind[k] = fmt.Sprintf("%.1f", float64(v)/float64(len(qs))/1000)
		}
		fmt.Printf("second query gzip KB (fresh engine, after another budget query): median %.1f p95 %.1f max %.1f; mean KB by kind %v\n",
			float64(med(secondGz))/1000, float64(p95(secondGz))/1000, float64(mx(secondGz))/1000, meanKind)
		for i := 0; i < 8; i++ {
			fmt.Printf("  %-45q cold %6.1f KB %3d files %v, warm %6.1f KB, second %6.1f KB %v\n", qs[i]["q"], float64(coldGz[i])/1000, cold.Queries[i].Files, cold.Queries[i].ByKind, float64(warm.Queries[i].Gz)/1000, float64(secondGz[i])/1000, second.Queries[i].ByKind)
		}
		ix.Close()
	}
}

func gz(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

var _ = gz
