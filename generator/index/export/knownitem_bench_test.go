package export

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
	"github.com/errdocs/errdocs/internal/knownitem"
)

// BenchmarkKnownItemScoring ranks the known-item queries of the browser
// benchmark (internal/e2e BenchmarkKnownItem: same records, same queries)
// with the bleve twin of each query form, under scoring variants: bleve's
// TF-IDF with today's field boosts, with and without typedOrder on the
// first results, BM25, and other boosts. It chooses the ranking the
// engine mirrors; figures in BENCHMARKS.md. BenchmarkKnownItemOracles
// says how far any ranker can go on these queries.
//
//	go test ./generator/index/export -run '^$' -bench KnownItemScoring -benchtime 1x
func BenchmarkKnownItemScoring(b *testing.B) {
	n, nq := knownItemSizes()
	recs := knownItemRecords(b, n)
	qs := knownitem.Make(recs, nq, 5)
	byID := map[string]*record.Record{}
	for i := range recs {
		byID[recs[i].ID] = &recs[i]
	}
	type variant struct {
		name      string
		model     string
		boosts    map[string]float64
		wordsOnly bool
		msgBoost  float64 // MessageBoost
		ordered   bool    // typedOrder on the first results, as the engine does
	}
	variants := []variant{
		{name: "tfidf-ordered", ordered: true},      // what the engine does
		{name: "tfidf"},                             // the query alone, scores' order
		{name: "tfidf-words-only", wordsOnly: true}, // before the message clause
		{name: "bm25-ordered", model: "bm25", ordered: true},
		{name: "tfidf-msgclause4", msgBoost: 4}, // a shorter message first (the message clause's norm)
		{name: "tfidf-message8-ordered", boosts: map[string]float64{"errorMessage": 8}, ordered: true},
	}
	titles := map[string]string{}
	for i := range recs {
		_, d := index.BuildDoc(&recs[i])
		titles[recs[i].ID] = d.Title
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			saved := append([]index.Field(nil), index.Fields...)
			defer copy(index.Fields, saved)
			for i := range index.Fields {
				if x, ok := v.boosts[index.Fields[i].Name]; ok {
					index.Fields[i].Boost = x
				}
			}
			m, err := index.NewMapping()
			if err != nil {
				b.Fatal(err)
			}
			m.ScoringModel = v.model
			idx, err := bleve.New(filepath.Join(b.TempDir(), "bleve"), m)
			if err != nil {
				b.Fatal(err)
			}
			defer idx.Close()
			batch := idx.NewBatch()
			for i := range recs {
				doc, _ := index.BuildDoc(&recs[i])
				if err := batch.Index(recs[i].ID, doc); err != nil {
					b.Fatal(err)
				}
			}
			if err := idx.Batch(batch); err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				var s1, mrr, count, p1, mrrSame, s1Same, p1Same, ceiling float64
				var counts []float64
				nk, np := 0, 0
				for _, q := range qs {
					mode, text := ModeAll, q.Text
					if q.Kind == "paste" {
						mode = ModeMost
					}
					bq, err := BuildQuery(m, text, QueryOptions{Mode: mode, Prefix: q.Kind != "paste", WordsOnly: v.wordsOnly, MessageBoost: v.msgBoost})
					if err != nil || bq == nil {
						continue
					}
					req := bleve.NewSearchRequestOptions(bq, 10, 0, false)
					req.SortBy([]string{"-_score", index.SortKeyField, "_id"})
					res, err := idx.Search(req)
					if err != nil {
						b.Fatal(err)
					}
					hits := make([]Hit, len(res.Hits))
					for j, h := range res.Hits {
						hits[j] = Hit{ID: h.ID, Score: h.Score}
					}
					if v.ordered && mode == ModeAll {
						hits = typedOrder(m, text, true, hits, func(id string) string { return titles[id] })
					}
					rank, same := 0, 0
					for j, h := range hits {
						r := byID[h.ID]
						if rank == 0 && (r.ErrorMessage == q.Target || q.TargetPattern != "" && r.MessagePattern == q.TargetPattern) {
							rank = j + 1
						}
						if same == 0 && knownitem.Skeleton(r.ErrorMessage, r.MessagePattern) == q.TargetSkeleton {
							same = j + 1
						}
					}
					if q.Kind == "paste" {
						np++
						if rank == 1 {
							p1++
						}
						if same == 1 {
							p1Same++
						}
						continue
					}
					nk++
					if v.name == "tfidf-ordered" {
						ceiling += tieCeiling(b, idx, m, text, byID)
					}
					counts = append(counts, float64(res.Total))
					if rank == 1 {
						s1++
					}
					if rank > 0 {
						mrr += 1 / float64(rank)
					}
					if same > 0 {
						mrrSame += 1 / float64(same)
					}
					if same == 1 {
						s1Same++
					}
				}
				count = medianOf(counts)
				b.ReportMetric(s1/float64(nk), "kw-success@1")
				b.ReportMetric(mrr/float64(nk), "kw-MRR@10")
				b.ReportMetric(count, "kw-median-count")
				b.ReportMetric(p1/float64(np), "paste-text-success@1")
				b.ReportMetric(mrrSame/float64(nk), "kw-MRR@10-same-error")
				b.ReportMetric(s1Same/float64(nk), "kw-success@1-same-error")
				b.ReportMetric(p1Same/float64(np), "paste-text-success@1-same-error")
				if ceiling > 0 {
					b.ReportMetric(ceiling/float64(nk), "kw-MRR@10-same-error-ceiling")
				}
			}
		})
	}
}

