package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	bindex "github.com/blevesearch/bleve_index_api"
)

// FileWriter receives the exported files, with paths relative to the site
// root (all under ExportOptions.Dir).
type FileWriter interface {
	WriteFile(rel string, data []byte) error
}

// ExportOptions tunes the export. Zero values take the defaults.
type ExportOptions struct {
	// Pattern compiles a record's messagePattern into the program the
	// client matches pasted errors with; its JSON is stored in the doc
	// data as "pattern". nil omits patterns. An error omits the pattern
	// of that record (counted in ExportStats.PatternErrors).
	Pattern func(expr string) (json.RawMessage, error)

	Dir              string // folder under the site root; default "search"
	DictShardBytes   int    // target size of a dictionary shard; default 8 KiB
	PostingFileBytes int    // target size of a postings file; default 16 KiB
	DocsPerFile      int    // records per doc data file; default 40
	PatternsPerFile  int    // records per pattern program file; default 4 × DocsPerFile
	BlockSize        int    // postings per block; default 128
	HeadSize         int    // postings in a term's impact head; default 2 × BlockSize
	HeadMin          int    // postings from which a term gets a head; default 2 × HeadSize
	HeadFileBytes    int    // target size of a head file; default 8 KiB
	SnippetRunes     int    // snippet length in the doc data; default 120
	InlineMax        int    // document frequency up to which postings sit in the dictionary; default 3
	FilterFileBytes  int    // target size of a filter postings file; default 32 KiB
}

func (o *ExportOptions) defaults() {
	if o.Dir == "" {
		o.Dir = "search"
	}
	o.Dir = strings.Trim(o.Dir, "/")
	if o.DictShardBytes <= 0 {
		o.DictShardBytes = 8 << 10
	}
	if o.PostingFileBytes <= 0 {
		o.PostingFileBytes = 16 << 10
	}
	if o.DocsPerFile <= 0 {
		o.DocsPerFile = 40
	}
	if o.PatternsPerFile <= 0 {
		o.PatternsPerFile = 32 * o.DocsPerFile
	}
	if o.BlockSize <= 0 {
		o.BlockSize = 128
	}
	if o.HeadSize <= 0 {
		o.HeadSize = 2 * o.BlockSize
	}
	if o.HeadMin <= 0 {
		o.HeadMin = 2 * o.HeadSize
	}
	if o.HeadFileBytes <= 0 {
		o.HeadFileBytes = 8 << 10
	}
	if o.SnippetRunes <= 0 {
		o.SnippetRunes = 120
	}
	if o.InlineMax <= 0 {
		o.InlineMax = 3
	}
	if o.FilterFileBytes <= 0 {
		o.FilterFileBytes = 32 << 10
	}
}

// ExportStats describes an export.
type ExportStats struct {
	Docs          int
	Terms         int // distinct (term, field) pairs
	Postings      int
	Files         int
	Bytes         int64
	MaxFileBytes  int
	MaxFile       string
	FilesByKind   map[string]int
	BytesByKind   map[string]int64
	NormFallbacks int // postings whose norm is stored as raw float32 bits
	PatternErrors int
	ReadTime      time.Duration // reading bleve
	PatternTime   time.Duration // running the Pattern hook
	Duration      time.Duration
}

// FormatVersion is written into the manifest; the client refuses others.
const FormatVersion = 3

// EntryFile is the one export file whose name is fixed (under
// ExportOptions.Dir): it names the content-hashed manifest. Every other
// file is named <key>.<hash>.js and can be cached forever.
const EntryFile = "manifest.js"

// TablePer is the number of doc data (r/) or pattern (m/) files whose
// hashed names one name table (t/rNNNN, t/mNNNN) lists.
const TablePer = 128

type posting struct {
	doc  uint32
	freq uint32
	norm float32
}

type fieldTerm struct {
	term  string
	field int
	df    uint64 // bleve's count, which its idf uses
	posts []posting
}

