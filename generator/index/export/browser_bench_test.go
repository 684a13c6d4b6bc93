package export

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"testing"

	"github.com/errdocs/errdocs/internal/browsertest"
)

// BenchmarkSearchChromium is the query-time budget: a 100,000-record export
// (ERRDOCS_BENCH_N overrides; ERRDOCS_BUDGET_DIR keeps the index between
// runs) served over loopback to headless Chromium, engine.js in a minimal
// page; per typical query, one search to load its chunks, then
// ERRDOCS_BENCH_REPEAT (default 7) timed searches (performance.now()).
// Reports the median and p95 over queries of each query's median
// (ERRDOCS_BENCH_VERBOSE=1 also prints each query's).
// Run: go test ./generator/index/export -run '^$' -bench SearchChromium -benchtime 1x -timeout 60m
func BenchmarkSearchChromium(b *testing.B) {
	site, n, _, _ := budgetSite(b)
	qs := budgetQueries(genRecords(n, 1))
	repeat := benchN2("ERRDOCS_BENCH_REPEAT", 7)
	ctx := browsertest.New(b)
	root := moduleRoot(b)
	mux := http.NewServeMux()
	mux.Handle("/static/", http.FileServer(http.Dir(root)))
	mux.Handle("/search/", http.FileServer(http.Dir(site)))
	mux.HandleFunc("/bench.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "script-src 'self'")
		fmt.Fprint(w, `<!doctype html><meta charset="utf-8"><title>bench</title>`+
			`<script src="/static/search/analyzer.js"></script><script src="/static/search/engine.js"></script>`)
	})
	base := browsertest.ServeHandler(b, mux)
	for b.Loop() {
		browsertest.Navigate(b, ctx, base+"bench.html")
		browsertest.Eval[bool](b, ctx, `ErrdocsSearch.init("search/").then(() => true)`)
		var meds []float64
		for _, q := range qs {
			qj, _ := json.Marshal(q["q"])
			oj, _ := json.Marshal(q["opts"])
			expr := fmt.Sprintf(`(async () => {
				const q = %s, o = %s;
				await ErrdocsSearch.search(q, o);
				const ts = [];
				for (let i = 0; i < %d; i++) {
					const t0 = performance.now();
					await ErrdocsSearch.search(q, o);
					ts.push(performance.now() - t0);
				}
				ts.sort((a, b) => a - b);
				return ts[ts.length >> 1];
			})()`, qj, oj, repeat)
			ms := browsertest.Eval[float64](b, ctx, expr)
			meds = append(meds, ms)
			if os.Getenv("ERRDOCS_BENCH_VERBOSE") != "" {
				fmt.Printf("  %7.2f ms  %q\n", ms, q["q"])
			}
		}
		sort.Float64s(meds)
		med, p95, mx := meds[len(meds)/2], meds[len(meds)*95/100], meds[len(meds)-1]
		b.ReportMetric(med, "ms-median")
		b.ReportMetric(p95, "ms-p95")
		fmt.Printf("chromium, %d records, %d queries with chunks loaded: median %.2f ms, p95 %.2f ms, max %.2f ms\n", n, len(qs), med, p95, mx)
	}
}

func benchN2(env string, def int) int {
	if v := lookupInt(env); v > 0 {
		return v
	}
	return def
}
