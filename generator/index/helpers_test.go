package index

import (
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
)

func genRecords(n int, seed int64) []record.Record {
	return corpus.Generate(n, seed).Records()
}

// openTemp opens an empty index in a folder of the test's own, closed
// when the test ends, with batches of batchSize records (0: the default).
func openTemp(t *testing.T, batchSize int) *Index {
	t.Helper()
	ix, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if batchSize > 0 {
		ix.BatchSize = batchSize
	}
	return ix
}

// syncedTemp is openTemp holding recs, synced in.
func syncedTemp(t *testing.T, batchSize int, recs []record.Record) *Index {
	t.Helper()
	ix := openTemp(t, batchSize)
	if _, err := ix.Sync(Records(recs)); err != nil {
		t.Fatal(err)
	}
	return ix
}

// match returns the ids of the records that a plain bleve match query
// over every field finds, best first, ties by id. The store's tests need
// no more; the query the browser runs is tested in generator/index/export
// against its Go twin.
func match(t testing.TB, ix *Index, text string, size int) []string {
	t.Helper()
	var qs []query.Query
	for _, f := range Fields {
		q := bleve.NewMatchQuery(text)
		q.SetField(f.Name)
		qs = append(qs, q)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), size, 0, false)
	req.SortBy([]string{"-_score", "_id"})
	res, err := ix.bleve.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	return ids
}