// Export writes the client-side search files for the current index.
func (ix *Index) Export(out FileWriter, opts ExportOptions) (ExportStats, error) {
	start := time.Now()
	opts.defaults()
	st := ExportStats{FilesByKind: map[string]int{}, BytesByKind: map[string]int64{}}
	if ix == nil || ix.bleve == nil {
		return st, errors.New("index: Export on a closed index")
	}
	if out == nil {
		return st, errors.New("index: Export needs a FileWriter")
	}
	adv, err := ix.bleve.Advanced()
	if err != nil {
		return st, err
	}
	r, err := adv.Reader()
	if err != nil {
		return st, err
	}
	defer r.Close()

	docCount, err := r.DocCount()
	if err != nil {
		return st, err
	}

	// Doc numbers: scorch's internal ids are not stable, so number the
	// records by (sort key, id): newest analyzedAt first. This is also the
	// order of filter-only results and the tie-break of scored ones.
	type docRef struct {
		internal string
		data     *DocData
	}
	var docs []docRef
	dr, err := r.DocIDReaderAll()
	if err != nil {
		return st, err
	}
	for {
		id, err := dr.Next()
		if err != nil {
			dr.Close()
			return st, err
		}
		if id == nil {
			break
		}
		ext, err := r.ExternalID(id)
		if err != nil {
			dr.Close()
			return st, err
		}
		se, ok := ix.side[ext]
		if !ok {
			dr.Close()
			return st, fmt.Errorf("index: record %s is in bleve but not in the side store; delete the cache", ext)
		}
		d := se.Data
		docs = append(docs, docRef{internal: string(id), data: &d})
	}
	dr.Close()
	sort.Slice(docs, func(i, j int) bool {
		a, b := docs[i].data, docs[j].data
		if a.SortKey != b.SortKey {
			return a.SortKey < b.SortKey
		}
		return a.ID < b.ID
	})
	docNum := make(map[string]uint32, len(docs))
	for i, d := range docs {
		docNum[d.internal] = uint32(i)
	}
	st.Docs = len(docs)

	// Read every field's dictionary and postings, fields in parallel.
	perField := make([][]fieldTerm, len(Fields))
	errs := make([]error, len(Fields))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for fi := range Fields {
		wg.Add(1)
		go func(fi int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			perField[fi], errs[fi] = readField(r, fi, docNum)
		}(fi)
	}
	wg.Wait()
	for _, e := range errs {
		if e != nil {
			return st, e
		}
	}
	st.ReadTime = time.Since(start)

	// Term-major order: all fields of one term sit together, so a query
	// word touches one dictionary shard and usually one postings file.
	var all []*fieldTerm
	for fi := range perField {
		for i := range perField[fi] {
			all = append(all, &perField[fi][i])
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].term != all[j].term {
			return all[i].term < all[j].term
		}
		return all[i].field < all[j].field
	})
	st.Terms = len(all)

	w := &exportWriter{out: out, st: &st, dir: opts.Dir}

	// Postings files and dictionary shards. File boundaries are content
	// defined (cdcCut): a file ends after an item whose hash says so, so a
	// changed record moves no boundary elsewhere and renumbers no file.
	// Shards are written last: they name the hashed files they point to.
	type pendingShard struct {
		terms  []string
		enc    string
		x      map[string]string
		pRefs  map[int]bool
		hRefs  map[int]bool
		number int
	}
	var (
		pfile      cvWriter
		pfileNo    = 0
		pCut       bool
		pHash      []string
		hfile      cvWriter
		hfileNo    = 0
		hCut       bool
		hHash      []string
		shardTerms []string
		shardEnc   cvWriter
		shardFirst []string
		shardX     = map[string]*cvWriter{} // prefix -> virtual entries
		shardP     = map[int]bool{}
		shardH     = map[int]bool{}
		dCut       bool
		pending    []pendingShard
	)
	vlists := prefixLists(perField, docCount, opts)
	flushPostings := func() error {
		pCut = false
		if pfile.len() == 0 {
			return nil
		}
		h, err := w.script("p", fmt.Sprintf("p/%04d", pfileNo), jsString(pfile.String()))
		if err != nil {
			return err
		}
		pHash = append(pHash, h)
		pfile = cvWriter{}
		pfileNo++
		return nil
	}
	flushHeads := func() error {
		hCut = false
		if hfile.len() == 0 {
			return nil
		}
		h, err := w.script("h", fmt.Sprintf("h/%04d", hfileNo), jsString(hfile.String()))
		if err != nil {
			return err
		}
		hHash = append(hHash, h)
		hfile = cvWriter{}
		hfileNo++
		return nil
	}
	// startTail / startHead: before an item's postings, end the current
	// file at a content-defined boundary or when it is far too large.
	startTail := func() error {
		if pfile.len() > 0 && (pCut || pfile.len() >= 2*opts.PostingFileBytes) {
			return flushPostings()
		}
		return nil
	}
	endTail := func(item string, n int) {
		if !pCut {
			pCut = cdcCut(item, n, pfile.len(), opts.PostingFileBytes)
		}
	}
	startHead := func() error {
		if hfile.len() > 0 && (hCut || hfile.len() >= 2*opts.HeadFileBytes) {
			return flushHeads()
		}
		return nil
	}
	endHead := func(item string, n int) {
		if !hCut {
			hCut = cdcCut(item, n, hfile.len(), opts.HeadFileBytes)
		}
	}
	flushShard := func() error {
		dCut = false
		if len(shardTerms) == 0 {
			return nil
		}
		ps := pendingShard{terms: shardTerms, enc: shardEnc.String(), pRefs: shardP, hRefs: shardH, number: len(shardFirst)}
		shardFirst = append(shardFirst, shardTerms[0])
		if len(shardX) > 0 {
			ps.x = map[string]string{}
			for k, v := range shardX {
				ps.x[k] = v.String()
			}
			shardX = map[string]*cvWriter{}
		}
		pending = append(pending, ps)
		shardTerms = nil
		shardEnc = cvWriter{}
		shardP, shardH = map[int]bool{}, map[int]bool{}
		return nil
	}
	// writeVirtual writes a prefix list like a long postings list (impact
	// head in a head file, doc-ordered tail blocks in postings files); its
	// postings carry the matched expansion terms, its maxima are float32
	// upper bounds of the list's per-doc value (see FORMAT.md).
	writeVirtual := func(vl *vlist, xw *cvWriter) error {
		item := "\x01" + vl.prefix + "\x00" + Fields[vl.field].Name
		posts := vl.posts
		var head []vposting
		if len(posts) >= opts.HeadMin {
			head, posts = splitVHead(posts, opts.HeadSize)
		}
		if err := startTail(); err != nil {
			return err
		}
		nb := (len(posts) + opts.BlockSize - 1) / opts.BlockSize
		xw.put(uint64(nb))
		xw.put(uint64(pfileNo))
		xw.put(uint64(pfile.len()))
		if head == nil {
			xw.put(0)
		} else {
			if err := startHead(); err != nil {
				return err
			}
			enc, best := encodeVBlock(head, &st)
			xw.put(1)
			xw.put(uint64(hfileNo))
			xw.put(uint64(hfile.len()))
			xw.put(uint64(head[0].doc))
			xw.put(uint64(head[len(head)-1].doc - head[0].doc))
			xw.put(uint64(len(head)))
			xw.put(uint64(enc.len()))
			xw.put(uint64(f32Up(best)))
			shardH[hfileNo] = true
			hfile.b = append(hfile.b, enc.b...)
			endHead(item, enc.len())
		}
		prevLast := uint32(0)
		tail := 0
		for b := 0; b < nb; b++ {
			lo, hi := b*opts.BlockSize, min((b+1)*opts.BlockSize, len(posts))
			blk := posts[lo:hi]
			fileDelta := 0
			if b > 0 && pfile.len() >= opts.PostingFileBytes*2 {
				if err := flushPostings(); err != nil {
					return err
				}
				fileDelta = 1
			}
			enc, best := encodeVBlock(blk, &st)
			xw.put(uint64(fileDelta))
			xw.put(uint64(blk[0].doc - prevLast))
			xw.put(uint64(blk[len(blk)-1].doc - blk[0].doc))
			xw.put(uint64(len(blk)))
			xw.put(uint64(enc.len()))
			xw.put(uint64(f32Up(best)))
			prevLast = blk[len(blk)-1].doc
			shardP[pfileNo] = true
			pfile.b = append(pfile.b, enc.b...)
			tail += enc.len()
		}
		if nb > 0 {
			endTail(item, tail)
		}
		return nil
	}

	shardBytes := 0
	for i := 0; i < len(all); {
		// One dictionary entry per term: all its fields.
		j := i
		for j < len(all) && all[j].term == all[i].term {
			j++
		}
		group := all[i:j]
		// Start a new shard before this term at a content-defined
		// boundary, or if the shard is far too large; a term is never split.
		if shardBytes > 0 && (dCut || shardBytes >= 2*opts.DictShardBytes) {
			if err := flushShard(); err != nil {
				return st, err
			}
			shardBytes = 0
		}
		before := shardEnc.len()
		shardEnc.put(uint64(len(group)))
		for _, ft := range group {
			st.Postings += len(ft.posts)
			shardEnc.put(uint64(ft.field))
			shardEnc.put(ft.df)
			shardEnc.put(uint64(len(ft.posts)))
			if len(ft.posts) <= opts.InlineMax {
				prev := uint32(0)
				for _, p := range ft.posts {
					shardEnc.put(uint64(p.doc - prev))
					prev = p.doc
					if !shardEnc.putTF(uint64(p.freq), float64(p.norm)) {
						st.NormFallbacks++
					}
				}
				continue
			}
			// An impact head: the HeadSize postings of largest impact
			// (sqrt(freq)·norm, ties by doc) in doc order, in a head file;
			// the rest in blocks of BlockSize postings in doc order, in
			// postings files. The whole tail goes to the current postings
			// file unless that file ends here (content-defined boundary or
			// past twice its target); a tail larger than that gets split at
			// block boundaries.
			item := ft.term + "\x00" + Fields[ft.field].Name
			posts := ft.posts
			var head []posting
			if len(posts) >= opts.HeadMin {
				head, posts = splitHead(posts, opts.HeadSize)
			}
			if err := startTail(); err != nil {
				return st, err
			}
			nb := (len(posts) + opts.BlockSize - 1) / opts.BlockSize
			shardEnc.put(uint64(nb))
			shardEnc.put(uint64(pfileNo))
			shardEnc.put(uint64(pfile.len()))
			if head == nil {
				shardEnc.put(0)
			} else {
				if err := startHead(); err != nil {
					return st, err
				}
				enc, best := encodeBlock(head, &st)
				shardEnc.put(1)
				shardEnc.put(uint64(hfileNo))
				shardEnc.put(uint64(hfile.len()))
				shardEnc.put(uint64(head[0].doc))
				shardEnc.put(uint64(head[len(head)-1].doc - head[0].doc))
				shardEnc.put(uint64(len(head)))
				shardEnc.put(uint64(enc.len()))
				shardEnc.putTF(uint64(best.freq), float64(best.norm))
				shardH[hfileNo] = true
				hfile.b = append(hfile.b, enc.b...)
				endHead(item, enc.len())
			}
			prevLast := uint32(0)
			tail := 0
			for b := 0; b < nb; b++ {
				lo, hi := b*opts.BlockSize, (b+1)*opts.BlockSize
				if hi > len(posts) {
					hi = len(posts)
				}
				blk := posts[lo:hi]
				fileDelta := 0
				if b > 0 && pfile.len() >= opts.PostingFileBytes*2 {
					if err := flushPostings(); err != nil {
						return st, err
					}
					fileDelta = 1
				}
				enc, best := encodeBlock(blk, &st)
				shardEnc.put(uint64(fileDelta))
				shardEnc.put(uint64(blk[0].doc - prevLast))
				shardEnc.put(uint64(blk[len(blk)-1].doc - blk[0].doc))
				shardEnc.put(uint64(len(blk)))
				shardEnc.put(uint64(enc.len()))
				shardEnc.putTF(uint64(best.freq), float64(best.norm))
				prevLast = blk[len(blk)-1].doc
				shardP[pfileNo] = true
				pfile.b = append(pfile.b, enc.b...)
				tail += enc.len()
			}
			if nb > 0 {
				endTail(item, tail)
			}
		}
		shardTerms = append(shardTerms, group[0].term)
		added := shardEnc.len() - before + len(group[0].term) + 3
		// Prefix lists whose first expansion term is this one.
		for _, vl := range vlists[group[0].term] {
			xw := shardX[vl.prefix]
			if xw == nil {
				xw = &cvWriter{}
				shardX[vl.prefix] = xw
			}
			b0 := xw.len()
			xw.put(uint64(vl.field))
			xw.put(uint64(vl.nTerms))
			xw.put(uint64(len(vl.posts)))
			if err := writeVirtual(vl, xw); err != nil {
				return st, err
			}
			added += xw.len() - b0
		}
		shardBytes += added
		if !dCut {
			dCut = cdcCut(group[0].term, added, shardBytes, opts.DictShardBytes)
		}
		i = j
	}
	if err := flushShard(); err != nil {
		return st, err
	}
	if err := flushPostings(); err != nil {
		return st, err
	}
	if err := flushHeads(); err != nil {
		return st, err
	}
	// Now every postings and head file has its hashed name: write the
	// shards, each with the names of the files its entries point to.
	shardHash := make([]string, len(pending))
	for _, ps := range pending {
		tj, err := json.Marshal(ps.terms)
		if err != nil {
			return st, err
		}
		body := `{"t":` + string(tj) + `,"e":` + jsString(ps.enc)
		if ps.x != nil {
			xj, err := json.Marshal(ps.x)
			if err != nil {
				return st, err
			}
			body += `,"x":` + string(xj)
		}
		names := map[string]string{}
		for f := range ps.pRefs {
			names[fmt.Sprintf("p/%04d", f)] = pHash[f]
		}
		for f := range ps.hRefs {
			names[fmt.Sprintf("h/%04d", f)] = hHash[f]
		}
		if len(names) > 0 {
			nj, err := json.Marshal(names)
			if err != nil {
				return st, err
			}
			body += `,"n":` + string(nj)
		}
		body += `}`
		h, err := w.script("d", fmt.Sprintf("d/%04d", ps.number), body)
		if err != nil {
			return st, err
		}
		shardHash[ps.number] = h
	}
	// Doc data, DocsPerFile records per file, in doc number order.
	pstart := time.Now()
	patterns := make([]json.RawMessage, len(docs))
	if opts.Pattern != nil {
		memo := map[string]json.RawMessage{}
		for i, d := range docs {
			if p, ok := memo[d.data.Pattern]; ok {
				patterns[i] = p
				continue
			}
			p, err := callPattern(opts.Pattern, d.data.Pattern)
			if err != nil || !json.Valid(p) {
				st.PatternErrors++
				p = nil
			}
			memo[d.data.Pattern] = p
			patterns[i] = p
		}
	}
	st.PatternTime = time.Since(pstart)
	// Result cards (r/) and pattern programs (m/) go to separate chunks: a
	// result list needs only the cards; pattern programs (a third of the
	// bytes) load only for paste matching, in coarser chunks to save files.
	hasPatterns := opts.Pattern != nil
	// names lists the hashed names the manifest gives: name tables,
	// filter value lists, id shards.
	names := map[string]string{}
	var rHash, mHash []string
	for f := 0; f*opts.DocsPerFile < len(docs); f++ {
		lo, hi := f*opts.DocsPerFile, min((f+1)*opts.DocsPerFile, len(docs))
		batch := make([]resultCard, 0, hi-lo)
		for i := lo; i < hi; i++ {
			d := docs[i].data
			batch = append(batch, resultCard{ID: d.ID, Title: d.Title, URL: d.URL, Repo: d.Repo, Severity: d.Severity,
				ErrorType: d.ErrorType, Language: d.Language, Snippet: trimSnippet(d.Snippet, opts.SnippetRunes)})
		}
		b, err := json.Marshal(batch)
		if err != nil {
			return st, err
		}
		h, err := w.script("r", fmt.Sprintf("r/%04d", f), string(b))
		if err != nil {
			return st, err
		}
		rHash = append(rHash, h)
	}
	if hasPatterns {
		for f := 0; f*opts.PatternsPerFile < len(docs); f++ {
			lo, hi := f*opts.PatternsPerFile, min((f+1)*opts.PatternsPerFile, len(docs))
			progs := make([]json.RawMessage, 0, hi-lo)
			for i := lo; i < hi; i++ {
				p := patterns[i]
				if p == nil {
					p = json.RawMessage("null")
				}
				progs = append(progs, p)
			}
			b, err := json.Marshal(progs)
			if err != nil {
				return st, err
			}
			h, err := w.script("m", fmt.Sprintf("m/%04d", f), string(b))
			if err != nil {
				return st, err
			}
			mHash = append(mHash, h)
		}
	}
	// Name tables: the hashed names of TablePer consecutive doc data (or
	// pattern) files, 8 hex digits each, loaded with the first results.
	for _, tk := range []struct {
		kind   string
		hashes []string
	}{{"r", rHash}, {"m", mHash}} {
		for g := 0; g*TablePer < len(tk.hashes); g++ {
			part := tk.hashes[g*TablePer : min((g+1)*TablePer, len(tk.hashes))]
			key := fmt.Sprintf("t/%s%04d", tk.kind, g)
			h, err := w.script("t", key, jsString(strings.Join(part, "")))
			if err != nil {
				return st, err
			}
			names[key] = h
		}
	}

	// Filters: per field, the sorted values with their doc counts and
	// where their doc lists are; doc lists packed into filter files.
	filterIndex, err := exportFilters(r, w, docNum, len(docs), opts.FilterFileBytes, names)
	if err != nil {
		return st, err
	}

	// Id index: record id -> doc number, sharded by the first hex digits
	// of the id (ids are 16 random-looking hex digits), so docs(ids) loads
	// one small chunk per id prefix.
	idPrefix := 1
	if len(docs) > 400000 {
		idPrefix = 2
	}
	idShards := map[string][][2]interface{}{}
	for i, d := range docs {
		p := d.data.ID
		if len(p) > idPrefix {
			p = p[:idPrefix]
		}
		idShards[p] = append(idShards[p], [2]interface{}{d.data.ID, i})
	}
	for _, p := range sortedKeys(idShards) {
		b, err := json.Marshal(idShards[p])
		if err != nil {
			return st, err
		}
		h, err := w.script("i", "i/"+p, string(b))
		if err != nil {
			return st, err
		}
		names["i/"+p] = h
	}

	// Manifest, last: small and fixed in shape.
	type mfField struct {
		Name     string  `json:"name"`
		Analyzer string  `json:"analyzer"`
		Query    string  `json:"query"`
		Boost    float64 `json:"boost"`
	}
	man := struct {
		Version     int                 `json:"v"`
		DocCount    uint64              `json:"docCount"`
		Docs        int                 `json:"docs"`
		Fields      []mfField           `json:"fields"`
		Shards      []string            `json:"shards"`
		DocsPerFile int                 `json:"docsPerFile"`
		Filters     map[string]string   `json:"filters"`
		Options     map[string]int      `json:"options"`
		FilterNames []string            `json:"filterNames"`
		Extra       map[string][]string `json:"extra,omitempty"`
		ShardHashes string              `json:"dh"`
		Names       map[string]string   `json:"names"`
	}{
		Version: FormatVersion, DocCount: docCount, Docs: len(docs),
		Shards: shardFirst, DocsPerFile: opts.DocsPerFile, Filters: filterIndex,
		Options: map[string]int{"minPrefix": MinPrefixRunes, "fuzzyPrefix": FuzzyPrefix, "inlineMax": opts.InlineMax,
			"idPrefix": idPrefix, "patterns": boolInt(hasPatterns), "patternsPerFile": opts.PatternsPerFile, "tablePer": TablePer},
		FilterNames: FilterFields, ShardHashes: strings.Join(shardHash, ""), Names: names,
	}
	for _, f := range Fields {
		man.Fields = append(man.Fields, mfField{f.Name, f.Analyzer, f.QueryAnalyzer, f.Boost})
	}
	mb, err := json.Marshal(man)
	if err != nil {
		return st, err
	}
	mh, err := w.script("manifest", "manifest", string(mb))
	if err != nil {
		return st, err
	}
	// The entry, the one file with a fixed name (and so the one a host must
	// not cache for long): which manifest to load.
	if err := w.write("entry", EntryFile, "errdocsSearch.load(\"entry\","+jsString(mh)+");\n"); err != nil {
		return st, err
	}
	st.Duration = time.Since(start)
	return st, nil
}

