package export

import (
	"path/filepath"
	"time"
)

// writeShards is the phase shards: the dictionaries, term by term, and the
// dictionary shards with their postings files (layout.go), written as the
// postings are read (stream.go): all of them, or, in an incremental export
// (incremental.go), only those the changed records touch.
func (x *exportRun) writeShards() error {
	d := <-x.dicts
	x.dictsTaken = true
	fields, err := d.fields, d.err
	if err != nil {
		return err
	}
	ranges := prefixRanges(fields)
	x.st.ReadTime = time.Since(x.start)
	st, next := x.st, x.next
	pr := &postingsReader{r: x.r, nums: x.docNum, docs: x.docs, opts: x.opts}
	inc, err := x.ex.planIncremental(x.opts, next, x.prev, x.ids, fields, bleveReader{pr})
	x.prev = nil // the plan took it over
	if err != nil {
		return err
	}
	x.inc = inc
	st.Incremental = inc != nil
	if inc != nil {
		pr.cache, pr.preread = inc.cache, inc.preread
		st.CheckedTerms, st.ChangedTerms, st.ProbedTerms, st.PatchedTerms = inc.checked, inc.nChanged, len(inc.verified), inc.patched
	}
	shardStart := time.Now()
	next.termWrites = newCacheWriter()
	defer next.termWrites.close()
	if inc != nil {
		inc.cacheOut = next.termWrites
		next.Shards, err = inc.shards(fields, ranges, pr, x.docCount, x.w, st)
		// The shards are written: nothing refers to the term cache's
		// mappings any more.
		inc.cache.close()
	} else {
		lw := newShardWriter(x.opts, x.w, st, len(x.docs))
		lw.cacheDir, lw.cacheOut = filepath.Join(x.ex.ix.Dir(), termCacheDir), next.termWrites
		err = lw.run(fields, ranges, pr, x.docCount, "", nil)
		next.Shards = lw.shards
		st.Shards = len(lw.shards)
	}
	if err != nil {
		return err
	}
	st.ShardsTotal = len(next.Shards)
	st.ShardTime = time.Since(shardStart)
	if pr.cache != nil {
		st.CachedTerms = int(pr.cache.hits.Load())
		st.CachedEntries = int(pr.cache.prepHits.Load())
		st.CachedLists = int(pr.cache.listHits.Load())
		st.PatchedEntries = int(pr.cache.patchHits.Load())
		st.PatchedLists = int(pr.cache.listPatchHits.Load())
	}
	for _, sh := range next.Shards {
		x.shardFirst = append(x.shardFirst, sh.First)
		x.shardHash = append(x.shardHash, sh.Hash)
	}
	return nil
}
