package export

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/record"

	"github.com/errdocs/errdocs/generator/index"
)

// budgetSite returns a site folder holding an export of ERRDOCS_BENCH_N
// generated records (default 100,000). With ERRDOCS_BUDGET_DIR set, the
// bleve index is kept there between runs (only the export is redone), which
// makes repeated measurements cheap; otherwise it lives in a temp folder.
func budgetSite(tb testing.TB) (site string, recsN int, st Stats, indexTime time.Duration) {
	tb.Helper()
	n := benchN(100000)
	dir := os.Getenv("ERRDOCS_BUDGET_DIR")
	if dir == "" {
		dir = tb.TempDir()
	} else {
		dir = filepath.Join(dir, fmt.Sprint(n))
	}
	ix, err := index.Open(filepath.Join(dir, "cache"))
	if err != nil {
		tb.Fatal(err)
	}
	defer ix.Close()
	if ix.DocCount() != n {
		t0 := time.Now()
		if _, err := ix.Sync(index.Records(genRecords(n, 1))); err != nil {
			tb.Fatal(err)
		}
		indexTime = time.Since(t0)
	}
	site = filepath.Join(dir, "site")
	os.RemoveAll(site)
	opts := Options{Pattern: pattern.Compile}
	// ERRDOCS_BUDGET_OPTS="Name=value,..." sets integer export options, for
	// trying layouts (e.g. PostingFileBytes=8192)
	if s := os.Getenv("ERRDOCS_BUDGET_OPTS"); s != "" {
		v := reflect.ValueOf(&opts).Elem()
		for _, kv := range strings.Split(s, ",") {
			k, x, _ := strings.Cut(kv, "=")
			n, err := strconv.Atoi(x)
			f := v.FieldByName(k)
			if err != nil || !f.IsValid() || f.Kind() != reflect.Int {
				tb.Fatalf("ERRDOCS_BUDGET_OPTS: bad %q", kv)
			}
			f.SetInt(int64(n))
		}
	}
	st, err = New(ix).Export(dirWriter{site}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return site, n, st, indexTime
}

// TestBudgetSite (only with ERRDOCS_BUDGET_DIR) prepares the persistent
// budget site and prints the export figures; ERRDOCS_BUDGET_OPTS tries
// other export options. Run it with -count=1: go test would otherwise
// replay a cached run (and leave the site of another run in place).
func TestBudgetSite(t *testing.T) {
	if os.Getenv("ERRDOCS_BUDGET_DIR") == "" {
		t.Skip("set ERRDOCS_BUDGET_DIR to build the persistent budget site")
	}
	site, n, st, it := budgetSite(t)
	t.Logf("records %d at %s: index %.1fs, export %.1fs (read %.1fs, patterns %.1fs), files %d %v, %.1f MB, largest %d (%s)",
		n, site, it.Seconds(), st.Duration.Seconds(), st.ReadTime.Seconds(), st.PatternTime.Seconds(), st.Files, st.FilesByKind, float64(st.Bytes)/1e6, st.MaxFileBytes, st.MaxFile)
	t.Logf("bytes by kind %v; postings %d, terms %d", st.BytesByKind, st.Postings, st.Terms)
}

// budgetQueries are the typical queries of the budget: 2-3 consecutive
// words of random messages, 40 per seed. The seeds are 5 unless
// ERRDOCS_BENCH_SEEDS lists others ("5,6,7,8": 160 queries, to check that
// a change suits more than the benchmark's 40).
func budgetQueries(recs []record.Record) []map[string]interface{} {
	seeds := []int64{5}
	if s := os.Getenv("ERRDOCS_BENCH_SEEDS"); s != "" {
		seeds = nil
		for _, f := range strings.Split(s, ",") {
			if n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64); err == nil {
				seeds = append(seeds, n)
			}
		}
	}
	var qs []map[string]interface{}
	for _, seed := range seeds {
		rng := rand.New(rand.NewSource(seed))
		for n := 0; n < 40; {
			ws := strings.Fields(recs[rng.Intn(len(recs))].ErrorMessage)
			if len(ws) < 3 {
				continue
			}
			k := 2 + rng.Intn(2)
			j := rng.Intn(len(ws) - k + 1)
			qs = append(qs, map[string]interface{}{"q": strings.Join(ws[j:j+k], " "), "opts": map[string]interface{}{"limit": 10}})
			n++
		}
	}
	return qs
}

// TestBudgetQueries (only with ERRDOCS_BUDGET_DIR) writes the budget
// queries to queries.json there, for profiling the engine by hand.
func TestBudgetQueries(t *testing.T) {
	dir := os.Getenv("ERRDOCS_BUDGET_DIR")
	if dir == "" {
		t.Skip("set ERRDOCS_BUDGET_DIR")
	}
	b, _ := json.Marshal(budgetQueries(genRecords(benchN(100000), 1)))
	if err := os.WriteFile(filepath.Join(dir, "queries.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func lookupInt(env string) int {
	n, err := strconv.Atoi(os.Getenv(env))
	if err != nil {
		return 0
	}
	return n
}
