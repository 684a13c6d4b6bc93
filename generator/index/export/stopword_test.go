package export

import "testing"

// A typed query that ends in a whole stop word ("retry after") finds the
// records that hold its other words: the last word, while typed, counts
// as the start of a longer word, but when no record has such a word it is
// the stop word it looks like.
func TestLastStopWord(t *testing.T) {
	recs := genRecords(800, 7)
	target := &recs[0]
	target.ErrorMessage = "quota gauge exceeded, retry after 4098 seconds"
	site := exportedSite(t, recs)
	q := "quota gauge retry after"
	queries := []map[string]interface{}{
		{"q": q, "opts": map[string]interface{}{"limit": 10}},
		// the all-words form alone, "after" as a prefix: what the page
		// would find without the fallback
		{"q": q, "opts": map[string]interface{}{"limit": 10, "mode": "all"}},
	}
	var resp struct {
		Queries []struct {
			Error   string
			Total   int
			Results []struct{ ID, Group string }
		}
	}
	runNode(t, map[string]interface{}{"site": site, "queries": queries}, &resp)
	got := resp.Queries[0]
	if got.Error != "" || len(got.Results) == 0 || got.Results[0].ID != target.ID || got.Results[0].Group != "all" || got.Total < 1 {
		t.Errorf("%q: %+v, want %s first among all-words results, counted", q, got, target.ID)
	}
	if n := resp.Queries[1].Total; n != 0 {
		t.Errorf("%q as a prefix query finds %d records: the fixture does not test the fallback", q, n)
	}
}