// resultCard is a record's doc data in the export (r/ files): what a
// result list shows. Tags, error class and error code are searchable but
// not shown in results, so they stay out: a query loads up to one doc data
// file per result, and they were a quarter of its bytes.
type resultCard struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	Repo      string `json:"repo"`
	Severity  string `json:"severity"`
	ErrorType string `json:"errorType"`
	Language  string `json:"language,omitempty"`
	Snippet   string `json:"snippet,omitempty"`
}

// callPattern runs the hook and turns a panic in it into an error: the
// hook is another package's code running on untrusted patterns.
func callPattern(f func(string) (json.RawMessage, error), expr string) (p json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pattern hook panicked: %v", r)
		}
	}()
	return f(expr)
}

// dictTerms lists a field's terms as bleve's dictionary holds them, in
// order.
func dictTerms(r bindex.IndexReader, field string) ([]string, error) {
	fd, err := r.FieldDict(field)
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	var terms []string
	for {
		e, err := fd.Next()
		if err != nil {
			return nil, err
		}
		if e == nil {
			return terms, nil
		}
		terms = append(terms, e.Term)
	}
}

func readField(r bindex.IndexReader, fi int, docNum map[string]uint32) ([]fieldTerm, error) {
	field := Fields[fi].Name
	termsList, err := dictTerms(r, field)
	if err != nil {
		return nil, err
	}
	out := make([]fieldTerm, 0, len(termsList))
	ctx := context.Background()
	var tfd bindex.TermFieldDoc
	for _, t := range termsList {
		tfr, err := r.TermFieldReader(ctx, []byte(t), field, true, true, false)
		if err != nil {
			return nil, err
		}
		ft := fieldTerm{term: validUTF8PerByte(t), field: fi, df: tfr.Count()}
		for {
			d, err := tfr.Next(&tfd)
			if err != nil {
				tfr.Close()
				return nil, err
			}
			if d == nil {
				break
			}
			n, ok := docNum[string(d.ID)]
			if !ok {
				continue // a deleted doc seen through a stale segment
			}
			ft.posts = append(ft.posts, posting{doc: n, freq: uint32(d.Freq), norm: float32(d.Norm)})
		}
		tfr.Close()
		if len(ft.posts) == 0 {
			continue
		}
		sort.Slice(ft.posts, func(i, j int) bool { return ft.posts[i].doc < ft.posts[j].doc })
		out = append(out, ft)
	}
	return out, nil
}

