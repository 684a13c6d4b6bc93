package export

import (
	"os"
	"sort"
	"testing"
)

// TestBudgetQueryBytes (only with ERRDOCS_BUDGET_DIR) exports the budget
// site and prints the gzip-equivalent bytes a cold and a warm Node client
// loads for the budget queries, and the file count.
func TestBudgetQueryBytes(t *testing.T) {
	if os.Getenv("ERRDOCS_BUDGET_DIR") == "" {
		t.Skip("set ERRDOCS_BUDGET_DIR")
	}
	site, n, st, _ := budgetSite(t)
	qs := budgetQueries(genRecords(n, 1))
	var cold, warm struct{ Queries []jsQueryResult }
	runNode(t, map[string]interface{}{"site": site, "queries": qs, "coldQueries": true}, &cold)
	runNode(t, map[string]interface{}{"site": site, "queries": qs}, &warm)
	var c, w []int
	kinds := map[string]int{}
	for i, q := range cold.Queries {
		if q.Error != "" {
			t.Fatalf("query %d: %s", i, q.Error)
		}
		c = append(c, q.Gz)
		for k, v := range q.ByKind {
			kinds[k] += v
		}
		if i > 0 {
			w = append(w, warm.Queries[i].Gz)
		}
	}
	med := func(x []int) int { s := append([]int(nil), x...); sort.Ints(s); return s[len(s)/2] }
	sum := func(x []int) int {
		s := 0
		for _, v := range x {
			s += v
		}
		return s
	}
	t.Logf("%d records: %d files %v; cold gzip bytes (index files only) median %d mean %d; warm median %d mean %d; cold bytes by kind (sum over %d queries) %v",
		n, st.Files, st.FilesByKind, med(c), sum(c)/len(c), med(w), sum(w)/len(w), len(c), kinds)
}