// tieCeiling is the MRR@10 a ranker reaches on a keyword query when it
// sees only whether the message holds every word: the records whose
// message does fall into g groups of the same error (knownitem.Skeleton),
// the target's group among them, in an order it cannot tell; its
// expected reciprocal rank is the sum of 1/i for i up to min(g, 10),
// over g.
func tieCeiling(b *testing.B, idx bleve.Index, m mapping.IndexMapping, text string, byID map[string]*record.Record) float64 {
	ws := words(m, text)
	q, err := messageClauses(m, ws, LastWord(m, text), text, QueryOptions{Mode: ModeAll, Prefix: true})
	if err != nil || q == nil {
		return 0
	}
	res, err := idx.Search(bleve.NewSearchRequestOptions(q, 100000, 0, false))
	if err != nil {
		b.Fatal(err)
	}
	groups := map[string]bool{}
	for _, h := range res.Hits {
		r := byID[h.ID]
		groups[knownitem.Skeleton(r.ErrorMessage, r.MessagePattern)] = true
	}
	g := len(groups)
	if g == 0 {
		return 0
	}
	sum := 0.0
	for i := 1; i <= min(g, 10); i++ {
		sum += 1 / float64(i)
	}
	return sum / float64(g)
}

func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[len(s)/2]
}

// knownItemSizes is the known-item benchmarks' records and queries per
// kind: ERRDOCS_KNOWN_N and ERRDOCS_KNOWN_Q, else 10,000 and 200.
// knownItemRecords are the known-item benchmarks' records: n generated
// (seed 11), with real messages when ERRDOCS_KNOWN_MESSAGES=real, as the
// browser benchmark makes them.
func knownItemRecords(b testing.TB, n int) []record.Record {
	ds := corpus.Generate(n, 11)
	if err := ds.UseMessages(os.Getenv("ERRDOCS_KNOWN_MESSAGES")); err != nil {
		b.Fatal(err)
	}
	return ds.Records()
}

func knownItemSizes() (records, queries int) {
	records, queries = lookupInt("ERRDOCS_KNOWN_N"), lookupInt("ERRDOCS_KNOWN_Q")
	if records == 0 {
		records = 10000
	}
	if queries == 0 {
		queries = 200
	}
	return records, queries
}