func exportFilters(r bindex.IndexReader, w *exportWriter, docNum map[string]uint32, nDocs, target int, names map[string]string) (map[string]string, error) {
	index := map[string]string{}
	var file cvWriter
	fileNo := 0
	cut := false
	var hashes []string
	flush := func() error {
		cut = false
		if file.len() == 0 {
			return nil
		}
		h, err := w.script("f", fmt.Sprintf("f/%04d", fileNo), jsString(file.String()))
		if err != nil {
			return err
		}
		hashes = append(hashes, h)
		file = cvWriter{}
		fileNo++
		return nil
	}
	// Value lists are written once every filter file has its hashed name.
	type valueList struct {
		name    string
		entries [][]interface{}
		files   map[int]bool
	}
	var lists []valueList
	ctx := context.Background()
	for _, name := range FilterFields {
		field := FilterFieldPrefix + name
		vals, err := dictTerms(r, field)
		if err != nil {
			return nil, err
		}
		// Each value: [value, count, file, offset, length, kind]; kind 0
		// is a gap list, kind 1 a bitmap (smaller for common values).
		var entries [][]interface{}
		files := map[int]bool{}
		var tfd bindex.TermFieldDoc
		for _, v := range vals {
			tfr, err := r.TermFieldReader(ctx, []byte(v), field, false, false, false)
			if err != nil {
				return nil, err
			}
			var list []uint32
			for {
				d, err := tfr.Next(&tfd)
				if err != nil {
					tfr.Close()
					return nil, err
				}
				if d == nil {
					break
				}
				if n, ok := docNum[string(d.ID)]; ok {
					list = append(list, n)
				}
			}
			tfr.Close()
			if len(list) == 0 {
				continue
			}
			sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
			var enc cvWriter
			prev := uint32(0)
			for _, d := range list {
				enc.put(uint64(d - prev))
				prev = d
			}
			s, kind := enc.String(), 0
			if bm := bitmapChars(list, nDocs); len(bm) < len(s) {
				s, kind = bm, 1
			}
			// Content-defined file boundaries, as for postings files.
			if file.len() > 0 && (cut || file.len()+len(s) > 2*target) {
				if err := flush(); err != nil {
					return nil, err
				}
			}
			entries = append(entries, []interface{}{v, len(list), fileNo, file.len(), len(s), kind})
			files[fileNo] = true
			file.b = append(file.b, s...)
			if !cut {
				cut = cdcCut(name+"\x00"+v, len(s), file.len(), target)
			}
		}
		lists = append(lists, valueList{"f/" + name, entries, files})
		index[name] = "f/" + name
	}
	if err := flush(); err != nil {
		return nil, err
	}
	for _, l := range lists {
		fn := map[string]string{}
		for f := range l.files {
			fn[fmt.Sprintf("f/%04d", f)] = hashes[f]
		}
		if l.entries == nil {
			l.entries = [][]interface{}{}
		}
		b, err := json.Marshal(struct {
			V [][]interface{}   `json:"v"`
			N map[string]string `json:"n"`
		}{l.entries, fn})
		if err != nil {
			return nil, err
		}
		h, err := w.script("f", l.name, string(b))
		if err != nil {
			return nil, err
		}
		names[l.name] = h
	}
	return index, nil
}

// exportWriter writes chunk scripts: each file calls the global loader
// with its own key, so that <script src> works from file://.
type exportWriter struct {
	out FileWriter
	st  *ExportStats
	dir string
}

// script writes the chunk of key as <key>.<hash>.js, hash = nameHash of
// the file's bytes, and returns the hash.
func (w *exportWriter) script(kind, key, body string) (string, error) {
	data := "errdocsSearch.load(" + jsString(key) + "," + body + ");\n"
	h := nameHash([]byte(data))
	return h, w.write(kind, key+"."+h+".js", data)
}

// write writes one file under the export folder and counts it.
func (w *exportWriter) write(kind, name, text string) error {
	data := []byte(text)
	rel := w.dir + "/" + name
	if err := w.out.WriteFile(rel, data); err != nil {
		return err
	}
	w.st.Files++
	w.st.Bytes += int64(len(data))
	w.st.FilesByKind[kind]++
	w.st.BytesByKind[kind] += int64(len(data))
	if len(data) > w.st.MaxFileBytes {
		w.st.MaxFileBytes = len(data)
		w.st.MaxFile = rel
	}
	return nil
}

// nameHash is the hash part of a file name: the first 8 hex digits of the
// SHA-256 of the file's bytes.
func nameHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:4])
}

// cdcCut decides a content-defined file boundary after an item (a term's
// postings, a prefix list, a dictionary term, a filter value) of n bytes
// that left the current file at cur bytes, for files of about target
// bytes: a file ends after an item with probability n/(target/2) (from a
// hash of the item's identity, not of its bytes) once it holds 3/4 target
// bytes, so files average about target. The decision depends on the item
// and on nothing before the file, so a change moves no boundary but,
// rarely, one next to it. (Files are also ended at 2×target.)
func cdcCut(item string, n, cur, target int) bool {
	// Normalized chunking (as FastCDC): no boundary below 5/8 target, a
	// rare one up to 9/8 target, a likely one beyond, so sizes stay close
	// to the target (a query's files are then no larger than before).
	var gap int
	switch {
	case cur < target*5/8:
		return false
	case cur < target*9/8:
		gap = target
	default:
		gap = target / 8
	}
	gap = max(gap, 1)
	if n >= gap {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(item))
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return (x>>32)*uint64(gap) < uint64(n)<<32
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// splitHead returns the n postings of largest impact (sqrt(freq)·norm, ties
// by smaller doc) and the others, both in doc order.
func splitHead(posts []posting, n int) (head, rest []posting) {
	idx := make([]int, len(posts))
	imp := make([]float64, len(posts))
	for i, p := range posts {
		idx[i] = i
		imp[i] = math.Sqrt(float64(p.freq)) * float64(p.norm)
	}
	sort.Slice(idx, func(a, b int) bool {
		if imp[idx[a]] != imp[idx[b]] {
			return imp[idx[a]] > imp[idx[b]]
		}
		return idx[a] < idx[b]
	})
	in := make([]bool, len(posts))
	for _, i := range idx[:n] {
		in[i] = true
	}
	head = make([]posting, 0, n)
	rest = make([]posting, 0, len(posts)-n)
	for i, p := range posts {
		if in[i] {
			head = append(head, p)
		} else {
			rest = append(rest, p)
		}
	}
	return head, rest
}

// encodeBlock writes postings in doc order (gaps from the first doc, then
// tf codes) and returns the posting of largest impact.
func encodeBlock(blk []posting, st *ExportStats) (cvWriter, posting) {
	var enc cvWriter
	prev := blk[0].doc
	best := 0
	bestImp := -1.0
	for k, p := range blk {
		enc.put(uint64(p.doc - prev))
		prev = p.doc
		if !enc.putTF(uint64(p.freq), float64(p.norm)) {
			st.NormFallbacks++
		}
		imp := math.Sqrt(float64(p.freq)) * float64(p.norm)
		if imp > bestImp {
			bestImp, best = imp, k
		}
	}
	return enc, blk[best]
}

// trimSnippet cuts s to at most n runes at a word boundary, with an ellipsis.
func trimSnippet(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	cut := len(r)
	for i := len(r) - 1; i > n*2/3; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " ,.;:") + "…"
}
